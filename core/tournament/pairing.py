"""Pairing a round: table sizes, byes, who sits with whom, and in which seat.

Pure functions of the players in standings order and their history (who met whom, who
had the first seat, who had a bye). The choices, in order of precedence:

1. Table sizes: as many tables of the preferred size as the count allows, evened out
   with smaller legal tables (10 players, tables of 4: 4, 3, 3); byes only when no legal
   table is left (one player; an odd count at two-player tables; a duplicate round, whose
   tables all have the preferred size). Byes go to those with the most first seats (so
   the first-seat rule below holds), then the fewest byes, then the lowest standing.
2. Start positions: seat 0 (the first player; in Beast, the Beast) goes to the player at
   the table with the fewest first seats. The tables are formed so that this keeps every
   seated player's first-seat count within one of the others': while at least as many
   players as tables have the fewest first seats, each table gets one of them; otherwise
   they sit at different tables. This rule is never traded away. A two-player round
   robin, whose meetings the circle method fixes in advance, seats each round with the
   rest of its schedule in view instead (core/tournament/orient.py), so the rule holds
   after every round where the schedule allows it and always after the last one: all
   counts equal whenever they can be (3 players, 3 rounds: each is first once).
3. Repeat opponents: the tables are searched (depth first, table by table, each table
   led by the best-placed player left, at a table of each size still open, largest
   first, and filled nearest in the standings first) for a partition in which nobody
   meets anyone again; failing that, each player joins the
   table where they meet the fewest past opponents.
4. Like standings meet: the first partition found in that order keeps tables as close
   to the standings order as the rules above allow.
The other seats are filled so that who sat late before sits early now.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations

import msgspec

from skald.core.tournament.orient import seat_first

SEARCH_BUDGET = 20_000
"""Tables tried before giving up on a repeat-free partition (the search is exhaustive
for small fields, e.g. 9 players at tables of 3)."""


class Pairing(msgspec.Struct, frozen=True, kw_only=True):
    """A round's tables (players in seat order) and its byes."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]


class History(msgspec.Struct, frozen=True, kw_only=True):
    """What pairing needs to know of the rounds before."""

    met: Mapping[str, Mapping[str, int]] = {}
    first_seats: Mapping[str, int] = {}
    seat_sums: Mapping[str, int] = {}
    byes: Mapping[str, int] = {}

    def meetings(self, player: str, others: Sequence[str]) -> int:
        """How many of `others` `player` has met before."""
        seen = self.met.get(player, {})
        return sum(1 for other in others if seen.get(other, 0))


