"""What a viewer can know of a Beowulf game: its information set, and worlds drawn from it.

Computed from the viewer's redacted log only (`possible`), never from the state. What the
log shows every viewer: each act's tile set (public data), every shuffle's size, every
deal and draw (to whom, how many, which act's back), every tile played out of a hand (its
id: `TilePlaced`, `TreasureCashed`), every pass. A seat also sees its own tiles.

So for each act, the tiles the viewer has not seen (`unseen`: the act's tiles less those
in its own hands, on the board or played, and those it knows in another hand) lie, in an
order nobody knows, in the other hands' tiles with that act's back, the pile (the current
act's) and the box (the rest of an earlier act's pile). The rules as implemented tell
one thing more: a seat passes only when nothing else is legal, and with a free space left
every tile but an unusable Good Counsel can be played, so a seat that passed held only
Good Counsel tiles then (`good_counsel_only`: those tiles stay in its hand until they are
shown); so did every seat when an act ended because "no player could play".
A tile played out of a hand and then taken back (rules version 1 logs, where a play was
undoable) returns to that hand known to everyone.

A turn that begins with the pile exhausted says one thing more: the act did not end, so
some seat could still act (`_someone_could_act`). When no figure is left in any supply,
no tile the viewer knows can be played and no seat with a hidden tile could move a figure
by Good Counsel, only a hidden tile that is not Good Counsel lets a seat act: at least
one of the hidden places (all but the Good-Counsel-only ones) is not Good Counsel. One
place alone is flagged (`not_good_counsel`); several make a clause (`in_clause`), which
`possible` carries as `not_all_good_counsel` where it says more than each place alone.

What `possible` says of each place is exact (`counsel`): counting each act's
unseen Good Counsel tiles and others against the places that must be one or cannot be
one, and the clause, a place is flagged Good-Counsel-only or not-Good-Counsel exactly
when no consistent world gives it the other kind (a seat that passed holding an act's
only Good Counsel leaves none for another hand; a clause whose other places can only be
Good Counsel leaves its last place to be the playable one). The clause is reduced to
the places that can hold another tile, and given only when some world of the places
alone breaks it: a world is possible exactly when its places fit their flags and it
keeps the clause.

`sample` is uniform over the consistent deals: every assignment of the unseen tiles to the
hidden hand places (a Good-Counsel-only place gets a Good Counsel tile, a place that
cannot be one another tile, and not every place of a clause a Good Counsel), the pile and
the box is equally likely, whatever the real tiles are. It draws a deal of the places
alone and draws again while the deal breaks a clause (rejection from a uniform draw is
uniform over what it keeps); after `ATTEMPTS` it builds the deal by the clause places'
classes instead, drawn with the weight of the deals each leaves (uniform as well).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import msgspec

from skald.core.beowulf.data import COLOURS, ROMAN, act_tiles, tile, tile_face
from skald.core.beowulf.evolve import evolve
from skald.core.beowulf.legal import counsel_moves, tile_playable
from skald.core.beowulf.setup import initial
from skald.core.beowulf.state import BeowulfState, has_figures, replace_at
from skald.core.codec import decoder_for
from skald.core.snapshots import SnapshotCodec, codec_for
from skald.core.state import GameState, fold_event
from skald.events.beowulf import (
    ActEnded,
    PileShuffled,
    TileDrawn,
    TilePlaced,
    TilesDealt,
    TreasureCashed,
    TurnBegan,
    TurnPassed,
)
from skald.events.common import DecisionRedone, DecisionUndone, GameCreated, MoveMade
from skald.events.envelope import Envelope
from skald.events.viewer import Viewer
from skald.projections.beowulf import counsel as counsel_count

NO_PLAYER_COULD_PLAY = "no player could play"
GOOD_COUNSEL = "good_counsel"


class TileCount(msgspec.Struct, frozen=True, kw_only=True):
    """Tiles of one face and back (act), and how many of them."""

    face: str
    back: str
    count: int


class Place(msgspec.Struct, frozen=True, kw_only=True):
    """One tile in another seat's hand: its back (act) and, when the viewer knows it, its
    face; `good_counsel_only` when no consistent world gives it another tile,
    `not_good_counsel` when none gives it a Good Counsel (each only where its act has
    such a tile unseen): it may be exactly its act's unseen tiles of the kinds left."""

    act: int
    back: str
    tile: str | None = None
    face: str | None = None
    good_counsel_only: bool = False
    not_good_counsel: bool = False


