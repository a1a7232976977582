"""The audit report as Markdown, JSON or a standalone HTML page.

Markdown and HTML are drawn from the same `Check` lines and sections, so the two never
say different things; JSON is the report itself. Both open with the verdict and the
sentences that answer a dispute (`audit_story`), then per seat what it saw and when, told
as that seat read it, then the game told, and last the evidence: anomalies, checks,
undos, the hidden values as recorded (ids) and a legend of those ids.
Every value that came from a user (player names, seeds, entropy, moves) is escaped in
both: HTML by `html.escape`, Markdown by `_md` (no raw HTML, links, emphasis or table
cells can be injected through a name).
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import msgspec

from skald.projections.audit.report import AuditReport, Learned
from skald.projections.audit.story import answers, cast, evidence_legend
from skald.projections.narrative.common import GAME_TITLES

FORMATS = ("md", "json", "html")


class Check(msgspec.Struct, frozen=True):
    """One line of the checks section: what was checked, the result, whether it passed."""

    label: str
    text: str
    ok: bool


def render_audit(report: AuditReport, fmt: str) -> str:
    """The report in `fmt` (md, json, html)."""
    if fmt == "json":
        return msgspec.json.encode(report).decode()
    if fmt == "md":
        return _markdown(report)
    return _html(report)


def verdict_text(report: AuditReport) -> str:
    """One sentence: clean, or how many anomalies (and, for a partial copy, that it is
    one: the audit covers only what the copy holds)."""
    copy = f" This game is {report.partial}." if report.partial else ""
    if report.verdict == "clean":
        return f"Verdict: clean. Every check passed.{copy}"
    if report.verdict == "unverifiable":
        return (
            f"Verdict: not re-derived (no anomaly found): {report.rederivation.unsupported}.{copy}"
        )
    count = len(report.anomalies)
    return f"Verdict: {count} anomal{'y' if count == 1 else 'ies'}.{copy}"


def checks(report: AuditReport) -> list[Check]:
    """The checks section, line by line."""
    chain, commits, derived = report.chain, report.commitments, report.rederivation
    chain_text = "intact" if chain.ok else f"BROKEN at seq {chain.bad_seq}: {chain.reason}"
    entropy = ", ".join(f"{report.players[s]}: {e!r}" for s, e in report.entropy) or "none"
    seed = (
        f"{report.seed} (commitment {report.seed_commitment[:16]}…); {report.fairness}"
        if report.seed is not None
        else "not revealed"
    )
    entropy += "".join(
        f"; {report.players[s]} committed {c[:16]}…" for s, c in report.entropy_commitments
    )
    return [
        Check(
            "Hash chain",
            f"{chain_text} ({chain.checked} events, head {chain.head[:16]}…)",
            chain.ok,
        ),
        Check(
            "Commitments",
            f"{commits.checked} checked, {len(commits.failed)} failed, "
            f"{len(commits.inconsistent_reveals)} inconsistent reveals",
            not commits.failed and not commits.inconsistent_reveals,
        ),
        Check("Seed", seed, report.seed is not None),
        Check("Seat entropy", entropy, True),
        Check(
            "Rules re-derivation",
            f"{derived.decisions} decisions replayed through the rules, "
            f"{derived.derived_events} derived events matched, {derived.random_events} "
            f"random outcomes recomputed from the seed; checked through seq "
            f"{derived.checked_through}",
            derived.clean,
        ),
    ]


_MD_SPECIAL = str.maketrans(
    {
        **{char: "\\" + char for char in "\\`*_[]|#~"},  # ( ) ! link nothing without [ ]
        "<": "&lt;",
        ">": "&gt;",
        "&": "&amp;",
        "\n": " ",
        "\r": " ",
    }
)


def _md(text: object) -> str:
    """`text` as literal Markdown: no HTML, links, emphasis, code or table cells."""
    return str(text).translate(_MD_SPECIAL)


def _markdown(report: AuditReport) -> str:
    r = report
    lines = [
        f"# Audit of the {_md(GAME_TITLES.get(r.game, r.game))} game {_md(r.id)}",
        "",
        f"Players: {_md(', '.join(cast(r)))}",
        "",
        f"**{verdict_text(r)}**",
        "",
        " ".join(_md(sentence) for sentence in answers(r)),
        "",
        "## What each seat knew, and when",
        "",
    ]
    if r.knowledge_until is not None:
        lines += [_md(knowledge_note(r)), ""]
    for name, seat in zip(cast(r), r.knowledge, strict=True):
        lines.append(f"### {_md(name)}")
        lines += [
            f"- seq {item.seq}: {_md(item.told or item.value)}{_md(shown_words(item))}"
            for item in seat.learned
        ] or ["- nothing hidden"]
        lines.append("")
    lines += ["## Events, hidden values revealed", "", "| seq | by | event |", "|---|---|---|"]
    lines += [
        f"| {e.seq} | {_md(e.credit)} | {_md(e.text)}{' 🎲' if e.random else ''} |"
        for e in r.events
    ]
    lines += ["", "## Evidence", "", "### Anomalies", ""]
    lines += [
        f"- seq {f.seq}: {_md(f.rule)}" + (f" — {_md(f.detail)}" if f.detail else "")
        for f in r.anomalies
    ] or ["- none"]
    lines += ["", "### Checks", ""]
    lines += [f"- {c.label}: {_md(c.text)}" for c in checks(r)]
    lines += ["", "### Undo and redo", ""]
    lines += [
        f"- seq {u.seq}: {_md(u.action)} asked by {_md(u.asked_by)} (decision by {_md(u.author)})"
        for u in r.undos
    ] or ["- none"]
    lines += ["", "### Hidden values as recorded", ""]
    for seat in r.knowledge:
        lines += [
            f"- {_md(seat.player)}, seq {item.seq} ({_md(item.kind)}): {_md(item.value)}"
            for item in seat.learned
        ]
    lines += ["", "### Legend", ""]
    lines += [f"- {_md(name)} = {_md(face)}" for name, face in evidence_legend(r)] or [
        "- the evidence names its values as the game prints them"
    ]
    return "\n".join(lines) + "\n"


STYLE = """
body{font:14px/1.45 system-ui,sans-serif;max-width:72em;margin:2em auto;padding:0 1em;color:#1f2328}
h1{font-size:1.6em;margin-bottom:.2em} h2{margin-top:1.6em;border-bottom:1px solid #d0d7de}
.verdict{display:inline-block;padding:.4em .9em;border-radius:6px;font-weight:600;color:#fff}
.clean{background:#1a7f37} .anomalies{background:#cf222e}
table{border-collapse:collapse;width:100%} td,th{border:1px solid #d0d7de;padding:3px 6px;
text-align:left;vertical-align:top} th{background:#f6f8fa} .bad{color:#cf222e;font-weight:600}
.ok{color:#1a7f37} .random{color:#8250df} code{font-size:.92em} details{margin:.4em 0}
"""


def _e(text: object) -> str:
    return html.escape(str(text))


def _rows(header: tuple[str, ...], rows: Sequence[tuple[object, ...]], empty: str) -> str:
    if not rows:
        return f"<p>{_e(empty)}</p>"
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{_e(cell)}</td>" for cell in row) + "</tr>" for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def shown_words(item: Learned) -> str:
    """` Everyone saw +3 at seq 51, +5 at seq 60.` (empty when it was never shown)."""
    if not item.shown:
        return ""
    return " Everyone saw " + ", ".join(f"{face} at seq {seq}" for face, seq in item.shown) + "."


def knowledge_note(report: AuditReport) -> str:
    """Why "what each seat knew" stops early, when the hash chain breaks."""
    until = report.knowledge_until
    if until is None:
        return ""
    before = f"before seq {until}" if until > 1 else "for no seq"
    return (
        f"Listed {before} only: the hash chain breaks at seq {until}, and an event from "
        f"there on may be forged, so what it says a seat was shown proves nothing."
    )


def _html(report: AuditReport) -> str:
    r = report
    title = f"Audit of the {GAME_TITLES.get(r.game, r.game)} game {r.id}"
    check_items = "".join(
        f'<li><b>{_e(c.label)}</b>: <span class="{"ok" if c.ok else "bad"}">{_e(c.text)}'
        f"</span></li>"
        for c in checks(r)
    )
    anomalies = _rows(
        ("seq", "rule", "detail"), [(f.seq, f.rule, f.detail) for f in r.anomalies], "No anomalies."
    )
    undos = _rows(
        ("seq", "action", "asked by", "decision by"),
        [(u.seq, u.action, u.asked_by, u.author) for u in r.undos],
        "No decision was taken back.",
    )
    knowledge = "".join(
        f'<details class="seat" open><summary>{_e(name)}: {len(seat.learned)} hidden '
        f"values</summary>"
        + _rows(
            ("seq", "what this seat saw", "when everyone saw it"),
            [(i.seq, i.told or i.value, shown_words(i).strip()) for i in seat.learned],
            "Nothing hidden.",
        )
        + "</details>"
        for name, seat in zip(cast(r), r.knowledge, strict=True)
    )
    recorded = _rows(
        ("seat", "seq", "event", "value"),
        [(seat.player, i.seq, i.kind, i.value) for seat in r.knowledge for i in seat.learned],
        "No hidden value.",
    )
    legend = _rows(("id", "face"), evidence_legend(r), "The evidence names its values as printed.")
    events = "".join(
        f"<tr><td>{e.seq}</td><td>{_e(e.credit)}</td><td>{_e(e.text)}"
        f"{' <span class=random title=random>(random)</span>' if e.random else ''}</td></tr>"
        for e in r.events
    )
    said = "".join(f"<li>{_e(sentence)}</li>" for sentence in answers(r))
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{_e(title)}</title><style>{STYLE}</style></head><body>"
        f"<h1>{_e(title)}</h1><p>Players: {_e(', '.join(cast(r)))}</p>"
        f'<p id="verdict" class="verdict {_e(r.verdict)}">{_e(verdict_text(r))}</p>'
        f'<ul id="answers">{said}</ul>'
        "<h2>What each seat knew, and when</h2>"
        + (f'<p class="bad">{_e(knowledge_note(r))}</p>' if r.knowledge_until else "")
        + f"{knowledge}"
        "<h2>Events, hidden values revealed</h2><table><thead><tr><th>seq</th><th>by</th>"
        f"<th>event</th></tr></thead><tbody>{events}</tbody></table>"
        f'<h2 id="evidence">Evidence</h2><h3>Anomalies</h3>{anomalies}<h3>Checks</h3>'
        f"<ul>{check_items}</ul><h3>Undo and redo</h3>{undos}"
        f"<h3>Hidden values as recorded</h3>{recorded}<h3>Legend</h3>{legend}</body></html>\n"
    )
