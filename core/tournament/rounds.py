"""Pairing the next round: whether it is a round or the final table (or none is due),
who sits at which table and in which seat, and the games created for its tables, with
their ids, seeds and a duplicate round's deal. The seating algorithms themselves are in
core/tournament/pairing.py; the standings they follow in core/tournament/standing.py.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence

from skald.core.errors import IllegalMove
from skald.core.rules import get_rules
from skald.core.tournament import pairing
from skald.core.tournament.games import GameDesk
from skald.core.tournament.standing import ranked, tallies
from skald.core.tournament.state import TournamentState
from skald.events.tournament import RoundPaired, SeatedTable

TABLE_ID_LIKE = "%.r%.t%"
"""An SQL LIKE pattern every tournament table's id matches (see `table_game_id`)."""


def table_game_id(tournament: str, number: int, table: int, suffix: str = "") -> str:
    """The id of round `number`'s table `table` of `tournament` (`T.r2.t3`; a replay or
    the final table adds its suffix)."""
    return f"{tournament}.r{number}.t{table}{suffix}"


def next_round(state: TournamentState, games: GameDesk) -> RoundPaired:
    """The next round (or the final table) paired, its games created through `games`;
    IllegalMove, creating nothing, when none is due."""
    final = _next_is_final(state)
    number = len(state.rounds) + 1
    groups, byes = _final_table(state) if final else _pairing(state, number, _sizes(state))
    deal = f"{state.id}/round-{number}" if state.config.format == "duplicate" else None
    deal_seed = secrets.token_hex(32) if deal else None
    tables = tuple(
        SeatedTable(
            table=k,
            game=new_game(games, state, number, k, seats, deal, deal_seed),
            seats=seats,
        )
        for k, seats in enumerate(groups, start=1)
    )
    return RoundPaired(round=number, tables=tables, byes=byes, deal=deal, final=final)


def new_game(
    games: GameDesk,
    state: TournamentState,
    number: int,
    table: int,
    seats: Sequence[str],
    deal: str | None,
    deal_seed: str | None,
    suffix: str = "",
) -> str:
    """Create the game of round `number`'s table `table` (a replay: with its `suffix`)."""
    config = state.config
    seed = deal_seed
    if seed is None and config.seed is not None:
        seed = f"{config.seed}/r{number}/t{table}{suffix}"
    return games.create(
        config.game,
        seats,
        seed=seed,
        options=dict(config.options),
        game_id=table_game_id(state.id, number, table, suffix),
        deal=deal,
        reproducible=deal is not None,
    )


def history(state: TournamentState) -> pairing.History:
    """What pairing needs from the rounds played so far."""
    found = tallies(state)
    return pairing.History(
        met={p: dict(t.met) for p, t in found.items()},
        first_seats={p: t.first_seats for p, t in found.items()},
        seat_sums={p: t.seat_sum for p, t in found.items()},
        byes={p: t.byes for p, t in found.items()},
    )


def _next_is_final(state: TournamentState) -> bool:
    if state.rounds and not state.rounds[-1].complete:
        waiting = [t.table for t in state.rounds[-1].tables if t.outcome is None]
        tables = "table " if len(waiting) == 1 else "tables "
        verb = " has" if len(waiting) == 1 else " have"
        raise IllegalMove(
            f"round {state.rounds[-1].round} is not over: {tables}"
            f"{', '.join(map(str, waiting))}{verb} no result that counts yet"
        )
    if len(state.rounds) < state.config.rounds:
        return False
    if state.config.final_table and not any(r.final for r in state.rounds):
        if len(state.active) < state.config.final_table:
            raise IllegalMove("fewer active players than seats at the final table")
        return True
    called = f'the tournament "{state.config.name}"' if state.config.name else "this tournament"
    if state.config.rounds == 1:
        raise IllegalMove(f"the one round of {called} is paired")
    raise IllegalMove(f"all {state.config.rounds} rounds of {called} are paired")


def _sizes(state: TournamentState) -> list[int]:
    rules = get_rules(state.config.game)
    exact = state.config.format == "duplicate"
    return pairing.table_sizes(len(state.active), state.config.table_size, rules.min_players, exact)


def _final_table(state: TournamentState) -> tuple[list[tuple[str, ...]], tuple[()]]:
    active = set(state.active)
    top = [p for _, p in ranked(state) if p in active][: state.config.final_table]
    return [pairing.seat_order(top, history(state), top)], ()


def _pairing(
    state: TournamentState, number: int, sizes: list[int]
) -> tuple[list[tuple[str, ...]], tuple[str, ...]]:
    config, past = state.config, history(state)
    if config.format == "round-robin" and config.table_size == 2:
        field = [p if p in state.active else None for p in state.players]
        scheduled = pairing.round_robin(field, number - 1, config.rounds, past)
        return list(scheduled.tables), scheduled.byes
    active = set(state.active)
    if number == 1 or config.format == "round-robin":
        order = list(state.active)
        if config.format != "round-robin":
            random.Random(f"{config.seed or state.id}/draw").shuffle(order)
    else:
        order = [p for _, p in ranked(state) if p in active]
    result = pairing.pair(order, sizes, past)
    if config.format == "round-robin" and any(
        past.meetings(p, table) for table in result.tables for p in table
    ):
        raise IllegalMove(
            f"round robin does not fit: round {number} cannot seat "
            f"{len(order)} players at tables of {config.table_size} without a repeat"
        )
    return list(result.tables), result.byes
