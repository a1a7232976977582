"""Rules version 5: a robbery at sea says which field of the victim's card lost the piece.

An ambush at sea reaches the victim's ship's cargo and the pieces in his hands, and draws
one of them face down ("he draws them face down"). Everyone sees which field lost a piece
(the card's counts are public), but until rules version 5 `LootRobbed` did not say, and
the knowledge fold (projections/hagar/knowledge.py), which reads only the redacted log,
took the piece from the hands: where it really left the ship, `possible` described the
victim's card with a piece too many on the ship and one too few in hand, and the real
state was not among its worlds. From version 5 the event carries `from_cargo` in public,
the reducer takes the piece from that field and the fold follows it.

Version 4 games are still played (and re-derived) under version 4 by this build: their
robberies say nothing of the field, their events are byte for byte what version 4 wrote,
and their fold reads them as before (tests/test_hagar_rob_field_v4.py: a stored version 4
log, replayed, re-derived and continued).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec
import pytest

from skald.core.hagar.board import board
from skald.core.hagar.commands import Rob
from skald.core.hagar.data import pieces
from skald.core.hagar.state import HagarState
from skald.core.rng import Rng
from skald.events.envelope import Envelope
from skald.events.hagar import (
    CityPlundered,
    LootRobbed,
    ShipSailed,
    StartChosen,
    TurnEnded,
    VikingBoarded,
    VikingsMet,
)
from skald.events.secret import seal
from skald.events.viewer import seat_viewer
from skald.projections.hagar.narrative import loot_words, narrator
from skald.projections.knowledge.possible import describe_possible
from skald.projections.registry import redacted_log, views_for
from tests.test_hagar_exact import enveloped
from tests.test_hagar_support import RULES, created
from tests.test_information_sets import hagar_member, hagar_tight

NAMES = ["Ann", "Bob", "Cid", "Dag"]
SEA = next(space for space in board().spaces if board().kind(space) == "sea")
HOME = board().homes[0]
ROAD = next(space for space in board().spaces if board().kind(space) == "road")
replace = msgspec.structs.replace


class Robbery:
    """The log of a hand-built position and the referee's state along it.

    Four Vikings, every ship on one sea space (`SEA`). Ann (seat 0, the viewer) plunders
    a city, sees piece p and loads it. Bob (seat 1) plunders three cities (what, only he
    sees) and loads two: his ship's third place is still free, and he carries the third
    piece. Bob ambushes Ann at sea and draws p (her only piece): Ann sees it go, onto his
    ship, now full. Then Cid (seat 2) ambushes Bob at sea and draws one of his four pieces
    with the rules' own chance (`decide`, its draw keyed by `seed`); Ann and Dag do not see
    which piece:

        Bob's card before Cid's ambush, as Ann knows it
          field 1 (carried):  [ ? ]
          field 2 (ship):     [ ? ][ ? ][ p ]

    Everyone sees which field lost one (the counts: carried 1 → 0, or ship 3 → 2)."""

    def __init__(self, seed: bytes, version: int = 5) -> None:
        first = replace(created(4), rules_version=str(version))
        self.state: HagarState = RULES.initial(first)
        self.events: list[Any] = [first]
        for event in RULES.start(self.state, Rng(b"rob-field")):
            self.add(event)
        for seat in range(4):
            self.add(StartChosen(seat, HOME))
        cities = board().cities
        self.p = self.plunder(0, cities[0])
        self.add(VikingBoarded(0, HOME, 1))
        for city in cities[1:4]:
            self.plunder(1, city)
        self.add(VikingBoarded(1, HOME, 2))
        for seat in range(4):
            self.add(ShipSailed(seat, (HOME, SEA), True))
        self.add(TurnEnded(0, 1))
        self.ambush(1, 0, b"bob")
        self.before = self.state.vikings[1]
        self.robbed = self.ambush(2, 1, seed)

    def add(self, event: Any) -> None:
        self.state = RULES.evolve(self.state, event)
        self.events.append(event)

    def plunder(self, seat: int, city: str) -> int:
        top = self.state.stack(city)[0]
        self.add(CityPlundered(seat, city, seal(top, frozenset({seat}), "00" * 16)))
        return top

    def ambush(self, seat: int, victim: int, seed: bytes) -> LootRobbed:
        """`seat` meets `victim` at sea and robs him, through `decide`."""
        self.add(VikingsMet(seat, SEA, (victim,)))
        events = RULES.decide(self.state, seat, Rob(victim), Rng(seed))
        for event in events:
            self.add(event)
        robbed = events[0]
        assert isinstance(robbed, LootRobbed)
        return robbed

    @property
    def log(self) -> list[Envelope[Any]]:
        return enveloped(self.events)

    @property
    def drawn_from(self) -> str:
        """The field of Bob's card the drawn piece lay in (the referee's knowledge)."""
        return "cargo" if self.robbed.piece.get() in self.before.cargo else "carried"


def robbery(field: str, version: int = 5) -> Robbery:
    """The first of seeds 0, 1, ... whose draw takes Bob's piece from `field`."""
    for n in range(100):
        found = Robbery(b"seed-%d" % n, version)
        if found.drawn_from == field and (
            field == "carried" or found.robbed.piece.get() == found.p
        ):
            return found
    raise AssertionError(f"no seed draws from Bob's {field}")


