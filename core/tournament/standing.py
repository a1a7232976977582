"""Tallies and order of a tournament's standings at any round, from its state alone.

Table points by placing: the configured list (default 6/4/2/0) is laid over the table's
places from first to last and read by linear interpolation, so the first always gets the
list's first value and the last its last whatever the table size (a table of 3 gives
6/3/0, a table of 2 gives 6/0, a table of 6 gives 6/4.8/3.6/2.4/1.2/0); players tied at a
table share the mean of the places they cover. A bye scores `bye_points`.

Then tie-breaks in the configured order (events/tournament.py `TIEBREAKS`): `game`, the
sum of the game's own tie-break (`Outcome.tiebreaks`, e.g. Beowulf's diamonds on unused
figures); `score`, the sum of scores; `share`, the sum over games of the player's share
of the table's total score; `opponents`, the sum over every game of the opponents'
points (Buchholz-like); `h2h`, among the players still tied only: places won minus places
lost against each other at the tables they shared. Players tied on everything share a
rank. After a final table, its players take the top ranks in their final order (ties
there broken by the standings before it). Pairing uses the same order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from skald.core.tournament.state import RoundState, TournamentState
from skald.events.common import Outcome


def placing_points(points: Sequence[int], size: int, position: int) -> Fraction:
    """The points of the `position`-th place (0-based) at a table of `size`."""
    if size < 2 or len(points) < 2:
        return Fraction(points[0]) if points else Fraction(0)
    where = Fraction(position * (len(points) - 1), size - 1)
    low = int(where)
    if low >= len(points) - 1:
        return Fraction(points[-1])
    return points[low] + (where - low) * (points[low + 1] - points[low])


def seat_points(points: Sequence[int], outcome: Outcome, size: int) -> tuple[Fraction, ...]:
    """Each seat's table points; tied seats share the mean of the places they cover."""
    earned = [Fraction(0)] * size
    position = 0
    for group in outcome.ranking:
        shared = sum(
            (placing_points(points, size, position + k) for k in range(len(group))), Fraction(0)
        ) / len(group)
        for seat in group:
            earned[seat] = shared
        position += len(group)
    return tuple(earned)


def places(outcome: Outcome, size: int) -> tuple[int, ...]:
    """Each seat's place: the index of its ranking group (0 = first)."""
    found = [len(outcome.ranking)] * size
    for place, group in enumerate(outcome.ranking):
        for seat in group:
            found[seat] = place
    return tuple(found)


@dataclass
class Tally:
    """One player's totals so far."""

    player: str
    points: Fraction = Fraction(0)
    games: int = 0
    byes: int = 0
    game: int = 0
    score: int = 0
    share: Fraction = Fraction(0)
    opponents: Fraction = Fraction(0)
    first_seats: int = 0
    seat_sum: int = 0
    met: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Played:
    """One counted table: who sat where and how it ended."""

    round: int
    table: int
    seats: tuple[str, ...]
    outcome: Outcome


def played(rounds: Sequence[RoundState]) -> list[Played]:
    """The tables whose results count, in round and table order."""
    return [
        Played(paired.round, table.table, table.seats, outcome)
        for paired in rounds
        for table in paired.tables
        if (outcome := table.outcome) is not None
    ]


def tallies(state: TournamentState, last_round: int | None = None) -> dict[str, Tally]:
    """Every registered player's tally through `last_round` (None: all rounds)."""
    config = state.config
    rounds = state.through(last_round)
    found = {player: Tally(player) for player in state.players}
    for paired in rounds:
        for player in paired.byes:
            found[player].byes += 1
            found[player].points += config.bye_points
        for table in paired.tables:  # seats and meetings count once paired
            for seat, player in enumerate(table.seats):
                found[player].first_seats += seat == 0
                found[player].seat_sum += seat
                for other in table.seats:
                    if other != player:
                        found[player].met[other] = found[player].met.get(other, 0) + 1
    games = played(rounds)
    for game in games:
        _count(found, game, config.points)
    for game in games:  # opponents' points need every game's points first
        for player in game.seats:
            found[player].opponents += sum(
                (found[other].points for other in game.seats if other != player), Fraction(0)
            )
    return found


def _count(found: dict[str, Tally], game: Played, points: Sequence[int]) -> None:
    outcome, size = game.outcome, len(game.seats)
    earned = seat_points(points, outcome, size)
    total = sum(outcome.scores)
    for seat, player in enumerate(game.seats):
        tally = found[player]
        tally.games += 1
        tally.points += earned[seat]
        tally.score += outcome.scores[seat] if seat < len(outcome.scores) else 0
        tally.game += outcome.tiebreaks[seat] if seat < len(outcome.tiebreaks) else 0
        if total:
            tally.share += Fraction(outcome.scores[seat], total)


def head_to_head(group: Sequence[str], games: Sequence[Played]) -> dict[str, int]:
    """Places won minus places lost by each player against the others of `group`."""
    members = set(group)
    balance = dict.fromkeys(group, 0)
    for game in games:
        here = [seat for seat, player in enumerate(game.seats) if player in members]
        if len(here) < 2:
            continue
        placed = places(game.outcome, len(game.seats))
        for seat in here:
            for other in here:
                if placed[seat] < placed[other]:
                    balance[game.seats[seat]] += 1
                elif placed[seat] > placed[other]:
                    balance[game.seats[seat]] -= 1
    return balance


def ranked(state: TournamentState, last_round: int | None = None) -> list[tuple[int, str]]:
    """(rank, player) best first; tied players share a rank and are listed by name."""
    found = tallies(state, last_round)
    games = played(state.through(last_round))
    groups = _refine([sorted(found)], lambda p: found[p].points)
    for name in state.config.tiebreaks:
        if name == "h2h":
            groups = [
                part
                for group in groups
                for part in _refine([group], head_to_head(group, games).__getitem__)
            ]
        else:
            groups = _refine(groups, _attribute(found, name))
    groups = _final_first(state, last_round, groups)
    result: list[tuple[int, str]] = []
    rank = 1
    for group in groups:
        result.extend((rank, player) for player in group)
        rank += len(group)
    return result


def _attribute(found: dict[str, Tally], name: str) -> Callable[[str], Fraction | int]:
    def key(player: str) -> Fraction | int:
        value: Fraction | int = getattr(found[player], name)
        return value

    return key


def _refine(groups: list[list[str]], key: Callable[[str], Fraction | int]) -> list[list[str]]:
    """Split each group by `key`, highest first, keeping the groups' order."""
    refined: list[list[str]] = []
    for group in groups:
        values = sorted({key(player) for player in group}, reverse=True)
        refined.extend([p for p in group if key(p) == value] for value in values)
    return refined


def _final_first(
    state: TournamentState, last_round: int | None, groups: list[list[str]]
) -> list[list[str]]:
    final = next((r for r in state.through(last_round) if r.final and r.complete), None)
    if final is None:
        return groups
    table = final.tables[0]
    outcome = table.outcome
    assert outcome is not None  # a complete round's tables all count
    before = [player for group in groups for player in group]
    top = [
        sorted((table.seats[seat] for seat in group), key=before.index) for group in outcome.ranking
    ]
    finalists = set(table.seats)
    return [[p] for group in top for p in group] + [
        rest for group in groups if (rest := [p for p in group if p not in finalists])
    ]
