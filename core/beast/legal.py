"""Who decides now and every legal command (rulebook "Phase 1: Dawn" (the draft),
"Phase 2: Day" (play cards, pass, flee), "Player starting positions", "Phase 3: Night"
(upgrades), "Reactions").

`decide` validates a command by membership in `legal_commands`, so the two cannot
disagree; during card resolution the commands come from `effects.effect_commands`. Hunter
commands never depend on the Beast's hidden state. A seat may pass only when no other
living hand holds fewer action cards (or when it can do nothing else).
"""

from __future__ import annotations

from typing import Any

from skald.core.beast.commands import (
    Assign,
    Decline,
    Done,
    Draft,
    End,
    Flee,
    Pass,
    Place,
    Play,
    React,
    Upgrade,
)
from skald.core.beast.data import beast_mat, hunter_mat, kind_of, side_of
from skald.core.beast.effects import effect_commands
from skald.core.beast.evolve import FLEE_MOVE
from skald.core.beast.mechanics import destinations
from skald.core.beast.state import BEAST, BeastState, Frame
from skald.core.beast.supply import upgrades_left

PACK_SIZES = {2: 6, 3: 4, 4: 3}


def acting_hand(state: BeastState) -> int | None:
    """The hand whose decision the game waits for (None during the draft, at the end, or
    on a dead hunter's turn before it has played a card: nobody decides that)."""
    if state.winner or dead_turn(state):
        return None
    if state.window:
        return state.reactors[0] if state.reactors else BEAST
    if state.frames:
        return state.frames[-1].hand
    if state.phase in ("place", "respawn", "upgrade") and state.queue:
        return state.queue[0]
    if state.phase == "day":
        return state.turn
    return None


def dead_turn(state: BeastState) -> bool:
    """It is a dead hunter's turn and it has played nothing: the turn ends at once (passed,
    in the decision that handed it the turn: core/beast/flow.py), so nobody is to act in
    the state between the two events (a dead hand has no location to flee from)."""
    return (
        state.phase == "day"
        and not state.window
        and not state.frames
        and 0 <= state.turn < len(state.hands)
        and state.hands[state.turn].dead
        and not state.slots
    )


def to_act(state: BeastState) -> frozenset[int]:
    """The seats that may decide now."""
    hand = acting_hand(state)
    if hand is not None:
        return frozenset({state.hands[hand].seat})
    if state.phase == "draft" and not state.winner:
        if assigning(state):
            return frozenset({state.hands[state.hunters[0]].seat})
        return frozenset(seat for seat, left in enumerate(state.picks) if left > 0)
    return frozenset()


def legal_commands(state: BeastState, seat: int) -> list[Any]:
    """Every command `seat` may make now."""
    if seat not in to_act(state):
        return []
    if state.phase == "draft" and acting_hand(state) is None:
        return _draft_commands(state, seat)
    hand = acting_hand(state)
    assert hand is not None
    if state.window:
        return _reaction_commands(state, hand)
    if state.frames:
        return effect_commands(state)
    if state.phase in ("place", "respawn"):
        return [Place(loc) for loc in state.return_places()]
    if state.phase == "upgrade":
        return _upgrade_commands(state, hand)
    return _turn_commands(state, hand)


# -- draft -----------------------------------------------------------------------------


def hunter_quota(state: BeastState) -> int:
    """2 players: how many drafted cards each of the two hunters receives."""
    sizes = [PACK_SIZES[2]] * 2
    kept = [0, 0]
    while any(sizes):
        for seat in (0, 1):
            take = min(2 if seat else 1, sizes[seat])
            kept[seat] += take
            sizes[seat] -= take
        sizes = [sizes[1], sizes[0]]
    return kept[1] // 2


def assigning(state: BeastState) -> bool:
    """Two players, after the draft: the hunter player still has picks to assign."""
    return bool(state.pool) and not any(state.picks) and not any(state.packs)


def _draft_commands(state: BeastState, seat: int) -> list[Any]:
    if assigning(state):
        quota = hunter_quota(state)
        return [
            Assign(card, state.hands[h].character)
            for card in dict.fromkeys(state.pool)
            for h in state.hunters
            if len(state.hands[h].actions) < quota
        ]
    return [Draft(card) for card in dict.fromkeys(state.packs[seat])]


# -- day -------------------------------------------------------------------------------


def slot_of(card: str) -> str:
    """The symbol a card is played with: ability cards use the ability slot."""
    return "ability" if kind_of(card) == "ability" else "any"


def _playable(state: BeastState, hand: int, card: str) -> bool:
    side = side_of(card, hand == BEAST)
    held = state.hands[hand]
    if side.react or slot_of(card) in state.slots or side.cost > held.grudges:
        return False
    return not side.needs or state.is_habitat(held.location, side.needs)


def _turn_commands(state: BeastState, hand: int) -> list[Any]:
    held = state.hands[hand]
    every = dict.fromkeys((*held.actions, *held.abilities, *held.extras))
    plays: list[Any] = [Play(card) for card in every if _playable(state, hand, card)]
    if state.slots:
        return [*plays, End()]
    flee_frame = Frame(
        hand=hand, card="", slot="flee", effects=FLEE_MOVE, mode="seq", pending=(0,), zones=()
    )
    flees: list[Any] = (
        [Flee(card) for card in every] if destinations(state, hand, flee_frame) else []
    )
    mine = len(held.actions)
    fewer = any(
        len(state.hands[h].actions) < mine
        for h in range(len(state.hands))
        if h != hand and not state.hands[h].dead
    )
    passes: list[Any] = [Pass()] if not fewer or not (plays or flees) else []
    return [*plays, *flees, *passes]


def _reaction_commands(state: BeastState, hand: int) -> list[Any]:
    """The reactions `hand` holds for the open window (its own cards only), or decline."""
    held = state.hands[hand]
    beast = hand == BEAST
    return [
        *(
            React(card)
            for card in dict.fromkeys(held.extras)
            if side_of(card, beast).react in state.window.split()
            and side_of(card, beast).cost <= held.grudges
        ),
        Decline(),
    ]


def _upgrade_commands(state: BeastState, hand: int) -> list[Any]:
    held = state.hands[hand]
    mat = beast_mat(held.character) if hand == BEAST else hunter_mat(held.character)
    if upgrades_left(state) <= 0:
        return [Done()]
    return [
        *(
            Upgrade(u.name)
            for u in mat.upgrades
            if u.name not in held.upgrades and u.cost <= held.grudges
        ),
        Done(),
    ]
