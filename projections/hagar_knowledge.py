"""What a viewer can know of a game of Hägar: its information set, and worlds drawn from it.

Computed from the viewer's redacted log only (`possible`). The log is folded through the
game's own reducer (`core.hagar.evolve`, with the engine's undo and redo) over a state
whose loot pieces are *tokens*: each face-down place holds a token, and every token
belongs to one *group*, a set of tokens and the set of pieces they hold between them, in
an order nobody (outside the group's history) can tell. At the deal every stack place is
one token of one group holding all the loose loot; the chests at the camp are face up.

- A piece the viewer sees (its own plunder, a piece robbed from or by it, forced on it,
  picked up by it, every piece at the feast's reveal) leaves its group: that token is
  known. Only one group can hold the piece, and any of that group's tokens in the source
  could have been it, so this is exact.
- A piece the viewer does not see leaving a place (robbed, forced or jettisoned between
  other Vikings) is one of the tokens there: when they all belong to one group nothing
  changes (they were interchangeable already); when they come from several groups those
  groups are merged. That is the one over-approximation: after such a move `possible` may
  allow a little more than the log does (never less: the true world stays possible).
- The fate deck's order is never seen: it holds every card not face up elsewhere (drawn,
  discarded, an arrow in a Viking) in any order.

`sample` is uniform over the worlds `possible` describes: each group's pieces in a random
order over its tokens, the fate deck shuffled. The viewer's own pieces, the public part
and the counts stay as they are, so the viewer sees the same game and has the same moves.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import msgspec

from skald.core.hagar.board import board
from skald.core.hagar.data import cards, chests, pieces
from skald.core.hagar.evolve import evolve, pieces_in_reach
from skald.core.hagar.setup import initial
from skald.core.hagar.state import HagarState, Viking
from skald.core.snapshots import SnapshotCodec, codec_for
from skald.core.state import GameState, fold_event
from skald.events.common import GameCreated
from skald.events.envelope import Envelope
from skald.events.hagar import (
    ChestRobbed,
    CityPlundered,
    FateDrawn,
    FateShuffled,
    LootDealt,
    LootDropped,
    LootForced,
    LootJettisoned,
    LootRevealed,
    LootRobbed,
    RoadsideLootTaken,
)
from skald.events.secret import Secret
from skald.events.viewer import Viewer

TOKEN = 1 << 20
"""Token numbers start here (piece ids are small)."""
FIELDS = ("carried", "cargo", "home")
FIELD_WORDS = {"carried": "carried", "cargo": "on his ship", "home": "at home"}


class Spot(msgspec.Struct, frozen=True):
    """A place a piece lies: `stack` (key: city), `roadside` (space), `removed`, or a
    Viking's `carried`/`cargo`/`home` (key: the seat), and its index there."""

    place: str
    key: str
    index: int


class Group(msgspec.Struct, frozen=True, kw_only=True):
    """Pieces (ids) that lie in these spots between them, in any order."""

    spots: tuple[Spot, ...]
    pieces: tuple[int, ...]


class PieceCount(msgspec.Struct, frozen=True, kw_only=True):
    """Loot pieces of one name and value, and how many."""

    name: str
    value: int
    count: int


class PiecePossible(msgspec.Struct, frozen=True, kw_only=True):
    """One face-down piece of another Viking and the values it may have."""

    seat: int
    field: str
    slot: int
    where: str
    known: bool
    values: tuple[PieceCount, ...]


class FatePossible(msgspec.Struct, frozen=True, kw_only=True):
    """The fate deck: the cards in it (in any order, each order as likely)."""

    size: int
    cards: tuple[tuple[str, int], ...]
    ids: tuple[int, ...]
    orders: str = "any"


class HagarPossible(msgspec.Struct, frozen=True, kw_only=True):
    """Everything that could be true of what `viewer` cannot see."""

    game: str = "hagar"
    viewer: str
    pieces: tuple[PiecePossible, ...]
    fate: FatePossible
    groups: tuple[Group, ...]
    exact: bool


# -- folding the log over tokens -------------------------------------------------------


class StoredGroups(msgspec.Struct, frozen=True, array_like=True):
    """`_Groups` as data, for a fold kept in the store (projections/knowledge_store.py)."""

    of: dict[int, int]
    tokens: dict[int, set[int]]
    pieces: dict[int, set[int]]
    next_token: int
    next_group: int
    merged: bool


class StoredHagarFold(msgspec.Struct, frozen=True, array_like=True):
    """A `HagarFold` as data: its groups and its token state as the engine's snapshots
    store a state (core/snapshots.py)."""

    groups: StoredGroups
    state: bytes | None


