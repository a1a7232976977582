"""Beowulf: "some seat could still act" made exact, against every deal the log allows.

A turn that begins with the pile exhausted says some seat could act (`decide._next_turn`
ends the act otherwise). With every figure placed and no Good Counsel move open, only a
hidden tile other than Good Counsel lets a seat act: at least one of the hidden places is
not Good Counsel. `possible` carries that clause (`not_all_good_counsel`) where it says
more than each place alone, flags a place that must be the playable one, and `sample`
never draws a world where every place of the clause is Good Counsel.

The positions (Act III, 5x12 board, as Ann sees it), made by hand because playouts never
reach one (twenty figures' worth of Drakkars and the pile must be used up before the
board fills):

    row 1:  A1..    every figure left (Drakkars), next to tiles only: no Good Counsel
                    move for anyone
    rows 1-5:       tiles (Act III's, seen), but for
    K5, L5:         the two free spaces (their neighbours are tiles)
    the pile:       one tile, +1 (III01); Ann's hand is empty

Ann draws the pile's last tile and plays it on K5, then a turn begins: some seat could
play on L5. From P0 (Ann's turn, the pile not yet exhausted, so no deduction yet: every
assignment of the tiles Ann has not seen to the hidden places and the pile is possible)
every command is played through the rules (`decide`), and the log Ann reads is the one
her fold follows. The oracle: every assignment of the unseen tiles at P0, replayed
through the same commands, kept when Ann's redacted events are the same (a refused
command, another draw, an act ended instead of a turn begun: not the same).

- Counting (the shipped tiles): Bob holds an Act I tile (kept since Act I) and an
  Act III one. Act III's two Good Counsel tiles: one on the board, one unseen; once Ann
  drew the last pile tile, Bob's Act III tile can only be that Good Counsel (every other
  Act III tile is seen), so his Act I tile is the one that lets him play: not Good
  Counsel. The old model (the deduction only when one place could be the tile) left it
  open, and `sample` gave it the Act I Good Counsel one draw in four.
- A clause of two places (Act I with two Good Counsel tiles, as a replaced tiles.toml
  may have; with the shipped one, a clause of two places that binds cannot arise: Act I
  has one Good Counsel, Act II none, and the current act's unseen tiles all lie in
  hands): Bob and Cid each hold one Act I tile, five unseen (two Good Counsel): not both
  are Good Counsel, each alone may be. Bob then passes (his is Good Counsel), and Cid's
  must be the one. Here the chi-square test (p < 0.001, fixed seed) checks `sample`
  uniform over the 18 consistent deals, through its rejection and through its fallback.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgspec
import pytest

from skald.core.beowulf import data
from skald.core.beowulf.data import act_tiles, tile, tile_face
from skald.core.beowulf.state import BeowulfState, Placed, geometry
from skald.core.engine import Engine
from skald.core.errors import IllegalMove
from skald.core.rng import Rng
from skald.core.rules import get_rules
from skald.core.store import EventStore
from skald.events.envelope import Envelope
from skald.events.secret import Secret, redact
from skald.events.viewer import seat_viewer
from skald.projections.beowulf import knowledge as beowulf_knowledge
from skald.projections.beowulf.knowledge import BeowulfFold, _Knowledge, _Slot
from skald.projections.knowledge.possible import describe_possible
from skald.projections.registry import redacted_log
from tests.test_information_sets import beowulf_member, chi_square_critical

ANN = seat_viewer(0, "Ann")
NAMES = ("Ann", "Bob", "Cid")
FREE = (58, 59)  # K5, L5
PLAIN = "III01"  # +1: the pile's last tile
SAMPLES = 3600


def counsel(act: int) -> list[str]:
    return [t for t in act_tiles(act) if tile(t).ability == "good_counsel"]


@dataclass
class Position:
    """P0 as Ann knows it (the hidden places, the unseen tiles) and as it is."""

    seats: int
    places: dict[int, list[int]]  # seat -> the acts of its hidden places, in hand order
    truth: dict[int, tuple[str, ...]]  # seat -> its real hidden tiles
    unseen: dict[int, list[str]]  # act -> the tiles Ann has not seen at P0 (pile included)
    commands: list[tuple[int, str]]


def board(seats: int, unseen: dict[int, list[str]]) -> BeowulfState:
    """The Act III board above (no hands, no pile): every seat's four Drakkars on row 1,
    tiles Ann has seen on every other square but K5 and L5."""
    figures: list[Placed | None] = [Placed(sq % seats, "drakkar") for sq in range(4 * seats)]
    figures += [None] * (60 - len(figures))
    shown = [t for t in act_tiles(3) if t not in unseen[3] and t != PLAIN]
    assert set(counsel(3)) - set(unseen[3]) <= set(shown)
    tiles: list[str | None] = [None] * 60
    for square in range(4 * seats, 60):
        if square not in FREE:
            tiles[square] = shown.pop()
    return BeowulfState(
        seats=seats,
        act=3,
        phase="play",
        rows=5,
        cols=12,
        tiles=tuple(tiles),
        figures=tuple(figures),
        hands=((),) * seats,
        supply=((0, 0, 0, 0),) * seats,
        points=(50,) * seats,
        turn=0,
    )


def replay(position: Position, hidden: dict[int, tuple[str, ...]], pile: str) -> list[Any]:
    """The events of `position.commands` from P0 with these hidden tiles (stops at a
    refused command), each with `state` after it."""
    rules = get_rules("beowulf")
    state = board(position.seats, position.unseen)
    hands = [hidden.get(seat, ()) for seat in range(position.seats)]
    state = msgspec.structs.replace(state, hands=tuple(hands), pile=(pile,))
    played = []
    for seat, notation in position.commands:
        try:
            events = rules.decide(state, seat, rules.parse(notation), Rng(b"clause"))
        except IllegalMove:
            break
        for event in events:
            state = rules.evolve(state, event)
            played.append((event, state))
    return played


def as_ann(event: Any) -> Any:
    """An event as Ann reads it, without its salts (the same in every world)."""

    def walk(obj: Any) -> Any:
        if isinstance(obj, Secret):
            return ("secret", obj.value if obj.known else None)
        if isinstance(obj, msgspec.Struct):
            return (type(obj).__name__, *(walk(getattr(obj, f)) for f in obj.__struct_fields__))
        if isinstance(obj, tuple):
            return tuple(walk(item) for item in obj)
        return obj

    return walk(redact(event, ANN))


def worlds(position: Position) -> Iterator[tuple[dict[int, tuple[str, ...]], str]]:
    """Every assignment of the tiles unseen at P0 to the hidden places and the pile."""
    slots = [(seat, act) for seat, acts in position.places.items() for act in acts]
    slots.append((-1, 3))  # the pile
    for choice in itertools.product(*(position.unseen[act] for _, act in slots)):
        if len(set(choice)) < len(choice):
            continue
        hidden: dict[int, tuple[str, ...]] = {}
        for (seat, _), t in zip(slots[:-1], choice[:-1], strict=True):
            hidden[seat] = (*hidden.get(seat, ()), t)
        yield hidden, choice[-1]


def fold_at_p0(position: Position) -> tuple[BeowulfFold, Envelope[Any]]:
    """Ann's fold after a real opening, set to P0 (nothing deduced yet)."""
    engine = Engine(EventStore("sqlite://"))
    created = engine.create("beowulf", list(NAMES[: position.seats]), seed="clause")
    log = redacted_log(engine.envelopes(created.id), ANN)
    fold = BeowulfFold()
    for envelope in log:
        fold.feed(envelope)
    assert fold.public is not None
    fold.public = msgspec.structs.replace(fold.public, rules=board(position.seats, position.unseen))
    k = _Knowledge(position.seats)
    k.act, k.pile = 3, 1
    k.seen = {t for act in (1, 2, 3) for t in act_tiles(act) if t not in position.unseen[act]}
    k.hands = [[_Slot(act=act) for act in position.places.get(s, [])] for s in range(k.seats)]
    fold.k = k
    return fold, log[-1]