class HandPossible(msgspec.Struct, frozen=True, kw_only=True):
    """What another seat's hand may hold: its places, and the faces each could be."""

    seat: int
    colour: str
    backs: tuple[str, ...]
    places: tuple[Place, ...]
    may_hold: tuple[TileCount, ...]


class Unseen(msgspec.Struct, frozen=True, kw_only=True):
    """The tiles of one act the viewer has not seen: `count` of them, by face."""

    act: int
    back: str
    count: int
    faces: tuple[TileCount, ...]
    in_hands: int
    in_pile: int
    in_box: int


class HandPlace(msgspec.Struct, frozen=True, kw_only=True):
    """One place of another seat's hand: `HandPossible.places[place]` of seat `seat`."""

    seat: int
    place: int
    back: str


class NotAllGoodCounsel(msgspec.Struct, frozen=True, kw_only=True):
    """At least one of these hand places holds a tile other than Good Counsel (each
    alone may still be one): a turn began with the pile exhausted, so some seat could act,
    and only one of these tiles could have let it."""

    places: tuple[HandPlace, ...]


class BeowulfPossible(msgspec.Struct, frozen=True, kw_only=True):
    """Everything that could be true of what `viewer` cannot see: each act's unseen tiles,
    each other hand's places and the faces each could be, and the clauses that tie places
    together (a world is possible exactly when its places fit their own constraints and
    keep every clause)."""

    game: str = "beowulf"
    viewer: str
    act: int
    pile: int
    unseen: tuple[Unseen, ...]
    hands: tuple[HandPossible, ...]
    seen: tuple[str, ...]
    """The ids of every tile the viewer has seen (its own, those played): the act's other
    tiles are the unseen ones (a tile's id says nothing its face and back do not)."""
    not_all_good_counsel: tuple[NotAllGoodCounsel, ...] = ()
    """Places of which at least one is not Good Counsel, where that says more than each
    place alone (at most one clause: a later one says all an earlier one did)."""


def unseen_tiles(known: BeowulfPossible, act: int) -> list[str]:
    """The ids of the tiles of `act` the viewer has not seen."""
    seen = set(known.seen)
    return [t for t in act_tiles(act) if t not in seen]


# -- following the log -----------------------------------------------------------------


class _Slot(msgspec.Struct, kw_only=True):
    act: int
    tile: str | None = None
    good_counsel_only: bool = False
    not_good_counsel: bool = False
    in_clause: bool = False  # one of the places of which at least one is not Good Counsel


class StoredBeowulfFold(msgspec.Struct, frozen=True, array_like=True):
    """A `BeowulfFold` as data, for the store (projections/knowledge/store.py): the
    knowledge, its decisions' events as the store writes events (JSON), and the public
    state as the engine's snapshots store a state (core/snapshots.py)."""

    seats: int
    act: int
    pile: int
    seen: set[str]
    hands: list[list[_Slot]]
    decisions: list[list[bytes]]
    undone: list[list[bytes]]
    public: bytes | None


