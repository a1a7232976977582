"""Hägar's `possible` is exact (issue 23), and its `sample` uniform over hidden histories.

The model (projections/hagar/groups.py) against brute force, on small worlds: places hold
ordered tokens; one or two deals (each in a uniformly random order) and some pieces the
viewer knows; then moves as the fold makes them: a piece of a place's reach leaves it for
another place, the others keeping their order, unseen (any of them, each as likely) or
seen (the viewer learns which piece, not which place), a top piece taken, a piece looked
at in place. Brute force replays every hidden history (every order of every deal, every
unseen choice) and keeps those whose observations are the truth's; the worlds they end
in, with how many histories end in each, are then compared with the model's: the same
worlds, the same share for each, and each token's `may_hold` exactly the pieces brute
force leaves there. Two positions are spelled out: the merge the model made before (a
known piece let into a city stack) and the order a source keeps (a known piece in the
first of four places is then first or gone, never third: why "a sub-multiset outside the
mixing places" is not exact either).

Then the game: an unseen robbery between two other Vikings, whose victim holds a piece
the viewer knows and two it does not, in a log of real events folded by `possible`.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import msgspec
import pytest

from skald.core.hagar.board import board
from skald.core.hagar.data import pieces
from skald.core.rng import Rng
from skald.events.envelope import Envelope
from skald.events.hagar import CityPlundered, LootRobbed, VikingBoarded
from skald.events.secret import seal
from skald.events.viewer import seat_viewer
from skald.projections.hagar import groups as hagar_groups
from skald.projections.hagar.groups import Groups
from skald.projections.hagar.knowledge import Spot
from skald.projections.knowledge.possible import describe_possible
from skald.projections.registry import redacted_log, views_for
from tests.test_hagar_support import RULES, created
from tests.test_information_sets import (
    _recommitted,
    chi_square_critical,
    hagar_at,
    hagar_member,
)

# -- a small world, by brute force and by the model ----------------------------------------


@dataclass(frozen=True)
class Move:
    """A piece leaves `source` for `target`: any of its reach (`top`: its first only);
    `seen`: the viewer learns which piece. `look`: the viewer sees the piece at `source`'s
    place `index`, which stays."""

    source: int
    target: int = -1
    top: bool = False
    seen: bool = False
    look: int = -1


@dataclass
class Small:
    """Places (each an ordered list), deals (pieces dealt in any order over the given
    slots), known pieces put at places, and the moves."""

    places: int
    deals: list[list[tuple[int, int]]]  # per deal: the (place, piece) slots, in order
    known: list[tuple[int, int]]  # (place, piece)
    moves: list[Move] = field(default_factory=list)


def _layout(small: Small, orders: tuple[tuple[int, ...], ...]) -> list[list[int]]:
    places: list[list[int]] = [[] for _ in range(small.places)]
    for deal, order in zip(small.deals, orders, strict=True):
        for (place, _), piece in zip(deal, order, strict=True):
            places[place].append(piece)
    for place, piece in small.known:
        places[place].append(piece)
    return places


def _replay(
    small: Small, orders: tuple[tuple[int, ...], ...], choices: tuple[int, ...]
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The world a hidden history ends in, and what the viewer saw on the way."""
    places = _layout(small, orders)
    seen: list[int] = []
    for move, choice in zip(small.moves, choices, strict=True):
        if move.look >= 0:
            seen.append(places[move.source][move.look])
            continue
        piece = places[move.source].pop(choice)
        places[move.target].append(piece)
        if move.seen:
            seen.append(piece)
    return tuple(map(tuple, places)), tuple(seen)


def _reaches(small: Small) -> list[int]:
    """How many pieces each move may take (counts are public: the same in every history)."""
    sizes = [len(p) for p in _layout(small, tuple(tuple(p for _, p in d) for d in small.deals))]
    reaches = []
    for move in small.moves:
        if move.look >= 0:
            reaches.append(1)
            continue
        reaches.append(1 if move.top else sizes[move.source])
        sizes[move.source] -= 1
        sizes[move.target] += 1
    return reaches


