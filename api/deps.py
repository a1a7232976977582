"""Dependencies as `Annotated` aliases: the services, and who is calling.

A caller presents `Authorization: Bearer TOKEN` or `?token=TOKEN` (for clients that
cannot set headers, like browsers' EventSource; the access log never shows its value).
A seat's token makes the caller that seat, the referee's token the referee; no token
makes a spectator where reading is public. A presented token that is not one of this
game's is a 401 on every route, never a silent spectator: `check_token` runs before every
route (on routes without a game, a token must be some game's). The game is looked up
first, so an unknown game is a 404 whatever the token.

Speed: every dependency here is `async` and does no I/O on the event loop. Who a token
is never changes (a game's players and a token's seat are fixed at creation), so each
process keeps the callers it has identified; a request whose caller is known costs no
thread-pool hop at all, and an unknown one costs one (`identify` reads the store there).
Route handlers then make one hop for their own work.
"""

from __future__ import annotations

import threading
from typing import Annotated, Any

import msgspec
from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from skald.api.live import LiveFeed
from skald.api.offload import offload
from skald.core.access import TokenStore
from skald.core.errors import Forbidden, Unauthorized
from skald.core.seats import check_game_id
from skald.core.tournament.desk import Tournaments
from skald.events.viewer import REFEREE, SPECTATOR, Viewer, seat_viewer
from skald.projections.table import Table


class Caller(msgspec.Struct, frozen=True):
    """Who is calling about one game: the viewer to project for, and its seat if any."""

    game_id: str
    viewer: Viewer
    seat: int | None = None


class KnownCallers:
    """The callers this process has identified, by game and token (None: a spectator of
    a game that exists). Bounded: cleared when full, then refilled on demand."""

    def __init__(self, size: int = 65536) -> None:
        self._known: dict[tuple[str, str | None], Caller] = {}
        self._size = size
        self._lock = threading.Lock()

    def get(self, game_id: str, token: str | None) -> Caller | None:
        """The caller, if identified before."""
        return self._known.get((game_id, token))

    def add(self, token: str | None, caller: Caller) -> None:
        """Remember an identified caller."""
        with self._lock:
            if len(self._known) >= self._size:
                self._known.clear()
            self._known[(caller.game_id, token)] = caller


class Services(msgspec.Struct):
    """What one process serves with: the table, the tokens and the live feed."""

    table: Table
    tokens: TokenStore
    feed: LiveFeed
    callers: KnownCallers = msgspec.field(default_factory=KnownCallers)
    tournaments: Tournaments | None = None  # set by create_app (api/routes/tournaments.py)


async def get_services(request: Request) -> Services:
    """The process's services."""
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


async def get_table(services: ServicesDep) -> Table:
    """The Table."""
    return services.table


async def get_feed(services: ServicesDep) -> LiveFeed:
    """The live feed."""
    return services.feed


TableDep = Annotated[Table, Depends(get_table)]
FeedDep = Annotated[LiveFeed, Depends(get_feed)]
# One rule with the CLI (core.seats): 1 to 64 characters, no control characters.
GameId = Annotated[
    str,
    Path(
        min_length=1,
        max_length=64,
        pattern=r"^[^\x00-\x1f\x7f-\x9f]+$",
        description="The game id.",
        examples=["3f9a1c2b7d4e5f60"],
    ),
]

bearer = HTTPBearer(
    auto_error=False, description="A seat's or the referee's token, as returned by POST /games."
)
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def presented_token(request: Request) -> str | None:
    """The token the caller presents: the Authorization header's, else `?token=`."""
    header = request.headers.get("authorization")
    if header is not None:
        scheme, _, given = header.partition(" ")
        if scheme.lower() != "bearer" or not given.strip():
            raise Unauthorized("the Authorization header must be 'Bearer TOKEN'")
        return given.strip()
    query = request.query_params.get("token")
    if query is not None and not query.strip():
        raise Unauthorized("?token= is empty")
    return query


def identify(
    services: Services, game_id: str, request: Request, token: str | None = None
) -> Caller:
    """The caller from its token (or none: a spectator)."""
    cached = getattr(request.state, "skald_caller", None)
    if isinstance(cached, Caller) and cached.game_id == game_id:
        return cached
    check_game_id(game_id)
    players = services.table.players(game_id)  # NotFound first
    token = presented_token(request) or token
    if token is None:
        spectator = Caller(game_id, SPECTATOR)
        request.state.skald_caller = spectator
        services.callers.add(None, spectator)
        return spectator
    grant = services.tokens.grant(game_id, token)
    if grant is None:
        raise Unauthorized(f"that token is not a seat's or the referee's of game {game_id}")
    caller = (
        Caller(game_id, REFEREE)
        if grant.seat is None
        else Caller(game_id, seat_viewer(grant.seat, players[grant.seat]), grant.seat)
    )
    request.state.skald_caller = caller
    services.callers.add(token, caller)
    return caller


async def identify_async(
    services: Services, game_id: str, request: Request, token: str | None = None
) -> Caller:
    """`identify` without blocking the loop: a known caller costs nothing, an unknown
    one a single thread-pool hop."""
    cached = getattr(request.state, "skald_caller", None)
    if isinstance(cached, Caller) and cached.game_id == game_id:
        return cached
    known = services.callers.get(game_id, presented_token(request) or token)
    if known is not None:
        request.state.skald_caller = known
        return known
    return await offload(identify, services, game_id, request, token)


async def check_token(request: Request) -> None:
    """Before every route: a presented token must be valid (a 401 otherwise) — this
    game's on a game's routes, some game's elsewhere."""
    services: Services = request.app.state.services
    game_id = request.path_params.get("game_id")
    if game_id is not None:
        await identify_async(services, str(game_id), request)
        return
    token = presented_token(request)
    if token is not None and await offload(services.tokens.lookup, token) is None:
        raise Unauthorized("that token is not a seat's or the referee's of any game")


async def get_caller(
    services: ServicesDep, game_id: GameId, request: Request, _credentials: Credentials
) -> Caller:
    """The caller of a read route: a seat, the referee or a spectator."""
    return await identify_async(services, game_id, request, None)


async def get_seat(caller: Annotated[Caller, Depends(get_caller)]) -> Caller:
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