class _Groups:
    """Token -> group, and each group's tokens and pieces (mutable while folding)."""

    def __init__(self) -> None:
        self.of: dict[int, int] = {}
        self.tokens: dict[int, set[int]] = {}
        self.pieces: dict[int, set[int]] = {}
        self.next_token = TOKEN
        self.next_group = 0
        self.merged = False

    def new(self, held: Sequence[int]) -> list[int]:
        """Fresh tokens for `held` pieces in one group (a piece each, order unknown)."""
        tokens = list(range(self.next_token, self.next_token + len(held)))
        self.next_token += len(held)
        group = self.next_group
        self.next_group += 1
        self.tokens[group], self.pieces[group] = set(tokens), set(held)
        self.of.update(dict.fromkeys(tokens, group))
        return tokens

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Groups) and self.stored() == other.stored()

    def stored(self) -> StoredGroups:
        """The groups as data (`HagarFold.stored`)."""
        return StoredGroups(
            self.of, self.tokens, self.pieces, self.next_token, self.next_group, self.merged
        )

    @classmethod
    def from_stored(cls, data: StoredGroups) -> _Groups:
        groups = cls()
        groups.of, groups.tokens, groups.pieces = dict(data.of), data.tokens, data.pieces
        groups.next_token, groups.next_group = data.next_token, data.next_group
        groups.merged = data.merged
        return groups

    def copy(self) -> _Groups:
        """An independent copy (the sets are copied, not shared)."""
        twin = _Groups()
        twin.of = dict(self.of)
        twin.tokens = {group: set(tokens) for group, tokens in self.tokens.items()}
        twin.pieces = {group: set(held) for group, held in self.pieces.items()}
        twin.next_token, twin.next_group, twin.merged = (
            self.next_token,
            self.next_group,
            self.merged,
        )
        return twin

    def known(self, piece: int) -> int:
        return self.new([piece])[0]

    def value(self, token: int) -> int | None:
        group = self.of[token]
        return next(iter(self.pieces[group])) if len(self.tokens[group]) == 1 else None

    def observe(self, token: int, piece: int) -> None:
        """The viewer saw `token` is `piece`: it leaves its group, known."""
        group = self.of[token]
        if self.pieces[group] == {piece} and self.tokens[group] == {token}:
            return
        self.tokens[group].discard(token)
        self.pieces[group].discard(piece)
        self.next_group += 1
        self.of[token] = self.next_group
        self.tokens[self.next_group], self.pieces[self.next_group] = {token}, {piece}

    def choose(self, reach: Sequence[int], piece: int | None) -> int:
        """The token that left `reach`: the one holding `piece` when the viewer saw it
        (any token of the one group that can hold it), else any, after merging the groups
        of `reach` when there are several."""
        if piece is not None:
            for token in reach:
                if self.value(token) == piece:
                    return token
            for token in reach:
                if piece in self.pieces[self.of[token]]:
                    self.observe(token, piece)
                    return token
            raise ValueError("the log moves a piece its source cannot hold")  # altered log
        groups = {self.of[token] for token in reach}
        if len(groups) > 1:
            self.merged = True
            into = min(groups)
            for group in groups - {into}:
                for token in self.tokens.pop(group):
                    self.of[token] = into
                    self.tokens[into].add(token)
                self.pieces[into] |= self.pieces.pop(group)
        return reach[-1]


def _top_taken(groups: _Groups, event: Any, token: int, piece: Secret[Any]) -> Any:
    """`event` taking the top piece of a pile (`token`): seen by the viewer or not."""
    seen = _seen(piece)
    if seen is not None:
        groups.observe(token, seen)
    return msgspec.structs.replace(event, piece=_secret(token))


def _secret(value: Any) -> Secret[Any]:
    return Secret(audience=frozenset(), commitment="", value=value, salt="")


def _seen(secret: Secret[Any]) -> Any:
    return secret.value if secret.known else None