def deal_of(state: BeowulfState, seats: int) -> tuple[tuple[str, ...], ...]:
    """The other seats' hands (each sorted) and the pile: one deal as Ann cannot see it."""
    return (*(tuple(sorted(state.hands[s])) for s in range(1, seats)), tuple(state.pile))


def model_deals(known: Any, state: BeowulfState, seats: int) -> set[Any]:
    """Every deal `possible` allows at this seq (its members among all assignments)."""
    unseen = {u.act: beowulf_knowledge.unseen_tiles(known, u.act) for u in known.unseen}
    slots = [(h.seat, p.act) for h in known.hands for p in h.places if p.tile is None]
    deals = set()
    pile_choices = itertools.permutations(unseen.get(state.act, []), known.pile)
    for pile in pile_choices:
        for choice in itertools.product(*(unseen[act] for _, act in slots)):
            if len(set(choice) | set(pile)) < len(choice) + len(pile):
                continue
            hands = [list(state.hands[s]) for s in range(seats)]
            for seat, _ in slots:
                hands[seat] = []
            for (seat, _), t in zip(slots, choice, strict=True):
                hands[seat].append(t)
            world = msgspec.structs.replace(
                state, hands=tuple(tuple(h) for h in hands), pile=tuple(pile)
            )
            if beowulf_member(known, world, ANN):
                deals.add(deal_of(world, seats))
    return deals


