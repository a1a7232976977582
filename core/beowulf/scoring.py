"""Scoring (rulebook "End of an Act", "Betrayal", "Royal Dragon Horn", "Throat", "Final
Scoring").

1. Betrayal: before any figure scores, every positive tile in the row part or column part
   of a Betrayal tile is turned face down (value 0). A Betrayal tile does not turn itself
   down (the rulebook's "tiles in its row and column" are read as the other tiles).
2. Each figure: sum = the (possibly turned-down) values of every tile in its row part and
   column part; diamonds = the figure's own diamonds + one per Royal Dragon Horn in those
   parts; points = sum × diamonds.
Parts are cut by Throats (placed tiles and Act II's printed ones), see `board`.
Figures are not tiles: they neither count nor block.

End of an act, all in the decision that triggered it (`close_act`): Betrayal turns tiles
face down, every figure scores and leaves the board (Drakkars back to the supply), board
tiles and the rest of the pile go to the box, and the next act is set up at once
(`setup.next_act`). After Act III the ranking is by saga points; a tie is broken by the
most diamonds on unused figures (the figures still in front of the player after Act III,
returned Drakkars included), then the victory is shared.
"""

from __future__ import annotations

from collections.abc import Mapping

import msgspec

from skald.core.beowulf.board import Geometry
from skald.core.beowulf.data import DIAMONDS, supply_diamonds, tile
from skald.core.beowulf.setup import next_act
from skald.core.beowulf.state import BeowulfState, geometry
from skald.core.derive import Derivation
from skald.events.beowulf import ActEnded, FigureScored, TilesBetrayed
from skald.events.common import Outcome


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


def throat_test(tiles: Mapping[int, BoardTile], printed: frozenset[int]) -> frozenset[int]:
    """Every square that cuts lines: printed Throats and placed Throat tiles."""
    return printed | {sq for sq, t in tiles.items() if t.ability == "throat"}


def betrayed(
    geometry: Geometry, tiles: Mapping[int, BoardTile], printed: frozenset[int]
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


def score_figures(
    geometry: Geometry,
    tiles: Mapping[int, BoardTile],
    figures: Mapping[int, str],
    printed: frozenset[int] = frozenset(),
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


def board_tiles(state: BeowulfState) -> dict[int, BoardTile]:
    """The placed tiles as scoring sees them."""
    result: dict[int, BoardTile] = {}
    for square, tile_id in enumerate(state.tiles):
        if tile_id is not None:
            placed = tile(tile_id)
            result[square] = BoardTile(placed.value, placed.ability)
    return result


def close_act(d: Derivation[BeowulfState], last_seat: int, reason: str) -> None:
    """Score the act, clear the board and, before Act III ends, set up the next act."""
    state = d.state
    board, tiles = geometry(state), board_tiles(state)
    down = betrayed(board, tiles, state.printed)
    if down:
        d.emit(TilesBetrayed(act=state.act, squares=tuple(board.name(sq) for sq in sorted(down))))
    figures = {sq: f.kind for sq, f in enumerate(state.figures) if f is not None}
    for score in score_figures(board, tiles, figures, state.printed):
        owner = state.figures[score.at]
        assert owner is not None
        d.emit(
            FigureScored(
                act=state.act,
                seat=owner.seat,
                kind=score.kind,
                at=board.name(score.at),
                sum=score.sum,
                diamonds=score.diamonds,
                points=score.points,
            )
        )
    next_seat = (last_seat + 1) % state.seats
    d.emit(ActEnded(act=state.act, reason=reason, next_seat=next_seat))
    if state.act < 3:
        next_act(d, state.act + 1, next_seat)


def outcome(state: BeowulfState) -> Outcome | None:
    """After Act III, the final ranking; before, None."""
    return final_outcome(state) if state.phase == "over" else None


def final_outcome(state: BeowulfState) -> Outcome:
    """Groups of tied seats, best first; ties on points and diamonds share a place."""
    tiebreaks = tuple(supply_diamonds(supply) for supply in state.supply)
    keys = sorted({(state.points[s], tiebreaks[s]) for s in range(state.seats)}, reverse=True)
    ranking = tuple(
        tuple(s for s in range(state.seats) if (state.points[s], tiebreaks[s]) == key)
        for key in keys
    )
    return Outcome(
        termination="completed", ranking=ranking, scores=state.points, tiebreaks=tiebreaks
    )