def shape(known: Any, seat: int) -> Counter[str]:
    """How many hidden pieces of `seat`'s card `possible` lists in each field."""
    return Counter(piece.field for piece in known.pieces if piece.seat == seat)


@pytest.mark.parametrize("viewer_seat", [0, 3])
def test_robbed_from_the_ship_possible_holds_the_real_state(viewer_seat: int) -> None:
    """Cid draws p from Bob's ship. The table sees Bob's ship go from three pieces to two
    and his hands keep one; Ann (who knows p) and Dag (who knows nothing) must describe
    that card: two pieces on the ship, one carried, and the real state among the worlds.
    Before version 5 the fold took Bob's carried piece instead: `possible` listed three on
    his ship and none in hand, and the real state was not among its worlds."""
    game = robbery("cargo")
    real, viewer = game.state, seat_viewer(viewer_seat)
    assert (len(real.vikings[1].cargo), len(real.vikings[1].carried)) == (2, 1)
    views = views_for("hagar")
    known = views.possible(redacted_log(game.log, viewer), viewer)
    assert shape(known, 1) == Counter({"cargo": 2, "carried": 1})
    assert shape(known, 2) == Counter({"cargo": 1})
    assert hagar_member(known, real, viewer)
    hagar_tight(known)
    rnd = random.Random(23)
    for _ in range(20):
        drawn = views.sample(real, known, viewer, rnd)
        assert views.view(drawn, viewer) == views.view(real, viewer)
        assert hagar_member(known, drawn, viewer)


def test_what_ann_may_know_of_p_after_it_left_the_ship() -> None:
    """Ann knows p lay last on Bob's ship. Cid drew from the ship (public): one of its
    three pieces, each as likely; p is then still on Bob's ship, now second (when either
    piece before it went: two draws in three), or on Cid's (one in three); never in Bob's
    hands, which the ambush did not touch."""
    game = robbery("cargo")
    viewer = seat_viewer(0)
    known = views_for("hagar").possible(redacted_log(game.log, viewer), viewer)
    found = pieces()[game.p]
    text = describe_possible(known, NAMES)
    assert (
        f"the {found.name} {found.value} seen earlier is in one of: "
        "Bob's ship, piece 2 (67%), Cid's ship, piece 1 (33%)"
    ) in text
    assert game.p not in _may_hold(known, ("carried", "1", 0))
    assert game.p in _may_hold(known, ("cargo", "1", 1)) & _may_hold(known, ("cargo", "2", 0))


def test_robbed_from_the_hands_ann_knows_p_stayed_on_the_ship() -> None:
    """Cid drew Bob's carried piece: the table sees Bob's hands empty and his ship still
    full, so p is still third on Bob's ship, for certain (before version 5 the fold could
    not tell, and let p be with Cid one time in four)."""
    game = robbery("carried")
    real, viewer = game.state, seat_viewer(0)
    assert (len(real.vikings[1].cargo), len(real.vikings[1].carried)) == (3, 0)
    known = views_for("hagar").possible(redacted_log(game.log, viewer), viewer)
    assert shape(known, 1) == Counter({"cargo": 3})
    assert hagar_member(known, real, viewer)
    hagar_tight(known)
    assert _may_hold(known, ("cargo", "1", 2)) == {game.p}
    assert game.p not in _may_hold(known, ("cargo", "2", 0))


