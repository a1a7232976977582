"""The FastAPI application: `create_app(url)`, and `app_from_env` for uvicorn workers.

`skald serve` runs `uvicorn api.main:app_from_env --factory`, so every worker process
builds its own app over the store named by SKALD_DB (default: the SQLite file
`skald.db`). Processes share nothing but the database: the store's compare-and-set
orders concurrent moves, and PostgreSQL notifications carry live updates between them.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import Depends, FastAPI
from fastapi.middleware.asyncexitstack import AsyncExitStackMiddleware
from fastapi.routing import APIRoute
from fastapi.telemetry import TelemetryConfig
from starlette.middleware.errors import ServerErrorMiddleware
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

import skald.core.access  # noqa: F401  (its table joins the store's metadata before create_all)
from skald.api import errors
from skald.api.channel import Watches
from skald.api.collector import settle_collector
from skald.api.deps import (
    PUBLIC_PATHS,
    SECURITY_SCHEMES,
    Services,
    check_token,
    checks_tokens,
    takes_public_call,
)
from skald.api.direct import Direct, DirectRoutes, direct_routes
from skald.api.edge import MAX_BODY, BodyLimit, HeadAsGet, install_log_redaction
from skald.api.live import LiveFeed
from skald.api.responses import MsgspecJSON
from skald.api.routes import audit, events, games, moves, play
from skald.api.routes import history as history_routes
from skald.api.routes import tournaments as tournament_routes
from skald.api.routes import web as web_routes
from skald.api.schemas import HealthOut, KeyOut
from skald.core.access import TokenStore
from skald.core.engine import Engine
from skald.core.fingerprint import key_fingerprint
from skald.core.signing import open_signer
from skald.core.store import DEFAULT_URL, EventStore
from skald.core.tournament.desk import Tournaments
from skald.projections.table import Table

DESCRIPTION = """Event-sourced game logs for board games with hidden information.

