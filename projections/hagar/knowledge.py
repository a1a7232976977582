"""What a viewer can know of a game of Hägar: its information set, and worlds drawn from it.

Computed from the viewer's redacted log only (`possible`). The log is folded through the
game's own reducer (`core.hagar.evolve`, with the engine's undo and redo) over a state
whose loot pieces are *tokens*: each face-down place holds a token, and the tokens'
pieces are tracked by groups and arrangements (projections/hagar/groups.py): every piece
belongs to one group, and in each arrangement every token holds a piece of one group, in
an order nobody (outside the group's history) can tell. At the deal every stack place is
one token of one group holding all the loose loot; the chests at the camp are face up.

- A piece the viewer sees (its own plunder, a piece robbed from or by it, forced on it,
  picked up by it, every piece at the feast's reveal) is known at its token from then on;
  the arrangements in which that token could not hold it are dropped.
- A piece the viewer does not see leaving a place (robbed, forced or jettisoned between
  other Vikings) is one of the tokens there: when they all hold pieces of one group
  nothing changes (they were interchangeable already); when they come from several
  groups, each arrangement becomes one per token that may have left, the place keeping
  the others' pieces in their order.
- The fate deck's order is never seen: it holds every card not face up elsewhere (drawn,
  discarded, an arrow in a Viking) in any order.

This is exact: the worlds `possible` describes are those some hidden history consistent
with the viewer's log leads to, and each hidden piece's values are exactly those it has
in one of them (the per-piece union over the arrangements: each arrangement holds every
order of every group's pieces, so no matching is needed). `exact` is False only past the
bound on arrangements (`groups.LIMIT`, never reached in the playouts we test), where
the groups being mixed are merged: wider than the log allows, never narrower. A robbery
at sea reaches the victim's ship and his hands, and the table sees which of the two lost
a piece (the view's counts): from rules version 5 `LootRobbed.from_cargo` says so and the
fold takes one of that field's tokens. One gap is the older logs', not the model's: in a
log of rules version 4 or before the event does not say, and the fold takes the piece
from his hand (the reach's last): where it really left his ship, `possible` describes his
card with a piece too many on the ship and one too few in his hands (unsound for that
Viking's pieces; rare: a full ship and a piece carried, at sea).

`sample` draws an arrangement by its share of the hidden histories, then each group's
pieces in a uniformly random order over its places, and shuffles the fate deck. It is
uniform over the hidden histories (every deal and shuffle as likely, every unseen choice
of a piece among a reach as likely), which is the rules' own chance for the deal, the
shuffles and an ambush's draw; a forced or jettisoned piece is a player's choice, counted
the same way. (Uniform over distinct worlds would weight an arrangement by its worlds,
all equal, and so make a known piece robbed from the first of four places as likely to be
with the robber as still there, where the draw makes it one in four.) The viewer's own
pieces, the public part and the counts stay as they are, so the viewer sees the same game
and has the same moves.
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
from skald.projections.hagar.groups import Groups, StoredGroups

FIELDS = ("carried", "cargo", "home")
FIELD_WORDS = {"carried": "carried", "cargo": "on his ship", "home": "at home"}


class Spot(msgspec.Struct, frozen=True):
    """A place a piece lies: `stack` (key: city), `roadside` (space), `removed`, or a
    Viking's `carried`/`cargo`/`home` (key: the seat), and its index there."""

    place: str
    key: str
    index: int


class Group(msgspec.Struct, frozen=True, kw_only=True):
    """Pieces (ids) that lie between them in these spots and in the `mixed` spots the
    arrangement gives the group (none where nothing is mixed), in any order."""

    spots: tuple[Spot, ...]
    pieces: tuple[int, ...]


class Arrangement(msgspec.Struct, frozen=True, kw_only=True):
    """For each of the `mixed` spots, the group (an index into `groups`) whose piece lies
    there, and the share of the hidden histories that leave them so."""

    groups: tuple[int, ...]
    share: float


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
    mixed: tuple[Spot, ...] = ()
    arrangements: tuple[Arrangement, ...] = ()
    exact: bool


# -- folding the log over tokens -------------------------------------------------------


class StoredHagarFold(msgspec.Struct, frozen=True, array_like=True):
    """A `HagarFold` as data: its groups and its token state as the engine's snapshots
    store a state (core/snapshots.py)."""

    groups: StoredGroups
    state: bytes | None


