"""Beowulf's board as SVG, drawn from one viewer's `BeowulfView` (as builtins).

The grid (columns A.., rows 1.. from the top) with printed Throats, tiles (face and
ability), figures (owner's colour, kind's letter), and beside it each seat's saga points,
supply and hand: faces only where the view holds them (the viewer's own seat, or every
seat for the referee), otherwise only the backs' acts, which everyone sees.
"""

from __future__ import annotations

from typing import Any

from skald.core.beowulf.printed import face_words, signed, supply_words
from skald.projections.boards.svg import circle, document, group, rect, side_panel, text, title

CELL = 56
MARGIN = 28
PANEL = 300
PILE_SHOWN = 4  # the pile's tiles the referee's panel names, top first
OWNER_FILL = {"brown": "#8b5a2b", "green": "#2e7d32", "gray": "#757575", "blue": "#1565c0"}
KIND_LETTER = {"beowulf": "B", "thane": "T", "castle": "C", "drakkar": "D"}
ROMAN = {1: "I", 2: "II", 3: "III"}


def _square(col: int, row: int) -> str:
    return f"{chr(65 + col)}{row + 1}"


def _cells(view: dict[str, Any]) -> list[str]:
    throats = set(view["printed_throats"])
    out = []
    for row in range(view["rows"]):
        for col in range(view["cols"]):
            at = _square(col, row)
            x, y = MARGIN + col * CELL, MARGIN + row * CELL
            if at in throats:
                cell = [rect(x, y, CELL, CELL, class_="throat", fill="#3e2723", stroke="#999")]
                cell.append(text(x + CELL / 2, y + CELL / 2, "#", 18, fill="#ffcc80"))
                out.append(group([title(f"{at}: printed Throat"), *cell], data_square=at))
            else:
                square = rect(x, y, CELL, CELL, class_="square", fill="#f5efe0", stroke="#999")
                out.append(group([title(at), square], class_="place", data_at=at))
    return out


def _tile(tile: dict[str, Any], origin: dict[str, tuple[int, int]]) -> str:
    """A placed tile as printed: its value large, its ability's name small beneath (the
    Throat by its name alone); its tooltip says it whole (`B2: +2 Beer`)."""
    x, y = origin[tile["at"]]
    ability = tile["ability"]
    throat = ability == "throat"
    fill = "#5d4037" if throat else "#ffe082"
    colour = "#ffcc80" if throat else "#3e2723"
    cx, cy = x + CELL / 2, y + CELL / 2
    parts = [
        title(f"{tile['at']}: {face_words(tile['face'])}"),
        rect(x + 4, y + 4, CELL - 8, CELL - 8, rx=6, fill=fill, stroke="#6d4c41"),
    ]
    if throat:
        parts.append(text(cx, cy, "Throat", 11, fill=colour, font_weight="bold"))
    else:
        named = _ability_lines(face_words(tile["face"]))
        top = cy - 6 * len(named)
        parts.append(text(cx, top, signed(tile["value"]), 15, fill=colour, font_weight="bold"))
        parts += [
            text(cx, top + 13 + 9 * i, words, 8, fill=colour) for i, words in enumerate(named)
        ]
    return group(parts, class_="tile", data_at=tile["at"])


def _pile_line(pile: list[str]) -> str:
    """The referee's look at the pile, top first, its first tiles as printed."""
    shown = ", ".join(face_words(face) for face in pile[:PILE_SHOWN])
    return f"pile, top first: {shown}" + (", …" if len(pile) > PILE_SHOWN else "")