def check_every_seq(position: Position) -> list[tuple[Any, BeowulfState, set[Any]]]:
    """At every seq from P0 on: `possible` allows exactly the consistent deals, each
    place exactly the tiles it holds in one of them, and its flags and clause say so.
    Returns each seq's possible, real state and consistent deals."""
    real = replay(position, position.truth, PLAIN)
    assert len(real) > 3
    read = [as_ann(event) for event, _ in real]
    replays = [(w, replay(position, *w)) for w in worlds(position)]
    fold, last = fold_at_p0(position)
    checked = []
    for seq, (event, state) in enumerate(real, start=1):
        envelope = msgspec.structs.replace(last, seq=last.seq + seq, event=event)
        fold.feed(redacted_log([envelope], ANN)[0])
        consistent = {
            deal_of(played[seq - 1][1], position.seats)
            for _, played in replays
            if len(played) >= seq and [as_ann(e) for e, _ in played[:seq]] == read[:seq]
        }
        known = fold.possible(ANN)
        assert deal_of(state, position.seats) in consistent
        assert model_deals(known, state, position.seats) == consistent, f"seq {seq}"
        for hand in known.hands:
            holds = {t for deal in consistent for t in deal[hand.seat - 1]}
            assert {c.face for c in hand.may_hold} == {tile_face(t) for t in holds}, hand
            for place in hand.places:  # one hidden place per act in each hand here
                could = {t for t in holds if tile(t).act == place.act}
                allowed = set(beowulf_knowledge._candidates(place, _unseen(known)))
                assert allowed == could, (seq, hand.seat, place)
        checked.append((known, state, consistent))
    return checked


def _unseen(known: Any) -> dict[int, list[str]]:
    return {u.act: beowulf_knowledge.unseen_tiles(known, u.act) for u in known.unseen}


# -- the shipped tiles: a place deduced by counting ------------------------------------------


def counting() -> Position:
    act_one = ["I03", counsel(1)[0], "I14", "I21"]  # +2, Good Counsel, -3, +1 Treasure (3)
    return Position(
        seats=2,
        places={1: [1, 3]},
        truth={1: ("I03", counsel(3)[0])},
        unseen={1: act_one, 2: [], 3: [PLAIN, counsel(3)[0]]},
        commands=[(0, "draw"), (0, "play +1 K5"), (1, "play +2@1 L5")],
    )


def test_counting_leaves_bobs_act_one_tile_to_be_the_playable_one() -> None:
    checked = check_every_seq(counting())
    known, state, consistent = checked[2]  # the turn Bob begins with the pile exhausted
    (bob,) = known.hands
    act_one = next(p for p in bob.places if p.act == 1)
    assert act_one.not_good_counsel
    assert known.not_all_good_counsel == ()  # one place alone: a flag says it
    for n in range(300):
        world = beowulf_knowledge.sample(state, known, ANN, random.Random(n))
        assert deal_of(world, 2) in consistent, world.hands


def test_a_seat_that_passed_holding_the_only_good_counsel_leaves_none_for_another() -> None:
    """Act I has one Good Counsel: Bob's tile, after his pass, is it, so Cid's cannot be
    (place by place, the old model let both be it)."""
    k = _Knowledge(3)
    k.act, k.pile = 1, 20
    k.hands = [[], [_Slot(act=1, good_counsel_only=True)], [_Slot(act=1)]]
    bob, cid = beowulf_knowledge._possible(k, ANN).hands
    assert bob.places[0].good_counsel_only
    assert cid.places[0].not_good_counsel
    assert tile_face(counsel(1)[0]) not in {c.face for c in cid.may_hold}


