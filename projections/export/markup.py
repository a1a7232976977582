"""The annotations' markup drawn on the game's real board (`projections.boards`, the SVG
the web table shows), for the readable exports.

The board marks every place a move can name with `data-at`; a mark is drawn at the centre
of that place's first shape (a Beowulf square or Beast location's rectangle, a Hägar
space's circle), read back from the drawing itself, so markup lands where the board put
the place whatever its layout. Each mark carries `data-mark-at` (and `data-mark-to` for
an arrow) so a reader or a test can find it. Every label passes through `html.escape`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from typing import Any

from skald.core.errors import NotFound
from skald.events.history import Mark
from skald.projections.boards import board_svg

COLOURS = {
    "red": "#c62828",
    "green": "#2e7d32",
    "blue": "#1565c0",
    "yellow": "#f9a825",
    "black": "#212121",
    "white": "#fafafa",
}
RADIUS = 16.0

_PLACE = re.compile(r'<g[^>]*\bdata-(?:at|square)="([^"]+)"[^>]*>(.*?)</g>', re.S)
_RECT = re.compile(
    r'<rect[^>]*?\bx="([-\d.]+)"[^>]*?\by="([-\d.]+)"[^>]*?\bwidth="([\d.]+)"'
    r'[^>]*?\bheight="([\d.]+)"'
)
_CIRCLE = re.compile(r'<circle[^>]*?\bcx="([-\d.]+)"[^>]*?\bcy="([-\d.]+)"')


def place_centres(svg: str) -> dict[str, tuple[float, float]]:
    """Each place's centre on a drawn board, by its notation name."""
    centres: dict[str, tuple[float, float]] = {}
    for match in _PLACE.finditer(svg):
        name, inner = match.group(1), match.group(2)
        if name in centres:
            continue
        box = _RECT.search(inner)
        if box:
            x, y, w, h = (float(v) for v in box.groups())
            centres[name] = (x + w / 2, y + h / 2)
            continue
        dot = _CIRCLE.search(inner)
        if dot:
            centres[name] = (float(dot.group(1)), float(dot.group(2)))
    return centres


def _mark(mark: Mark, centres: dict[str, tuple[float, float]]) -> str:
    if mark.at not in centres:
        return ""
    colour = COLOURS.get(mark.colour, COLOURS["red"])
    x, y = centres[mark.at]
    where = f'data-mark-at="{escape(mark.at)}" data-shape="{escape(mark.shape)}"'
    if mark.shape == "circle":
        return (
            f'<circle {where} cx="{x:g}" cy="{y:g}" r="{RADIUS:g}" fill="none" '
            f'stroke="{colour}" stroke-width="3"/>'
        )
    if mark.shape == "cross":
        d = RADIUS * 0.75
        return (
            f'<path {where} d="M{x - d:g} {y - d:g}L{x + d:g} {y + d:g}M{x - d:g} {y + d:g}'
            f'L{x + d:g} {y - d:g}" stroke="{colour}" stroke-width="3"/>'
        )
    if mark.shape == "label":
        return (
            f'<text {where} x="{x:g}" y="{y + RADIUS:g}" fill="{colour}" font-size="12" '
            f'font-weight="bold" text-anchor="middle">{escape(mark.label or "")}</text>'
        )
    if mark.to in centres:
        tx, ty = centres[mark.to]
        return (
            f'<line {where} data-mark-to="{escape(mark.to or "")}" x1="{x:g}" y1="{y:g}" '
            f'x2="{tx:g}" y2="{ty:g}" stroke="{colour}" stroke-width="3" '
            f'marker-end="url(#head-{escape(mark.colour)})"/>'
        )
    return ""


def _heads() -> str:
    return (
        "<defs>"
        + "".join(
            f'<marker id="head-{name}" markerWidth="8" markerHeight="8" refX="6" refY="4" '
            f'orient="auto"><path d="M0 0L8 4L0 8z" fill="{colour}"/></marker>'
            for name, colour in COLOURS.items()
        )
        + "</defs>"
    )


def marked_board(
    game: str, view: Any, players: Sequence[str], marks: Sequence[Mark], caption: str
) -> str:
    """The game's board as `view` shows it, captioned, with `marks` drawn on their places
    (empty for a game that has no board drawing)."""
    try:
        svg = board_svg(game, view, players)
    except NotFound:
        return ""
    head, _, rest = svg.partition(">")
    svg = f"{head}>{f'<desc>{escape(caption)}</desc>' if caption else ''}{rest}"
    if not marks:
        return svg
    centres = place_centres(svg)
    drawn = "".join(_mark(mark, centres) for mark in marks)
    return svg.removesuffix("</svg>") + f'{_heads()}<g class="markup">{drawn}</g></svg>'
