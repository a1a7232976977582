"""Hägar's map as SVG, drawn from one viewer's `HagarView` (as builtins).

Spaces at the positions of `layout` (homes, harbours, cities with their loot
counts, the camp, seas with storms and crossroads, roads), sea lanes and roads, each
Viking (on foot or aboard) and his ship in his seat's colour, and beside the map each
Viking's public counts (carried, on the ship, at home, arrows). Loot faces appear only
for the collector's cards the view holds: the viewer's own, or all after the feast.
"""

from __future__ import annotations

import functools
from typing import Any

from skald.core.hagar.board import board
from skald.projections.boards.svg import (
    circle,
    document,
    group,
    line,
    panel_line,
    rect,
    seat_colour,
    side_panel,
    text,
    title,
    wrapped,
)
from skald.projections.hagar.layout import HEIGHT, WIDTH, label_positions, positions
from skald.projections.hagar.narrative import place_words
from skald.projections.narrative.common import plural

PANEL = 300
PANEL_CHARS = 44  # a side panel line's characters at most (12 px text in PANEL)
MAP_FILL = "#f1f8e9"
KIND_FILL = {
    "home": "#90caf9",
    "harbour": "#4fc3f7",
    "sea": "#e1f5fe",
    "road": "#d7ccc8",
    "city": "#ffcc80",
    "camp": "#ce93d8",
}
KIND_RADIUS = {"home": 15, "harbour": 11, "sea": 8, "road": 6, "city": 16, "camp": 14}
HIT = 16  # a place's hit circle (half the spread between spaces); a phone's page enlarges
# the playable ones' to a finger's width (api/web/narrow.js)


def _links() -> list[str]:
    graph, at = board(), positions()
    out = []
    for a, b in graph.data.lanes:
        out.append(line(*at[a], *at[b], stroke="#64b5f6", stroke_width=2, stroke_dasharray="5 4"))
    for a, b in (*graph.data.roads, *graph.data.arrows):
        out.append(line(*at[a], *at[b], stroke="#8d6e63", stroke_width=2))
    return out


def _space_title(name: str, kind: str, marks: str) -> str:
    """`Hamburg harbour (harbour)`, `Gotland (sea, storm)` (a name that says its kind
    already is not told it twice)."""
    words = f"{kind}, {marks}" if marks else kind
    if name.endswith(f" ({kind})"):
        return f"{name[: -len(kind) - 3]} ({words})"
    return f"{name} ({words})"


@functools.cache
def _labelled() -> tuple[tuple[str, str, float], ...]:
    """The spaces drawn with their names (cities, homes, the camp): space, name, radius."""
    return tuple(
        (space.id, place_words(space.id), KIND_RADIUS[space.kind])
        for space in board().data.spaces
        if space.kind in ("city", "home", "camp")
    )


def _spaces(loot: dict[str, int]) -> list[str]:
    graph, at = board(), positions()
    out = []
    for space in graph.data.spaces:
        x, y = at[space.id]
        radius = KIND_RADIUS[space.kind]
        name = place_words(space.id)
        marks = ("storm " if space.storm else "") + ("crossroads" if space.crossroads else "")
        parts = [
            title(_space_title(name, space.kind, marks.strip())),
            circle(x, y, max(radius, HIT), fill="transparent", class_="hit"),  # a finger's
            circle(x, y, radius, fill=KIND_FILL[space.kind], stroke="#37474f"),
        ]
        if space.storm:
            parts.append(text(x, y, "⚡", 10))
        if space.crossroads:
            parts.append(text(x, y, "+", 12, font_weight="bold"))
        if space.id in loot:
            parts.append(text(x, y, loot[space.id], 11, font_weight="bold", class_="loot-count"))
        out.append(group(parts, class_="place", data_at=space.id))
    return out


def _names() -> list[str]:
    """The names of the cities, homes and camp, over every space and lane (a halo of the
    map's colour keeps a name readable where a lane passes under it), each placed where
    it covers the fewest spaces (`label_positions`)."""
    labels = label_positions(_labelled())
    return [
        text(
            *labels[space],
            name,
            11,
            font_weight="bold",
            class_="place-name",
            stroke=MAP_FILL,
            stroke_width=3,
            paint_order="stroke",
        )
        for space, name, _radius in _labelled()
    ]


PHASE_WORDS = {
    "setup": "setting up",
    "throw": "to throw the sticks",
    "move": "to move",
    "arrow": "to shoot an arrow",
    "odin": "Odin's choice",
    "storm": "in a storm",
    "ambush": "an ambush",
    "announce": "to announce a direction",
    "moved": "moved",
    "roadside": "at the roadside",
    "over": "game over",
}
"""Each phase of a turn as the panel says it."""


def _who(seat: int, players: tuple[str, ...]) -> str:
    return players[seat] if 0 <= seat < len(players) else f"seat {seat + 1}"