def brute_force(small: Small, truth: tuple[Any, ...]) -> Counter[tuple[tuple[int, ...], ...]]:
    """Every hidden history whose observations are the truth's: the worlds, counted."""
    _, observed = _replay(small, *truth)
    deals = itertools.product(*(itertools.permutations(p for _, p in d) for d in small.deals))
    orders = list(deals)
    worlds: Counter[tuple[tuple[int, ...], ...]] = Counter()
    for choices in itertools.product(*(range(n) for n in _reaches(small))):
        for order in orders:
            world, seen = _replay(small, order, choices)
            if seen == observed:
                worlds[world] += 1
    return worlds


def modelled(small: Small, truth: tuple[Any, ...]) -> tuple[Groups, list[list[int]]]:
    """The model fed what the viewer sees: the groups and the tokens in each place."""
    _, observed = _replay(small, *truth)
    sights = iter(observed)
    groups = Groups()
    places: list[list[int]] = [[] for _ in range(small.places)]
    for deal in small.deals:
        for (place, _), token in zip(deal, groups.new([p for _, p in deal]), strict=True):
            places[place].append(token)
    for place, piece in small.known:
        places[place].append(groups.known(piece))
    for move in small.moves:
        if move.look >= 0:
            groups.observe(places[move.source][move.look], next(sights))
            continue
        reach = places[move.source][:1] if move.top else places[move.source]
        token = groups.move(reach, next(sights) if move.seen else None)
        places[move.source].remove(token)
        places[move.target].append(token)
    return groups, places


def model_worlds(groups: Groups, places: list[list[int]]) -> dict[Any, float]:
    """Every world the model describes, with its share of the hidden histories."""
    worlds: dict[Any, float] = {}
    for key, share in groups.arrangements.items():
        label = {**groups.of, **dict(zip(groups.mixed, key, strict=True))}
        tokens = {g: [t for t in label if label[t] == g] for g in set(label.values())}
        orders = [list(itertools.permutations(sorted(groups.pieces[g]))) for g in sorted(tokens)]
        each = share / math.prod(len(o) for o in orders)
        for choice in itertools.product(*orders):
            held = {}
            for g, chosen in zip(sorted(tokens), choice, strict=True):
                held.update(zip(tokens[g], chosen, strict=True))
            world = tuple(tuple(held[t] for t in place) for place in places)
            worlds[world] = worlds.get(world, 0.0) + each
    return worlds


def assert_exact(small: Small, truth: tuple[Any, ...]) -> None:
    counted = brute_force(small, truth)
    groups, places = modelled(small, truth)
    described = model_worlds(groups, places)
    assert set(described) == set(counted), (small, truth)
    total = sum(counted.values())
    for world, count in counted.items():
        assert described[world] == pytest.approx(count / total, abs=1e-9), world
    for index, place in enumerate(places):
        for slot, token in enumerate(place):
            assert groups.may_hold(token) == {w[index][slot] for w in counted}, (small, token)
    assert not groups.merged


def random_small(rnd: random.Random) -> tuple[Small, tuple[Any, ...]]:
    """A random small world (at most 12 pieces, 5 moves, `WORK` hidden histories) and a
    true hidden history."""
    while True:
        small, truth = _drawn_small(rnd)
        deals = math.prod(math.factorial(len(d)) for d in small.deals)
        if deals * math.prod(_reaches(small)) <= WORK:
            return small, truth


WORK = 20_000
"""The most hidden histories a random small world may have (brute force replays each)."""


