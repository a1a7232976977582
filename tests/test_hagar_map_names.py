"""The Hägar map's place names sit where they hide no space and no other name (a review
found `London` under a sea, `Rome` under a storm, a fjord's name under a lane's space),
inside the drawing, and over the lanes with a halo of the map's colour."""

from __future__ import annotations

import re

from skald.core.engine import Engine
from skald.core.store import EventStore
from skald.events.viewer import SPECTATOR
from skald.projections.boards import board_svg
from skald.projections.hagar.board import _labelled
from skald.projections.hagar.layout import (
    HEIGHT,
    LABEL_CHAR,
    LABEL_HEIGHT,
    WIDTH,
    label_positions,
    positions,
)
from skald.projections.table import Table


def _box(space: str, name: str) -> tuple[float, float, float, float]:
    x, y = label_positions(_labelled())[space]
    half = len(name) * LABEL_CHAR / 2
    return (x - half, y - LABEL_HEIGHT / 2, x + half, y + LABEL_HEIGHT / 2)


def test_no_name_covers_a_space_or_another_name() -> None:
    at = positions()
    boxes = {space: _box(space, name) for space, name, _ in _labelled()}
    for space, (left, top, right, bottom) in boxes.items():
        assert left >= 0, space
        assert top >= 0, space
        assert right <= WIDTH, space
        assert bottom <= HEIGHT, space
        hidden = [o for o, (x, y) in at.items() if left < x < right and top < y < bottom]
        assert hidden == [], (space, hidden)
        for other, (l2, t2, r2, b2) in boxes.items():
            if other != space:
                assert not (left < r2 and l2 < right and top < b2 and t2 < bottom), (space, other)


def test_the_names_are_drawn_last_of_the_map_with_a_halo() -> None:
    table = Table(Engine(EventStore("sqlite://")))
    game_id = table.create("hagar", ["Ann", "Bob", "Cid"], seed="names", reproducible=True)
    shown = table.show(game_id, SPECTATOR)
    drawn = board_svg("hagar", shown.state, shown.players)
    names = re.findall(r'<text[^>]*class="place-name"[^>]*>([^<]*)</text>', drawn)
    assert sorted(names) == sorted(name.replace("'", "&#x27;") for _, name, _ in _labelled())
    assert drawn.rindex('class="place"') < drawn.index('class="place-name"')
    assert 'paint-order="stroke"' in drawn
