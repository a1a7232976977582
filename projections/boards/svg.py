"""A few SVG building blocks shared by the game boards: escaping, elements, the document.

Every text and attribute that reaches the SVG passes through `esc`, so a player's name or
a face read from a view can never inject markup. Elements a page may make clickable carry
`data-at` (a square, location or space name exactly as the game's notation writes it).
"""

from __future__ import annotations

import textwrap
from html import escape

# One colour per seat, in seat order (Beowulf's figure colours first).
SEAT_COLOURS = ("#8b5a2b", "#2e7d32", "#757575", "#1565c0", "#c62828", "#6a1b9a")
FONT = "system-ui, sans-serif"


def esc(text: object) -> str:
    """Text safe inside an element or a double-quoted attribute."""
    return escape(str(text), quote=True)


def attrs(**values: object) -> str:
    """` name="value"` pairs; `class_` becomes `class`, `data_at` becomes `data-at`;
    None values are left out."""
    parts = []
    for name, value in values.items():
        if value is None:
            continue
        key = name.rstrip("_").replace("_", "-")
        parts.append(f' {key}="{esc(value)}"')
    return "".join(parts)


def rect(x: float, y: float, w: float, h: float, **extra: object) -> str:
    """A rectangle."""
    return f"<rect{attrs(x=_n(x), y=_n(y), width=_n(w), height=_n(h), **extra)}/>"


def circle(cx: float, cy: float, r: float, **extra: object) -> str:
    """A circle."""
    return f"<circle{attrs(cx=_n(cx), cy=_n(cy), r=_n(r), **extra)}/>"


def line(x1: float, y1: float, x2: float, y2: float, **extra: object) -> str:
    """A straight line."""
    return f"<line{attrs(x1=_n(x1), y1=_n(y1), x2=_n(x2), y2=_n(y2), **extra)}/>"


def text(x: float, y: float, content: object, size: float = 12, **extra: object) -> str:
    """A text centred on (x, y) unless `text_anchor` says otherwise."""
    extra.setdefault("text_anchor", "middle")
    extra.setdefault("dominant_baseline", "central")
    return f"<text{attrs(x=_n(x), y=_n(y), font_size=_n(size), **extra)}>{esc(content)}</text>"


def group(children: list[str], **extra: object) -> str:
    """A `<g>` around `children`."""
    return f"<g{attrs(**extra)}>{''.join(children)}</g>"


def side_panel(children: list[str]) -> str:
    """The panel drawn beside a board's places (seats, counts, the round): one group
    marked `data-panel="side"`, which a narrow page shows under the places instead."""
    return group(children, class_="panel", data_panel="side")


INDENT = 5  # px per leading space of a panel line


def wrapped(entry: str, chars: int) -> list[str]:
    """A side panel's line in pieces of at most `chars` characters (whole words), the
    later ones indented under it."""
    indent = " " * (len(entry) - len(entry.lstrip()) + 2)
    return textwrap.wrap(entry, chars, subsequent_indent=indent) or [entry]


def panel_line(left: float, y: float, entry: str, **extra: object) -> str:
    """One side panel line from (left, y), 12 px, indented by its leading spaces (SVG
    text drops them)."""
    indent = INDENT * (len(entry) - len(entry.lstrip()))
    return text(
        left + indent, y, entry.strip(), 12, text_anchor="start", class_="panel-line", **extra
    )


def title(content: object) -> str:
    """A tooltip / accessible name for the enclosing element."""
    return f"<title>{esc(content)}</title>"


def document(width: float, height: float, label: str, children: list[str]) -> str:
    """The whole SVG, scalable (viewBox), with an accessible label."""
    head = attrs(
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"0 0 {_n(width)} {_n(height)}",
        width=_n(width),
        height=_n(height),
        role="img",
        aria_label=label,
        font_family=FONT,
        class_="board",
    )
    return f"<svg{head}>{title(label)}{''.join(children)}</svg>"


def seat_colour(seat: int) -> str:
    """A seat's colour."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _n(value: float) -> str:
    """A number without a trailing `.0`."""
    return f"{value:g}" if isinstance(value, float) else str(value)
