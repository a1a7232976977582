"""Dependencies as `Annotated` aliases: the services, and who is calling.

A caller presents `Authorization: Bearer TOKEN` (the SSE route also takes `?token=`,
since browsers' EventSource cannot set headers). A seat's token makes the caller that
seat, the referee's token the referee; no token makes a spectator where reading is
public. A token that is not one of this game's is a 401, never a silent spectator.
The game is looked up first, so an unknown game is a 404 whatever the token.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from api.live import LiveFeed
from core.access import TokenStore
from core.errors import Forbidden, Unauthorized
from events.viewer import REFEREE, SPECTATOR, Viewer, seat_viewer
from projections.table import Table


class Services(msgspec.Struct):
    """What one process serves with: the table, the tokens and the live feed."""

    table: Table
    tokens: TokenStore
    feed: LiveFeed


class Caller(msgspec.Struct, frozen=True):
    """Who is calling about one game: the viewer to project for, and its seat if any."""

    game_id: str
    viewer: Viewer
    seat: int | None = None


def get_services(request: Request) -> Services:
    """The process's services."""
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


def get_table(services: ServicesDep) -> Table:
    """The Table."""
    return services.table


def get_feed(services: ServicesDep) -> LiveFeed:
    """The live feed."""
    return services.feed


TableDep = Annotated[Table, Depends(get_table)]
FeedDep = Annotated[LiveFeed, Depends(get_feed)]
GameId = Annotated[str, Path(min_length=1, max_length=64, description="The game id.",
                             examples=["3f9a1c2b7d4e5f60"])]

bearer = HTTPBearer(auto_error=False, description="A seat's or the referee's token, as "
                                                  "returned by POST /games.")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def identify(services: Services, game_id: str, request: Request, token: str | None) -> Caller:
    """The caller from its token (or none: a spectator)."""
    players = services.table.engine.load(game_id).players  # NotFound first
    header = request.headers.get("authorization")
    if header is not None:
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Unauthorized("the Authorization header must be 'Bearer TOKEN'")
        token = token.strip()
    if token is None:
        return Caller(game_id, SPECTATOR)
    grant = services.tokens.grant(game_id, token)
    if grant is None:
        raise Unauthorized(f"that token is not a seat's or the referee's of game {game_id}")
    if grant.seat is None:
        return Caller(game_id, REFEREE)
    return Caller(game_id, seat_viewer(grant.seat, players[grant.seat]), grant.seat)


def get_caller(services: ServicesDep, game_id: GameId, request: Request,
               _credentials: Credentials) -> Caller:
    """The caller of a read route: a seat, the referee or a spectator."""
    return identify(services, game_id, request, None)


def get_seat(caller: Annotated[Caller, Depends(get_caller)]) -> Caller:
    """The caller of a route that acts for a seat: a seat token is required."""
    if caller.seat is not None:
        return caller
    if caller.viewer.referee:
        raise Forbidden("the referee's token does not act for a seat; use a seat's token")
    raise Unauthorized("this needs a seat's token: Authorization: Bearer TOKEN")


CallerDep = Annotated[Caller, Depends(get_caller)]
# For `openapi_extra=` of read routes: the token is optional (none: a spectator).
OPTIONAL_TOKEN: dict[str, Any] = {"security": [{}]}  # FastAPI appends this to the bearer scheme
SeatDep = Annotated[Caller, Depends(get_seat)]
