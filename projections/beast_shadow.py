"""A Beast viewer's replay of its own redacted log: the *shadow*, the rules state as that
viewer can rebuild it (for `projections.beast_knowledge`).

The log is replayed into a *shadow*: the rules state as the viewer can rebuild it. Every
card the viewer could not see is a token ("?1", "?2", ...) of a known kind, moved by the
same reducer as the real card, so the shadow knows how many unseen cards each hidden
place holds and which seen cards lie there (a first game's starting hands, a talent the
Beast took from the open row, the known cards of a reshuffled discard). A seen card
that may have left a hidden place unseen (a pick from a pack the viewer saw, a face-down
discard from a hand that also holds known cards) is let go: it becomes a token again, so
the model never claims more than the viewer knows. The Beast's hidden path is deduced
by `projections.beast_paths` on the same shadow; a trap's habitat excludes every
habitat of a location where the Beast was revealed in its zone without setting it off.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from skald.core.beast.data import (
    HABITATS,
    card_index,
    cards,
    characters,
    is_trap_item,
    kind_of,
    pieces,
    side_of,
)
from skald.core.beast.evolve import evolve
from skald.core.beast.legal import PACK_SIZES
from skald.core.beast.state import BEAST, BeastState
from skald.events.beast import (
    BeastMoved,
    BeastRestored,
    BeastRevealed,
    CardAssigned,
    CardDiscarded,
    CardDiscardedFaceDown,
    CardDrafted,
    CardGained,
    CardPlayed,
    CardResolved,
    CardSetAside,
    Damaged,
    DeckShuffled,
    EffectProgressed,
    HandDealt,
    HunterLooted,
    HunterMoved,
    HunterPlaced,
    Killed,
    PackDealt,
    PacksPassed,
    RowDealt,
    Step,
    TrailsPlaced,
    TrapCard,
    TrapSet,
    TrapTriggered,
    WatchtowerPlaced,
)
from skald.events.common import DecisionRedone, DecisionUndone, GameCreated, MoveMade
from skald.events.secret import Secret
from skald.events.viewer import Viewer
from skald.projections.beast_clues import CLUES
from skald.projections.beast_paths import Entry

replace = msgspec.structs.replace
TRAP_CHAIN = (TrapTriggered, Damaged, Killed, BeastRestored)


def is_token(name: str) -> bool:
    """An unseen card or habitat in the shadow."""
    return name.startswith("?")


def _event_of(item: Any) -> Any:
    return getattr(item, "event", item)


class _Snapshot(msgspec.Struct, frozen=True):
    shadow: BeastState
    previous: Any
    kinds: dict[str, str]
    excluded: dict[str, frozenset[str]]


class Reader:
    """The viewer's replay of its redacted log: the shadow, its tokens and, for a viewer
    who does not see the Beast, the timeline its path filter reads."""

    def __init__(self, viewer: Viewer) -> None:
        self.viewer = viewer
        self.shadow = BeastState(players=0)
        self.timeline: list[Entry] = []
        self.kinds: dict[str, str] = {}
        self.excluded: dict[str, frozenset[str]] = {}
        self.issued = 0
        self.previous: Any = None
        self.revealed = ""  # a reveal whose traps are still being set off
        self.undo: list[_Snapshot] = []
        self.redo: list[tuple[_Snapshot, _Snapshot]] = []

    # -- who sees what -----------------------------------------------------------------

    def sees(self, secret: Secret[Any] | None) -> bool:
        """The viewer may read this hidden value."""
        return secret is None or self.viewer.sees(secret.audience)

    @property
    def beast_eyes(self) -> bool:
        """The viewer sees the Beast's side."""
        state = self.shadow
        return bool(state.hands) and self.viewer.sees(frozenset({state.beast.seat}))

    @property
    def hunter_eyes(self) -> bool:
        """The viewer sees the hunters' side."""
        return bool(self.shadow.hands) and self.viewer.sees(self.shadow.hunter_seats)

    def token(self, kind: str) -> str:
        """A fresh unseen card of `kind`."""
        self.issued += 1
        name = f"?{self.issued}"
        self.kinds[name] = kind
        return name

    def let_go(
        self, held: tuple[str, ...], keep: Callable[[str], bool] = lambda _: False
    ) -> tuple[str, ...]:
        """`held` with its seen cards turned back into tokens (except those `keep` keeps)."""
        return tuple(c if is_token(c) or keep(c) else self.token(kind_of(c)) for c in held)

    # -- reading -----------------------------------------------------------------------

    def read(self, log: Iterable[Any]) -> Reader:
        """Replay every envelope (or bare event) of the log."""
        for item in log:
            self.apply(_event_of(item))
        return self

    def apply(self, event: Any) -> None:
        """One event of the viewer's log."""
        match event:
            case GameCreated():
                self.shadow = BeastState(players=len(event.players), options=event.options)
            case MoveMade():
                self.undo.append(self.snapshot())
                self.redo.clear()
                self.timeline.append(Entry("mark"))
            case DecisionUndone() if self.undo:
                before = self.undo.pop()
                self.redo.append((before, self.snapshot()))
                self.restore(before)
                self.timeline.append(Entry("undo"))
            case DecisionRedone() if self.redo:
                before, after = self.redo.pop()
                self.restore(after)
                self.undo.append(before)
                self.timeline.append(Entry("redo"))
            case _ if type(event).__module__.endswith("events.beast"):
                self.rules_event(event)

    def snapshot(self) -> _Snapshot:
        """Everything the replay holds, for undo."""
        return _Snapshot(self.shadow, self.previous, dict(self.kinds), dict(self.excluded))

    def restore(self, snap: _Snapshot) -> None:
        """Back to a snapshot."""
        self.shadow, self.previous = snap.shadow, snap.previous
        self.kinds, self.excluded = dict(snap.kinds), dict(snap.excluded)

    def rules_event(self, event: Any) -> None:
        """A Beast event: observe the path, fill the unseen values, fold it."""
        if self.revealed and not isinstance(event, TRAP_CHAIN):
            self.settle_traps()
        before = self.shadow
        self.shadow = self.fold(before, event)
        if not self.beast_eyes:
            self.record(before, event)
        self.previous = event

    def settle_traps(self) -> None:
        """After a reveal and the traps it set off, no trap left in the Beast's zones
        matches its location: their habitats are none of its habitats."""
        state, where = self.shadow, self.revealed
        self.revealed = ""
        if state.winner:  # the chain stopped at a death: untouched traps tell nothing
            return
        here = frozenset(h for h in HABITATS if state.is_habitat(where, h))
        for zone, trap in state.traps:
            if where in state.board.zones[zone] and is_token(trap.habitat):
                self.excluded[trap.habitat] = self.excluded.get(trap.habitat, frozenset()) | here

    # -- the timeline the path filter reads (viewers who do not see the Beast) ---------

    def record(self, before: BeastState, event: Any) -> None:
        """A rules event the path filter reads (a clue, or one that changes the Beast's
        cards in play) on the timeline, with the rule behind a trail check."""
        after = self.shadow
        if not (
            type(event) in CLUES
            or (after.hands and not before.hands)
            or _beast_frames(before) != _beast_frames(after)
            or (isinstance(event, EffectProgressed) and _beast_frames(before))
        ):
            return
        rule, where, reach = "", "", None
        if isinstance(event, TrailsPlaced):
            rule, where, reach = self.check_rule(before)
        self.timeline.append(Entry("event", before, event, self.shadow, rule, where, reach))

    def check_rule(self, before: BeastState) -> tuple[str, str, frozenset[str] | None]:
        """Which rule placed the trails now (from the event before them) and every
        location it could have looked at (None: not known, anywhere)."""
        previous = self.previous
        towers = _towers_near(before)
        if isinstance(previous, HunterMoved):
            return "hunter", previous.location, towers | {previous.location}
        if isinstance(previous, WatchtowerPlaced | HunterPlaced):
            return "tower", "", towers
        if (
            isinstance(previous, EffectProgressed)
            and before.frames
            and before.frames[-1].hand == BEAST
        ):
            return "beast", "", towers | _occupied(before)
        return "", "", None

    # -- folding with the unseen values filled in --------------------------------------

    def fold(self, state: BeastState, event: Any) -> BeastState:
        """The shadow after one event."""
        handler = _FOLDS.get(type(event))
        if handler is not None:
            folded = handler(self, state, event)
            if folded is not None:
                return folded
        return evolve(state, event)

    def known(self, value: Any) -> Secret[Any]:
        """A Secret carrying a filled-in value (the reducer reads it)."""
        return Secret(audience=frozenset(), commitment="", value=value, salt="")

    def filled(self, event: Any, **values: Any) -> Any:
        """`event` with its unseen Secrets carrying `values`."""
        return replace(event, **{k: self.known(v) for k, v in values.items()})


