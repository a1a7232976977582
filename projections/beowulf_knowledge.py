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

`sample` is uniform over the consistent deals: every assignment of the unseen tiles to the
hidden hand places (a Good-Counsel-only place gets a Good Counsel tile), the pile and the
box is equally likely, whatever the real tiles are. Not modelled (the one deduction left
out, documented): when the pile is exhausted and a turn passes on instead of the act
ending, some seat could still act; `sample` may draw a world where none could.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import msgspec

from skald.core.beowulf.data import COLOURS, ROMAN, act_tiles, tile, tile_face
from skald.core.beowulf.state import BeowulfState
from skald.events.beowulf import (
    ActEnded,
    PileShuffled,
    TileDrawn,
    TilePlaced,
    TilesDealt,
    TreasureCashed,
    TurnPassed,
)
from skald.events.common import DecisionRedone, DecisionUndone, GameCreated, MoveMade
from skald.events.envelope import Envelope
from skald.events.viewer import Viewer

NO_PLAYER_COULD_PLAY = "no player could play"
GOOD_COUNSEL = "good_counsel"


class TileCount(msgspec.Struct, frozen=True, kw_only=True):
    """Tiles of one face and back (act), and how many of them."""

    face: str
    back: str
    count: int


class Place(msgspec.Struct, frozen=True, kw_only=True):
    """One tile in another seat's hand: its back (act) and, when the viewer knows it, its
    face; `good_counsel_only` when the rules say it can only be a Good Counsel tile."""

    act: int
    back: str
    tile: str | None = None
    face: str | None = None
    good_counsel_only: bool = False


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


class BeowulfPossible(msgspec.Struct, frozen=True, kw_only=True):
    """Everything that could be true of what `viewer` cannot see."""

    game: str = "beowulf"
    viewer: str
    act: int
    pile: int
    unseen: tuple[Unseen, ...]
    hands: tuple[HandPossible, ...]
    seen: tuple[str, ...]
    """The ids of every tile the viewer has seen (its own, those played): the act's other
    tiles are the unseen ones (a tile's id says nothing its face and back do not)."""


def unseen_tiles(known: BeowulfPossible, act: int) -> list[str]:
    """The ids of the tiles of `act` the viewer has not seen."""
    seen = set(known.seen)
    return [t for t in act_tiles(act) if t not in seen]


# -- following the log -----------------------------------------------------------------


class _Slot(msgspec.Struct, kw_only=True):
    act: int
    tile: str | None = None
    good_counsel_only: bool = False


class _Knowledge:
    """What the log has shown so far (mutable while folding; never leaves this module)."""

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
        if not known:
            same_back = [s for s in hand if s.tile is None and s.act == tile(tile_id).act]
            counsel = tile(tile_id).ability == GOOD_COUNSEL
            # A Good Counsel may have been any of them; anything else was an open place.
            fitting = [s for s in same_back if s.good_counsel_only == counsel] or same_back
            known = fitting
        if known:
            hand.remove(known[0])

    def returned(self, seat: int, tile_id: str) -> None:
        """A shown tile was taken back into `seat`'s hand (an undone play)."""
        self.hands[seat].append(_Slot(act=tile(tile_id).act, tile=tile_id))

    def only_good_counsel(self, seats: Iterable[int]) -> None:
        for seat in seats:
            for slot in self.hands[seat]:
                if slot.tile is None:
                    slot.good_counsel_only = True


def _known(secret: Any) -> Any:
    return secret.value if secret.known else None


class BeowulfFold:
    """The information set folded one redacted envelope at a time (`feed`), so a cache can
    keep it at a seq and go on from there (`copy`; `projections.knowledge_cache`)."""

    def __init__(self) -> None:
        self.k = _Knowledge(0)

    def feed(self, envelope: Envelope[Any]) -> None:
        """Fold the next envelope of the viewer's redacted log."""
        k, event = self.k, envelope.event
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

    def copy(self) -> BeowulfFold:
        """An independent fold at the same seq."""
        twin = BeowulfFold()
        twin.k = self.k.copy()
        return twin

    def possible(self, viewer: Viewer) -> BeowulfPossible:
        """The information set at the last envelope fed (reads the fold, never changes it)."""
        return _possible(self.k, viewer)


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
    hands = []
    for seat, hand in enumerate(k.hands):
        if viewer.sees(frozenset({seat})):
            continue
        places = tuple(_place(slot) for slot in hand)
        may_hold = {t for slot in hand for t in _candidates(slot, unseen)}
        hands.append(
            HandPossible(
                seat=seat,
                colour=COLOURS[seat],
                backs=tuple(sorted(ROMAN[s.act] for s in hand)),
                places=places,
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
    )


def _place(slot: _Slot) -> Place:
    return Place(
        act=slot.act,
        back=ROMAN[slot.act],
        tile=slot.tile,
        face=tile_face(slot.tile) if slot.tile else None,
        good_counsel_only=slot.good_counsel_only,
    )


def _candidates(slot: _Slot, unseen: dict[int, list[str]]) -> list[str]:
    if slot.tile is not None:
        return [slot.tile]
    tiles = unseen.get(slot.act, [])
    if slot.good_counsel_only:
        return [t for t in tiles if tile(t).ability == GOOD_COUNSEL]
    return tiles


# -- one world -----------------------------------------------------------------------------


def sample(
    state: BeowulfState, known: BeowulfPossible, viewer: Viewer, rnd: random.Random
) -> BeowulfState:
    """`state` with every hidden hand and the pile drawn uniformly over the consistent deals
    (each act's unseen tiles dealt at random to its hidden places, a Good-Counsel-only place
    first from that act's unseen Good Counsel tiles, the rest shuffled into the pile and the
    box). Reads of `state` only what `viewer` sees: its own hands and the public part."""
    if viewer.referee:
        return state
    left = {u.act: unseen_tiles(known, u.act) for u in known.unseen}
    for tiles in left.values():
        rnd.shuffle(tiles)
    hands = [list(hand) for hand in state.hands]
    drawn: dict[tuple[int, int], str] = {}
    places = [(h.seat, i, p) for h in known.hands for i, p in enumerate(h.places)]
    for seat, index, place in sorted(places, key=lambda item: not item[2].good_counsel_only):
        drawn[seat, index] = place.tile if place.tile is not None else _take(left, place)
    for hand in known.hands:
        hands[hand.seat] = [drawn[hand.seat, i] for i in range(len(hand.places))]
    pile = left.get(state.act, [])[: len(state.pile)]
    return msgspec.structs.replace(
        state, hands=tuple(tuple(hand) for hand in hands), pile=tuple(pile)
    )


def _take(left: dict[int, list[str]], place: Place) -> str:
    """One unseen tile for a hidden place (the lists are shuffled: the first that fits)."""
    tiles = left[place.act]
    for index, candidate in enumerate(tiles):
        if not place.good_counsel_only or tile(candidate).ability == GOOD_COUNSEL:
            return tiles.pop(index)
    raise ValueError("the log leaves no tile for a hidden place")  # an altered log
