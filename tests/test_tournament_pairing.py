"""Pairing properties over random fields and rounds (pure: core/tournament/pairing.py)."""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from skald.core.tournament.pairing import History, circle, pair, table_sizes


def _record(history: dict[str, dict[str, object]], tables: tuple[tuple[str, ...], ...]) -> None:
    met, first, sums = history["met"], history["first"], history["sums"]
    for table in tables:
        first[table[0]] = first.get(table[0], 0) + 1  # type: ignore[operator]
        for seat, player in enumerate(table):
            sums[player] = sums.get(player, 0) + seat  # type: ignore[operator]
            for other in table:
                if other != player:
                    seen = met.setdefault(player, {})
                    seen[other] = seen.get(other, 0) + 1  # type: ignore[union-attr]


def _history(state: dict[str, dict[str, object]]) -> History:
    return History(
        met=state["met"],  # type: ignore[arg-type]
        first_seats=state["first"],  # type: ignore[arg-type]
        seat_sums=state["sums"],  # type: ignore[arg-type]
        byes=state["byes"],  # type: ignore[arg-type]
    )


def _partitions(players: list[str], sizes: list[int]) -> list[list[tuple[str, ...]]]:
    """Every split of `players` into tables of `sizes` (brute force, small fields only):
    the first player sits at a table of each size in turn, so with unequal sizes no split
    is missed whatever order the players come in."""
    if not sizes:
        return [[]] if not players else []
    found = []
    for size in set(sizes):
        others = list(sizes)
        others.remove(size)
        for rest in combinations(players[1:], size - 1):
            table = (players[0], *rest)
            left = [p for p in players if p not in table]
            found.extend([table, *more] for more in _partitions(left, others))
    return found


def _repeat_free_balanced_exists(seated: list[str], sizes: list[int], history: History) -> bool:
    fewest = min(history.first_seats.get(p, 0) for p in seated)
    leaders = {p for p in seated if history.first_seats.get(p, 0) == fewest}
    for split in _partitions(seated, sorted(sizes, reverse=True)):
        if any(history.meetings(p, t) for t in split for p in t):
            continue
        counts = [sum(p in leaders for p in t) for t in split]
        if (len(leaders) >= len(split) and min(counts) >= 1) or (
            len(leaders) < len(split) and max(counts) <= 1
        ):
            return True
    return False


@settings(max_examples=40, deadline=None)
@given(
    count=st.integers(min_value=1, max_value=9),
    preferred=st.integers(min_value=2, max_value=4),
    exact=st.booleans(),
    rounds=st.integers(min_value=1, max_value=5),
    seed=st.integers(min_value=0, max_value=10_000),
)
# Found by hypothesis: in round 4 the only repeat-free balanced splits seat the top player
# at the table of 2, which the search, always seating it at a table of 3, never tried.
@example(count=8, preferred=3, exact=False, rounds=4, seed=2)
def test_every_round_seats_everyone_once_legally_balanced_and_repeat_free_when_possible(
    count: int, preferred: int, exact: bool, rounds: int, seed: int
) -> None:
    players = [f"P{i}" for i in range(count)]
    rnd = random.Random(seed)
    state: dict[str, dict[str, object]] = {"met": {}, "first": {}, "sums": {}, "byes": {}}
    for _ in range(rounds):
        order = players[:]
        rnd.shuffle(order)  # any standings order
        sizes = table_sizes(count, preferred, 2, exact)
        history = _history(state)
        pairing = pair(order, sizes, history)
        seated = [p for t in pairing.tables for p in t]
        assert sorted(seated + list(pairing.byes)) == sorted(players)
        assert sorted((len(t) for t in pairing.tables), reverse=True) == sizes
        assert all(2 <= len(t) <= preferred for t in pairing.tables)
        if exact:
            assert all(len(t) == preferred for t in pairing.tables)
        elif count >= 2 and preferred > 2:
            assert not pairing.byes  # some legal table always takes everyone
        repeats = any(history.meetings(p, t) for t in pairing.tables for p in t)
        if repeats and seated:
            assert not _repeat_free_balanced_exists(seated, sizes, history)
        _record(state, pairing.tables)
        for player in pairing.byes:
            state["byes"][player] = state["byes"].get(player, 0) + 1  # type: ignore[operator]
        firsts = [state["first"].get(p, 0) for p in players]  # type: ignore[call-overload]
        assert max(firsts) - min(firsts) <= 1


def test_nine_players_at_tables_of_three_never_meet_twice_in_four_rounds() -> None:
    players = [f"P{i}" for i in range(9)]
    state: dict[str, dict[str, object]] = {"met": {}, "first": {}, "sums": {}, "byes": {}}
    for number in range(4):  # an affine plane of order 3 has exactly 4 such rounds
        order = players[:]
        random.Random(number).shuffle(order)
        pairing = pair(order, table_sizes(9, 3, 2), _history(state))
        _record(state, pairing.tables)
    met = state["met"]
    assert all(count == 1 for seen in met.values() for count in seen.values())  # type: ignore[attr-defined]
    assert all(len(seen) == 8 for seen in met.values())  # type: ignore[arg-type]
    assert sorted(state["first"].values()) == [1, 1, 1, 1, 1, 1, 2, 2, 2]  # type: ignore[type-var]


def test_table_sizes_fill_with_smaller_legal_tables() -> None:
    assert table_sizes(10, 4, 2) == [4, 3, 3]
    assert table_sizes(5, 4, 2) == [3, 2]
    assert table_sizes(11, 6, 2) == [6, 5]
    assert table_sizes(3, 2, 2) == [2]  # one bye
    assert table_sizes(1, 4, 2) == []
    assert table_sizes(7, 3, 2, exact=True) == [3, 3]  # duplicate: one bye


@given(count=st.integers(min_value=2, max_value=10))
@settings(max_examples=9, deadline=None)
def test_circle_round_robin_meets_everyone_exactly_once(count: int) -> None:
    players: list[str | None] = [f"P{i}" for i in range(count)]
    rounds = count - 1 + count % 2
    pairs = [frozenset(p) for index in range(rounds) for p in circle(players, index)[0]]
    assert len(pairs) == len(set(pairs)) == count * (count - 1) // 2
    for index in range(rounds):
        tables, byes = circle(players, index)
        assert sorted([p for t in tables for p in t] + byes) == sorted(players)  # type: ignore[type-var]