class _Knowledge:
    """What the log has shown so far (mutable while folding; never leaves this module)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Knowledge) and vars(self) == vars(other)

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.act = 0
        self.pile = 0
        self.seen: set[str] = set()
        self.hands: list[list[_Slot]] = [[] for _ in range(seats)]
        self.decisions: list[list[Any]] = []
        self.undone: list[list[Any]] = []

    def copy(self) -> _Knowledge:
        """An independent copy (the events it keeps are immutable)."""
        twin = _Knowledge(self.seats)
        twin.act, twin.pile, twin.seen = self.act, self.pile, set(self.seen)
        twin.hands = [[msgspec.structs.replace(slot) for slot in hand] for hand in self.hands]
        twin.decisions = [list(decision) for decision in self.decisions]
        twin.undone = [list(decision) for decision in self.undone]
        return twin

    def receive(self, seat: int, act: int, count: int, tiles: Sequence[str] | None) -> None:
        self.pile -= count
        if tiles is None:
            self.hands[seat] += [_Slot(act=act) for _ in range(count)]
            return
        self.seen.update(tiles)
        self.hands[seat] += [_Slot(act=tile(t).act, tile=t) for t in tiles]

    def shown(self, seat: int, tile_id: str) -> None:
        """`tile_id` left `seat`'s hand face up."""
        self.seen.add(tile_id)
        hand = self.hands[seat]
        known = [s for s in hand if s.tile == tile_id]
        counsel = tile(tile_id).ability == GOOD_COUNSEL
        if not known:
            same_back = [s for s in hand if s.tile is None and s.act == tile(tile_id).act]
            # It may have left any place it fits; the narrowest of them goes, so the places
            # left allow at least what the log does (a Good Counsel-only place for a Good
            # Counsel, a place that cannot be one or else a clause place for any other tile:
            # the clause is then kept, and a clause place is the last a Good Counsel
            # leaves, the clause then narrower).
            if counsel:
                fitting = [s for s in same_back if not s.not_good_counsel]
                fitting.sort(key=lambda s: (not s.good_counsel_only, s.in_clause))
            else:
                fitting = [s for s in same_back if not s.good_counsel_only]
                fitting.sort(key=lambda s: (not s.not_good_counsel, not s.in_clause))
            known = fitting or same_back
        if known:
            hand.remove(known[0])
            if known[0].in_clause and not counsel:
                self.clause_kept()
            elif known[0].in_clause:
                self.clause_narrowed()

    def clause_kept(self) -> None:
        """A clause place showed a tile other than Good Counsel: the clause is kept, and
        says nothing more."""
        for hand in self.hands:
            for slot in hand:
                slot.in_clause = False

    def clause_narrowed(self) -> None:
        """Clause places left it (shown, or only Good Counsel now): one left alone is the
        one that cannot be Good Counsel."""
        places = [s for hand in self.hands for s in hand if s.in_clause]
        if len(places) == 1:
            places[0].in_clause = False
            places[0].not_good_counsel = True

    def returned(self, seat: int, tile_id: str) -> None:
        """A shown tile was taken back into `seat`'s hand (an undone play)."""
        self.hands[seat].append(_Slot(act=tile(tile_id).act, tile=tile_id))

    def only_good_counsel(self, seats: Iterable[int]) -> None:
        for seat in seats:
            for slot in self.hands[seat]:
                if slot.tile is None:
                    slot.good_counsel_only = True
                    slot.in_clause = False
        self.clause_narrowed()


def _known(secret: Any) -> Any:
    return secret.value if secret.known else None