def _may_hold(known: Any, spot: tuple[str, str, int]) -> set[int]:
    """The pieces `possible` lets lie at a spot (place, key, index)."""
    held: set[int] = set()
    for group in known.groups:
        if spot in {(s.place, s.key, s.index) for s in group.spots}:
            held |= set(group.pieces)
    for index, mixed in enumerate(known.mixed):
        if (mixed.place, mixed.key, mixed.index) == spot:
            for arrangement in known.arrangements:
                held |= set(known.groups[arrangement.groups[index]].pieces)
    return held


@pytest.mark.parametrize("field", ["cargo", "carried"])
def test_the_event_names_the_field_in_public_and_the_piece_leaves_it(field: str) -> None:
    """The robbery's `from_cargo` is the drawn piece's field, readable by anyone (it is no
    `Secret`); the reducer takes the drawn piece from that field and puts it on the
    robber's ship."""
    game = robbery(field)
    robbed = game.robbed
    assert getattr(robbed, "from_cargo", None) is (field == "cargo")
    piece = robbed.piece.get()
    after = game.state.vikings[1]
    assert piece not in after.cargo + after.carried
    assert getattr(after, field) == tuple(p for p in getattr(game.before, field) if p != piece)
    assert game.state.vikings[2].cargo == (piece,)
    shown = redacted_log(game.log, seat_viewer(3))[-2].event  # before the turn's end
    assert isinstance(shown, LootRobbed)
    assert not shown.piece.known
    assert shown.from_cargo is (field == "cargo")


def test_a_robbery_on_land_is_from_the_hands() -> None:
    """On land an ambush reaches only the pieces carried: `from_cargo` is False."""
    game = Robbery(b"land")
    state = game.state
    vikings = list(state.vikings)
    vikings[2] = replace(vikings[2], at=ROAD, ship=HOME, aboard=False)
    vikings[3] = replace(vikings[3], at=ROAD, ship=HOME, aboard=False, carried=(game.p,))
    state = replace(state, vikings=tuple(vikings), turn=2, phase="ambush", targets=(3,))
    events = RULES.decide(state, 2, Rob(3), Rng(b"land"))
    assert isinstance(events[0], LootRobbed)
    assert (events[0].at_sea, events[0].from_cargo) == (False, False)
    after = RULES.evolve(state, events[0])
    assert after.vikings[3].carried == ()
    assert after.vikings[2].carried == (game.p,)


@pytest.mark.parametrize("field", ["cargo", "carried"])
def test_under_version_4_the_event_is_what_version_4_wrote(field: str) -> None:
    """A game started under version 4 goes on under it: the same draw, the same piece and
    the same events, with no `from_cargo` (so the same bytes, the same hashes); the
    reducer still finds the piece by its id."""
    new, old = robbery(field, 5), robbery(field, 4)
    assert old.robbed.from_cargo is None
    assert old.robbed.piece == new.robbed.piece
    assert b"from_cargo" not in msgspec.json.encode(old.robbed)
    assert msgspec.json.encode(replace(new.robbed, from_cargo=None)) == msgspec.json.encode(
        old.robbed
    )
    assert old.state.vikings == new.state.vikings


def test_the_story_says_which_field_the_piece_left() -> None:
    """The narrative says what the table saw: the field, at sea, from version 5 on (a
    version 4 robbery is told as before)."""
    teller = narrator(tuple(NAMES))
    ship, hands, old = robbery("cargo"), robbery("carried"), robbery("cargo", 4)
    hidden = redacted_log(ship.log, seat_viewer(3))[-2].event
    assert teller.say(hidden) == "Cid ambushed Bob at sea and took a piece from his ship."
    shown = redacted_log(hands.log, seat_viewer(2))[-2].event
    words = loot_words(hands.robbed.piece.get())
    assert (
        teller.say(shown) == f"Cid ambushed Bob at sea and took a piece from his hands ({words})."
    )
    before = redacted_log(old.log, seat_viewer(3))[-2].event
    assert teller.say(before) == "Cid ambushed Bob at sea and took a piece."
