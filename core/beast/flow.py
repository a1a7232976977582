"""The round structure: start, placement, dawn (draft), day (turns, pass, flee), night.

`run_phase` turns a validated command outside card resolution into events (`legal`
enumerates them); `settle` advances everything that needs no decision (a resolved card,
an ended turn, the night's rewards and reset, the next dawn's shuffle and deal).
Rulebook sections: Setup, Player starting positions, Phase 1: Dawn, Phase 2: Day,
Phase 3: Night, Player Death, Reactions.
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
from skald.core.beast.data import (
    FACE_DOWN,
    Effect,
    cards,
    characters,
    is_trap_item,
    kind_of,
    side_of,
)
from skald.core.beast.effects import open_window, reshuffle
from skald.core.beast.legal import PACK_SIZES, acting_hand, dead_turn, slot_of
from skald.core.beast.mechanics import tower_trails, trails_event
from skald.core.beast.state import BEAST, BeastState, Tx
from skald.core.beast.supply import gain_grudges, powers_left
from skald.events.beast import (
    BeastRevealed,
    CardAssigned,
    CardDiscarded,
    CardDiscardedFaceDown,
    CardDrafted,
    CardPlayed,
    CardResolved,
    CardSetAside,
    DayBegan,
    DeckShuffled,
    GrudgesGained,
    HandDealt,
    Healed,
    HunterPlaced,
    NightFell,
    NightReset,
    PackDealt,
    PacksPassed,
    PowersGained,
    ReactionDeclined,
    ReactionWindowClosed,
    RewardEarned,
    RowDealt,
    TurnEnded,
    Upgraded,
    UpgradesDone,
)

ROW = 3


def draft_hand(state: BeastState, seat: int) -> int:
    """The hand a drafted card goes to (two players: the hunter's first hand, as a pick
    that is assigned after the draft)."""
    if seat == state.beast.seat:
        return BEAST
    return next(h for h in state.hunters if state.hands[h].seat == seat)


def pooled(state: BeastState, seat: int) -> bool:
    """Two players: the hunter player keeps its picks to assign them after the draft
    (rulebook "2 player draft": "After the draft, the hunter assigns all the action cards
    evenly between the two hunter characters")."""
    return (
        seat != state.beast.seat
        and sum(1 for h in state.hunters if state.hands[h].seat == seat) > 1
    )


def run_phase(tx: Tx, seat: int, command: Any) -> None:
    """Turn a validated non-effect command into events."""
    state = tx.state
    hand = acting_hand(state)
    match command:
        case Draft(card=card):
            target = draft_hand(state, seat)
            tx.emit(
                CardDrafted(
                    seat=seat,
                    hand=target,
                    card=tx.seal(card, state.team(target)),
                    pooled=pooled(state, seat),
                )
            )
        case Assign(card=card, hunter=hunter):
            assigned = state.hand_named(hunter)
            assert assigned is not None
            tx.emit(CardAssigned(hand=assigned, card=tx.seal(card, state.team(assigned))))
        case Place(location=location):
            assert hand is not None
            tx.emit(HunterPlaced(hand=hand, location=location))
            # Rulebook "Watchtowers": "As long as a hunter is standing in the same location
            # as a watchtower, any trails from nearby locations are placed on the map."
            if location in tx.state.towers and tx.state.hidden:
                tx.emit(trails_event(tx.state, tower_trails(tx.state)))
        case React(card=card):
            assert hand is not None
            _pay(tx, hand, card)
            tx.emit(CardPlayed(hand=hand, card=card, slot="reaction", revealed=shows(card)))
        case Decline() if hand == BEAST:
            tx.emit(ReactionWindowClosed())
        case Decline():
            assert hand is not None
            tx.emit(ReactionDeclined(hand=hand))
        case Play(card=card):
            assert hand is not None
            _play(tx, hand, card)
        case Flee(card=card):
            assert hand is not None
            if kind_of(card) in FACE_DOWN:
                tx.emit(CardDiscardedFaceDown(hand=hand, card=tx.seal(card, state.team(hand))))
            else:
                tx.emit(CardDiscarded(hand=hand, card=card, revealed=shows(card)))
            tx.emit(CardPlayed(hand=hand, card="", slot="flee"))
        case Pass():
            assert hand is not None
            tx.emit(TurnEnded(hand=hand, passed=True))
        case End():
            assert hand is not None
            tx.emit(TurnEnded(hand=hand, passed=False))
        case Upgrade(name=name):
            assert hand is not None
            tx.emit(Upgraded(hand=hand, upgrade=name))
        case Done():
            assert hand is not None
            tx.emit(UpgradesDone(hand=hand))


def _pay(tx: Tx, hand: int, card: str) -> None:
    cost = side_of(card, hand == BEAST).cost
    if cost:
        tx.emit(GrudgesGained(hand=hand, amount=-cost))


def shows(card: str) -> bool:
    """Playing or discarding `card` face up shows the other side something new: every card
    but an ability (abilities lie open on the mat) comes out of a hand it cannot see. Such
    an event is an undo barrier (DESIGN.md: a tile or card played out of a hidden hand)."""
    return kind_of(card) != "ability"


def _play(tx: Tx, hand: int, card: str) -> None:
    state = tx.state
    _pay(tx, hand, card)
    if is_trap_item(card):
        tx.emit(
            CardPlayed(
                hand=hand,
                card="trap",
                slot="any",
                hidden=tx.seal(card, state.hunter_seats),
                revealed=True,
            )
        )
    else:
        tx.emit(CardPlayed(hand=hand, card=card, slot=slot_of(card), revealed=shows(card)))
    open_window(tx, hand, card)


# -- what happens by itself ------------------------------------------------------------


def settle(tx: Tx) -> None:
    """Advance through everything that needs no decision; at the end, show the cards."""
    while not tx.state.winner and _advance(tx):
        pass
    if tx.state.winner and tx.state.active:
        state = tx.state
        tx.emit(BeastRevealed(cards=state.active, location=state.beast.location, cause="game_end"))


def _advance(tx: Tx) -> bool:
    state = tx.state
    if state.window:
        return False
    if state.frames:
        frame = state.frames[-1]
        if frame.current >= 0 or frame.pending:
            return False
        # A trap item stays face down: its name must not reach the Beast here either.
        tx.emit(CardResolved(card="trap" if is_trap_item(frame.card) else frame.card))
        if frame.slot == "flee":
            tx.emit(TurnEnded(hand=frame.hand, passed=False))
        return True
    if state.phase == "day":
        if state.passes >= len(state.hands):
            _night(tx)
            return True
        if len(state.slots) >= 2:
            tx.emit(TurnEnded(hand=state.turn, passed=False))
            return True
        if dead_turn(state):
            tx.emit(TurnEnded(hand=state.turn, passed=True))
            return True
        return False
    if state.phase == "dawn":
        _dawn(tx)
        return True
    if state.phase == "draft" and not any(state.picks):
        if any(state.packs):
            n = state.players
            packs = tuple(state.packs[(seat - 1) % n] for seat in range(n))
            tx.emit(
                PacksPassed(
                    packs=tuple(tx.seal(p, frozenset({seat})) for seat, p in enumerate(packs))
                )
            )
        elif state.pool:
            return False  # the hunter player assigns its picks (legal: `assign`)
        else:
            if state.aside:
                tx.emit(
                    HandDealt(
                        hand=BEAST, cards=tx.seal((state.aside,), frozenset({state.beast.seat}))
                    )
                )
            tx.emit(DayBegan(day=state.day + 1))
        return True
    return False


def _dawn(tx: Tx) -> None:
    state = tx.state
    every = tuple(card.name for card in cards().action)
    nobody: frozenset[int] = frozenset()
    if state.first_time and state.day == 0:
        setup = characters().first_time["large" if state.players == 4 else "small"]
        dealt = [c for hand in setup.cards for c in hand]
        rest = tx.shuffle([c for c in every if c not in dealt])
        tx.emit(DeckShuffled(deck="action", order=tx.seal(rest, nobody)))
        for hand, hand_cards in enumerate(setup.cards[: len(state.hands)]):
            tx.emit(HandDealt(hand=hand, cards=tx.seal(hand_cards, state.team(hand))))
        tx.emit(DayBegan(day=1))
        return
    order = tx.shuffle(every)
    tx.emit(DeckShuffled(deck="action", order=tx.seal(order, nobody)))
    if state.players == 4:
        tx.emit(CardSetAside(card=tx.seal(order[0], frozenset({state.beast.seat}))))
    for seat in range(state.players):
        pack = tx.state.action_deck[: PACK_SIZES[state.players]]
        tx.emit(PackDealt(seat=seat, pack=tx.seal(pack, frozenset({seat}))))


def _night(tx: Tx) -> None:
    state = tx.state
    tx.emit(NightFell(night=state.day))
    if tx.state.winner:
        return
    nights = state.terms.night
    if state.day - 1 < len(nights):
        night = nights[state.day - 1]
        if any(state.stat(name) >= least for name, least in night.beast):
            tx.emit(RewardEarned(side="beast", night=state.day))
            _reward(tx, (BEAST,), night.beast_reward)
        if any(state.stat(name) >= least for name, least in night.hunters):
            tx.emit(RewardEarned(side="hunters", night=state.day))
            living = tuple(h for h in state.hunters if not state.hands[h].dead)
            _reward(tx, living, night.hunter_reward)
    left = tuple(card for hand in tx.state.hands for card in hand.actions)
    tx.emit(NightReset(discarded=left))
    for deck in ("item", "talent"):
        pile: tuple[str, ...] = getattr(tx.state, f"{deck}_deck")
        tx.emit(RowDealt(deck=deck, cards=pile[:ROW]))
        short = ROW - len(pile[:ROW])
        if short:
            reshuffle(tx, deck)
            pile = getattr(tx.state, f"{deck}_deck")
            if pile:
                tx.emit(RowDealt(deck=deck, cards=pile[:short]))


def _reward(tx: Tx, hands: tuple[int, ...], rewards: tuple[Effect, ...]) -> None:
    for hand in hands:
        for reward in rewards:
            state = tx.state
            if reward.op == "grudge":
                gain_grudges(tx, hand, reward.n)
            elif reward.op == "power":
                amount = min(reward.n, powers_left(state))
                if amount > 0:
                    tx.emit(PowersGained(hand=hand, amount=amount))
            elif reward.op == "heal" and state.hands[hand].wounds:
                tx.emit(Healed(hand=hand, amount=min(reward.n, state.hands[hand].wounds)))
