"""The greedy Beowulf bot: each legal move scored by the public board it leads to.

The score of a board is the seat's own figures' points minus the best opponent's, as if
the act ended now (the same scoring the act's end uses, on the public board only: tiles
and figures placed, printed Throats). Cashing a Treasure adds its points; a draw is worth
a little (a tile to come) and refilling is preferred to keeping. The best move wins, ties
by the bot's own random source.
"""

from __future__ import annotations

import random
import re

from skald.core.beowulf.board import Geometry
from skald.core.beowulf.data import CODE_ABILITIES
from skald.core.beowulf.scoring import BoardTile, score_figures
from skald.projections.beowulf.view import BeowulfView

FACE = re.compile(r"([+-]?\d+)([a-z#]?)(?:\$(\d+))?(?:@\w+)?")

VIEW = BeowulfView
"""The view this bot reads (`bots.autoplay` picks the bot for a view by it)."""


def _tile(face: str) -> BoardTile:
    match = FACE.fullmatch(face)
    if match is None:
        return BoardTile(0)
    ability = CODE_ABILITIES.get(match[2]) if match[2] else None
    if match[3] is not None:
        ability = "treasure"
    return BoardTile(int(match[1]), ability)


def _board(
    view: BeowulfView, geometry: Geometry
) -> tuple[dict[int, BoardTile], dict[int, tuple[str, str]]]:
    tiles = {geometry.index(t.at) or 0: BoardTile(t.value, t.ability) for t in view.tiles}
    figures = {geometry.index(f.at) or 0: (f.owner, f.kind) for f in view.figures}
    return tiles, figures


def _margin(
    view: BeowulfView,
    geometry: Geometry,
    tiles: dict[int, BoardTile],
    figures: dict[int, tuple[str, str]],
    me: str,
) -> int:
    printed = frozenset(geometry.index(sq) or 0 for sq in view.printed_throats)
    scores = score_figures(geometry, tiles, {sq: k for sq, (_, k) in figures.items()}, printed)
    totals = {seat.colour: 0 for seat in view.seats}
    for result in scores:
        totals[figures[result.at][0]] += result.points
    others = [points for colour, points in totals.items() if colour != me]
    return totals[me] - max(others, default=0)


def _score(view: BeowulfView, geometry: Geometry, move: str, me: str) -> float:
    tiles, figures = _board(view, geometry)
    words = move.split()
    head = words[0]
    if head in ("draw", "skip", "pass", "keep", "refill"):
        bonus = {"draw": 2, "refill": 1}.get(head, 0)
        return _margin(view, geometry, tiles, figures, me) + bonus
    if head == "cash":
        match = FACE.fullmatch(words[1])
        points = int(match[3]) if match and match[3] else 0
        return _margin(view, geometry, tiles, figures, me) + points
    squares = [geometry.index(w) for w in words[1:]]
    if head == "place" and squares[1] is not None:
        figures[squares[1]] = (me, words[1])
    elif head == "play" and squares[1] is not None:
        tiles[squares[1]] = _tile(words[1])
    elif head == "counsel" and squares[1] is not None and squares[2] is not None:
        figures[squares[2]] = figures.pop(squares[1])
        tiles[squares[1]] = _tile(words[1])
    elif head == "swap" and squares[0] is not None and squares[1] is not None:
        a, b = squares[0], squares[1]
        tiles[a], tiles[b] = tiles[b], tiles[a]
    elif head == "remove" and squares[0] is not None:
        tiles.pop(squares[0], None)
    return _margin(view, geometry, tiles, figures, me)


def choose(view: BeowulfView, legal: list[str], rnd: random.Random) -> str:
    """The legal move leading to the best public margin."""
    seat = view.to_act[0] if view.to_act else 0
    me = view.seats[seat].colour
    geometry = Geometry(view.rows, view.cols)
    scores = {move: _score(view, geometry, move, me) for move in legal}
    best = max(scores.values())
    return rnd.choice([move for move in legal if scores[move] == best])
