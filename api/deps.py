"""Dependencies as `Annotated` aliases: who is calling, with the services.

A caller presents `Authorization: Bearer TOKEN` or `?token=TOKEN` (for clients that
cannot set headers, like browsers' EventSource; the access log never shows its value).
A seat's token makes the caller that seat, the referee's token the referee; no token
makes a spectator where reading is public. A presented token that is not one of this
game's is a 401 on every route, never a silent spectator. The game is looked up first,
so an unknown game is a 404 whatever the token.

Every route enforces that rule through exactly one of: `PublicDep`, `ReadDep` or
`SeatDep` (a game's routes: they identify the caller, which checks the token) or
`check_token` (the others: a presented token must be some game's). `create_app` refuses to
build an app with a route that has none (`checks_tokens`).

What may be read of a game beyond its summary is one decision, `readable`, which `ReadDep`
and `SeatDep` take for every route but the summary's (`PublicDep`): while a game is a table
of a duplicate round not yet over, only its seats and its referee may read it
(core/tournament/seclusion.py); anyone else gets 403 `forbidden` naming the round, and on
such a game a token that is not one of its own is refused so too, not with 401.

Speed: FastAPI solves every dependency node on every request (about 8 µs each), so a
game's route has one: `ReadDep`/`SeatDep` returns a `Call` holding the caller and the
services, read from `request.app.state`. Nothing here does I/O on the event loop. Who a
token is never changes (a game's players and a token's seat are fixed at creation), so
each process keeps the callers it has identified; a known caller costs no thread-pool hop
at all, an unknown one costs one (`identify` reads the store there). Route handlers then
make one hop (`api.offload`) for their own work. The bearer scheme is declared in the
OpenAPI document (`TOKEN`, `OPTIONAL_TOKEN`, `SECURITY_SCHEMES`), not by an `HTTPBearer`
node that would be solved on every request for nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Annotated, Any

import msgspec
from fastapi import Depends, Path, Query, Request
from fastapi.dependencies.models import Dependant

from skald.api.live import LiveFeed
from skald.api.offload import offload
from skald.core.access import TokenStore
from skald.core.errors import Forbidden, Unauthorized
from skald.core.memo import Memo
from skald.core.seats import check_game_id
from skald.core.tournament.desk import Tournaments
from skald.core.tournament.seclusion import is_sealed_for, may_be_sealed, require_readable
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
        self._known: Memo[tuple[str, str | None], Caller] = Memo(size)

    def get(self, game_id: str, token: str | None) -> Caller | None:
        """The caller, if identified before."""
        return self._known.get((game_id, token))

    def add(self, token: str | None, caller: Caller) -> None:
        """Remember an identified caller."""
        self._known.put((caller.game_id, token), caller)


class Services(msgspec.Struct):
    """What one process serves with: the table, the tokens and the live feed."""

    table: Table
    tokens: TokenStore
    feed: LiveFeed
    callers: KnownCallers = msgspec.field(default_factory=KnownCallers)
    tournaments: Tournaments | None = None  # set by create_app (read in api/tournament_access.py)


# One rule with the CLI (core.seats): 1 to 64 characters, no control characters.
GAME_ID_PATTERN = r"^[^\x00-\x1f\x7f-\x9f]+$"
VariationName = Annotated[
    str | None,
    Query(
        pattern=r"^v[1-9][0-9]{0,5}$",
        description="v2: one of the game's variations (404 when the caller sees none so named).",
    ),
]
"""The query parameter that names a variation (`variation=v2`), on every route that reads one."""

GameId = Annotated[
    str,
    Path(
        min_length=1,
        max_length=64,
        pattern=GAME_ID_PATTERN,
        description="The game id.",
        examples=["3f9a1c2b7d4e5f60"],
    ),
]

BEARER = "HTTPBearer"
SECURITY_SCHEMES: dict[str, Any] = {
    BEARER: {
        "type": "http",
        "scheme": "bearer",
        "description": "A seat's or the referee's token, as returned by POST /games.",
    }
}
"""The OpenAPI document's security schemes (added by `create_app`'s app)."""
# For `openapi_extra=`: routes that need a token, and read routes where it is optional
# (none: a spectator).
TOKEN: dict[str, Any] = {"security": [{BEARER: []}]}
OPTIONAL_TOKEN: dict[str, Any] = {"security": [{BEARER: []}, {}]}


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
    caller = caller_of(services, game_id, presented_token(request) or token)
    request.state.skald_caller = caller
    return caller


def caller_of(services: Services, game_id: str, token: str | None) -> Caller:
    """The caller a token makes (None: a spectator), remembered by the process; NotFound
    for an unknown game first, then Unauthorized for a token that is not one of its own."""
    check_game_id(game_id)
    players = services.table.players(game_id)  # NotFound first
    if token is None:
        caller = Caller(game_id, SPECTATOR)
    else:
        grant = services.tokens.grant(game_id, token)
        if grant is None:
            raise Unauthorized(f"that token is not a seat's or the referee's of game {game_id}")
        caller = (
            Caller(game_id, REFEREE)
            if grant.seat is None
            else Caller(game_id, seat_viewer(grant.seat, players[grant.seat]), grant.seat)
        )
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
    """The token rule on routes without a `ReadDep` or `SeatDep`: a presented token must
    be valid (a 401 otherwise) — this game's on a game's routes, some game's elsewhere."""
    services: Services = request.app.state.services
    game_id = request.path_params.get("game_id")
    if game_id is not None:  # the web pages' reads of a game (its board, its lines)
        identified = identify_async(services, str(game_id), request)
        await refused_as_sealed(services, str(game_id), identified)
        return
    token = presented_token(request)
    if token is not None and await offload(services.tokens.lookup, token) is None:
        raise Unauthorized("that token is not a seat's or the referee's of any game")