class BeowulfFold:
    """The information set folded one redacted envelope at a time (`feed`), so a cache can
    keep it at a seq and go on from there (`copy`; `projections.knowledge.cache`)."""

    def __init__(self) -> None:
        self.k = _Knowledge(0)
        self.public: GameState | None = None  # the board, figures, supplies (no hands)

    def feed(self, envelope: Envelope[Any]) -> None:
        """Fold the next envelope of the viewer's redacted log."""
        k, event = self.k, envelope.event
        if isinstance(event, TurnBegan) and self.public is not None and k.pile <= 0:
            _someone_could_act(k, self.public.rules)
        self.public = fold_event(
            _PUBLIC, self.public, envelope.stream, envelope.seq, envelope.hash, event
        )
        if isinstance(event, GameCreated):
            self.k = _Knowledge(len(event.players))
        elif isinstance(event, MoveMade):
            k.decisions.append([])
            k.undone = []
        elif isinstance(event, DecisionUndone):
            _undo(k)
        elif isinstance(event, DecisionRedone):
            _redo(k)
        else:
            _apply(k, event)
            if getattr(event, "barrier", False):
                k.decisions = []
            elif k.decisions:
                k.decisions[-1].append(event)

    Stored = StoredBeowulfFold

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BeowulfFold) and (self.k, self.public) == (other.k, other.public)

    def stored(self) -> StoredBeowulfFold:
        """The fold as data, to keep in the store (projections/knowledge/store.py)."""
        k, encode = self.k, msgspec.json.encode
        return StoredBeowulfFold(
            seats=k.seats,
            act=k.act,
            pile=k.pile,
            seen=k.seen,
            hands=k.hands,
            decisions=[[encode(e) for e in decision] for decision in k.decisions],
            undone=[[encode(e) for e in decision] for decision in k.undone],
            public=None if self.public is None else _state_codec().encode(self.public),
        )

    @classmethod
    def from_stored(cls, data: StoredBeowulfFold) -> BeowulfFold:
        """The fold back from `stored()`."""
        fold, decode = cls(), decoder_for("beowulf").decode
        k = fold.k = _Knowledge(data.seats)
        k.act, k.pile, k.seen, k.hands = data.act, data.pile, set(data.seen), data.hands
        k.decisions = [[decode(e) for e in decision] for decision in data.decisions]
        k.undone = [[decode(e) for e in decision] for decision in data.undone]
        fold.public = None if data.public is None else _state_codec().decode(data.public)
        return fold

    def copy(self) -> BeowulfFold:
        """An independent fold at the same seq."""
        twin = BeowulfFold()
        twin.k, twin.public = self.k.copy(), self.public
        return twin

    def possible(self, viewer: Viewer) -> BeowulfPossible:
        """The information set at the last envelope fed (reads the fold, never changes it)."""
        return _possible(self.k, viewer)


def _state_codec() -> SnapshotCodec:
    codec = codec_for("beowulf")
    if codec is None:
        raise ValueError("Beowulf states cannot be stored")
    return codec


class _PublicRules:
    """Beowulf's reducer over what every viewer sees (the board, the figures, the
    supplies): hands and the pile stay empty, a tile played out of a hand is put in it just
    before (its id is public then)."""

    def initial(self, created: GameCreated) -> BeowulfState:
        return initial(created)

    def evolve(self, state: BeowulfState, event: Any) -> BeowulfState:
        if isinstance(event, PileShuffled | TilesDealt | TileDrawn):
            return state
        if isinstance(event, TilePlaced | TreasureCashed):
            state = msgspec.structs.replace(
                state, hands=replace_at(state.hands, event.seat, (event.tile,))
            )
        return evolve(state, event)


_PUBLIC: Any = _PublicRules()  # a Rules to `fold_event` (duck-typed)


def _someone_could_act(k: _Knowledge, board: BeowulfState) -> None:
    """A turn begins with the pile exhausted: the rules saw some seat able to act then
    (`decide._next_turn`, else the act ends, "no player could play"). With no figure in
    any supply, no tile the viewer knows playable, no seat with a Good Counsel move holding
    a hidden tile, the one able seat must hold a hidden tile that is not Good Counsel:
    when only one hidden place can be that tile, it is not a Good Counsel (a place of a
    seat without a Good Counsel move that is not already Good-Counsel-only); with several,
    at least one of them is not (the clause, `in_clause`). Those are then every hidden
    place but the Good-Counsel-only ones, so the clause they make says all an earlier one
    did (its places are still among them, or Good-Counsel-only now, or it was kept by a
    tile shown), and replaces it."""
    could_be = []
    for seat, hand in enumerate(k.hands):
        if has_figures(board, seat):
            return
        counsel = bool(counsel_moves(board, seat))
        for slot in hand:
            if slot.tile is not None:
                if tile_playable(board, seat, slot.tile):
                    return
            elif counsel or slot.not_good_counsel:
                return  # any tile it holds can be played (a free space is next to a figure)
            elif not slot.good_counsel_only:
                could_be.append(slot)
    k.clause_kept()
    if len(could_be) == 1:
        could_be[0].not_good_counsel = True
    elif len(could_be) > 1:
        for slot in could_be:
            slot.in_clause = True


