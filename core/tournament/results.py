"""Taking results in: each finished game's outcome recorded with its chain check and its
audit's verdict, a verdict attached once it may be revealed, and a duplicate round's
results held back, its finished tables listed as waiting, until every table of the round
has finished. Nothing here writes: the desk (core/tournament/desk.py) appends.
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from skald.core.errors import Forbidden
from skald.core.tournament.games import GameDesk
from skald.core.tournament.state import RoundState, TableState, TournamentState
from skald.events.common import Outcome
from skald.events.tournament import AuditAttached, ResultRecorded
from skald.events.viewer import REFEREE, SPECTATOR


class WaitingTable(msgspec.Struct, frozen=True, kw_only=True):
    """A duplicate round's table whose game is over and whose result waits for the
    round's other tables (`playing`: the tables still playing)."""

    round: int
    table: int
    game: str
    playing: tuple[int, ...]

    def words(self) -> str:
        """`round 1, table 1 has finished; its result is taken in once table 2 has too`."""
        tables = ", ".join(map(str, self.playing))
        other = f"table {tables} has" if len(self.playing) == 1 else f"tables {tables} have"
        return (
            f"round {self.round}, table {self.table} has finished; a duplicate round's "
            f"results are taken in together, once {other} finished too"
        )


class TakenIn(msgspec.Struct, frozen=True, kw_only=True):
    """What taking results in did: the events appended, and the tables still waiting."""

    events: list[ResultRecorded | AuditAttached]
    waiting: list[WaitingTable]


def taken_in(state: TournamentState, games: GameDesk) -> TakenIn:
    """Every finished game's result, checked, and any verdict now revealed, as events to
    append; a duplicate round's finished tables as `waiting` while others still play (see
    `Tournaments.take_in`)."""
    batch: list[ResultRecorded | AuditAttached] = []
    waiting: list[WaitingTable] = []
    for paired in state.rounds:
        finished = {t.game: games.summary(t.game).outcome for t in paired.tables}
        revealed = paired.deal is None or all(o is not None for o in finished.values())
        if not revealed:
            waiting += _waiting(paired, finished)
        for table in paired.tables:
            outcome = finished[table.game]
            if table.result is None and outcome is not None and revealed:
                batch.append(_result(games, paired, table, outcome))
            elif table.result is not None and not table.verdict and revealed:
                verdict = _verdict(games, paired, table.game)
                if verdict:
                    batch.append(
                        AuditAttached(
                            round=paired.round,
                            table=table.table,
                            game=table.game,
                            verdict=verdict,
                        )
                    )
    return TakenIn(events=batch, waiting=waiting)


def _waiting(paired: RoundState, finished: Mapping[str, Outcome | None]) -> list[WaitingTable]:
    """A duplicate round's finished tables without a result while others still play."""
    playing = tuple(t.table for t in paired.tables if finished[t.game] is None)
    return [
        WaitingTable(round=paired.round, table=t.table, game=t.game, playing=playing)
        for t in paired.tables
        if finished[t.game] is not None and t.result is None
    ]


def _result(
    games: GameDesk, paired: RoundState, table: TableState, outcome: Outcome
) -> ResultRecorded:
    report = games.verify(table.game)
    chain = "ok" if report.ok else f"seq {report.bad_seq}: {report.reason}"
    if report.ok and tuple(games.summary(table.game).players) != table.seats:
        chain = "the game's players are not the table's"
    return ResultRecorded(
        round=paired.round,
        table=table.table,
        game=table.game,
        outcome=outcome,
        chain=chain,
        head=report.head,
        verdict=_verdict(games, paired, table.game),
    )


def _verdict(games: GameDesk, paired: RoundState, game: str) -> str:
    try:
        # A duplicate round's games stay sealed (reveal=referee); the desk reveals the
        # verdicts once the whole round is over. Other games: once public.
        return games.audit(game, REFEREE if paired.deal else SPECTATOR).verdict
    except Forbidden:
        return ""