class _TokenRules:
    """The Hägar reducer over tokens: each event rewritten to move tokens, then folded."""

    def __init__(self, groups: _Groups) -> None:
        self.groups = groups

    def initial(self, created: GameCreated) -> HagarState:
        state = initial(created)
        return msgspec.structs.replace(state, camp=tuple(self.groups.known(p) for p in state.camp))

    def evolve(self, state: HagarState, event: Any) -> HagarState:
        return evolve(*self.rewrite(state, event))

    def rewrite(self, state: HagarState, event: Any) -> tuple[HagarState, Any]:
        """The token state and the event to fold: the event's hidden pieces named by
        token, its groups updated for what the viewer saw (or could not see)."""
        if isinstance(event, FateDrawn) and event.card in state.deck:
            # Nobody saw the deck's order: the card drawn was on top of it.
            rest = tuple(c for c in state.deck if c != event.card)
            state = msgspec.structs.replace(state, deck=(event.card, *rest))
        return state, self._rewrite(state, event)

    def _rewrite(self, state: HagarState, event: Any) -> Any:  # noqa: C901 (a case per event)
        g, replace = self.groups, msgspec.structs.replace
        match event:
            case LootDealt(stacks=stacks):
                dealt = _seen(stacks)
                if dealt is not None:
                    tokens = tuple((c, tuple(g.known(p) for p in s)) for c, s in dealt)
                else:
                    loose = [p.id for p in pieces() if p.id not in chests()]
                    fresh = iter(g.new(loose))
                    counts = [(c, board().spaces[c].loot) for c in board().cities]
                    tokens = tuple((c, tuple(next(fresh) for _ in range(n))) for c, n in counts)
                return replace(event, stacks=_secret(tokens))
            case FateShuffled(deck=deck, reason=reason, returned=returned):
                order = _seen(deck)
                if order is None:
                    before = () if reason != "arrows" else state.deck
                    order = range(len(cards())) if reason == "setup" else (*before, *returned)
                return replace(event, deck=_secret(tuple(order)))
            case FateDrawn():
                return event  # `rewrite` puts the drawn card on top of the token deck
            case CityPlundered(city=city, piece=piece):
                return _top_taken(g, event, state.stack(city)[0], piece)
            case RoadsideLootTaken(space=space, piece=piece):
                return _top_taken(g, event, state.lying(space)[0], piece)
            case ChestRobbed(piece=piece):
                return replace(event, piece=next(t for t in state.camp if g.value(t) == piece))
            case LootDropped(seat=seat):
                return replace(event, pieces=_secret(state.vikings[seat].carried))
            case LootJettisoned(seat=seat, piece=piece, slot=slot):
                cargo = state.vikings[seat].cargo
                reach = cargo if slot is None else cargo[slot : slot + 1]
                token = g.choose(reach, _seen(piece))
                return replace(event, piece=_secret(token), slot=None)
            case (
                LootRobbed(victim=giver, at_sea=at_sea, piece=piece, slot=slot)
                | LootForced(seat=giver, at_sea=at_sea, piece=piece, slot=slot)
            ):
                reach = pieces_in_reach(state.vikings[giver], at_sea)
                reach = reach if slot is None else reach[slot : slot + 1]
                token = g.choose(reach, _seen(piece))
                return replace(event, piece=_secret(token), slot=None)
            case LootRevealed(holdings=holdings):
                for holding in holdings:
                    viking = state.vikings[holding.seat]
                    for field in FIELDS:
                        for token, seen in zip(
                            getattr(viking, field), getattr(holding, field), strict=False
                        ):
                            g.observe(token, seen)
                return event
        return event


class HagarFold:
    """The information set folded one redacted envelope at a time (`feed`), so a cache can
    keep it at a seq and go on from there (`copy`; `projections.knowledge_cache`): the
    token state of the engine's fold (with its undo and redo) and the groups."""

    def __init__(self) -> None:
        self._start(_Groups(), None)

    def _start(self, groups: _Groups, state: GameState | None) -> None:
        self.groups = groups
        self.state = state
        self.rules: Any = _TokenRules(groups)  # a Rules to `fold_event` (duck-typed)

    def feed(self, envelope: Envelope[Any]) -> None:
        """Fold the next envelope of the viewer's redacted log."""
        self.state = fold_event(
            self.rules, self.state, envelope.stream, envelope.seq, envelope.hash, envelope.event
        )

    Stored = StoredHagarFold

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, HagarFold)
            and self.groups == other.groups
            and self.state == other.state
        )

    def stored(self) -> StoredHagarFold:
        """The fold as data, to keep in the store (projections/knowledge_store.py)."""
        state = None if self.state is None else _state_codec().encode(self.state)
        return StoredHagarFold(self.groups.stored(), state)

    @classmethod
    def from_stored(cls, data: StoredHagarFold) -> HagarFold:
        """The fold back from `stored()`."""
        fold = cls()
        state = None if data.state is None else _state_codec().decode(data.state)
        fold._start(_Groups.from_stored(data.groups), state)
        return fold

    def copy(self) -> HagarFold:
        """An independent fold at the same seq (the states are immutable; groups copied)."""
        twin = HagarFold()
        twin._start(self.groups.copy(), self.state)
        return twin

    def possible(self, viewer: Viewer) -> HagarPossible:
        """The information set at the last envelope fed (reads the fold, never changes it)."""
        if self.state is None:
            raise ValueError("an empty log")
        return _possible(self.state.rules, self.groups, viewer)