class Call(msgspec.Struct, frozen=True):
    """What a game's route needs, from its one dependency: who calls, and the services."""

    caller: Caller
    services: Services

    @property
    def game_id(self) -> str:
        """The game called about."""
        return self.caller.game_id

    @property
    def table(self) -> Table:
        """The Table."""
        return self.services.table

    @property
    def feed(self) -> LiveFeed:
        """The live feed."""
        return self.services.feed


async def public_call(request: Request) -> Call:
    """The call of the route that answers what anyone may know of a game (its summary):
    the caller is a seat, the referee or a spectator. The game id comes from the path
    (the route declares it as `GameId` for the document; `identify` applies the CLI's
    rule to it before anything else)."""
    services: Services = request.app.state.services
    caller = await identify_async(services, str(request.path_params["game_id"]), request)
    return Call(caller, services)


async def read_call(request: Request) -> Call:
    """The call of a route that reads a game beyond its summary: `public_call`, then the
    one access decision every such read takes (`admitted`)."""
    services: Services = request.app.state.services
    game_id = str(request.path_params["game_id"])
    caller = await admitted(services, game_id, identify_async(services, game_id, request))
    return Call(caller, services)


async def admitted(services: Services, game_id: str, identified: Awaitable[Caller]) -> Caller:
    """The caller `identified` names, once it may read `game_id` beyond its summary (over
    HTTP and over the live channel alike): `refused_as_sealed`, then `readable` for a
    caller without a seat of the game. Only the game id's shape is looked at on the event
    loop; a game that may be a duplicate round's costs one hop."""
    caller = await refused_as_sealed(services, game_id, identified)
    if caller.seat is None and not caller.viewer.referee and may_be_sealed(game_id):
        await offload(readable, services, game_id, caller.viewer, caller.seat)
    return caller


async def refused_as_sealed(
    services: Services, game_id: str, identified: Awaitable[Caller]
) -> Caller:
    """The caller `identified` names; on a game that may be sealed, a token that is not
    one of its own is refused as the seal refuses anyone else (403), not as a bad token."""
    try:
        return await identified
    except Unauthorized:
        if may_be_sealed(game_id):
            await offload(readable, services, game_id, SPECTATOR, None)
        raise


def readable(services: Services, game_id: str, viewer: Viewer, seat: int | None) -> None:
    """The access decision for reading `game_id` as `viewer` (its seat of the game, if
    any), beyond its summary: Forbidden (403) while the game is a table of a duplicate
    round not yet over and the caller is neither one of its seats nor its referee
    (`core.tournament.seclusion.require_readable`). A route that reads a game takes
    `ReadDep` or `SeatDep`, which call this; other code serving a game's contents to a
    caller calls it before reading."""
    desk = services.tournaments
    assert desk is not None, "create_app sets the tournaments service"
    require_readable(desk, services.table, game_id, viewer, seat)


def sealed_for(services: Services, game_id: str, viewer: Viewer, seat: int | None) -> bool:
    """Whether `readable` refuses this caller: what the game's summary then withholds
    (`core.tournament.seclusion.withheld`)."""
    desk = services.tournaments
    assert desk is not None, "create_app sets the tournaments service"
    return is_sealed_for(desk, services.table, game_id, viewer, seat)


async def seat_call(request: Request) -> Call:
    """The call of a route that acts for a seat: a seat's token is required."""
    call = await read_call(request)
    if call.caller.seat is not None:
        return call
    if call.caller.viewer.referee:
        raise Forbidden("the referee's token does not act for a seat; use a seat's token")
    raise Unauthorized("this needs a seat's token: Authorization: Bearer TOKEN")


PublicDep = Annotated[Call, Depends(public_call)]
ReadDep = Annotated[Call, Depends(read_call)]
SeatDep = Annotated[Call, Depends(seat_call)]


async def get_services(request: Request) -> Services:
    """The process's services (for routes that need no caller)."""
    services: Services = request.app.state.services
    return services


ServicesDep = Annotated[Services, Depends(get_services)]


PUBLIC_PATHS = ("/games/{game_id}",)
"""The only paths whose routes take `PublicDep` (`create_app` refuses any other)."""


def takes_public_call(dependant: Dependant) -> bool:
    """Whether a route reads a game past `readable` (only `PUBLIC_PATHS` may)."""
    return any(sub.call is public_call or takes_public_call(sub) for sub in dependant.dependencies)


def checks_tokens(dependant: Dependant) -> bool:
    """Whether a route's dependencies enforce the token rule (see the module's doc)."""
    return any(
        sub.call in (check_token, public_call, read_call, seat_call) or checks_tokens(sub)
        for sub in dependant.dependencies
    )
