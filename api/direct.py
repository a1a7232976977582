"""The routes of a decision answered without FastAPI's generic request handling.

A decision is a `POST /games/ID/moves` (or `/undo`, `/redo`) and, for the next seat, a
`GET /games/ID/legal`; a client reads `GET /games/ID` when it joins. For each of these
FastAPI's request handling (its router through included routers, two exit stacks per
request, the body's content type parsed by the `email` package, the dependency solver,
the path parameter's validation) cost more CPU than the route's own work on a warm game.
Measured in-process (CPU per request, the best of 7 runs): a `GET /legal` 151 µs through
FastAPI, 58 directly (a `GET /health`, through FastAPI, 43); a `POST /moves` refused with
409 165 and 76; a decision (a move, and 0.6 times the next seat's legal moves) 660 and
481.

`DirectRoutes` sits where the router would (inside the exception handlers, so an error is
answered by the same handler either way) and does for these routes what FastAPI does,
with the routes' own pieces: the path's game id is checked against `GameId`'s rule, the
JSON body decoded as Starlette does (`json.loads`) and validated by the route's own
pydantic model as FastAPI does (`from_attributes=True`), the route's one dependency
(`deps.public_call`, `deps.read_call` or `deps.seat_call`) called with the request, then
the route's own endpoint with what they gave; its `Response` is sent as FastAPI would
send it.

It answers only requests that FastAPI would hand to the endpoint: anything else (another
path or method, a root path, a game id outside `GameId`'s rule or not plain ASCII, a
`Content-Type` other than exactly `application/json`, an empty body, a body the JSON
decoder or the model refuses, a client gone while its body was read) goes to FastAPI's
router untouched, with the body messages read so far handed on first, so FastAPI gives
its own answer (its 422 detail, 404, 405, 307...). The dependency runs after the body is
validated, as FastAPI solves dependencies after reading the body and before reporting a
body's errors: a bad token with a bad body is a 401 either way.

A HEAD comes here as its GET (`api.edge.HeadAsGet`, outside this layer, drops the body),
so `HEAD /games/ID/legal` and `HEAD /games/ID` are answered directly too.

When the app is built, each route named in `DIRECT` must be found and be of the one shape
handled here (the game id from the path, no query, header or cookie parameter, at most
one body parameter that is a pydantic model, not embedded, one dependency that takes only
the request, an async endpoint that returns a `Response`): a route of another shape stops
the app from being built (RuntimeError), so a route changed later cannot be answered
differently from what its signature says.
"""

from __future__ import annotations

import inspect
import json
import re
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from fastapi.routing import APIRoute
from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from skald.api.deps import GAME_ID_PATTERN, GameId, public_call, read_call, seat_call

PREFIX = "/games/"
DIRECT: tuple[tuple[str, str], ...] = (
    ("POST", "/games/{game_id}/moves"),
    ("POST", "/games/{game_id}/undo"),
    ("POST", "/games/{game_id}/redo"),
    ("GET", "/games/{game_id}/legal"),
    ("GET", "/games/{game_id}"),
)
"""(method, path) of the routes answered directly."""

_GAME_ID = re.compile(GAME_ID_PATTERN)
_GAME_ID_RULE = typing.get_args(GameId)[1]  # the path parameter's declaration (FastAPI's Path)
_MAX_ID: int = next(
    rule.max_length for rule in _GAME_ID_RULE.metadata if hasattr(rule, "max_length")
)
_CALLERS = (public_call, read_call, seat_call)


@dataclass(frozen=True)
class Direct:
    """One route answered directly: its endpoint, and the names it takes its arguments by."""

    route: APIRoute
    endpoint: Callable[..., Any]
    game_id: str
    caller: Callable[[Request], Any]
    call: str
    body: str | None = None
    model: type[BaseModel] | None = None


