"""Where each space of the (reconstructed) Hägar board is drawn.

The board data is a graph without coordinates. The cities, harbours, homes, the camp and
a few seas are pinned near their places on a map of Europe; every other space (roads,
seas) is placed by relaxation: repeatedly moved to the mean of its neighbours (a Tutte
embedding, so chains of roads and seas spread evenly between their pinned ends), then
pushed apart from spaces closer than `SPREAD`. Deterministic, computed once.
"""

from __future__ import annotations

import functools
import math

from skald.core.hagar.board import board

WIDTH, HEIGHT = 900, 760
SPREAD = 34.0
PINNED: dict[str, tuple[float, float]] = {
    "fjord-west": (420, 40),
    "fjord-east": (540, 50),
    "london": (170, 290),
    "london-port": (215, 250),
    "paris": (250, 430),
    "paris-port": (205, 370),
    "madrid": (120, 660),
    "madrid-port": (40, 600),
    "cologne": (360, 350),
    "hamburg-port": (410, 230),
    "zurich": (360, 500),
    "prague": (500, 390),
    "venice": (460, 590),
    "venice-port": (520, 620),
    "rome": (480, 720),
    "rome-port": (400, 730),
    "minsk": (700, 340),
    "kiev": (760, 500),
    "novgorod": (820, 130),
    "riga-port": (700, 190),
    "danzig-port": (580, 240),
    "camp": (640, 600),
    "north-3": (260, 110),
    "west-1": (90, 230),
    "biscay-2": (40, 470),
    "atlantic-2": (20, 700),
    "med-2": (280, 740),
    "ionian": (600, 740),
    "baltic-2": (600, 130),
    "gotland": (680, 100),
}


@functools.cache
def positions() -> dict[str, tuple[float, float]]:
    """Every space's (x, y) in a WIDTH x HEIGHT drawing."""
    graph = board()
    neighbours: dict[str, set[str]] = {space: set() for space in graph.spaces}
    for links in (graph.land, graph.water):
        for space, targets in links.items():
            for other in targets:
                neighbours[space].add(other)
                neighbours[other].add(space)
    at = {space: PINNED.get(space, (WIDTH / 2, HEIGHT / 2)) for space in sorted(graph.spaces)}
    free = [space for space in at if space not in PINNED and neighbours[space]]
    for _ in range(300):
        for space in free:
            xs = [at[n][0] for n in neighbours[space]]
            ys = [at[n][1] for n in neighbours[space]]
            at[space] = (sum(xs) / len(xs), sum(ys) / len(ys))
        _spread(at, free)
    return at


def _spread(at: dict[str, tuple[float, float]], free: list[str]) -> None:
    """Push each free space away from any space nearer than SPREAD."""
    for space in free:
        x, y = at[space]
        for other, (ox, oy) in at.items():
            if other == space:
                continue
            distance = math.hypot(x - ox, y - oy)
            if distance < SPREAD:
                # Ties (identical points) part along a direction fixed by the names.
                angle = math.atan2(y - oy, x - ox) if distance else (hash_angle(space, other))
                push = (SPREAD - distance) / 2
                x, y = x + math.cos(angle) * push, y + math.sin(angle) * push
        at[space] = (min(max(x, 15), WIDTH - 15), min(max(y, 15), HEIGHT - 15))


def hash_angle(a: str, b: str) -> float:
    """A stable angle for two names (not Python's salted hash)."""
    return (sum(map(ord, a)) * 7 + sum(map(ord, b)) * 13) % 360 * math.pi / 180


LABEL_CHAR = 6.6  # the width of a label's character at 11 px bold, about
LABEL_HEIGHT = 13.0
LABEL_GAP = 10.0  # between a space's circle and its label
SPACE_RADIUS = 16.0  # the largest space's radius: what a label keeps clear of
PIECES_HALF = 40.0  # half the width of four Vikings or ships side by side on one space


@functools.cache
def label_positions(labels: tuple[tuple[str, str, float], ...]) -> dict[str, tuple[float, float]]:
    """Where each named space's label goes (`labels`: space, its label, its radius): the
    centre of the first of below, above, right or left of its circle (or further out)
    that covers the fewest other spaces, labels placed before it and the spot where its
    own pieces stand (the map's relaxation puts seas and roads close to the cities; a
    label under one was half hidden)."""
    at = positions()
    placed: list[tuple[float, float, float, float]] = []
    chosen: dict[str, tuple[float, float]] = {}
    for space, label, radius in labels:
        x, y = at[space]
        half = len(label) * LABEL_CHAR / 2
        reach = radius + LABEL_GAP
        candidates = [
            (x, y + reach),
            (x, y - reach),
            (x + radius + 4 + half, y),
            (x - radius - 4 - half, y),
            (x, y + reach + 12),
            (x, y - reach - 12),
            (x + PIECES_HALF + 4 + half, y),  # beyond its pieces
            (x - PIECES_HALF - 4 - half, y),
        ]
        costs = [
            _covered(_box(c, half), space, at, placed) * 10 + i for i, c in enumerate(candidates)
        ]
        best = candidates[costs.index(min(costs))]
        chosen[space] = best
        placed.append(_box(best, half))
    return chosen


def _box(centre: tuple[float, float], half: float) -> tuple[float, float, float, float]:
    x, y = centre
    return (x - half, y - LABEL_HEIGHT / 2, x + half, y + LABEL_HEIGHT / 2)


def _covered(
    box: tuple[float, float, float, float],
    own: str,
    at: dict[str, tuple[float, float]],
    placed: list[tuple[float, float, float, float]],
) -> int:
    """How many other spaces (as circles of SPACE_RADIUS) and placed labels `box` touches,
    whether it covers where its own space's pieces stand, and whether it leaves the
    drawing."""
    left, top, right, bottom = box
    touched = sum(
        1
        for space, (x, y) in at.items()
        if space != own
        and left - SPACE_RADIUS / 2 < x < right + SPACE_RADIUS / 2
        and top - SPACE_RADIUS / 2 < y < bottom + SPACE_RADIUS / 2
    )
    touched += sum(
        1 for (l2, t2, r2, b2) in placed if left < r2 and l2 < right and top < b2 and t2 < bottom
    )
    x, y = at[own]  # where its own pieces stand: Vikings on foot above it, ships below
    crowded = (
        left < x + PIECES_HALF and x - PIECES_HALF < right and top < y + 16 and y - 24 < bottom
    )
    outside = left < 0 or top < 0 or right > WIDTH or bottom > HEIGHT
    return 3 * touched + crowded + (15 if outside else 0)
