"""Beowulf: what a seat deduces when a turn begins with the pile exhausted.

The rules end an act when no seat could do anything but pass ("no player could play",
`decide._next_turn`), so a turn that begins instead, with nothing left to draw, says some
seat could still act then. The position (Act I, two players, as Ann sees it):

    A1-D2 (squares 0-19): every figure, ten of Ann's, ten of Bob's: no supply is left;
    D3-F4 (squares 20-28): tiles; F5 (square 29): the one free space, next to tiles only,
    so no figure can be moved by a Good Counsel;
    the pile is exhausted; Ann's hand is empty; Bob holds one tile Ann has not seen.

A turn begins: Bob could act, and only a tile he can play lets him, so his tile is not
the Good Counsel (Act I's one, unseen by Ann, is otherwise among its candidates). Any
other way for a seat to act leaves his tile open: a figure still in a supply, a figure
of his next to the free space, a second hidden tile (either could be the playable one).

Such a position is rare under the rules as implemented (twenty figures and the pile
must be used up before the board fills): over random, greedy and figure-first playouts
none arose, so the positions here are made by hand, from a real opening.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec

from skald.core.beowulf.data import act_tiles, tile, tile_face
from skald.core.beowulf.state import BeowulfState, Placed
from skald.core.engine import Engine
from skald.core.store import EventStore
from skald.events.beowulf import TurnBegan
from skald.events.viewer import seat_viewer
from skald.projections.beowulf.knowledge import BeowulfFold, _Knowledge, _Slot, sample
from skald.projections.registry import redacted_log

ANN = seat_viewer(0, "Ann")
COUNSEL = next(t for t in act_tiles(1) if tile(t).ability == "good_counsel")
ON_BOARD = [t for t in act_tiles(1) if tile(t).ability is None][:9]
FREE = 29


def position(
    bob: list[_Slot], supply: tuple[int, int, int, int] = (0, 0, 0, 0), bob_at: int | None = None
) -> tuple[BeowulfFold, BeowulfState]:
    """The fold after a real opening, set to the position above, then a turn begins;
    and the rules state as far as Ann sees it (Bob's tiles as fillers)."""
    engine = Engine(EventStore("sqlite://"))
    created = engine.create("beowulf", ["Ann", "Bob"], seed="exhausted", reproducible=True)
    log = redacted_log(engine.envelopes(created.id), ANN)
    fold = BeowulfFold()
    for envelope in log:
        fold.feed(envelope)
    assert fold.public is not None
    figures: list[Placed | None] = [Placed(sq % 2, "thane") for sq in range(20)] + [None] * 10
    if bob_at is not None:  # Bob's figure moved next to the free space (a tile where it was)
        figures[bob_at] = Placed(1, "thane")
    tiles = [None] * 20 + ON_BOARD + [None]
    if bob_at is not None:
        tiles[bob_at] = None
    board = msgspec.structs.replace(
        fold.public.rules,
        figures=tuple(figures),
        tiles=tuple(tiles),
        supply=(supply, (0, 0, 0, 0)),
        hands=((), ()),
        pile=(),
    )
    fold.public = msgspec.structs.replace(fold.public, rules=board)
    knowledge = _Knowledge(2)
    knowledge.act, knowledge.pile, knowledge.seen = 1, 0, set(ON_BOARD)
    knowledge.hands = [[], bob]
    fold.k = knowledge
    fold.feed(msgspec.structs.replace(log[-1], seq=log[-1].seq + 1, event=TurnBegan(seat=1)))
    fillers = tuple(t for t in act_tiles(1) if t not in ON_BOARD)[: len(bob)]
    return fold, msgspec.structs.replace(board, hands=((), fillers), turn=1)


def bob_places(fold: BeowulfFold) -> list[Any]:
    (bob,) = fold.possible(ANN).hands
    return list(bob.places)


def test_a_turn_with_the_pile_exhausted_says_bobs_one_tile_is_not_the_good_counsel() -> None:
    fold, state = position([_Slot(act=1)])
    (place,) = bob_places(fold)
    assert place.not_good_counsel
    assert not place.good_counsel_only
    (bob,) = fold.possible(ANN).hands
    may = {c.face for c in bob.may_hold}
    unseen = {t for t in act_tiles(1) if t not in ON_BOARD}
    assert tile_face(COUNSEL) not in may
    assert len(may) > 5, may
    drawn = Counter(
        sample(state, fold.possible(ANN), ANN, random.Random(n)).hands[1][0] for n in range(600)
    )
    assert COUNSEL not in drawn
    assert set(drawn) == unseen - {COUNSEL}, "every other unseen tile can be drawn"


def test_a_place_already_only_good_counsel_leaves_the_other_to_be_the_playable_one() -> None:
    fold, _ = position([_Slot(act=1, good_counsel_only=True), _Slot(act=1)])
    counsel_only, other = bob_places(fold)
    assert counsel_only.good_counsel_only
    assert not counsel_only.not_good_counsel
    assert other.not_good_counsel


def test_nothing_is_deduced_when_another_way_to_act_is_open() -> None:
    two_tiles, _ = position([_Slot(act=1), _Slot(act=1)])
    with_supply, _ = position([_Slot(act=1)], supply=(0, 1, 0, 0))
    next_to_free, _ = position([_Slot(act=1)], bob_at=28)
    for fold in (two_tiles, with_supply, next_to_free):
        assert not any(p.not_good_counsel for p in bob_places(fold))


def test_the_deduction_outlives_a_copy_and_a_tile_shown_takes_the_narrowest_place() -> None:
    fold, _ = position([_Slot(act=1, good_counsel_only=True), _Slot(act=1)])
    kept = fold.copy()
    plain = next(t for t in act_tiles(1) if tile(t).ability is None and t not in ON_BOARD)
    fold.k.shown(1, plain)
    (left,) = bob_places(fold)
    assert left.good_counsel_only, "the plain tile shown came from the place that could not be one"
    assert [p.not_good_counsel for p in bob_places(kept)] == [False, True]
