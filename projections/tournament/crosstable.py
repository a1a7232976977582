"""A tournament's crosstable: for each player (in standings order) and each round, the
table played at, the opponents, the place and the points earned there (a bye: its points).

Places and points come from the same rules as the standings (core/tournament/standing.py:
a table's seats ranked by its outcome's groups, tied seats sharing the mean of the places
they cover). A table whose result does not count yet (in play, held, disputed without a
ruling) shows the table and opponents with no place. Rendered for the Markdown and HTML
exports (escaped like the standings) and as columns of the CSV export.
"""

from __future__ import annotations

import html

import msgspec

from skald.core.tournament.standing import places, seat_points
from skald.core.tournament.state import TableState, TournamentState
from skald.projections.export.markdown import escape_markdown

ORDINALS = ("1st", "2nd", "3rd")


class Cell(msgspec.Struct, frozen=True, kw_only=True):
    """One player's round."""

    round: int
    table: int | None = None
    opponents: tuple[str, ...] = ()
    place: int | None = None
    """1-based place at the table (None: not counted yet, a bye or not paired)."""
    points: float | None = None
    bye: bool = False


class Row(msgspec.Struct, frozen=True, kw_only=True):
    """One player's line of the crosstable."""

    rank: int
    player: str
    cells: tuple[Cell, ...]
    points: float


class Crosstable(msgspec.Struct, frozen=True, kw_only=True):
    """Player × round."""

    rounds: tuple[int, ...]
    rows: tuple[Row, ...]


def ordinal(place: int) -> str:
    """`1st`, `2nd`, `3rd`, `4th`."""
    return ORDINALS[place - 1] if 1 <= place <= 3 else f"{place}th"


def crosstable(state: TournamentState, order: list[tuple[int, str, float]]) -> Crosstable:
    """The crosstable of `state`'s paired rounds, rows in `order` (rank, player, points)."""
    config = state.config
    cells: dict[str, dict[int, Cell]] = {player: {} for player in state.players}
    for paired in state.rounds:
        for player in paired.byes:
            cells[player][paired.round] = Cell(
                round=paired.round, bye=True, points=float(config.bye_points)
            )
        for table in paired.tables:
            outcome, size = table.outcome, len(table.seats)
            placed = places(outcome, size) if outcome is not None else None
            earned = seat_points(config.points, outcome, size) if outcome is not None else None
            for seat, player in enumerate(table.seats):
                cells.setdefault(player, {})[paired.round] = Cell(
                    round=paired.round,
                    table=table.table,
                    opponents=tuple(p for p in table.seats if p != player),
                    place=placed[seat] + 1 if placed is not None else None,
                    points=round(float(earned[seat]), 3) if earned is not None else None,
                )
    rounds = tuple(paired.round for paired in state.rounds)
    rows = tuple(
        Row(
            rank=rank,
            player=player,
            points=points,
            cells=tuple(cells.get(player, {}).get(r, Cell(round=r)) for r in rounds),
        )
        for rank, player, points in order
    )
    return Crosstable(rounds=rounds, rows=rows)


def placings_words(table: TableState) -> str:
    """`Ann 1st, Bob 2nd; ` once the table's result counts, else nothing."""
    outcome = table.outcome
    if outcome is None:
        return ""
    placed = places(outcome, len(table.seats))
    ranking = sorted(range(len(table.seats)), key=lambda seat: placed[seat])
    return ", ".join(f"{table.seats[s]} {ordinal(placed[s] + 1)}" for s in ranking) + "; "


def cell_words(cell: Cell) -> str:
    """`t2 1st (3) v Bob, Cid`, `bye (1)`, `t4 in play v Ann`, `–` (not paired)."""
    if cell.bye:
        return f"bye ({cell.points:g})" if cell.points is not None else "bye"
    if cell.table is None:
        return "–"
    result = (
        f"{ordinal(cell.place)} ({cell.points:g})"
        if cell.place is not None and cell.points is not None
        else "not counted yet"
    )
    return f"t{cell.table} {result} v {', '.join(cell.opponents)}"


def crosstable_md(cross: Crosstable) -> list[str]:
    """The crosstable as Markdown lines (a heading and a table)."""
    header = ["rank", "player", *(f"round {r}" for r in cross.rounds), "points"]
    lines = ["## Crosstable", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in cross.rows:
        cells = [str(row.rank), row.player, *(cell_words(c) for c in row.cells), f"{row.points:g}"]
        lines.append("| " + " | ".join(escape_markdown(" ".join(c.split())) for c in cells) + " |")
    return lines


def crosstable_html(cross: Crosstable) -> str:
    """The crosstable as an HTML table with its heading."""
    head = "".join(
        f"<th>{html.escape(h)}</th>"
        for h in ["rank", "player", *(f"round {r}" for r in cross.rounds), "points"]
    )
    body = "".join(
        "<tr>"
        + "".join(
            f"<td>{html.escape(c)}</td>"
            for c in [
                str(row.rank),
                row.player,
                *(cell_words(c) for c in row.cells),
                f"{row.points:g}",
            ]
        )
        + "</tr>"
        for row in cross.rows
    )
    return (
        f'<h2>Crosstable</h2><table class="crosstable"><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table>"
    )


def crosstable_columns(cross: Crosstable) -> tuple[list[str], dict[str, list[str]]]:
    """CSV columns per round (`r1_table`, `r1_place`, `r1_points`, `r1_opponents`; empty
    where none) and each player's cells, by player."""
    header = [
        f"r{r}_{name}" for r in cross.rounds for name in ("table", "place", "points", "opponents")
    ]
    rows = {
        row.player: [
            value
            for c in row.cells
            for value in (
                "" if c.table is None else str(c.table),
                "" if c.place is None else str(c.place),
                "" if c.points is None else f"{c.points:g}",
                "bye" if c.bye else "; ".join(c.opponents),
            )
        ]
        for row in cross.rows
    }
    return header, rows