def _apply(k: _Knowledge, event: Any) -> None:
    match event:
        case PileShuffled(act=act, size=size):
            k.act, k.pile = act, size
        case TilesDealt(seat=seat, act=act, count=count, tiles=tiles):
            k.receive(seat, act, count, _known(tiles))
        case TileDrawn(seat=seat, act=act, tile=drawn):
            known = _known(drawn)
            k.receive(seat, act, 1, None if known is None else (known,))
        case TilePlaced(seat=seat, tile=tile_id) | TreasureCashed(seat=seat, tile=tile_id):
            k.shown(seat, tile_id)
        case TurnPassed(seat=seat):
            k.only_good_counsel((seat,))
        case ActEnded(reason=reason):
            k.pile = 0
            if reason == NO_PLAYER_COULD_PLAY:
                k.only_good_counsel(range(k.seats))


def _undo(k: _Knowledge) -> None:
    _move_decision(k.decisions, k.undone, k.returned)


def _redo(k: _Knowledge) -> None:
    _move_decision(k.undone, k.decisions, k.shown)


def _move_decision(
    source: list[list[Any]],
    target: list[list[Any]],
    play: Callable[[int, str], None],
) -> None:
    """Undo (or redo) the last decision of `source`: each tile it showed goes back into
    its hand known to all (or leaves it again), through `play(seat, tile)`."""
    if not source:
        return
    decision = source.pop()
    for event in decision:
        if isinstance(event, TilePlaced | TreasureCashed):
            play(event.seat, event.tile)
    target.append(decision)


# -- the information set -----------------------------------------------------------------


def _counts(tiles: Iterable[str]) -> tuple[TileCount, ...]:
    counted = Counter((tile(t).act, tile_face(t)) for t in tiles)
    return tuple(
        TileCount(face=face, back=ROMAN[act], count=n) for (act, face), n in sorted(counted.items())
    )


def possible(log: Sequence[Envelope[Any]], viewer: Viewer) -> BeowulfPossible:
    """What could be true of every tile `viewer` has not seen, from its redacted log."""
    fold = BeowulfFold()
    for envelope in log:
        fold.feed(envelope)
    return fold.possible(viewer)


def _possible(k: _Knowledge, viewer: Viewer) -> BeowulfPossible:
    unseen = {act: [t for t in act_tiles(act) if t not in k.seen] for act in range(1, k.act + 1)}
    hidden = Counter(s.act for hand in k.hands for s in hand if s.tile is None)
    acts = []
    for act, tiles in unseen.items():
        in_pile = max(k.pile, 0) if act == k.act else 0
        acts.append(
            Unseen(
                act=act,
                back=ROMAN[act],
                count=len(tiles),
                faces=_counts(tiles),
                in_hands=hidden[act],
                in_pile=in_pile,
                in_box=len(tiles) - hidden[act] - in_pile,
            )
        )
    places = _places(k, unseen)
    hands = []
    for seat, hand in enumerate(k.hands):
        if viewer.sees(frozenset({seat})):
            continue
        mine = tuple(places[seat, index] for index in range(len(hand)))
        may_hold = {t for place in mine for t in _candidates(place, unseen)}
        hands.append(
            HandPossible(
                seat=seat,
                colour=COLOURS[seat],
                backs=tuple(sorted(ROMAN[s.act] for s in hand)),
                places=mine,
                may_hold=_counts(may_hold),
            )
        )
    return BeowulfPossible(
        viewer=viewer.name,
        act=k.act,
        pile=max(k.pile, 0),
        unseen=tuple(acts),
        hands=tuple(hands),
        seen=tuple(sorted(k.seen)),
        not_all_good_counsel=_clauses(k, unseen),
    )


def _pools(unseen: dict[int, list[str]]) -> counsel_count.Pools:
    counsel = {a: sum(tile(t).ability == GOOD_COUNSEL for t in ts) for a, ts in unseen.items()}
    return counsel_count.Pools(
        counsel=counsel, other={a: len(ts) - counsel[a] for a, ts in unseen.items()}
    )