def _state_codec() -> SnapshotCodec:
    codec = codec_for("hagar")
    if codec is None:
        raise ValueError("Hägar states cannot be stored")
    return codec


# -- the information set -------------------------------------------------------------------


def _spots(state: HagarState) -> dict[int, Spot]:
    """Every token in the state and where it lies."""
    found: dict[int, Spot] = {}
    for city, stack in zip(board().cities, state.stacks, strict=True):
        found.update({t: Spot("stack", city, i) for i, t in enumerate(stack)})
    for space, lying in state.roadside:
        found.update({t: Spot("roadside", space, i) for i, t in enumerate(lying)})
    found.update({t: Spot("removed", "", i) for i, t in enumerate(state.removed)})
    for seat, viking in enumerate(state.vikings):
        for field in FIELDS:
            found.update(
                {t: Spot(field, str(seat), i) for i, t in enumerate(getattr(viking, field))}
            )
    return found


def _counts(ids: Sequence[int]) -> tuple[PieceCount, ...]:
    counted = Counter((pieces()[p].name, pieces()[p].value) for p in ids)
    return tuple(PieceCount(name=n, value=v, count=c) for (n, v), c in sorted(counted.items()))


def possible(log: Sequence[Envelope[Any]], viewer: Viewer) -> HagarPossible:
    """Each hidden piece's possible values and the fate deck's, from the redacted log."""
    fold = HagarFold()
    for envelope in log:
        fold.feed(envelope)
    return fold.possible(viewer)


def _possible(state: HagarState, g: _Groups, viewer: Viewer) -> HagarPossible:
    spots = _spots(state)
    groups = []
    for group, tokens in sorted(g.tokens.items()):
        placed = sorted((spots[t] for t in tokens if t in spots), key=_spot_order)
        if placed:
            groups.append(Group(spots=tuple(placed), pieces=tuple(sorted(g.pieces[group]))))
    hidden = []
    for seat, viking in enumerate(state.vikings):
        if viewer.sees(frozenset({seat})):
            continue
        for field in FIELDS:
            for slot, token in enumerate(_field(viking, field), start=1):
                held = sorted(g.pieces[g.of[token]])
                hidden.append(
                    PiecePossible(
                        seat=seat,
                        field=field,
                        slot=slot,
                        where=f"seat {seat}, {FIELD_WORDS[field]}, piece {slot}",
                        known=len(held) == 1,
                        values=_counts(held),
                    )
                )
    deck = tuple(sorted(state.deck))
    kinds = Counter(cards()[c].kind for c in deck)
    return HagarPossible(
        viewer=viewer.name,
        pieces=tuple(hidden),
        fate=FatePossible(size=len(deck), cards=tuple(sorted(kinds.items())), ids=deck),
        groups=tuple(groups),
        exact=not g.merged,
    )


def _field(viking: Viking, field: str) -> tuple[int, ...]:
    held: tuple[int, ...] = getattr(viking, field)
    return held


def _spot_order(spot: Spot) -> tuple[str, str, int]:
    return (spot.place, spot.key, spot.index)


# -- one world -------------------------------------------------------------------------------


def sample(
    state: HagarState, known: HagarPossible, viewer: Viewer, rnd: random.Random
) -> HagarState:
    """`state` with every group's pieces in a uniformly random order over its places and
    the fate deck shuffled: uniform over the worlds in `known`. Reads of `state` only the
    public part and the viewer's own pieces (which `known` holds as known groups too)."""
    if viewer.referee or state.revealed:
        return state
    stacks = [list(s) for s in state.stacks]
    roadside = {space: list(lying) for space, lying in state.roadside}
    removed = list(state.removed)
    fields = [{f: list(getattr(v, f)) for f in FIELDS} for v in state.vikings]
    cities = board().cities
    for group in known.groups:
        drawn = list(group.pieces)
        rnd.shuffle(drawn)
        for spot, piece in zip(group.spots, drawn, strict=True):
            if spot.place == "stack":
                stacks[cities.index(spot.key)][spot.index] = piece
            elif spot.place == "roadside":
                roadside[spot.key][spot.index] = piece
            elif spot.place == "removed":
                removed[spot.index] = piece
            else:
                fields[int(spot.key)][spot.place][spot.index] = piece
    deck = list(known.fate.ids)
    rnd.shuffle(deck)
    vikings = tuple(
        msgspec.structs.replace(v, **{f: tuple(fields[s][f]) for f in FIELDS})
        for s, v in enumerate(state.vikings)
    )
    return msgspec.structs.replace(
        state,
        stacks=tuple(tuple(s) for s in stacks),
        roadside=tuple((space, tuple(lying)) for space, lying in roadside.items()),
        removed=tuple(removed),
        vikings=vikings,
        deck=tuple(deck),
    )