# -- the folds that need the unseen values (one per event type) ------------------------


def _hand_field(state: BeastState, hand: int, field: str, held: tuple[str, ...]) -> BeastState:
    hands = list(state.hands)
    hands[hand] = replace(hands[hand], **{field: held})
    return replace(state, hands=tuple(hands))


def _first_token(held: tuple[str, ...]) -> str:
    return next(c for c in held if is_token(c))


def _taken(reader: Reader, state: BeastState, hand: int, field: str) -> tuple[BeastState, str]:
    """An unseen card leaves a hidden hand: a token of it (its seen cards are let go)."""
    held: tuple[str, ...] = getattr(state.hands[hand], field)
    if not any(is_token(c) for c in held):
        held = reader.let_go(held)
        state = _hand_field(state, hand, field, held)
    return state, _first_token(held)


def _expose(state: BeastState, hand: int, name: str) -> BeastState:
    """A seen card comes out of a hand the viewer cannot see: it was one of its tokens."""
    if name not in card_index() or kind_of(name) == "ability":
        return state
    field = "actions" if kind_of(name) == "action" else "extras"
    return _hand_field(state, hand, field, _swap_in(getattr(state.hands[hand], field), name))


def _deck_shuffled(reader: Reader, state: BeastState, event: DeckShuffled) -> BeastState | None:
    if reader.sees(event.order):
        return None
    deck = event.deck
    if deck == "action":
        every = len(cards().action)
        if state.first_time and state.day == 0:
            setup = characters().first_time["large" if state.players == 4 else "small"]
            every -= sum(len(h) for h in setup.cards)
        order = tuple(reader.token("action") for _ in range(every))
    else:
        discards: tuple[str, ...] = getattr(state, f"{deck}_discard")
        group = getattr(cards(), deck)
        order = discards or tuple(reader.token(deck) for _ in group)
    return evolve(state, reader.filled(event, order=order))