def _ability_lines(printed: str) -> list[str]:
    """The ability of a printed face in at most two short lines: `+2 Royal Dragon Horn`
    -> [`Royal Dragon`, `Horn`]; none for a plain value."""
    words = printed.split(" ")[1:]
    if len(words) <= 1 or len(" ".join(words)) <= 11:
        return [" ".join(words)] if words else []
    cut = max(1, len(words) // 2 + (len(words) % 2))
    return [" ".join(words[:cut]), " ".join(words[cut:])]


def _figure(figure: dict[str, Any], origin: dict[str, tuple[int, int]]) -> str:
    x, y = origin[figure["at"]]
    fill = OWNER_FILL.get(figure["owner"], "#000")
    return group(
        [
            title(f"{figure['at']}: {figure['owner']} {figure['kind']}"),
            circle(
                x + CELL / 2, y + CELL / 2, CELL / 2 - 8, fill=fill, stroke="#fff", stroke_width=2
            ),
            text(x + CELL / 2, y + CELL / 2, KIND_LETTER.get(figure["kind"], "?"), 18, fill="#fff"),
        ],
        class_="figure",
        data_at=figure["at"],
    )


def _coordinates(view: dict[str, Any]) -> list[str]:
    out = []
    for col in range(view["cols"]):
        out.append(text(MARGIN + col * CELL + CELL / 2, MARGIN / 2, chr(65 + col), 13))
    for row in range(view["rows"]):
        out.append(text(MARGIN / 2, MARGIN + row * CELL + CELL / 2, row + 1, 13))
    return out


def hand_line(faces: list[str]) -> str:
    """A hand the viewer sees, its tiles as printed: `hand: Throat, +1, -1` (minus signs)."""
    return "hand: " + (", ".join(face_words(face) for face in faces) or "(empty)")


def _seats(view: dict[str, Any], left: float, players: tuple[str, ...]) -> list[str]:
    out = [
        text(
            left,
            MARGIN / 2,
            f"Act {ROMAN.get(view['act'], '-')} · pile {view['pile_size']}",
            14,
            text_anchor="start",
            font_weight="bold",
        )
    ]
    y = MARGIN + 10
    for seat in view["seats"]:
        acting = seat["seat"] in view["to_act"]
        fill = OWNER_FILL.get(seat["colour"], "#000")
        backs = ", ".join(ROMAN.get(a, "?") for a in seat["hand_backs"]) or "none"
        if seat["hand"] is None:
            hand = f"hand: {len(seat['hand_backs'])} tiles (backs {backs})"
        else:
            hand = hand_line(seat["hand"])
        out.append(
            group(
                [
                    rect(left, y, 14, 14, fill=fill),
                    text(
                        left + 20,
                        y + 7,
                        f"{'▶ ' if acting else ''}{_who(seat, players)} · "
                        f"{seat['points']} saga points",
                        13,
                        text_anchor="start",
                        font_weight="bold" if acting else "normal",
                    ),
                    text(
                        left + 20,
                        y + 25,
                        f"supply: {supply_words(seat['supply'])}",
                        11,
                        text_anchor="start",
                    ),
                    text(left + 20, y + 43, hand, 12, text_anchor="start", class_="hand"),
                ],
                class_="seat",
                data_seat=seat["seat"],
            )
        )
        y += 64
    if view.get("pile"):
        out.append(
            text(
                left,
                y + 4,
                _pile_line(view["pile"]),
                11,
                text_anchor="start",
            )
        )
    return out


def _who(seat: dict[str, Any], players: tuple[str, ...]) -> str:
    """A seat by its player's name with its colour ("Ann (brown)"); its colour alone when
    the drawing is given no names."""
    index = seat["seat"]
    if 0 <= index < len(players):
        return f"{players[index]} ({seat['colour']})"
    return str(seat["colour"])


def draw(view: dict[str, Any], players: tuple[str, ...] = ()) -> str:
    """The board and the seats as `view` shows them."""
    rows, cols = max(view["rows"], 1), max(view["cols"], 1)
    if view["act"] == 0:
        return document(
            480, 80, "Beowulf: not started", [text(240, 40, "Beowulf: not started", 16)]
        )
    origin = {
        _square(col, row): (MARGIN + col * CELL, MARGIN + row * CELL)
        for row in range(rows)
        for col in range(cols)
    }
    width = MARGIN * 2 + cols * CELL + PANEL
    height = max(MARGIN * 2 + rows * CELL, MARGIN + 20 + 64 * len(view["seats"]) + 30)
    children = [
        *_coordinates(view),
        *_cells(view),
        *(_tile(t, origin) for t in view["tiles"]),
        *(_figure(f, origin) for f in view["figures"]),
        side_panel(_seats(view, MARGIN * 2 + cols * CELL, players)),
    ]
    return document(
        width, height, f"Beowulf board, act {view['act']}, as {view['viewer']}", children
    )