# -- two Good Counsel tiles in Act I: a clause of two places ---------------------------------


@pytest.fixture
def two_counsels(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Act I's tiles with a second Good Counsel (I30), as a replaced tiles.toml may have."""
    shipped = data.tile_set()
    act_one = shipped.acts[0]
    extra = data.TileKind(value=0, ability="good_counsel", count=1)
    changed = msgspec.structs.replace(act_one, tiles=(*act_one.tiles, extra))
    variant = msgspec.structs.replace(shipped, acts=(changed, *shipped.acts[1:]))
    caches = (data.catalog, data.faces, data.act_tiles)
    for cache in caches:
        cache.cache_clear()
    monkeypatch.setattr(data, "tile_set", lambda: variant)
    yield "I30"
    monkeypatch.undo()
    for cache in caches:
        cache.cache_clear()


def disjunction() -> Position:
    first, second = counsel(1)
    return Position(
        seats=3,
        places={1: [1], 2: [1]},
        truth={1: (first,), 2: ("I03",)},
        unseen={1: [first, second, "I03", "I14", "I21"], 2: [], 3: [PLAIN]},
        commands=[(0, "draw"), (0, "play +1 K5"), (1, "pass"), (2, "play +2 L5")],
    )


def test_a_clause_of_two_places_is_exact_and_sampled_uniformly(two_counsels: str) -> None:
    checked = check_every_seq(disjunction())
    known, state, consistent = checked[2]  # Bob's turn begins: not both are Good Counsel
    assert len(consistent) == 5 * 4 - 2
    (clause,) = known.not_all_good_counsel
    assert [(r.seat, r.place, r.back) for r in clause.places] == [(1, 0, "I"), (2, 0, "I")]
    for hand in known.hands:
        (place,) = hand.places
        assert not place.not_good_counsel
        assert not place.good_counsel_only
    text = describe_possible(known, NAMES)
    assert "at least one of Bob's act I tile and Cid's act I tile is not Good Counsel" in text, text
    assert two_counsels not in text
    assert "I0" not in text
    assert b'"not_all_good_counsel":[{"places":[{"seat":1,"place":0,"back":"I"}' in (
        msgspec.json.encode(known)
    )
    _uniform(state, known, consistent)
    after_pass, _, _ = checked[4]  # Bob passed: his is Good Counsel, Cid's is not
    assert after_pass.not_all_good_counsel == ()
    bob, cid = after_pass.hands
    assert bob.places[0].good_counsel_only
    assert cid.places[0].not_good_counsel


def test_the_fallback_draw_is_uniform_too(
    two_counsels: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no draw to reject (`ATTEMPTS` = 0), the world is built from the clause places'
    classes drawn by their weight: still never breaking the clause, still uniform."""
    del two_counsels
    known, state, consistent = check_every_seq(disjunction())[2]
    monkeypatch.setattr(beowulf_knowledge, "ATTEMPTS", 0)
    _uniform(state, known, consistent)


def _uniform(state: BeowulfState, known: Any, consistent: set[Any]) -> None:
    """`SAMPLES` worlds (seed 2026): each a consistent deal, and the deals equally often
    (chi-square goodness of fit, rejected at p < 0.001 only)."""
    rnd = random.Random(2026)
    drawn = Counter(
        deal_of(beowulf_knowledge.sample(state, known, ANN, rnd), state.seats)
        for _ in range(SAMPLES)
    )
    assert set(drawn) <= consistent, set(drawn) - consistent  # never a broken clause
    expected = SAMPLES / len(consistent)
    statistic = sum((drawn[d] - expected) ** 2 / expected for d in consistent)
    assert statistic < chi_square_critical(len(consistent) - 1), (statistic, drawn)


def test_the_board_drawn_above_is_the_one_built() -> None:
    """K5 and L5 free, next to tiles only; the Drakkars on row 1 have no free neighbour."""
    state = board(3, counting().unseen)
    grid = geometry(state)
    assert [grid.name(sq) for sq in FREE] == ["K5", "L5"]
    for square, figure in enumerate(state.figures):
        if figure is not None:
            assert all(n not in FREE for n in grid.neighbours(square))