def _remove_from_deck(state: BeastState, deck: str, names: tuple[str, ...]) -> BeastState:
    pile = list(getattr(state, f"{deck}_deck"))
    for name in names:
        if name in pile:
            pile.remove(name)
        elif any(is_token(c) for c in pile):
            pile.remove(_first_token(tuple(pile)))
    return replace(state, **{f"{deck}_deck": tuple(pile)})


def _row_dealt(reader: Reader, state: BeastState, event: RowDealt) -> BeastState:
    trimmed = _remove_from_deck(state, event.deck, event.cards)
    row = (*getattr(state, f"{event.deck}_row"), *event.cards)
    return replace(trimmed, **{f"{event.deck}_row": row})


def _pack_dealt(reader: Reader, state: BeastState, event: PackDealt) -> BeastState | None:
    if reader.sees(event.pack):
        return None
    pack = state.action_deck[: PACK_SIZES[state.players]]
    return evolve(state, reader.filled(event, pack=pack))


def _card_set_aside(reader: Reader, state: BeastState, event: CardSetAside) -> BeastState | None:
    if reader.sees(event.card):
        return None
    return evolve(state, reader.filled(event, card=state.action_deck[0]))


def _beast_frames(state: BeastState) -> int:
    return sum(1 for f in state.frames if f.hand == BEAST)


def _towers_near(state: BeastState) -> frozenset[str]:
    """The locations near a manned watchtower (their trails show)."""
    board = state.board
    return frozenset(loc for t in state.towers if state.hunters_at(t) for loc in board.nearby(t))


def _occupied(state: BeastState) -> frozenset[str]:
    """The locations with a hunter or a living settler on them."""
    hunters = {state.hands[h].location for h in state.hunters if not state.hands[h].dead}
    settlers = {p.location for p in state.pieces if p.alive and pieces()[p.kind].settler}
    return frozenset(hunters | settlers)


def _swap_in(held: tuple[str, ...], name: str) -> tuple[str, ...]:
    """A seen card leaves a place the viewer cannot see into: it was one of its tokens."""
    if name in held or not any(is_token(c) for c in held):
        return held
    index = held.index(_first_token(held))
    return (*held[:index], name, *held[index + 1 :])