def table_sizes(count: int, preferred: int, minimum: int, exact: bool = False) -> list[int]:
    """The sizes of the tables for `count` players, largest first (the rest get byes)."""
    if exact:
        return [preferred] * (count // preferred)
    for seated in range(count, 0, -1):
        tables = -(-seated // preferred)
        base, extra = divmod(seated, tables)
        if base >= minimum:
            return [base + 1] * extra + [base] * (tables - extra)
    return []


def pair(order: Sequence[str], sizes: Sequence[int], history: History) -> Pairing:
    """Pair `order` (players in standings order) into tables of `sizes`."""
    byes = _byes(order, len(order) - sum(sizes), history)
    seated = [player for player in order if player not in byes]
    fewest = min((history.first_seats.get(p, 0) for p in seated), default=0)
    leaders = {p for p in seated if history.first_seats.get(p, 0) == fewest}
    groups = _search(seated, list(sizes), leaders, history)
    if groups is None:
        groups = _greedy(seated, list(sizes), leaders, history)
    tables = tuple(seat_order(group, history, seated) for group in groups)
    return Pairing(tables=tables, byes=tuple(p for p in order if p in byes))


def _byes(order: Sequence[str], count: int, history: History) -> set[str]:
    if count <= 0:
        return set()
    lowest_first = sorted(
        range(len(order)),
        key=lambda i: (
            -history.first_seats.get(order[i], 0),
            history.byes.get(order[i], 0),
            -i,
        ),
    )
    return {order[i] for i in lowest_first[:count]}


def _search(
    seated: list[str], sizes: list[int], leaders: set[str], history: History
) -> list[list[str]] | None:
    """A repeat-free partition keeping the first-seat rule, or None within the budget."""
    many = len(leaders) >= len(sizes)
    budget = [SEARCH_BUDGET]

    def fits(table: Sequence[str], left: list[str], tables_left: int) -> bool:
        here = sum(1 for p in table if p in leaders)
        remaining = sum(1 for p in left if p in leaders) - here
        if many:
            return here >= 1 and remaining >= tables_left - 1
        return here <= 1 and remaining <= tables_left - 1

    def extend(left: list[str], open_sizes: list[int]) -> list[list[str]] | None:
        if not open_sizes:
            return []
        anchor, rest = left[0], left[1:]
        # The anchor sits at some table: at one of each size still open (largest first),
        # else partitions where it sits at a smaller table would never be tried.
        for size in sorted(set(open_sizes), reverse=True):
            others = list(open_sizes)
            others.remove(size)
            for companions in combinations(rest, size - 1):
                budget[0] -= 1
                if budget[0] < 0:
                    return None
                table = [anchor, *companions]
                if any(history.meetings(p, table) for p in companions):
                    continue
                if not fits(table, left, len(open_sizes)):
                    continue
                chosen = set(companions)
                found = extend([p for p in rest if p not in chosen], others)
                if found is not None:
                    return [table, *found]
        return None

    found = extend(seated, sizes)
    return (
        None if found is None else sorted(found, key=len, reverse=True)
    )  # stable: table 1 largest


def _greedy(
    seated: list[str], sizes: list[int], leaders: set[str], history: History
) -> list[list[str]]:
    """Each table led by a first-seat candidate, the rest joining where they meet the
    fewest past opponents (then the nearest table in the standings)."""
    if len(leaders) >= len(sizes):
        heads = [p for p in seated if p in leaders][: len(sizes)]
    else:
        heads = [p for p in seated if p in leaders]
        heads += [p for p in seated if p not in leaders][: len(sizes) - len(heads)]
    heads.sort(key=seated.index)
    tables = [[head] for head in heads]
    for player in seated:
        if player in heads:
            continue
        open_tables = [i for i, table in enumerate(tables) if len(table) < sizes[i]]
        best = min(open_tables, key=lambda i: (history.meetings(player, tables[i]), i))
        tables[best].append(player)
    return tables


def seat_order(group: Sequence[str], history: History, order: Sequence[str]) -> tuple[str, ...]:
    """Seat 0 to the fewest first seats (then standings), the rest late-sitters first."""
    first = min(group, key=lambda p: (history.first_seats.get(p, 0), order.index(p)))
    others = sorted(
        (p for p in group if p != first),
        key=lambda p: (-history.seat_sums.get(p, 0), order.index(p)),
    )
    return (first, *others)


def circle(players: Sequence[str | None], index: int) -> tuple[list[list[str]], list[str]]:
    """Round `index` (0-based) of a two-player round robin by the circle method: its pairs
    (unseated) and byes (the odd one out, and the partners of withdrawn players, None)."""
    line: list[str | None] = list(players) + ([None] if len(players) % 2 else [])
    count = len(line)
    turn = index % (count - 1)
    rotating = line[1:]
    rotating = rotating[len(rotating) - turn :] + rotating[: len(rotating) - turn]
    line = [line[0], *rotating]
    pairs: list[list[str]] = []
    byes: list[str] = []
    for i in range(count // 2):
        a, b = line[i], line[count - 1 - i]
        if a is not None and b is not None:
            pairs.append([a, b])
        else:
            byes.extend(p for p in (a, b) if p is not None)
    return pairs, byes


def round_robin(
    players: Sequence[str | None], index: int, rounds: int, history: History
) -> Pairing:
    """Round `index` (0-based) of a two-player round robin of `rounds` by the circle
    method (`players`: registration order, None for the withdrawn), each table seated with
    the rounds left in view (core/tournament/orient.py `seat_first`)."""
    schedule = [
        [(a, b) for a, b in circle(players, number)[0]]
        for number in range(index, max(rounds, index + 1))
    ]
    tables = seat_first(schedule, history.first_seats, [p for p in players if p is not None])
    return Pairing(tables=tuple(tables), byes=tuple(circle(players, index)[1]))
