"""Beast's map as SVG, drawn from one viewer's `BeastView` (as builtins).

Locations on their grid, coloured by habitat (changed habitats included), zone borders
and names, blocked roads, the public pieces (settlers, animals), trails, watchtowers,
summons, the hunters, and the Beast's standee (its last known location). Traps show
their card and habitat only where the view holds them (the hunters, the referee). The
Beast's actual location and its hidden path (the active movement cards from the standee)
are drawn only when the view holds them: for the Beast's seat and the referee, and for
everyone once the table reveals the game after its end.
"""

from __future__ import annotations

import itertools
from typing import Any

import msgspec

from skald.core.beast.board import Board
from skald.core.beast.data import boards
from skald.core.beast.decide import phase_words
from skald.projections.beast.narrative import summon_words
from skald.projections.beast.view import WINNER_WORDS, BeastView, role_words, table_lines
from skald.projections.boards.svg import (
    circle,
    document,
    group,
    line,
    panel_line,
    rect,
    side_panel,
    text,
    title,
    wrapped,
)
from skald.projections.narrative.common import plural

CELL = 110
MARGIN = 30
PANEL = 310
PANEL_CHARS = 40  # a side panel line's characters at most (12 px text in PANEL)
HABITAT_FILL = {
    "settlement": "#f3e5ab",
    "forest": "#a5d6a7",
    "swamp": "#b0bec5",
    "cave": "#bcaaa4",
    "centre": "#fff59d",
}
PIECE_LETTER = {"farmer": "f", "noble": "n", "sheep": "s", "boar": "o", "bear": "r"}


def _origin(location: str) -> tuple[float, float]:
    col, row = ord(location[0]) - 65, int(location[1:]) - 1
    return MARGIN + col * CELL, MARGIN + row * CELL


def _locations(board: Board, habitats: dict[str, str]) -> list[str]:
    out = []
    for location in board.locations:
        x, y = _origin(location)
        habitat = habitats.get(location, board.habitat[location])
        out.append(
            group(
                [
                    title(f"{location}: {habitat}"),
                    rect(x, y, CELL, CELL, fill=HABITAT_FILL.get(habitat, "#eee"), stroke="#777"),
                    text(x + 14, y + 12, location, 11, fill="#333"),
                    text(x + CELL - 6, y + 12, habitat, 9, fill="#555", text_anchor="end"),
                ],
                class_="place",
                data_at=location,
            )
        )
    return out


def _borders(board: Board) -> list[str]:
    """Thick lines between neighbours of different zones, and bars across blocked roads."""
    zone_of = {loc: z for z, members in board.zones.items() for loc in members}
    out = []
    for location in board.locations:
        x, y = _origin(location)
        for dc, dr in ((1, 0), (0, 1)):
            other = f"{chr(ord(location[0]) + dc)}{int(location[1:]) + dr}"
            if other not in board.habitat:
                continue
            x1, y1 = (x + CELL, y) if dc else (x, y + CELL)
            x2, y2 = x + CELL, y + CELL
            central = board.centre in (location, other)
            if not central and zone_of.get(location) != zone_of.get(other):
                out.append(line(x1, y1, x2, y2, stroke="#4a148c", stroke_width=4))
            if other not in board.roads[location].values():
                mx, my = (x1 + x2) / 2, (y1 + y2) / 2
                bar = (mx - 4, my - 18, 8, 36) if dc else (mx - 18, my - 4, 36, 8)
                out.append(rect(*bar, fill="#212121", class_="blocked"))
    return out


def _pieces(view: dict[str, Any]) -> list[str]:
    here: dict[str, list[str]] = {}
    for location, kind, wounds in view["pieces"]:
        if not location:
            continue
        here.setdefault(location, []).append(PIECE_LETTER.get(kind, kind[:1]) + ("*" * wounds))
    out = []
    for location, letters in here.items():
        x, y = _origin(location)
        out.append(
            text(x + 8, y + CELL - 12, " ".join(letters), 12, text_anchor="start", class_="pieces")
        )
    return out


def _markers(view: dict[str, Any]) -> list[str]:
    out = []
    for location, count in view["trails"]:
        x, y = _origin(location)
        out.append(
            text(
                x + CELL - 8,
                y + CELL - 12,
                f"~{count}",
                13,
                text_anchor="end",
                fill="#6d4c41",
                font_weight="bold",
                class_="trail",
            )
        )
    for location in view["towers"]:
        x, y = _origin(location)
        out.append(
            group(
                [
                    title(f"{location}: watchtower"),
                    rect(x + CELL - 26, y + 24, 18, 22, fill="#5d4037"),
                    text(x + CELL - 17, y + 35, "T", 12, fill="#fff"),
                ],
                class_="tower",
            )
        )
    for name, location in view["summons"]:
        x, y = _origin(location)
        out.append(
            text(x + CELL / 2, y + 30, summon_words(name), 10, fill="#4a148c", class_="summon")
        )
    return out


def _hunters(view: dict[str, Any]) -> list[str]:
    out = []
    slots: dict[str, int] = {}
    for index, hand in enumerate(view["hands"]):
        if index == 0 or not hand["location"] or hand["dead"]:
            continue
        x, y = _origin(hand["location"])
        slot = slots.get(hand["location"], 0)
        slots[hand["location"]] = slot + 1
        cx, cy = x + 22 + slot * 26, y + CELL / 2 + 4
        out.append(
            group(
                [
                    title(f"{hand['character']} (hunter, seat {hand['seat']})"),
                    circle(cx, cy, 12, fill="#1565c0", stroke="#fff"),
                    text(cx, cy, hand["character"][:2], 10, fill="#fff"),
                ],
                class_="hunter",
            )
        )
    return out


