"""`skald score POSITION.json`: score a Beowulf board as at the end of an act.

Implements the rulebook's "End of an Act" scoring (with Betrayal, Royal Dragon Horn and
Throat) for a board typed in as JSON (DESIGN.md "Beowulf position file"):

    {"game": "beowulf", "rows": 5, "cols": 6,
     "tiles":   [{"at": "D1", "value": 0, "ability": "throat"}, ...],
     "figures": [{"at": "A1", "owner": "brown", "kind": "drakkar"}, ...]}

Columns are letters from A, rows numbers from 1 at the top. Owners are seat colours
(brown, green, gray, blue). Every problem raises `InvalidPosition` naming the entry.
`score_position` returns a `ScoreReport` whose JSON is
`{"figures": [{"at", "owner", "kind", "sum", "diamonds", "points"}], "totals": {owner: points}}`
(figures in file order, totals in colour order); `render_score` is its text form.
"""

from __future__ import annotations

from typing import Any

import msgspec

from skald.core.beowulf.board import Geometry
from skald.core.beowulf.data import ABILITIES, COLOURS, KINDS
from skald.core.beowulf.scoring import BoardTile, score_figures
from skald.core.errors import InvalidNotation

MAX_SIDE = 26


class InvalidPosition(InvalidNotation):
    """A position file that does not describe a Beowulf board."""


class FigureReport(msgspec.Struct, frozen=True):
    """One figure's score."""

    at: str
    owner: str
    kind: str
    sum: int
    diamonds: int
    points: int


class ScoreReport(msgspec.Struct, frozen=True):
    """Every figure's score and each owner's total."""

    figures: tuple[FigureReport, ...]
    totals: dict[str, int]


def score_position(data: dict[str, Any]) -> ScoreReport:
    """Validate a position file's data and score every figure on it."""
    if not isinstance(data, dict):
        raise InvalidPosition("a position must be a JSON object")
    _keys("position", data, {"rows", "cols", "tiles", "figures"}, {"game"})
    if data.get("game", "beowulf") != "beowulf":
        raise InvalidPosition(f'position: game must be "beowulf", not {data["game"]!r}')
    board = Geometry(_side(data, "rows"), _side(data, "cols"))
    taken: dict[int, str] = {}
    tiles = {
        _square(board, entry, f"tiles[{i}]", taken): _tile(entry, f"tiles[{i}]")
        for i, entry in enumerate(_list(data, "tiles"))
    }
    figures: dict[int, tuple[str, str]] = {}
    for i, entry in enumerate(_list(data, "figures")):
        where = f"figures[{i}]"
        square = _square(board, entry, where, taken)
        figures[square] = (
            _choice(entry, "owner", COLOURS, where),
            _choice(entry, "kind", KINDS, where),
        )
    scores = {
        s.at: s for s in score_figures(board, tiles, {sq: k for sq, (_, k) in figures.items()})
    }
    reports = tuple(
        FigureReport(
            board.name(sq), owner, kind, scores[sq].sum, scores[sq].diamonds, scores[sq].points
        )
        for sq, (owner, kind) in figures.items()
    )
    totals = {
        colour: sum(r.points for r in reports if r.owner == colour)
        for colour in COLOURS
        if any(r.owner == colour for r in reports)
    }
    return ScoreReport(reports, totals)


def render_score(report: ScoreReport) -> str:
    """A text table of the figures' scores and the totals."""
    lines = [f"{'at':<4} {'owner':<6} {'kind':<8} {'sum':>4} {'diamonds':>8} {'points':>6}"]
    lines += [
        f"{f.at:<4} {f.owner:<6} {f.kind:<8} {f.sum:>4} {f.diamonds:>8} {f.points:>6}"
        for f in report.figures
    ]
    totals = ", ".join(f"{owner} {points:+d}" for owner, points in report.totals.items())
    lines.append(f"totals: {totals or 'no figures'}")
    return "\n".join(lines)


def _keys(where: str, entry: dict[str, Any], required: set[str], optional: set[str]) -> None:
    missing = sorted(required - entry.keys())
    unknown = sorted(entry.keys() - required - optional)
    if missing:
        raise InvalidPosition(f"{where}: missing {', '.join(missing)}")
    if unknown:
        raise InvalidPosition(f"{where}: unknown field {', '.join(unknown)}")


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _side(data: dict[str, Any], key: str) -> int:
    value = data[key]
    if not _integer(value) or not 1 <= value <= MAX_SIDE:
        raise InvalidPosition(
            f"position: {key} must be a whole number from 1 to {MAX_SIDE}, not {value!r}"
        )
    return int(value)


def _list(data: dict[str, Any], key: str) -> list[dict[str, Any]]:
    value = data[key]
    if not isinstance(value, list) or not all(isinstance(e, dict) for e in value):
        raise InvalidPosition(f"position: {key} must be a list of objects")
    return value


def _square(board: Geometry, entry: dict[str, Any], where: str, taken: dict[int, str]) -> int:
    required = {"at", "owner", "kind"} if where.startswith("figures") else {"at", "value"}
    _keys(where, entry, required, set() if where.startswith("figures") else {"ability"})
    name = entry["at"]
    index = board.index(name) if isinstance(name, str) else None
    if index is None:
        raise InvalidPosition(
            f"{where}: at={name!r} is not a square of the "
            f"{board.rows}x{board.cols} board (like A1 to "
            f"{board.name(board.size - 1)})"
        )
    if index in taken:
        raise InvalidPosition(f"{where}: {board.name(index)} is already taken by {taken[index]}")
    taken[index] = where
    return index


def _tile(entry: dict[str, Any], where: str) -> BoardTile:
    value, ability = entry["value"], entry.get("ability")
    if not _integer(value):
        raise InvalidPosition(f"{where}: value must be a whole number, not {value!r}")
    if ability is not None and ability not in ABILITIES:
        raise InvalidPosition(
            f"{where}: unknown ability {ability!r} (abilities: {', '.join(ABILITIES)}, or null)"
        )
    if ability == "throat" and value != 0:
        raise InvalidPosition(f"{where}: a throat has no value, not {value}")
    return BoardTile(value, ability)


def _choice(entry: dict[str, Any], key: str, choices: tuple[str, ...], where: str) -> str:
    value = entry[key]
    if value not in choices:
        raise InvalidPosition(f"{where}: {key}={value!r} is not one of {', '.join(choices)}")
    return str(value)