def _card_drafted(reader: Reader, state: BeastState, event: CardDrafted) -> BeastState | None:
    pack = state.packs[event.seat]
    if reader.sees(event.card):
        packs = list(state.packs)
        packs[event.seat] = _swap_in(pack, event.card.get())
        return evolve(replace(state, packs=tuple(packs)), event)
    if not any(is_token(c) for c in pack):
        pack = reader.let_go(pack)
        packs = list(state.packs)
        packs[event.seat] = pack
        state = replace(state, packs=tuple(packs))
    return evolve(state, reader.filled(event, card=_first_token(pack)))


def _card_assigned(reader: Reader, state: BeastState, event: CardAssigned) -> BeastState | None:
    if reader.sees(event.card):
        return None
    pool = state.pool if any(is_token(c) for c in state.pool) else reader.let_go(state.pool)
    return evolve(replace(state, pool=pool), reader.filled(event, card=_first_token(pool)))


def _packs_passed(reader: Reader, state: BeastState, event: PacksPassed) -> BeastState:
    n = state.players
    packs = tuple(
        secret.get() if reader.sees(secret) else state.packs[(seat - 1) % n]
        for seat, secret in enumerate(event.packs)
    )
    return replace(state, packs=packs, picks=_picks(state, packs))


def _picks(state: BeastState, packs: tuple[tuple[str, ...], ...]) -> tuple[int, ...]:
    from skald.core.beast.evolve import per_pass

    return tuple(min(per_pass(state, seat), len(pack)) for seat, pack in enumerate(packs))


def _hand_dealt(reader: Reader, state: BeastState, event: HandDealt) -> BeastState | None:
    if reader.sees(event.cards):
        return None
    if event.hand == BEAST and state.aside:
        dealt: tuple[str, ...] = (state.aside,)
    else:  # a first game's starting cards are the rulebook's, known to all
        setup = characters().first_time["large" if state.players == 4 else "small"]
        dealt = setup.cards[event.hand]
    return evolve(state, reader.filled(event, cards=dealt))


def _card_played(reader: Reader, state: BeastState, event: CardPlayed) -> BeastState | None:
    if event.hidden is None or reader.sees(event.hidden):
        if event.card and not reader.viewer.sees(state.team(event.hand)):
            state = _expose(state, event.hand, event.card)
        return evolve(state, event)
    # a hunter's trap, played face down: one of its unseen items (a seen trap is let go)
    extras = state.hands[event.hand].extras
    if not any(is_token(c) for c in extras):
        extras = reader.let_go(extras)
    else:
        extras = reader.let_go(extras, keep=lambda c: not is_trap_item(c))
    token = _first_token(extras)
    reader.kinds[token] = "trap"
    stand_in = next(c.name for c in cards().item if is_trap_item(c.name))
    index = extras.index(token)
    state = _hand_field(
        state, event.hand, "extras", (*extras[:index], stand_in, *extras[index + 1 :])
    )
    state = evolve(state, reader.filled(event, hidden=stand_in))
    top = replace(state.frames[-1], card=token)
    return replace(state, frames=(*state.frames[:-1], top))


def _card_resolved(reader: Reader, state: BeastState, event: CardResolved) -> BeastState | None:
    card = state.frames[-1].card if state.frames else ""
    if not is_token(card):
        return None
    state = replace(state, frames=state.frames[:-1])
    if any(trap.card == card for _, trap in state.traps):
        return state
    return replace(state, item_discard=(*state.item_discard, card))


def _card_discarded(reader: Reader, state: BeastState, event: CardDiscarded) -> BeastState:
    if not reader.viewer.sees(state.team(event.hand)):
        state = _expose(state, event.hand, event.card)
    return evolve(state, event)


def _discarded_face_down(
    reader: Reader, state: BeastState, event: CardDiscardedFaceDown
) -> BeastState | None:
    if reader.sees(event.card):
        return None
    state, token = _taken(reader, state, event.hand, "extras")
    extras = list(state.hands[event.hand].extras)
    extras.remove(token)
    state = _hand_field(state, event.hand, "extras", tuple(extras))
    pile = "talent_discard" if event.hand == BEAST else "item_discard"
    return replace(state, **{pile: (*getattr(state, pile), token)})