def _top_taken(groups: Groups, event: Any, token: int, piece: Secret[Any]) -> Any:
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

    def __init__(self, groups: Groups) -> None:
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
                token = g.move(reach, _seen(piece))
                return replace(event, piece=_secret(token), slot=None)
            case LootForced(seat=giver, at_sea=at_sea, piece=piece, slot=None):
                # forced by its slot among the cargo at sea (`legal.force_slots`)
                viking = state.vikings[giver]
                token = g.move(viking.cargo if at_sea else viking.carried, _seen(piece))
                return replace(event, piece=_secret(token))
            case LootRobbed(victim=giver, piece=piece, from_cargo=bool(from_cargo)):
                # rules version 5 on: the field the piece left is public
                viking = state.vikings[giver]
                token = g.move(viking.cargo if from_cargo else viking.carried, _seen(piece))
                return replace(event, piece=_secret(token))
            case (
                LootRobbed(victim=giver, at_sea=at_sea, piece=piece, slot=slot)
                | LootForced(seat=giver, at_sea=at_sea, piece=piece, slot=slot)
            ):
                reach = pieces_in_reach(state.vikings[giver], at_sea)
                reach = reach if slot is None else reach[slot : slot + 1]
                token = g.move(reach, _seen(piece))
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
    keep it at a seq and go on from there (`copy`; `projections.knowledge.cache`): the
    token state of the engine's fold (with its undo and redo) and the groups."""

    def __init__(self) -> None:
        self._start(Groups(), None)

    def _start(self, groups: Groups, state: GameState | None) -> None:
        self.groups = groups
        self.state = state
        self.rules: Any = _TokenRules(groups)  # a Rules to `fold_event` (duck-typed)

    def feed(self, envelope: Envelope[Any]) -> None:
        """Fold the next envelope of the viewer's redacted log."""
        self.state = fold_event(
            self.rules, self.state, envelope.stream, envelope.seq, envelope.hash, envelope.event
        )

    Stored = StoredHagarFold
    CODE = ("skald.projections.hagar.groups",)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, HagarFold)
            and self.groups == other.groups
            and self.state == other.state
        )

    def stored(self) -> StoredHagarFold:
        """The fold as data, to keep in the store (projections/knowledge/store.py)."""
        state = None if self.state is None else _state_codec().encode(self.state)
        return StoredHagarFold(self.groups.stored(), state)

    @classmethod
    def from_stored(cls, data: StoredHagarFold) -> HagarFold:
        """The fold back from `stored()`."""
        fold = cls()
        state = None if data.state is None else _state_codec().decode(data.state)
        fold._start(Groups.from_stored(data.groups), state)
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


def _possible(state: HagarState, g: Groups, viewer: Viewer) -> HagarPossible:
    spots = _spots(state)
    mixed = tuple(sorted((t for t in g.mixed if t in spots), key=lambda t: _spot_order(spots[t])))
    certain: dict[int, list[Spot]] = {}
    for token, group in g.of.items():
        if token in spots:
            certain.setdefault(group, []).append(spots[token])
    shown = sorted({*certain, *(group for key in g.arrangements for group in key)})
    number = {group: index for index, group in enumerate(shown)}
    at = [g.mixed.index(t) for t in mixed]
    hidden = []
    for seat, viking in enumerate(state.vikings):
        if viewer.sees(frozenset({seat})):
            continue
        for field in FIELDS:
            for slot, token in enumerate(_field(viking, field), start=1):
                held = sorted(g.may_hold(token))
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
        groups=tuple(
            Group(
                spots=tuple(sorted(certain.get(group, ()), key=_spot_order)),
                pieces=tuple(sorted(g.pieces[group])),
            )
            for group in shown
        ),
        mixed=tuple(spots[t] for t in mixed),
        arrangements=tuple(
            Arrangement(groups=tuple(number[key[i]] for i in at), share=share)
            for key, share in g.arrangements.items()
        )
        if mixed
        else (),
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
    """`state` with an arrangement drawn by its share, every group's pieces in a uniformly
    random order over its places and the fate deck shuffled: uniform over the hidden
    histories in `known`. Reads of `state` only the public part and the viewer's own
    pieces (which `known` holds as known groups too)."""
    if viewer.referee or state.revealed:
        return state
    stacks = [list(s) for s in state.stacks]
    roadside = {space: list(lying) for space, lying in state.roadside}
    removed = list(state.removed)
    fields = [{f: list(getattr(v, f)) for f in FIELDS} for v in state.vikings]
    cities = board().cities
    for spots, held in _arranged(known, rnd):
        drawn = list(held)
        rnd.shuffle(drawn)
        for spot, piece in zip(spots, drawn, strict=True):
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


def _arranged(
    known: HagarPossible, rnd: random.Random
) -> list[tuple[tuple[Spot, ...], tuple[int, ...]]]:
    """Each group's spots, those of an arrangement drawn by its share among them, and its
    pieces."""
    spots = [list(group.spots) for group in known.groups]
    if known.arrangements:
        shares = [a.share for a in known.arrangements]
        (drawn,) = rnd.choices(known.arrangements, weights=shares)
        for spot, group in zip(known.mixed, drawn.groups, strict=True):
            spots[group].append(spot)
    return [(tuple(s), group.pieces) for s, group in zip(spots, known.groups, strict=True)]
