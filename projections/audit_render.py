"""The audit report as Markdown, JSON or a standalone HTML page."""

from __future__ import annotations

import html

import msgspec

from core.chain import ChainReport
from projections.audit import AuditReport

FORMATS = ("md", "json", "html")


def render_audit(report: AuditReport, fmt: str) -> str:
    """The report in `fmt` (md, json, html)."""
    if fmt == "json":
        return msgspec.json.encode(report).decode()
    markdown = _markdown(report)
    if fmt == "md":
        return markdown
    return _html(report, markdown)


def _verdict_lines(report: AuditReport) -> list[str]:
    if report.verdict == "clean":
        return ["**Verdict: clean.** Every check passed."]
    lines = [f"**Verdict: {len(report.anomalies)} anomal"
             f"{'y' if len(report.anomalies) == 1 else 'ies'}.**", ""]
    lines += [f"- seq {f.seq}: {f.rule}" + (f" — {f.detail}" if f.detail else "")
              for f in report.anomalies]
    return lines


def _markdown(report: AuditReport) -> str:
    r, chain, commits, derived = report, report.chain, report.commitments, report.rederivation
    lines = [
        f"# Audit of {r.game} game {r.id}", "",
        f"Players: {', '.join(f'{i}={p}' for i, p in enumerate(r.players))}", "",
        *_verdict_lines(r), "",
        "## Checks", "",
        f"- Hash chain: {_chain_text(chain)} ({chain.checked} events, "
        f"head `{chain.head[:16]}…`)",
        f"- Commitments: {commits.checked} checked, {len(commits.failed)} failed, "
        f"{len(commits.inconsistent_reveals)} inconsistent reveals",
        f"- Seed: `{r.seed}` (commitment `{r.seed_commitment[:16]}…`)"
        if r.seed is not None else "- Seed: not revealed",
        f"- Seat entropy: {', '.join(f'{r.players[s]}: {e!r}' for s, e in r.entropy) or 'none'}",
        f"- Rules re-derivation: {derived.decisions} decisions replayed through the rules, "
        f"{derived.derived_events} derived events matched, {derived.random_events} random "
        f"outcomes recomputed from the seed; checked through seq {derived.checked_through}",
        "",
        "## Undo and redo", "",
    ]
    lines += [f"- seq {u.seq}: {u.action} asked by {u.asked_by} (decision by {u.author})"
              for u in r.undos] or ["- none"]
    lines += ["", "## What each seat knew, and when", ""]
    for seat in r.knowledge:
        lines.append(f"### {seat.player} (seat {seat.seat})")
        lines += [f"- seq {item.seq} ({item.kind}): {item.value}" for item in seat.learned] \
            or ["- nothing hidden"]
        lines.append("")
    lines += ["## Events, hidden values revealed", "", "| seq | actor | event |", "|---|---|---|"]
    lines += [f"| {e.seq} | {e.actor} | {e.text.replace('|', '/')}"
              f"{' 🎲' if e.random else ''} |" for e in r.events]
    return "\n".join(lines) + "\n"


def _chain_text(chain: ChainReport) -> str:
    return "intact" if chain.ok else f"BROKEN at seq {chain.bad_seq}: {chain.reason}"


def _html(report: AuditReport, markdown: str) -> str:
    title = html.escape(f"Audit of {report.game} game {report.id}")
    colour = "#1a7f37" if report.verdict == "clean" else "#cf222e"
    body = html.escape(markdown)
    return (
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{title}</title><style>body{{font:14px/1.5 system-ui,sans-serif;"
        "max-width:70em;margin:2em auto;padding:0 1em}}pre{{white-space:pre-wrap}}"
        f".verdict{{color:{colour};font-weight:bold;font-size:1.3em}}</style></head><body>"
        f"<h1>{title}</h1><p class=\"verdict\">Verdict: {html.escape(report.verdict)}</p>"
        f"<pre>{body}</pre></body></html>\n"
    )
