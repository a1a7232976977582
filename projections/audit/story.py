"""The audit said for a player in a dispute: a few sentences that answer it (is the log
intact, did every draw come from the committed key, was any hidden value swapped, was a
revealed decision taken back, who won), drawn from the report's checks, and the legend
of the ids its evidence section shows."""

from __future__ import annotations

from skald.projections.audit.authors import authorship_lines
from skald.projections.audit.report import AuditReport
from skald.projections.narrative import Narrator, end_sentence
from skald.projections.narrative.common import plural
from skald.projections.narrative.legend import legend


def cast(report: AuditReport) -> list[str]:
    """Each seat as `Ann (brown)`."""
    narrator = Narrator(report.game, report.players)
    return [narrator.actor(str(seat)) for seat in range(len(report.players))]


def answers(report: AuditReport) -> list[str]:
    """The sentences that open the audit, after its verdict."""
    chain, commits, derived = report.chain, report.commitments, report.rederivation
    said = []
    if chain.ok:
        said.append(f"The log is intact: its {chain.checked} events form one unbroken chain.")
    else:
        said.append(f"The log was altered: its chain breaks at seq {chain.bad_seq}.")
    if not commits.failed and not commits.inconsistent_reveals:
        said.append(
            f"Every hidden value is the one committed when it was dealt, drawn or chosen "
            f"({plural(commits.checked, 'commitment')} checked): nothing hidden was swapped later."
        )
    if derived.unsupported:
        said.append(
            f"The decisions could not be replayed through the rules: {derived.unsupported}."
        )
    elif derived.clean:
        said.append(
            f"All {plural(derived.decisions, 'decision')} were legal, and every draw, shuffle "
            f"and roll ({derived.random_events}) was recomputed from the game's committed key "
            "and matches the log."
        )
    if report.seed_chosen:
        said.append(
            "The creator chose the seed: the draws are reproducible, and prove nothing "
            "against the creator."
        )
    undone = sum(1 for undo in report.undos if undo.action.startswith("undo"))
    if not undone:
        said.append("Nobody took a decision back.")
    elif derived.clean:  # the re-derivation refuses an undo play would refuse
        said.append(
            f"{plural(undone, 'decision was', 'decisions were')} taken back, each as the "
            "table allowed; an undo stops at anything revealed, so nobody took back a "
            "revealed decision."
        )
    said += authorship_lines(report.authors)
    for finding in report.anomalies:
        detail = f" ({finding.detail})" if finding.detail else ""
        said.append(f"At seq {finding.seq}: {finding.rule}{detail}.")
    if report.outcome is not None:
        said.append(end_sentence(report.game, report.players, report.outcome))
    return said


def evidence_legend(report: AuditReport) -> list[tuple[str, str]]:
    """`(id, face)` for the ids the evidence section shows."""
    shown = [(item.kind, item.value) for seat in report.knowledge for item in seat.learned]
    return legend(report.game, shown)
