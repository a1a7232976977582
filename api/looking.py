"""Who a read of a game looks as (`?as=`): the caller itself by default; anyone may look
as a spectator, a seat as itself (by name or index), the referee as anyone. One decision
for every route that takes `as` (`/view`, `/possible`, `/lines`, `/board.svg`, the table's
final position), so a seat's token never reads another seat's view through any of them."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query

from skald.api.deps import Caller
from skald.core.errors import Forbidden
from skald.events.viewer import SPECTATOR, Viewer
from skald.projections.table import Table

AsViewer = Annotated[
    str | None,
    Query(
        alias="as",
        max_length=64,
        description="Look as: spectator (anyone), your own seat, any seat (the referee).",
    ),
]


def looking_as(table: Table, caller: Caller, who: str | None) -> Viewer:
    """The viewer the caller asks to look as: itself by default. A spectator and the
    referee both speak for no seat, so "the same seats" alone must never let a caller
    without a token look as the referee."""
    if who is None or who == caller.viewer.name:
        return caller.viewer
    viewer = table.viewer(caller.game_id, who)
    own_seat = bool(viewer.seats) and viewer.seats == caller.viewer.seats  # never the referee
    if caller.viewer.referee or viewer == SPECTATOR or own_seat:
        return viewer
    raise Forbidden(f"only the referee may look as {who!r}; you may look as yourself or spectator")
