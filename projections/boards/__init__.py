"""One SVG board per game, drawn from a viewer's projected view.

`board_svg(game, view_state)` takes the `state` of a `TableView` (the game's view Struct,
or the same as JSON builtins) and returns a standalone SVG document. It draws only what
the view holds, so it can show no more than the viewer may see; the web page and the
annotated-history export share it. Places a move can name (Beowulf squares, Beast
locations, Hägar spaces) carry `data-at` with their notation name, so a page can make
them clickable.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from skald.core.errors import NotFound
from skald.projections.registry import game_part


def board_svg(game: str, view_state: Any, players: Sequence[str] = ()) -> str:
    """The board of `game` as `view_state` (one viewer's projection) shows it."""
    board = game_part(game, "board")  # projections/<game>/board.py: draw(view, players)
    if board is None:
        raise NotFound(f"no board drawing for game {game!r}")
    view = view_state if isinstance(view_state, dict) else msgspec.to_builtins(view_state)
    drawn: str = board.draw(view, tuple(players))
    return drawn