def _side_by_side(vikings: list[dict[str, Any]], key: str, step: float) -> dict[int, float]:
    """Each seat's sideways shift among the pieces sharing its space (`key`: where a
    piece is): side by side, centred on the space, so none hides another (three Vikings
    at one fjord hid the first)."""
    sharing: dict[str, list[int]] = {}
    for viking in vikings:
        sharing.setdefault(viking[key], []).append(viking["seat"])
    return {
        seat: (i - (len(seats) - 1) / 2) * step
        for seats in sharing.values()
        for i, seat in enumerate(seats)
    }


def _vikings(view: dict[str, Any], players: tuple[str, ...]) -> list[str]:
    at = positions()
    out = []
    afloat = [v for v in view["vikings"] if v["ship"] in at]
    ship_shift = _side_by_side(afloat, "ship", 26)
    foot_shift = _side_by_side([v for v in afloat if not v["aboard"]], "at", 18)
    for viking in afloat:  # one not started from a home harbour yet is not drawn
        seat, colour = viking["seat"], seat_colour(viking["seat"])
        sx, sy = at[viking["ship"]]
        offset = ship_shift[seat]
        out.append(
            group(
                [
                    title(
                        f"{_who(seat, players)}'s ship at {place_words(viking['ship'])} "
                        f"({viking['cargo']} aboard)"
                    ),
                    rect(sx - 12 + offset, sy + 4, 24, 9, rx=4, fill=colour, stroke="#000"),
                ],
                class_="ship",
            )
        )
        vx, vy = (sx + offset, sy - 4) if viking["aboard"] else at.get(viking["at"], (sx, sy))
        if not viking["aboard"]:
            vx, vy = vx + foot_shift[seat], vy - 14
        where = (
            f"aboard at {place_words(viking['ship'])}"
            if viking["aboard"]
            else f"on foot at {place_words(viking['at'])}"
        )
        out.append(
            group(
                [
                    title(f"{_who(seat, players)}'s Viking, {where}, carrying {viking['carried']}"),
                    circle(vx, vy, 8, fill=colour, stroke="#fff", stroke_width=2),
                    text(vx, vy, _who(seat, players)[:1], 9, fill="#fff"),
                ],
                class_="viking",
            )
        )
    return out


def _panel(view: dict[str, Any], players: tuple[str, ...], left: float) -> list[str]:
    lines: list[tuple[str, str]] = [
        (
            f"Round {view['rounds'] + 1} · {_who(view['turn'], players)} · "
            f"{PHASE_WORDS.get(view['phase'], view['phase'])}",
            "#000",
        )
    ]
    throw = view.get("throw")
    if throw:
        lines.append(
            (
                f"last throw: {plural(throw['points'], 'point')}, {plural(throw['waves'], 'wave')}",
                "#000",
            )
        )
    for viking in view["vikings"]:
        name = _who(viking["seat"], players)
        wounded = ", wounded" if viking["wounded"] else ""
        lines.append(
            (
                f"{name}: carried {viking['carried']} · ship {viking['cargo']} · home "
                f"{viking['home']} · arrows {viking['arrows']}{wounded}",
                seat_colour(viking["seat"]),
            )
        )
    for holding in view["holdings"]:
        for field in ("carried", "cargo", "home"):
            pieces = ", ".join(f"{p['name']} {p['value']}" for p in holding[field])
            if pieces:
                lines.append((f"  {_who(holding['seat'], players)} {field}: {pieces}", "#333"))
    lines.append((f"camp chests {view['camp_chests']} · fate deck {view['deck']}", "#000"))
    if view.get("result"):
        scores = ", ".join(
            f"{_who(seat, players)} {score}" for seat, score in enumerate(view["result"]["scores"])
        )
        lines.append((f"feast scores: {scores}", "#000"))
    fitted = [(part, colour) for entry, colour in lines for part in wrapped(entry, PANEL_CHARS)]
    return [
        panel_line(left, 24 + i * 18, entry, fill=colour)
        for i, (entry, colour) in enumerate(fitted)
    ]


def draw(view: dict[str, Any], players: tuple[str, ...] = ()) -> str:
    """The map and the Vikings' counts as `view` shows them."""
    loot = {city["city"]: city["loot"] for city in view["cities"]}
    roadside = dict(view["roadside"])
    loot.update({space: count for space, count in roadside.items() if count})
    children = [
        rect(0, 0, WIDTH, HEIGHT, fill=MAP_FILL),
        *_links(),
        *_spaces(loot),
        *_names(),
        *_vikings(view, players),
        side_panel(_panel(view, players, WIDTH + 10)),
    ]
    return document(WIDTH + PANEL, HEIGHT, f"Hägar board, as {view['viewer']}", children)