def _shape(route: APIRoute) -> Direct:
    """The route as a `Direct`, or RuntimeError naming what is not of the handled shape."""
    where = f"{sorted(route.methods or ())} {route.path}"
    found = route.dependant
    if (
        len(found.path_params) != 1
        or found.query_params
        or found.header_params
        or found.cookie_params
        or len(found.body_params) > 1
        or len(found.dependencies) != 1
        or found.request_param_name
        or found.websocket_param_name
        or found.response_param_name
        or found.background_tasks_param_name
        or found.security_scopes_param_name
        or route.dependencies
    ):
        raise RuntimeError(f"{where}: not of the shape api.direct answers")
    path = found.path_params[0]
    if path.field_info.annotation is not str or repr(path.field_info.metadata) != repr(
        _GAME_ID_RULE.metadata
    ):
        raise RuntimeError(f"{where}: its game id is not a GameId")
    dependency = found.dependencies[0]
    if (
        dependency.call not in _CALLERS
        or not inspect.iscoroutinefunction(dependency.call)
        or dependency.name is None
        or dependency.dependencies
        or dependency.path_params
        or dependency.query_params
        or dependency.body_params
    ):
        raise RuntimeError(
            f"{where}: its dependency is not one of {[c.__name__ for c in _CALLERS]}"
        )
    endpoint = route.endpoint
    if not inspect.iscoroutinefunction(endpoint):
        raise RuntimeError(f"{where}: its endpoint is not async")
    answer = typing.get_type_hints(endpoint).get("return")
    if not (isinstance(answer, type) and issubclass(answer, Response)):
        raise RuntimeError(f"{where}: its endpoint does not return a Response")
    if not found.body_params:
        return Direct(route, endpoint, path.name, dependency.call, dependency.name)
    body = found.body_params[0]
    model = body.field_info.annotation
    if (
        not (isinstance(model, type) and issubclass(model, BaseModel))
        or getattr(body.field_info, "embed", False)
        or body.field_info.metadata
        or body.alias != body.name
    ):
        raise RuntimeError(f"{where}: its body is not one plain pydantic model")
    return Direct(route, endpoint, path.name, dependency.call, dependency.name, body.name, model)


def direct_routes(routes: Iterable[BaseRoute]) -> dict[tuple[str, str | None], Direct]:
    """The routes of `DIRECT` among `routes`, keyed by method and what follows the game id
    (`None`: nothing, for `GET /games/ID`). RuntimeError if one is missing or misshapen."""
    found: dict[tuple[str, str | None], Direct] = {}
    for route in routes:
        if not isinstance(route, APIRoute):
            continue
        for method in route.methods or ():
            if (method, route.path) in DIRECT:
                rest = route.path.removeprefix(PREFIX + "{game_id}")
                found[(method, rest.removeprefix("/") if rest else None)] = _shape(route)
    if len(found) != len(DIRECT):
        raise RuntimeError(f"api.direct: routes not found among {len(found)} of {DIRECT}")
    return found


def _content_type(scope: Scope) -> bytes | None:
    """The request's first `Content-Type` (as Starlette's `Headers.get` reads it)."""
    for name, value in scope["headers"]:
        if name == b"content-type":
            return bytes(value)
    return None


class DirectRoutes:
    """ASGI: the routes of `DIRECT` answered directly; every other request to `app`."""

    def __init__(self, app: ASGIApp, routes: dict[tuple[str, str | None], Direct]) -> None:
        self.app = app
        self.routes = routes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope["path"] if scope["type"] == "http" else ""
        if not path.startswith(PREFIX) or scope.get("root_path"):
            await self.app(scope, receive, send)
            return
        game_id, slash, rest = path[len(PREFIX) :].partition("/")
        direct = self.routes.get((scope["method"], rest if slash else None))
        if (
            direct is None
            or not game_id.isascii()
            or len(game_id) > _MAX_ID
            or _GAME_ID.fullmatch(game_id) is None
        ):
            await self.app(scope, receive, send)
            return
        arguments: dict[str, Any] = {direct.game_id: game_id}
        if direct.model is not None:
            read: list[Message] = []
            model = await self._body(scope, receive, direct.model, read)
            if model is None:
                await self.app(scope, _replay(read, receive), send)
                return
            assert direct.body is not None
            arguments[direct.body] = model
        scope["path_params"] = {direct.game_id: game_id}
        scope["endpoint"] = direct.endpoint
        scope["route"] = direct.route
        request = Request(scope, receive, send)
        arguments[direct.call] = await direct.caller(request)
        response = await direct.endpoint(**arguments)
        if not isinstance(response, Response):
            raise TypeError(f"{direct.route.path}: the endpoint did not return a Response")
        await response(scope, receive, send)

    @staticmethod
    async def _body(
        scope: Scope, receive: Receive, model: type[BaseModel], read: list[Message]
    ) -> BaseModel | None:
        """The body validated by `model`, or None where FastAPI would not accept it (the
        messages read are left in `read` for FastAPI)."""
        if _content_type(scope) != b"application/json":
            return None
        chunks: list[bytes] = []
        while True:
            message = await receive()
            read.append(message)
            if message["type"] != "http.request":
                return None  # the client left: FastAPI answers that
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if not body:
            return None
        try:
            return model.model_validate(json.loads(body), from_attributes=True)
        except Exception:  # FastAPI answers whatever it was (a 422, or a 400)
            return None


def _replay(read: list[Message], receive: Receive) -> Receive:
    """`receive` that first hands on the messages already read."""
    pending = list(read)

    async def replay() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replay
