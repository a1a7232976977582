"""A small inline SVG board for the readable exports, with the annotations' markup.

Places are laid out on a grid: the Beowulf board's own rows and columns (with the tiles
and figures the viewer sees), or, for the map games, every location or space in name
order. Markup draws on top: circles, crosses, labels and arrows in their colours. Every
text passes through `html.escape`, so no name or label can inject markup.
(`skald.projections.boards`, the web UI's full boards, was not committed when this was
written; this stays self-contained.)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any

from skald.events.history import Mark

CELL = 44
COLOURS = {
    "red": "#c62828",
    "green": "#2e7d32",
    "blue": "#1565c0",
    "yellow": "#f9a825",
    "black": "#212121",
    "white": "#fafafa",
}


def layout(game: str, view: dict[str, Any], places: Sequence[str]) -> dict[str, tuple[int, int]]:
    """Each place's (column, row) on the drawing."""
    if game == "beowulf":
        return {name: (ord(name[0].upper()) - ord("A"), int(name[1:]) - 1) for name in places}
    cols = max(1, math.ceil(math.sqrt(len(places))))
    return {name: (index % cols, index // cols) for index, name in enumerate(sorted(places))}


def _centre(cell: tuple[int, int]) -> tuple[float, float]:
    return cell[0] * CELL + CELL / 2, cell[1] * CELL + CELL / 2


def _contents(view: dict[str, Any]) -> dict[str, str]:
    """What stands on each Beowulf square: a tile face, a figure's initials."""
    shown: dict[str, str] = {}
    for tile in view.get("tiles", ()):
        shown[tile["at"]] = str(tile["face"])
    for figure in view.get("figures", ()):
        shown[figure["at"]] = f"{figure['owner'][:2]}:{figure['kind'][:2]}"
    return shown


def _mark(mark: Mark, cells: dict[str, tuple[int, int]]) -> str:
    if mark.at not in cells:
        return ""
    colour = COLOURS.get(mark.colour, "#c62828")
    x, y = _centre(cells[mark.at])
    if mark.shape == "circle":
        return (
            f'<circle cx="{x}" cy="{y}" r="{CELL * 0.4}" fill="none" stroke="{colour}" '
            'stroke-width="3"/>'
        )
    if mark.shape == "cross":
        d = CELL * 0.3
        return (
            f'<path d="M{x - d} {y - d}L{x + d} {y + d}M{x - d} {y + d}L{x + d} {y - d}" '
            f'stroke="{colour}" stroke-width="3"/>'
        )
    if mark.shape == "label":
        return (
            f'<text x="{x}" y="{y + CELL * 0.45}" fill="{colour}" font-size="10" '
            f'text-anchor="middle">{escape(mark.label or "")}</text>'
        )
    if mark.to in cells:
        tx, ty = _centre(cells[mark.to])
        return (
            f'<line x1="{x}" y1="{y}" x2="{tx}" y2="{ty}" stroke="{colour}" stroke-width="3" '
            f'marker-end="url(#head-{mark.colour})"/>'
        )
    return ""


def board_svg(
    game: str, view: dict[str, Any], places: Sequence[str], marks: Sequence[Mark], caption: str
) -> str:
    """An inline SVG of the board as `view` shows it, with `marks` drawn on top."""
    cells = layout(game, view, places)
    cols = max((c for c, _ in cells.values()), default=0) + 1
    rows = max((r for _, r in cells.values()), default=0) + 1
    contents = _contents(view)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" role="img" '
        f'width="{cols * CELL}" height="{rows * CELL}" viewBox="0 0 {cols * CELL} {rows * CELL}">',
        f"<title>{escape(caption)}</title>",
        "<defs>"
        + "".join(
            f'<marker id="head-{name}" markerWidth="8" markerHeight="8" refX="6" refY="4" '
            f'orient="auto"><path d="M0 0L8 4L0 8z" fill="{colour}"/></marker>'
            for name, colour in COLOURS.items()
        )
        + "</defs>",
    ]
    for name, (col, row) in cells.items():
        x, y = col * CELL, row * CELL
        parts.append(
            f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#f5efe0" '
            f'stroke="#8d6e63" data-at="{escape(name)}"/>'
            f'<text x="{x + 3}" y="{y + 10}" font-size="8" fill="#6d4c41">{escape(name[:9])}</text>'
        )
        if name in contents:
            parts.append(
                f'<text x="{x + CELL / 2}" y="{y + CELL / 2 + 4}" font-size="11" '
                f'text-anchor="middle">{escape(contents[name])}</text>'
            )
    parts += [_mark(mark, cells) for mark in marks]
    parts.append("</svg>")
    return "".join(parts)
