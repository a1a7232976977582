"""The exports of a tournament's standings.

Exports: `jsonl` is the stream itself (one envelope per line, what `import` reads back);
`csv`, `md` and `html` are the standings table with the crosstable (`crosstable`;
md and html add the rounds with each table's placings; csv has one number
per column: points, each tie-break, each rating's mu, sigma and ordinal, and per round
the table, place and points). Every value
from the stream is escaped for its format: html with `html.escape`; md with a backslash
before Markdown's active characters (as the game export does) and line breaks turned to
spaces; csv is quoted by the csv module, and a text cell beginning with `=`, `+`, `-`,
`@`, a tab or a carriage return gets a leading single quote (`'=1+2`), so a spreadsheet
shows it as text instead of running it as a formula (numbers such as `-3` are left as
they are).
"""

from __future__ import annotations

import csv
import html
import io
import re
from typing import Any

import msgspec

from skald.core.seats import printable
from skald.core.signing import Signer
from skald.core.tournament.state import TournamentState
from skald.core.tournament.stream import end_mark
from skald.core.tournament.words import plural
from skald.events.envelope import Envelope
from skald.projections.export.markdown import escape_markdown
from skald.projections.tournament.crosstable import (
    crosstable,
    crosstable_columns,
    crosstable_html,
    crosstable_md,
    placings_words,
)
from skald.projections.tournament.standings import Rating, Standings, table_status

EXPORT_FORMATS = ("jsonl", "csv", "md", "html")


def export_jsonl(envelopes: list[Envelope[Any]], signer: Signer | None = None) -> str:
    """The stream, one envelope per line, then its end mark (core/tournament/stream.py):
    its head signed by `signer`, as a game's export is, or without one, unsigned."""
    lines = [msgspec.json.encode(env).decode() for env in envelopes]
    last = envelopes[-1]
    receipt = None if signer is None else signer.receipt(last.stream, last.seq, last.hash)
    lines.append(end_mark(envelopes, receipt))
    return "".join(line + "\n" for line in lines)


def _rating_text(rating: Rating | dict[str, Rating]) -> str:
    if isinstance(rating, Rating):
        return f"{rating.mu:.2f} ± {rating.sigma:.2f}"
    return " / ".join(f"{role} {r.mu:.2f} ± {r.sigma:.2f}" for role, r in rating.items())


def _rows(table: Standings) -> tuple[list[str], list[list[str]]]:
    names = list(table.standings[0].tiebreaks) if table.standings else []
    header = ["rank", "player", "points", *names, "games", "byes", "rating"]
    rows = [
        [
            str(row.rank),
            row.player + (" (withdrawn)" if row.withdrawn else ""),
            f"{row.points:g}",
            *(f"{row.tiebreaks[n]:g}" for n in names),
            str(row.games),
            str(row.byes),
            _rating_text(row.rating),
        ]
        for row in table.standings
    ]
    return header, rows


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[-+]?\d+(\.\d+)?(e[-+]?\d+)?")


def csv_cell(text: str) -> str:
    """A cell a spreadsheet will not run: text beginning with a formula character gets a
    leading single quote (numbers are left alone)."""
    if text.startswith(FORMULA_START) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def _rating_columns(rating: Rating | dict[str, Rating]) -> list[tuple[str, float]]:
    """`rating_mu`, `rating_sigma`, `rating_ordinal` (per role in Beast:
    `rating_beast_mu`, ...), one number each."""
    if isinstance(rating, Rating):
        return [
            ("rating_mu", rating.mu),
            ("rating_sigma", rating.sigma),
            ("rating_ordinal", rating.ordinal),
        ]
    return [
        (f"rating_{role}_{name}", getattr(r, name))
        for role, r in rating.items()
        for name in ("mu", "sigma", "ordinal")
    ]