Create a game with `POST /games`: the answer holds one bearer token per seat and one for
the referee, shown once. Send a token as `Authorization: Bearer TOKEN`: a seat's token
shows that seat's view and lets it act; the referee's shows everything; no token shows
what a spectator sees. Hidden values the caller may not see are replaced by commitments.
Every error has the same body: `{"error", "message"}`, plus `current_seq` on 409.
"""


NO_TELEMETRY: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}
TOO_LARGE = {
    "description": f"The request body is over {MAX_BODY} bytes; nothing of it was read.",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
}


class SkaldAPI(FastAPI):
    """FastAPI with a shorter path for every request, the body-size limit outside
    everything else (even the 500 handler), so an oversized body is a 413 before any of it
    is read, and an OpenAPI document that declares the bearer scheme
    (`deps.SECURITY_SCHEMES`; routes name it in `openapi_extra`) and that 413 on every
    route that takes a body.

    The middleware stack is FastAPI's without the two layers that do nothing here, each a
    coroutine frame on every request and every message sent: FastAPI's own body limit
    (no `max_body_size` is set; `BodyLimit` answers in the JSON error shape) and its
    exception telemetry (FastAPI's native OpenTelemetry is off: Skald configures no
    OpenTelemetry provider and ships no SDK, so it only cost a check per request). What is
    left, outermost first: `HeadAsGet` (HEAD on every GET route, those answered directly
    included, answered as the GET without its body), `BodyLimit`, Starlette's 500
    handler, the exception handlers (`api.errors`), the routes of a decision answered
    directly (`api.direct`; `direct`, set by `create_app`, None for none), FastAPI's exit
    stack, the router."""

    direct: dict[tuple[str, str | None], Direct] | None = None

    def build_middleware_stack(self) -> ASGIApp:
        if self.user_middleware:
            raise RuntimeError("SkaldAPI builds its own middleware stack; add none")
        handlers: dict[Any, Any] = {}
        on_500 = None
        for key, handler in self.exception_handlers.items():
            if key in (500, Exception):
                on_500 = handler
            else:
                handlers[key] = handler
        app: ASGIApp = AsyncExitStackMiddleware(self.router)
        if self.direct is not None:
            app = DirectRoutes(app, self.direct)
        app = ExceptionMiddleware(app, handlers=handlers, debug=self.debug)
        app = ServerErrorMiddleware(app, handler=on_500, debug=self.debug)
        return HeadAsGet(BodyLimit(app))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        # FastAPI's own asks, on every request, whether telemetry is configured.
        if scope["type"] == "lifespan":
            await super().__call__(scope, receive, send)
            return
        if self.root_path:
            scope["root_path"] = self.root_path
        scope["app"] = self
        if self.middleware_stack is None:
            self.middleware_stack = self.build_middleware_stack()
        await self.middleware_stack(scope, receive, send)

    def openapi(self) -> dict[str, Any]:
        if self.openapi_schema is None:
            document = super().openapi()
            document.setdefault("components", {}).setdefault("securitySchemes", {}).update(
                SECURITY_SCHEMES
            )
            for operations in document["paths"].values():
                for operation in operations.values():
                    if "requestBody" in operation:
                        operation["responses"]["413"] = TOO_LARGE
        return self.openapi_schema  # type: ignore[return-value]


def create_app(url: str | None = None, poll_interval: float | None = None) -> SkaldAPI:
    """An app serving the store at `url` (default: SKALD_DB, else the SQLite default).
    The signing key is loaded here, at start-up: an app without a usable key is not built."""
    store = EventStore(url or os.environ.get("SKALD_DB") or DEFAULT_URL)
    signer = open_signer(store)
    services = Services(
        table=Table(
            Engine(store, cache_size=int(os.environ.get("SKALD_CACHE_GAMES", "256"))), signer
        ),
        tokens=TokenStore(store),
        feed=LiveFeed(store, poll_interval),
    )
    services.tournaments = Tournaments(store, services.table)
    install_log_redaction()

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        services.feed.start()
        try:
            yield
        finally:
            services.feed.stop()
            store.dispose()

    app = SkaldAPI(
        title="Skald",
        version="0.1.0",
        description=DESCRIPTION,
        lifespan=lifespan,
        telemetry=NO_TELEMETRY,
    )
    app.state.services = services
    app.state.watches = Watches(services)
    errors.install(app)

    check = [Depends(check_token)]

    @app.get("/health", response_model=HealthOut, tags=["service"], dependencies=check)
    async def health() -> MsgspecJSON:
        """Answers without touching the store (the benchmark's do-nothing baseline)."""
        return MsgspecJSON({"ok": True})

    signing_key = {
        "public_key": signer.public_key,
        "fingerprint": key_fingerprint(signer.public_key),
    }

    @app.get("/key", response_model=KeyOut, tags=["service"], dependencies=check)
    async def key() -> MsgspecJSON:
        """The store's signing key: its public half in hex and its fingerprint, to compare
        aloud (every verifier takes either as a key you trust: `skald verify --file --trust`)."""
        return MsgspecJSON(signing_key)

    # FastAPI tries routes in order, each match costing a few microseconds: the routes
    # every decision uses come first (moves, then the summary and legal moves), for the
    # requests of theirs that `api.direct` hands to the router. The routers of games
    # identify their callers (`deps.ReadDep`, `deps.SeatDep`); the tournaments' and the
    # web pages' check a presented token first.
    identifying = (moves.router, games.router, events.router, audit.router, history_routes.router)
    for router in identifying:
        app.include_router(router)
    for router in (tournament_routes.router, web_routes.router):
        app.include_router(router, dependencies=check)
    app.include_router(play.router)  # the channel identifies its caller from its hello
    routes = [*app.router.routes, *(route for router in identifying for route in router.routes)]
    unchecked = [
        route.path
        for route in routes
        if isinstance(route, APIRoute) and not checks_tokens(route.dependant)
    ]
    if unchecked:
        raise RuntimeError(f"routes that would not check a presented token: {unchecked}")
    unsealed = [
        route.path
        for route in routes
        if isinstance(route, APIRoute)
        and route.path not in PUBLIC_PATHS
        and takes_public_call(route.dependant)
    ]
    if unsealed:  # every read of a game but its summary takes `deps.readable`
        raise RuntimeError(f"routes that would read a game past its seal: {unsealed}")
    # These routers are included as they are (no prefix, no dependency added), so their
    # routes are the ones FastAPI runs.
    app.direct = direct_routes(route for router in identifying for route in router.routes)
    return app


def app_from_env() -> FastAPI:
    """The uvicorn factory: the store comes from SKALD_DB; SKALD_LIVE_POLL (seconds)
    overrides how often live streams poll (default 0.2 on SQLite, 2 on PostgreSQL);
    SKALD_CACHE_GAMES sets how many games' current states each worker keeps (256)."""
    poll = os.environ.get("SKALD_LIVE_POLL")
    app = create_app(poll_interval=float(poll) if poll else None)
    settle_collector()  # the collector's full pauses off the request path (api/collector.py)
    return app