def _beast(view: dict[str, Any]) -> list[str]:
    out = []
    if view["standee"]:
        x, y = _origin(view["standee"])
        out.append(
            group(
                [
                    title(f"the Beast's standee (last known): {view['standee']}"),
                    circle(
                        x + CELL - 26,
                        y + CELL / 2 + 4,
                        15,
                        fill="#fff",
                        stroke="#b71c1c",
                        stroke_width=3,
                        stroke_dasharray="4 3",
                    ),
                    text(x + CELL - 26, y + CELL / 2 + 4, "B?", 11, fill="#b71c1c"),
                ],
                class_="standee",
            )
        )
    path = view.get("active") or []
    if path and view["standee"]:
        points = [view["standee"], *(step["location"] for step in path if step["location"])]
        for a, b in itertools.pairwise(points):
            (ax, ay), (bx, by) = _origin(a), _origin(b)
            out.append(
                line(
                    ax + CELL / 2,
                    ay + CELL / 2,
                    bx + CELL / 2,
                    by + CELL / 2,
                    stroke="#b71c1c",
                    stroke_width=3,
                    stroke_dasharray="8 4",
                    class_="hidden-path",
                )
            )
        steps = " ".join(step["direction"] for step in path)
        out.append(title(f"hidden path: {steps}"))
    if view.get("beast_location"):
        x, y = _origin(view["beast_location"])
        out.append(
            group(
                [
                    title(f"the Beast (actual): {view['beast_location']}"),
                    circle(
                        x + CELL / 2,
                        y + CELL / 2 + 4,
                        16,
                        fill="#b71c1c",
                        stroke="#fff",
                        stroke_width=2,
                    ),
                    text(x + CELL / 2, y + CELL / 2 + 4, "B", 13, fill="#fff"),
                ],
                class_="beast-actual",
            )
        )
    return out


def _zones(board: Board, view: dict[str, Any]) -> list[str]:
    traps: dict[str, list[dict[str, Any]]] = {}
    for trap in view["traps"]:
        traps.setdefault(trap["zone"], []).append(trap)
    out = []
    for zone, members in board.zones.items():
        cells = [loc for loc in members if loc != board.centre]
        xs = [_origin(loc)[0] for loc in cells]
        ys = [_origin(loc)[1] for loc in cells]
        name = board.zone_names.get(zone, zone)
        cx, cy = sum(xs) / len(xs) + CELL / 2, sum(ys) / len(ys) + CELL / 2 + 26
        label = name
        for trap in traps.get(name, []):
            label += f" · trap ({trap['card']}, {trap['habitat']})" if trap["card"] else " · trap"
        out.append(
            text(
                cx, cy, label, 12, fill="#4a148c", font_weight="bold", class_="zone", opacity="0.85"
            )
        )
    return out


def _panel(view: dict[str, Any], players: tuple[str, ...]) -> list[str]:
    """The side panel's lines: the day, the viewer, the hands, what the viewer holds
    apart from them, the key."""
    lines = [
        _first_up(phase_words(view["phase"], view["day"])),
        f"viewing as {view['viewer']}"
        + (
            f" ({role_words(view['viewer'], view['role'])})"
            if view["role"] != view["viewer"]
            else ""
        ),
        f"Beast: last seen {view['standee']}, {plural(view['active_count'], 'hidden step')}",
    ]
    if view["winner"]:
        lines.append(WINNER_WORDS.get(view["winner"], view["winner"]))
    lines += table_lines(msgspec.convert(view, BeastView), players)
    lines.append("key: f farmer n noble s sheep o boar r bear")
    lines.append("~n trails · T watchtower · B? standee")
    return [part for entry in lines for part in wrapped(entry, PANEL_CHARS)]


def _first_up(words: str) -> str:
    """`the Beast's first move` -> `The Beast's first move`."""
    return words[:1].upper() + words[1:]


def draw(view: dict[str, Any], players: tuple[str, ...] = ()) -> str:
    """The map and the table around it as `view` shows them."""
    if not view["map"]:
        return document(
            480, 80, "Beast: not set up yet", [text(240, 40, "Beast: not set up yet", 16)]
        )
    board = boards()[view["map"]]
    habitats = dict(board.habitat) | {loc: h for loc, h in view["habitats"]}
    width = MARGIN * 2 + board.cols * CELL + PANEL
    panel = _panel(view, players)
    height = max(MARGIN * 2 + board.rows * CELL, MARGIN + 8 + 18 * len(panel) + 20)
    children = [
        *_locations(board, habitats),
        *_borders(board),
        *_zones(board, view),
        *_pieces(view),
        *_markers(view),
        *_hunters(view),
        *_beast(view),
        side_panel(
            [
                panel_line(MARGIN * 2 + board.cols * CELL, MARGIN + 8 + i * 18, entry)
                for i, entry in enumerate(panel)
            ]
        ),
    ]
    return document(width, height, f"Beast map {board.title}, as {view['viewer']}", children)