def _hidden(k: _Knowledge) -> list[tuple[int, int, counsel_count.Hidden]]:
    """Every hidden place (seat, index in its hand) with what the log says of it."""
    return [
        (seat, index, counsel_count.Hidden(slot.act, _must(slot), slot.in_clause))
        for seat, hand in enumerate(k.hands)
        for index, slot in enumerate(hand)
        if slot.tile is None
    ]


def _must(slot: _Slot | Place) -> str | None:
    if slot.good_counsel_only:
        return counsel_count.GC
    return counsel_count.OTHER if slot.not_good_counsel else None


def _places(k: _Knowledge, unseen: dict[int, list[str]]) -> dict[tuple[int, int], Place]:
    """Every place of every hand, its flags exact (`counsel`): a place is
    Good-Counsel-only when no world gives it another tile (and the act has one unseen),
    cannot be Good Counsel when no world gives it one (and the act has one unseen)."""
    places = {
        (seat, index): _place(slot)
        for seat, hand in enumerate(k.hands)
        for index, slot in enumerate(hand)
    }
    pools = _pools(unseen)
    hidden = _hidden(k)
    constraints = [h for _, _, h in hidden]
    for at, (seat, index, place) in enumerate(hidden):
        counsel = counsel_count.can_be(constraints, pools, at, counsel_count.GC)
        other = counsel_count.can_be(constraints, pools, at, counsel_count.OTHER)
        slot = k.hands[seat][index]
        places[seat, index] = msgspec.structs.replace(
            places[seat, index],
            good_counsel_only=slot.good_counsel_only
            or (not other and pools.other.get(place.act, 0) > 0),
            not_good_counsel=slot.not_good_counsel
            or (not counsel and pools.counsel.get(place.act, 0) > 0),
        )
    return places


def _clauses(k: _Knowledge, unseen: dict[int, list[str]]) -> tuple[NotAllGoodCounsel, ...]:
    """The clause, reduced to the places that can hold another tile, when it says more
    than the places alone (two of them at least; one alone is flagged by `_places`)."""
    hidden = _hidden(k)
    reduced = counsel_count.binding([h for _, _, h in hidden], _pools(unseen))
    if len(reduced) < 2:
        return ()
    refs = tuple(
        HandPlace(seat=seat, place=index, back=ROMAN[place.act])
        for seat, index, place in (hidden[at] for at in reduced)
    )
    return (NotAllGoodCounsel(places=refs),)


def _place(slot: _Slot) -> Place:
    return Place(
        act=slot.act,
        back=ROMAN[slot.act],
        tile=slot.tile,
        face=tile_face(slot.tile) if slot.tile else None,
        good_counsel_only=slot.good_counsel_only,
        not_good_counsel=slot.not_good_counsel,
    )


def _candidates(slot: Place, unseen: dict[int, list[str]]) -> list[str]:
    if slot.tile is not None:
        return [slot.tile]
    tiles = unseen.get(slot.act, [])
    if slot.good_counsel_only:
        return [t for t in tiles if tile(t).ability == GOOD_COUNSEL]
    if slot.not_good_counsel:
        return [t for t in tiles if tile(t).ability != GOOD_COUNSEL]
    return tiles


# -- one world -----------------------------------------------------------------------------


ATTEMPTS = 200
"""How many draws `sample` rejects (for breaking a clause) before it builds a world by
the clause places' classes instead (`counsel.pattern`)."""


