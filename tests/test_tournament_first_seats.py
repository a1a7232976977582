"""First seats in round robins (Beast: seat 0 is the Beast): after the last round every
player's first-seat count is within one of every other's, all equal wherever the schedule
allows an even split, and within one after every round too. A review found a Beast round
robin of 3 at tables of 2 giving the Beast role 2/1/0, though a cycle gives each one."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, product
from pathlib import Path

import msgspec
import pytest

from skald.core.engine import Engine
from skald.core.store import EventStore
from skald.core.tournament.desk import Tournaments
from skald.core.tournament.pairing import History, circle, round_robin
from skald.projections.bots.autoplay import play_out, random_bot
from skald.projections.table import Table
from tests.cli_support import skald


def _spread(counts: Counter[str], players: list[str]) -> int:
    return max(counts[p] for p in players) - min(counts[p] for p in players)


def _best_spread(games: list[tuple[str, str]], had: Counter[str], players: list[str]) -> int:
    """The most even first-seat split any seating of `games` reaches (brute force)."""
    best = len(games) + max(had.values(), default=0)
    for firsts in product((0, 1), repeat=len(games)):
        counts = had.copy()
        counts.update(game[k] for game, k in zip(games, firsts, strict=True))
        best = min(best, _spread(counts, players))
    return best


def _most_rounds(count: int) -> int:
    return count - 1 + count % 2


def test_cli_beast_round_robin_of_three_makes_each_player_the_beast_once(tmp_path: Path) -> None:
    """The review's case, as a user runs it: each round one table and one bye."""
    db = f"sqlite:///{tmp_path}/t.db"
    code, out, _ = skald(
        "tournament", "new", "beast", "--players", "Ann,Bob,Cid", "--rounds", "3",
        "--format", "round-robin", "--table-size", "2", "--seed", "s", "--db", db,
    )  # fmt: skip
    assert code == 0
    tid = out.strip()
    seats, byes = [], []
    for _ in range(3):
        code, out, err = skald("tournament", "pair", tid, "--db", db)
        assert code == 0, err
        [table] = [msgspec.json.decode(line)["seats"] for line in out.splitlines()]
        seats.append(tuple(table))
        byes.append(err.strip().removeprefix("bye: "))
        assert skald("tournament", "autoplay", tid, "--db", db)[0] == 0
        assert skald("tournament", "result", tid, "--db", db)[0] == 0
    assert Counter(table[0] for table in seats) == {"Ann": 1, "Bob": 1, "Cid": 1}  # the Beast
    assert sorted(tuple(sorted(t)) for t in seats) == [
        ("Ann", "Bob"),
        ("Ann", "Cid"),
        ("Bob", "Cid"),
    ]  # everyone met everyone once
    assert sorted(byes) == ["Ann", "Bob", "Cid"]


ROUND_ROBINS = [(n, r) for n in range(3, 9) for r in range(1, _most_rounds(n) + 1)]


@pytest.mark.parametrize(("count", "rounds"), ROUND_ROBINS)
def test_two_player_round_robins_spread_first_seats_evenly(count: int, rounds: int) -> None:
    players = [f"P{i}" for i in range(count)]
    field: list[str | None] = list(players)
    firsts: Counter[str] = Counter()
    games = []
    for index in range(rounds):
        paired = round_robin(field, index, rounds, History(first_seats=dict(firsts)))
        pairs, byes = circle(field, index)
        assert {frozenset(t) for t in paired.tables} == {frozenset(p) for p in pairs}
        assert list(paired.byes) == byes  # the schedule and its byes are the circle's
        firsts.update(table[0] for table in paired.tables)
        games += [tuple(table) for table in paired.tables]
        assert _spread(firsts, players) <= 1, (index, firsts)  # after every round
    assert len({frozenset(g) for g in games}) == len(games)  # nobody meets anyone twice
    if count <= 6:  # small enough to try every seating
        assert _spread(firsts, players) == _best_spread(games, Counter(), players)
    if len(games) % count == 0:
        assert len(set(firsts[p] for p in players)) == 1  # an even split: reached


def test_a_withdrawal_still_ends_as_even_as_the_games_left_allow() -> None:
    players = [f"P{i}" for i in range(6)]
    field: list[str | None] = list(players)
    firsts: Counter[str] = Counter()
    for index in range(2):
        paired = round_robin(field, index, 5, History(first_seats=dict(firsts)))
        firsts.update(table[0] for table in paired.tables)
    field[3] = None  # P3 withdraws after round 2
    had, active = firsts.copy(), [p for p in players if p != "P3"]
    left = [(a, b) for number in range(2, 5) for a, b in circle(field, number)[0]]
    for index in range(2, 5):
        paired = round_robin(field, index, 5, History(first_seats=dict(firsts)))
        assert "P3" not in {p for t in paired.tables for p in t}
        firsts.update(table[0] for table in paired.tables)
    assert _spread(firsts, active) == _best_spread(left, had, active)


def _first_seat_counts(desk: Tournaments, tid: str) -> Counter[str]:
    state = desk.state(tid)
    return Counter(t.seats[0] for paired in state.rounds for t in paired.tables)


@pytest.mark.parametrize(
    ("count", "size", "rounds"),
    [(3, 2, 3), (4, 2, 3), (5, 2, 5), (6, 2, 5), (7, 2, 7), (7, 3, 3), (9, 3, 4)],
)
def test_desk_round_robins_keep_first_seats_even(
    store: EventStore, count: int, size: int, rounds: int
) -> None:
    """Through the desk, seats checked after every round (tables of 3: as many rounds as
    fit repeat-free; pairing.pair's first-seat rule)."""
    table = Table(Engine(store))
    desk = Tournaments(store, table)
    players = [f"P{i}" for i in range(count)]
    tid = desk.create("toy", players, rounds=rounds, format="round-robin", table_size=size)
    for number in range(rounds):
        desk.pair(tid)
        for k, (_, _, game) in enumerate(desk.open_games(tid)):
            play_out(table, game, random_bot, random.Random(10 * number + k))
        desk.collect(tid)
        counts = _first_seat_counts(desk, tid)
        assert _spread(counts, players) <= 1, (number, counts)
        seated = sum(counts.values())
        if seated % count == 0:
            assert all(counts[p] == seated // count for p in players)
    met = [frozenset(t.seats) for r in desk.state(tid).rounds for t in r.tables]
    pairs = [frozenset(p) for seats in met for p in combinations(sorted(seats), 2)]
    assert len(pairs) == len(set(pairs))  # nobody met anyone twice
    if size == 2 and rounds == _most_rounds(count):  # and everyone met everyone
        assert len(pairs) == count * (count - 1) // 2