def _drawn_small(rnd: random.Random) -> tuple[Small, tuple[Any, ...]]:
    places = rnd.randint(2, 4)
    pieces = iter(range(100))
    deals = []
    for _ in range(rnd.choice((1, 1, 2))):
        deals.append([(rnd.randrange(places), next(pieces)) for _ in range(rnd.randint(1, 5))])
    known = [(rnd.randrange(places), next(pieces)) for _ in range(rnd.randint(0, 2))]
    small = Small(places, deals, known)
    sizes = [len(p) for p in _layout(small, tuple(tuple(p for _, p in d) for d in deals))]
    for _ in range(rnd.randint(1, 5)):
        full = [p for p in range(places) if sizes[p]]
        source = rnd.choice(full)
        if rnd.random() < 0.15:
            small.moves.append(Move(source, look=rnd.randrange(sizes[source])))
            continue
        target = rnd.choice([p for p in range(places) if p != source])
        small.moves.append(Move(source, target, top=rnd.random() < 0.2, seen=rnd.random() < 0.3))
        sizes[source] -= 1
        sizes[target] += 1
    orders = tuple(tuple(rnd.sample([p for _, p in d], len(d))) for d in deals)
    choices = tuple(rnd.randrange(n) for n in _reaches(small))
    return small, (orders, choices)


def test_the_model_is_every_world_brute_force_finds_and_no_other() -> None:
    """600 random small worlds, each against every hidden history: the same worlds, each
    with its share of the histories, each token's pieces exactly those found there."""
    rnd = random.Random(23)
    mixing = 0
    for _ in range(600):
        small, truth = random_small(rnd)
        assert_exact(small, truth)
        groups, _ = modelled(small, truth)
        mixing += len(groups.arrangements) > 1
    assert mixing > 150  # the cases where an arrangement is needed are well represented