def export_csv(table: Standings, state: TournamentState | None = None) -> str:
    """The standings as CSV, one number per column (points, each tie-break, games, byes,
    each rating's mu, sigma and ordinal; withdrawn 1 or 0), then, given the tournament's
    state, the crosstable's columns per round (table, place, points, opponents). One header
    line; formula-like cells guarded, see above."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    names = list(table.standings[0].tiebreaks) if table.standings else []
    ratings = (
        [name for name, _ in _rating_columns(table.standings[0].rating)] if table.standings else []
    )
    cross_header, cross_rows = (
        crosstable_columns(crosstable(state, _order(table))) if state is not None else ([], {})
    )
    writer.writerow(
        ["rank", "player", "points", *names, "games", "byes", *ratings, "withdrawn", *cross_header]
    )
    for row in table.standings:
        cells = [
            str(row.rank),
            row.player,
            f"{row.points:g}",
            *(f"{row.tiebreaks[n]:g}" for n in names),
            str(row.games),
            str(row.byes),
            *(f"{value:g}" for _, value in _rating_columns(row.rating)),
            "1" if row.withdrawn else "0",
            *cross_rows.get(row.player, []),
        ]
        writer.writerow([csv_cell(cell) for cell in cells])
    return buffer.getvalue()


def _order(table: Standings) -> list[tuple[int, str, float]]:
    return [(row.rank, row.player, row.points) for row in table.standings]


def standings_text(table: Standings) -> str:
    """The standings as tab-separated lines for a terminal (the CLI's `standings`)."""
    header, rows = _rows(table)
    return "\n".join("\t".join(" ".join(cell.split()) for cell in row) for row in [header, *rows])


def _md_cell(text: str) -> str:
    """Text with Markdown's active characters escaped (as the game export does) and line
    breaks as spaces, so nothing from the stream makes markup or a line."""
    return escape_markdown(" ".join(printable(text).splitlines()))


def export_md(state: TournamentState, table: Standings) -> str:
    """The standings and rounds as Markdown."""
    header, rows = _rows(table)
    config = state.config
    lines = [
        f"# {_md_cell(config.name)}",
        "",
        f"{config.game}, {config.format}, {plural(config.rounds, 'round')}, tables of "
        f"{config.table_size}; standings after round {table.round}",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *("| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows),
    ]
    lines += ["", *crosstable_md(crosstable(state, _order(table)))]
    for paired in state.rounds:
        lines += ["", f"## Round {paired.round}" + (" (final)" if paired.final else ""), ""]
        for t in paired.tables:
            lines.append(
                f"- table {t.table} `{t.game.replace('`', '')}`: "
                f"{_md_cell(', '.join(t.seats))}; {_md_cell(placings_words(t) + table_status(t))}"
            )
        if paired.byes:
            lines.append(f"- bye: {_md_cell(', '.join(paired.byes))}")
    return "\n".join(lines) + "\n"


def export_html(state: TournamentState, table: Standings) -> str:
    """The standings as a standalone HTML page (every value escaped)."""
    header, rows = _rows(table)
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows
    )
    title = html.escape(printable(state.config.name))  # an imported stream's name, too
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        f"</head><body><h1>{title}</h1><p>Standings after round {table.round}</p>"
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        f"{crosstable_html(crosstable(state, _order(table)))}{_rounds_html(state)}</body></html>\n"
    )


def _rounds_html(state: TournamentState) -> str:
    """Each round's tables: who sat there, the result, its status."""
    parts = []
    for paired in state.rounds:
        items = "".join(
            f"<li>table {t.table}: {html.escape(', '.join(t.seats))}; "
            f"{html.escape(placings_words(t))}{html.escape(table_status(t))}</li>"
            for t in paired.tables
        )
        if paired.byes:
            items += f"<li>bye: {html.escape(', '.join(paired.byes))}</li>"
        final = " (final)" if paired.final else ""
        parts.append(f"<h2>Round {paired.round}{final}</h2><ul>{items}</ul>")
    return "".join(parts)