def sample(
    state: BeowulfState, known: BeowulfPossible, viewer: Viewer, rnd: random.Random
) -> BeowulfState:
    """`state` with every hidden hand and the pile drawn uniformly over the consistent deals
    (each act's unseen tiles dealt at random to its hidden places, a Good-Counsel-only place
    first from that act's unseen Good Counsel tiles, then the places that cannot be one
    from its other tiles, the rest shuffled into the pile and the box). A draw that breaks
    a clause (every place of it Good Counsel) is drawn again: the draws are uniform over
    the deals that fit the places, so the one kept is uniform over those that also keep
    the clauses. After `ATTEMPTS` draws all rejected (the fallback: a draw breaks a clause
    with the chance that all its places are Good Counsel; with the shipped tiles no clause
    of two places binds, so none is ever rejected) the deal is built instead: the clause
    places' classes chosen with the weight of the deals each choice leaves, then tiles
    within the classes, uniform as well (`counsel.pattern`). Reads of `state` only
    what `viewer` sees: its own hands and the public part."""
    if viewer.referee:
        return state
    places = [(h.seat, i, p) for h in known.hands for i, p in enumerate(h.places)]
    musts = [_must(p) if p.tile is None else None for _, _, p in places]
    clauses = [
        [
            next(n for n, (s, i, _) in enumerate(places) if (s, i) == (r.seat, r.place))
            for r in c.places
        ]
        for c in known.not_all_good_counsel
    ]
    for _ in range(ATTEMPTS):
        drawn, left = _deal(known, places, musts, rnd)
        if all(any(not _is_counsel(drawn[n]) for n in clause) for clause in clauses):
            break
    else:
        musts = _by_weight(known, places, musts, clauses, rnd)
        drawn, left = _deal(known, places, musts, rnd)
    hands = [list(hand) for hand in state.hands]
    for hand in known.hands:
        hands[hand.seat] = []
    for (seat, _, _), tile_id in zip(places, drawn, strict=True):
        hands[seat].append(tile_id)
    pile = left.get(state.act, [])[: len(state.pile)]
    return msgspec.structs.replace(
        state, hands=tuple(tuple(hand) for hand in hands), pile=tuple(pile)
    )


def _by_weight(
    known: BeowulfPossible,
    places: list[tuple[int, int, Place]],
    musts: list[str | None],
    clauses: list[list[int]],
    rnd: random.Random,
) -> list[str | None]:
    """The places' classes with each clause's places chosen by the weight of the deals
    each choice leaves (`counsel.pattern`, over the hidden places only)."""
    hidden = [n for n, (_, _, place) in enumerate(places) if place.tile is None]
    at = {n: index for index, n in enumerate(hidden)}
    constraints = [counsel_count.Hidden(places[n][2].act, musts[n], False) for n in hidden]
    unseen = {u.act: unseen_tiles(known, u.act) for u in known.unseen}
    chosen = counsel_count.pattern(
        constraints, _pools(unseen), [[at[n] for n in clause] for clause in clauses], rnd
    )
    classes = list(musts)
    for n, cls in zip(hidden, chosen, strict=True):
        classes[n] = cls
    return classes


def _is_counsel(tile_id: str) -> bool:
    return tile(tile_id).ability == GOOD_COUNSEL


def _deal(
    known: BeowulfPossible,
    places: list[tuple[int, int, Place]],
    musts: list[str | None],
    rnd: random.Random,
) -> tuple[list[str], dict[int, list[str]]]:
    """One deal of the unseen tiles to the places with these classes, uniform over those
    that fit: Good Counsel places first, then the others, then the free ones, each taking
    the first fitting tile of its act's shuffled unseen tiles; and the tiles left."""
    left = {u.act: unseen_tiles(known, u.act) for u in known.unseen}
    for tiles in left.values():
        rnd.shuffle(tiles)
    drawn = [""] * len(places)
    order = sorted(range(len(places)), key=lambda n: _NARROW[musts[n]])
    for n in order:
        place = places[n][2]
        drawn[n] = place.tile if place.tile is not None else _take(left, place.act, musts[n])
    return drawn, left


_NARROW = {counsel_count.GC: 0, counsel_count.OTHER: 1, None: 2}
"""Good-Counsel-only places take their tiles first, then those that cannot be one."""


def _take(left: dict[int, list[str]], act: int, must: str | None) -> str:
    """One unseen tile for a hidden place (the lists are shuffled: the first that fits)."""
    tiles = left[act]
    for index, candidate in enumerate(tiles):
        counsel = _is_counsel(candidate)
        if must is None or counsel == (must == counsel_count.GC):
            return tiles.pop(index)
    raise ValueError("the log leaves no tile for a hidden place")  # an altered log
