"""Scoring a board (rulebook "End of an Act", "Betrayal", "Royal Dragon Horn", "Throat").

1. Betrayal: before any figure scores, every positive tile in the row part or column part
   of a Betrayal tile is turned face down (value 0). A Betrayal tile does not turn itself
   down (the rulebook's "tiles in its row and column" are read as the other tiles).
2. Each figure: sum = the (possibly turned-down) values of every tile in its row part and
   column part; diamonds = the figure's own diamonds + one per Royal Dragon Horn in those
   parts; points = sum × diamonds.
Parts are cut by Throats (placed tiles and Act II's printed ones), see `board`.
Figures are not tiles: they neither count nor block.
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from core.beowulf.board import Geometry
from core.beowulf.figures import DIAMONDS


class BoardTile(msgspec.Struct, frozen=True):
    """What scoring needs of a tile on the board."""

    value: int
    ability: str | None = None


class FigureScore(msgspec.Struct, frozen=True):
    """One figure's result."""

    at: int
    kind: str
    sum: int
    diamonds: int
    points: int


def throat_test(tiles: Mapping[int, BoardTile], printed: frozenset[int]
                ) -> frozenset[int]:
    """Every square that cuts lines: printed Throats and placed Throat tiles."""
    return printed | {sq for sq, t in tiles.items() if t.ability == "throat"}


def betrayed(geometry: Geometry, tiles: Mapping[int, BoardTile], printed: frozenset[int]
             ) -> frozenset[int]:
    """The squares of positive tiles a Betrayal turns face down."""
    throats = throat_test(tiles, printed)
    down: set[int] = set()
    for square, placed in tiles.items():
        if placed.ability != "betrayal":
            continue
        for part in geometry.parts(square, throats.__contains__):
            down.update(sq for sq in part if sq in tiles and tiles[sq].value > 0)
    return frozenset(down)


def score_figures(geometry: Geometry, tiles: Mapping[int, BoardTile],
                  figures: Mapping[int, str], printed: frozenset[int] = frozenset()
                  ) -> tuple[FigureScore, ...]:
    """Score every figure (square -> kind), in square order."""
    throats = throat_test(tiles, printed)
    down = betrayed(geometry, tiles, printed)
    scores = []
    for square in sorted(figures):
        kind = figures[square]
        total, diamonds = 0, DIAMONDS[kind]
        for part in geometry.parts(square, throats.__contains__):
            for sq in part:
                if sq not in tiles:
                    continue
                total += 0 if sq in down else tiles[sq].value
                diamonds += tiles[sq].ability == "royal_dragon_horn"
        scores.append(FigureScore(square, kind, total, diamonds, total * diamonds))
    return tuple(scores)