def test_past_the_bound_the_mixed_groups_merge_wider(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the bound on arrangements lowered to one, every world that needs two merges
    the groups it mixes: `merged` (so `exact` is False), and its worlds hold every world
    brute force finds (wider, never narrower), and more where it merged."""
    monkeypatch.setattr(hagar_groups, "LIMIT", 1)
    rnd = random.Random(7)
    wider = 0
    for _ in range(200):
        small, truth = random_small(rnd)
        groups, places = modelled(small, truth)
        counted = brute_force(small, truth)
        described = model_worlds(groups, places)
        assert set(counted) <= set(described)
        if not groups.merged:
            assert set(described) == set(counted)
        wider += len(described) > len(counted)
    assert wider > 20


def test_a_known_piece_robbed_unseen_is_not_let_into_the_stack() -> None:
    """Place 0 (a city stack) holds deal pieces 0, 1; place 1 (a Viking) holds deal piece
    2 and piece 9, known; one of his pieces goes, unseen, to place 2 (another Viking).
    Piece 9 is then with one of the two Vikings, never in the stack, which the merge the
    model made before allowed (one group of 0, 1, 2, 9 over all four places)."""
    small = Small(3, [[(0, 0), (0, 1), (1, 2)]], [(1, 9)], [Move(1, 2)])
    truth = (((0, 1, 2),), (0,))
    counted = brute_force(small, truth)
    assert {w[0] for w in counted} <= {(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)}
    assert all(9 not in w[0] for w in counted)
    groups, places = modelled(small, truth)
    assert groups.may_hold(places[0][0]) == {0, 1, 2}
    assert_exact(small, truth)


def test_the_source_keeps_its_order() -> None:
    """A Viking (place 0) holds piece 9, known, then takes three deal pieces unseen from a
    stack (place 1): he holds (9, a, b, c). One of his pieces goes, unseen, to place 2.
    Piece 9 is then in his first place or with the robber, never his second or third (the
    others slid left, 9 did not move right): a world where it is third is in no history.
    So a group's pieces outside the mixing places being a sub-multiset of its own is not
    the whole constraint: the places a source keeps keep their order."""
    plunder = Move(1, 0, top=True)
    small = Small(3, [[(1, 0), (1, 1), (1, 2)]], [(0, 9)], [plunder] * 3 + [Move(0, 2)])
    truth = (((0, 1, 2),), (0, 0, 0, 2))
    counted = brute_force(small, truth)
    where = {(0, w[0].index(9)) if 9 in w[0] else (2, w[2].index(9)) for w in counted}
    assert where == {(0, 0), (2, 0)}
    assert_exact(small, truth)
    groups, places = modelled(small, truth)
    assert 9 not in groups.may_hold(places[0][1]) | groups.may_hold(places[0][2])
    assert 9 in groups.may_hold(places[0][0]) & groups.may_hold(places[2][0])


# -- the game ------------------------------------------------------------------------------


def enveloped(events: list[Any]) -> list[Envelope[Any]]:
    """`events` as a stream's envelopes, seq 1 on (hashes are placeholders)."""
    moment = datetime(2026, 1, 1, tzinfo=UTC)
    return [
        Envelope(
            stream="g", seq=s, recorded_at=moment, actor="", event=e, prev_hash="", hash=f"h{s}"
        )
        for s, e in enumerate(events, start=1)
    ]


def _ambush_log(draw: int) -> tuple[list[Envelope[Any]], Any]:
    """Four Vikings. Ann (seat 0, the viewer) plunders a city (she sees piece p) and loads
    it on her ship. Bob plunders two cities and loads both (Ann does not see what), then
    robs Ann at sea: p (she sees it go). Dag plunders a city. Cid robs Bob at sea: his
    cargo piece number `draw` (2: p), unseen by Ann. The events are the reducer's (the
    moves that lead there are not played)."""
    state = RULES.initial(created(4))
    events: list[Any] = [created(4)]
    for event in RULES.start(state, Rng(b"exact")):
        state = RULES.evolve(state, event)
        events.append(event)
    cities, salt = board().cities, "00" * 16

    def add(event: Any) -> None:
        nonlocal state
        state = RULES.evolve(state, event)
        events.append(event)

    def plunder(seat: int, city: str) -> None:
        top = state.stacks[cities.index(city)][0]
        add(CityPlundered(seat, city, seal(top, frozenset({seat}), salt)))

    def rob(seat: int, victim: int, slot: int) -> None:
        piece = state.vikings[victim].cargo[slot]
        add(
            LootRobbed(
                seat=seat,
                victim=victim,
                at_sea=True,
                piece=seal(piece, frozenset({seat, victim}), salt),
            )
        )

    plunder(0, cities[0])
    add(VikingBoarded(0, "h", 1))
    plunder(1, cities[1])
    add(VikingBoarded(1, "h", 1))
    plunder(1, cities[2])
    add(VikingBoarded(1, "h", 1))
    rob(1, 0, 0)
    plunder(3, cities[3])
    rob(2, 1, draw)
    return enveloped(events), state


def _where(state: Any, piece: int) -> tuple[str, ...]:
    for seat, viking in enumerate(state.vikings):
        for name in ("carried", "cargo", "home"):
            if piece in getattr(viking, name):
                return (name, str(seat), str(getattr(viking, name).index(piece)))
    for city, stack in zip(board().cities, state.stacks, strict=True):
        if piece in stack:
            return ("stack", city, str(stack.index(piece)))
    return ("elsewhere",)


def test_an_unseen_robbery_between_others_keeps_a_known_piece_with_them() -> None:
    """The position of `_ambush_log`, as Ann sees it. Brute force over the hidden history
    that matters: Cid's draw (all three, each the real reducer's). Every deal consistent
    with Ann's log has p on top of the city she plundered (she saw it), so p's way to Bob
    is the same in all of them and only the draw decides where it ends: in Bob's second
    cargo place (two draws of three) or with Cid (one). The model says exactly that: p is
    in no stack and not with Dag, Dag's piece may be any loose piece but p, and a world
    where p sits in a city stack or with Dag (which the merge allowed: Bob's, Cid's and
    the stacks' pieces in one group with p) is not among its worlds; its text says where
    p may be, with the shares; `sample` puts p with Bob two times in three (uniform over
    hidden histories; uniform over distinct worlds would make it one in two). Fails on
    the merging model: its Dag may hold p."""
    viewer = seat_viewer(0)
    views = views_for("hagar")
    worlds = {draw: _ambush_log(draw) for draw in (0, 1, 2)}
    log, state = worlds[0]
    p = state.vikings[1].cargo[1]
    bob, cid = ("cargo", "1", "1"), ("cargo", "2", "0")
    assert [_where(s, p) for _, s in worlds.values()] == [bob, bob, cid]
    for other_log, _ in worlds.values():  # Ann's log is the same whatever the draw
        assert _recommitted(redacted_log(other_log, viewer)) == _recommitted(
            redacted_log(log, viewer)
        )
    known = views.possible(redacted_log(log, viewer), viewer)
    unseen = sum(len(s) for s in state.stacks) + 3  # the loose loot Ann did not see
    values = {(k.seat, k.field, k.slot): sum(v.count for v in k.values) for k in known.pieces}
    assert values == {
        (1, "cargo", 1): unseen,  # a piece of Bob's cargo, or Cid's, may be p
        (1, "cargo", 2): unseen + 1,
        (2, "cargo", 1): unseen + 1,
        (3, "carried", 1): unseen,  # Dag's may not
    }
    assert known.exact
    text = describe_possible(known, ["Ann", "Bob", "Cid", "Dag"])
    found = pieces()[p]
    assert (
        f"the {found.name} {found.value} seen earlier is in one of: "
        "Bob's ship, piece 2 (67%), Cid's ship, piece 1 (33%)"
    ) in text
    assert "narrower" not in text
    merged = describe_possible(msgspec.structs.replace(known, exact=False), ["A", "B", "C", "D"])
    assert "too many ambushes between others to follow each piece" in merged
    for _, real in worlds.values():
        assert hagar_member(known, real, viewer)
        assert not hagar_member(known, _swapped(real, p, ("stack", board().cities[4], 0)), viewer)
        assert not hagar_member(known, _swapped(real, p, ("carried", 3, 0)), viewer)
    rnd = random.Random(5)
    drawn = Counter(_where(views.sample(state, known, viewer, rnd), p) for _ in range(900))
    assert set(drawn) == {bob, cid}
    assert chi_square(drawn, {bob: 2 / 3, cid: 1 / 3}) < chi_square_critical(1)
    assert chi_square(drawn, {bob: 1 / 2, cid: 1 / 2}) > chi_square_critical(1)


def _swapped(state: Any, piece: int, where: tuple[Any, ...]) -> Any:
    """`state` with `piece` and the piece at `where` (a field or a stack) swapped."""
    place, key, index = where
    spot = Spot(place, str(key), index)
    other = hagar_at(state, spot)
    home = _where(state, piece)

    def put(state: Any, at: tuple[Any, ...], value: int) -> Any:
        place, key, index = at[0], at[1], int(at[2])
        if place == "stack":
            stacks = [list(s) for s in state.stacks]
            stacks[board().cities.index(key)][index] = value
            return msgspec.structs.replace(state, stacks=tuple(map(tuple, stacks)))
        vikings = list(state.vikings)
        held = list(getattr(vikings[int(key)], place))
        held[index] = value
        vikings[int(key)] = msgspec.structs.replace(vikings[int(key)], **{place: tuple(held)})
        return msgspec.structs.replace(state, vikings=tuple(vikings))

    return put(put(state, (place, key, index), piece), home, other)


def chi_square(drawn: Counter[Any], shares: dict[Any, float]) -> float:
    total = sum(drawn.values())
    return sum((drawn[k] - total * s) ** 2 / (total * s) for k, s in shares.items())