def _hunter_looted(reader: Reader, state: BeastState, event: HunterLooted) -> BeastState:
    if reader.sees(event.card):
        if not reader.viewer.sees(state.team(event.hand)):
            state = _expose(state, event.hand, event.card.get())
        return evolve(state, event)
    state, token = _taken(reader, state, event.hand, "actions")
    return evolve(state, reader.filled(event, card=token))


def _card_gained(reader: Reader, state: BeastState, event: CardGained) -> BeastState:
    deck = event.deck
    if reader.sees(event.card):
        if event.from_row:
            return evolve(state, event)
        name = event.card.get()
        trimmed = _remove_from_deck(state, deck, (name,))
        held = state.hands[event.hand]
        field = "actions" if deck == "action" else "extras"
        return _hand_field(trimmed, event.hand, field, (*getattr(held, field), name))
    if event.from_row:  # a spectator: which open card went is not in its log
        row = reader.let_go(getattr(state, f"{deck}_row"))
        state = replace(state, **{f"{deck}_row": row})
        return evolve(state, reader.filled(event, card=row[0]))
    pile: tuple[str, ...] = getattr(state, f"{deck}_deck")
    if not all(is_token(c) for c in pile):
        pile = reader.let_go(pile)
        state = replace(state, **{f"{deck}_deck": pile})
    return evolve(state, reader.filled(event, card=pile[0]))


def _trap_set(reader: Reader, state: BeastState, event: TrapSet) -> BeastState | None:
    if reader.sees(event.trap):
        return None
    habitat = reader.token("habitat")
    reader.excluded[habitat] = frozenset()
    trap = TrapCard(
        state.frames[-1].card,
        habitat,
        side_of(next(c.name for c in cards().item if is_trap_item(c.name)), False).effects[0].n,
    )
    return evolve(state, reader.filled(event, trap=trap))


def _trap_triggered(reader: Reader, state: BeastState, event: TrapTriggered) -> BeastState:
    for index, (zone, trap) in enumerate(state.traps):
        card_fits = trap.card == event.card or is_token(trap.card)
        habitat_fits = trap.habitat == event.habitat or (
            is_token(trap.habitat) and event.habitat not in reader.excluded.get(trap.habitat, ())
        )
        if zone == event.zone and card_fits and habitat_fits:
            shown = replace(trap, card=event.card, habitat=event.habitat)
            traps = (*state.traps[:index], (zone, shown), *state.traps[index + 1 :])
            state = replace(state, traps=traps)
            break
    return evolve(state, replace(event, index=None))


def _beast_moved(reader: Reader, state: BeastState, event: BeastMoved) -> BeastState | None:
    if reader.sees(event.card):
        return None
    return evolve(state, reader.filled(event, card=Step("X", state.beast.location)))


def _trails_placed(reader: Reader, state: BeastState, event: TrailsPlaced) -> BeastState | None:
    if reader.beast_eyes:
        return None
    count = len(state.trailed) + len(event.locations)
    return replace(state, trailed=tuple(range(count)))


def _beast_revealed(reader: Reader, state: BeastState, event: BeastRevealed) -> BeastState:
    state = evolve(state, event)
    beast = replace(state.beast, location=event.location)
    state = replace(state, hands=(beast, *state.hands[1:]))
    if not reader.hunter_eyes and event.cause != "game_end":  # traps are not set off then
        reader.revealed = event.location
    return state


_FOLDS: dict[type, Callable[[Reader, BeastState, Any], BeastState | None]] = {
    DeckShuffled: _deck_shuffled,
    RowDealt: _row_dealt,
    PackDealt: _pack_dealt,
    CardSetAside: _card_set_aside,
    CardDrafted: _card_drafted,
    CardAssigned: _card_assigned,
    PacksPassed: _packs_passed,
    HandDealt: _hand_dealt,
    CardPlayed: _card_played,
    CardResolved: _card_resolved,
    CardDiscarded: _card_discarded,
    CardDiscardedFaceDown: _discarded_face_down,
    HunterLooted: _hunter_looted,
    CardGained: _card_gained,
    TrapSet: _trap_set,
    TrapTriggered: _trap_triggered,
    BeastMoved: _beast_moved,
    TrailsPlaced: _trails_placed,
    BeastRevealed: _beast_revealed,
}
