"""A tournament's results are only what its games say.

Every `tournament.result_recorded` of a stream is checked against the game it cites, as
that game is stored here: the game exists, it was at that table when the result was
taken (the stream folded up to it), its players are the table's, its outcome is the one
recorded, and, where the result says its chain was ok, the game's chain verifies to the
head recorded; a verdict recorded (with the result, or attached later) is the one the
game's audit gives. The first result that disagrees is named by its seq; an import refuses
the stream, `tournament verify` reports it. A re-hashed stream with a swapped winner
verifies as a chain, but not as evidence: its games say otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from skald.core.chain import ChainReport
from skald.core.errors import NotFound
from skald.core.tournament.games import GameDesk
from skald.core.tournament.state import RoundState, TournamentState, evolve, fold
from skald.events.envelope import Envelope
from skald.events.tournament import AuditAttached, ResultRecorded, TournamentEvent
from skald.events.viewer import REFEREE, SPECTATOR


def with_evidence(
    report: ChainReport, envelopes: Sequence[Envelope[TournamentEvent]], games: GameDesk
) -> ChainReport:
    """`report` of a chain, or, where it held, the first result its game contradicts."""
    if not report.ok:
        return report
    problem = result_problem(envelopes, games)
    if problem is None:
        return report
    return msgspec.structs.replace(report, ok=False, bad_seq=problem[0], reason=problem[1])


def result_problem(
    envelopes: Sequence[Envelope[TournamentEvent]], games: GameDesk
) -> tuple[int, str] | None:
    """The seq of the first result (or verdict) its game contradicts and why, or None
    (`envelopes`: a whole stream whose chain verified, its creation first)."""
    state = fold(envelopes[0].stream, [envelopes[0].event])
    for envelope in envelopes[1:]:
        event = envelope.event
        if isinstance(event, ResultRecorded | AuditAttached):
            problem = _problem(state, event, games)
            if problem:
                where = f"the result of round {event.round} table {event.table} ({event.game})"
                return envelope.seq, f"{where}: {problem}"
        state = evolve(state, event)
    return None


def _problem(state: TournamentState, event: Any, games: GameDesk) -> str:
    found = state.table_of(event.game)
    if found is None or (found[0].round, found[1].table) != (event.round, event.table):
        return "the game is not at that table"
    paired, table = found
    try:
        summary = games.summary(event.game)
    except NotFound:
        return "the game is not in this store (import it first)"
    if isinstance(event, AuditAttached):
        return _verdict_problem(paired, event.game, event.verdict, games)
    if tuple(summary.players) != table.seats:
        return f"the game's players are {', '.join(summary.players)}, not the table's"
    if summary.outcome != event.outcome:
        return (
            f"the game's outcome ranks {_ranking(summary.players, summary.outcome)}, "
            f"the recorded result {_ranking(summary.players, event.outcome)}"
        )
    if event.chain == "ok":
        report = games.verify(event.game)
        if not report.ok:
            return f"the game does not verify (seq {report.bad_seq}: {report.reason})"
        if report.head != event.head:
            return "the game's head is not the one recorded"
    if event.verdict:
        return _verdict_problem(paired, event.game, event.verdict, games)
    return ""


def _verdict_problem(paired: RoundState, game: str, verdict: str, games: GameDesk) -> str:
    found = games.audit(game, REFEREE if paired.deal else SPECTATOR).verdict
    return "" if found == verdict else f"the game's audit says {found}, not {verdict}"


def _ranking(players: Sequence[str], outcome: Any) -> str:
    if outcome is None:
        return "nobody (it is not finished)"
    return " > ".join(" = ".join(players[seat] for seat in tier) for tier in outcome.ranking)
