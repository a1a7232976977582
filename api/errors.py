"""The one mapping from Skald's error tree to HTTP statuses and the JSON error model.

Malformed requests (FastAPI's validation errors) use the same model with `error:
"malformed"`, and so do the router's own answers (unknown path, method not allowed),
so a client parses every failure one way. A 405 lists in `Allow` the methods of every
route on that path (Starlette names only the first route's).
"""

from __future__ import annotations

import logging
import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException
from starlette.routing import Match

from skald.api.responses import MsgspecJSON
from skald.core.errors import (
    AlreadyStored,
    CorruptRecord,
    Forbidden,
    IllegalMove,
    InvalidNotation,
    InvalidOption,
    NeedsConfirmation,
    NotFound,
    SkaldError,
    StoreError,
    Unauthorized,
    VersionConflict,
)
from skald.core.provenance import PartialCopyRefused
from skald.core.store import store_refusal

log = logging.getLogger(__name__)

# First match wins: subclasses before their parents.
STATUS: tuple[tuple[type[SkaldError], int, str], ...] = (
    (PartialCopyRefused, 422, "partial_copy"),
    (InvalidNotation, 422, "invalid_notation"),
    (IllegalMove, 422, "illegal_move"),
    (AlreadyStored, 409, "already_stored"),
    (VersionConflict, 409, "version_conflict"),
    (NeedsConfirmation, 409, "needs_confirmation"),
    (NotFound, 404, "not_found"),
    (Unauthorized, 401, "unauthorized"),
    (Forbidden, 403, "forbidden"),
    (InvalidOption, 422, "invalid_option"),
    (StoreError, 503, "store_unavailable"),
    (CorruptRecord, 500, "corrupt_record"),
    (SkaldError, 500, "internal"),
)


def error_response(error: SkaldError) -> MsgspecJSON:
    """The response for one Skald error."""
    status, code = next((s, c) for kind, s, c in STATUS if isinstance(error, kind))
    body: dict[str, object] = {"error": code, "message": str(error)}
    if isinstance(error, VersionConflict):
        body["current_seq"] = error.current
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    if status >= 500:
        log.error("request failed: %s", error)
    return MsgspecJSON(body, status_code=status, headers=headers)


async def _skald_error(_request: Request, error: Exception) -> MsgspecJSON:
    assert isinstance(error, SkaldError)
    return error_response(error)


async def _malformed(request: Request, error: Exception) -> MsgspecJSON:
    assert isinstance(error, RequestValidationError)
    detail = [
        {
            "loc": [str(part) for part in item.get("loc", ())],
            "msg": str(item.get("msg", "")),
            "type": str(item.get("type", "")),
        }
        for item in error.errors()
    ]
    where = "; ".join(f"{'.'.join(d['loc'])}: {d['msg']}" for d in detail)
    sent = request.headers.get("content-type", "")
    if any(d["loc"][:1] == ["body"] for d in detail) and "json" not in sent.lower():
        # curl -d and HTML forms send form data: the body was never read as JSON.
        where += (
            f" (the body was sent as {sent or 'no content type'}; send JSON with "
            f"Content-Type: application/json)"
        )
    return MsgspecJSON(
        {"error": "malformed", "message": f"malformed request: {where}", "detail": detail},
        status_code=422,
    )


_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def allowed_methods(request: Request) -> list[str]:
    """The methods the resource at this request's path answers (HEAD with GET: every GET
    route answers HEAD). Asked of the routes themselves, method by method (FastAPI wraps
    included routers in objects that have no `methods` of their own); where the OpenAPI
    document has the path, only what it documents for the most specific template that
    matches (`/tournaments/import` is the import, though `/tournaments/{id}` matches too)."""
    routes = request.app.router.routes
    allowed = [
        method
        for method in _METHODS
        if any(
            route.matches({**request.scope, "method": method})[0] == Match.FULL for route in routes
        )
    ]
    documented = _documented_methods(request.app, request.scope["path"])
    if documented is not None:
        allowed = [method for method in allowed if method in documented]
    return sorted([*allowed, "HEAD"] if "GET" in allowed else allowed)


def _documented_methods(app: Any, path: str) -> set[str] | None:
    """The methods the OpenAPI document lists for the template matching `path` with the
    fewest parameters (None: no documented template matches)."""
    templates = getattr(app.state, "skald_templates", None)
    if templates is None:
        templates = [
            (
                re.compile("^" + re.sub(r"\\{[^/]+?\\}", "[^/]+", re.escape(template)) + "$"),
                template.count("{"),
                {method.upper() for method in operations},
            )
            for template, operations in app.openapi().get("paths", {}).items()
        ]
        app.state.skald_templates = templates
    matching = [(params, methods) for pattern, params, methods in templates if pattern.match(path)]
    if not matching:
        return None
    fewest = min(params for params, _ in matching)
    return set().union(*(methods for params, methods in matching if params == fewest))


async def _http_error(request: Request, error: Exception) -> MsgspecJSON:
    assert isinstance(error, HTTPException)
    headers = dict(error.headers or {})
    if error.status_code == 405:
        headers["Allow"] = ", ".join(allowed_methods(request))
    if error.status_code == 400:  # FastAPI's "error parsing the body": malformed
        return MsgspecJSON(
            {"error": "malformed", "message": f"malformed request: {error.detail}"}, status_code=422
        )
    code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
    return MsgspecJSON(
        {"error": code, "message": str(error.detail)},
        status_code=error.status_code,
        headers=headers,
    )


# A failed database, by whether a retry can help: a read-only store or a full disk stays
# so until someone changes it (no Retry-After, `retry: false`); anything else (the server
# down, a dropped connection) may pass.
_STORE_FAILURES = {
    "read_only": (
        503,
        "store_read_only",
        "the event store is read-only: nothing can be written until it is made writable; "
        "reading still works",
    ),
    "full": (
        507,
        "store_full",
        "the event store's disk is full: nothing can be written until space is freed; "
        "reading still works",
    ),
}


STORE_UNAVAILABLE = (503, "store_unavailable", "the event store is unavailable; try again")


def store_failure_codes() -> list[tuple[int, str, bool, str]]:
    """Every answer to a failed database: (status, code, whether a retry can help, message)."""
    rows = [(status, code, False, message) for status, code, message in _STORE_FAILURES.values()]
    return [*rows, (*STORE_UNAVAILABLE[:2], True, STORE_UNAVAILABLE[2])]


def store_failure(error: BaseException) -> tuple[int, dict[str, Any]]:
    """The status and body that answer a failed database (`error`): `store_read_only` or
    `store_full` with `retry: false` when a retry cannot help, else `store_unavailable`
    with `retry: true` (the REST answers; the live channel's error frames carry the body)."""
    refusal = store_refusal(error)
    if refusal is not None:
        status, code, message = _STORE_FAILURES[refusal]
        return status, {"error": code, "message": message, "retry": False}
    status, code, message = STORE_UNAVAILABLE
    return status, {"error": code, "message": message, "retry": True}


async def _database_error(_request: Request, error: Exception) -> MsgspecJSON:
    # The store raises these only when the database itself fails (down, full, dropped).
    log.error("database error: %s", error)
    status, body = store_failure(error)
    headers = {"Retry-After": "1"} if body["retry"] else None
    return MsgspecJSON(body, status_code=status, headers=headers)


INTERNAL_MESSAGE = "an internal error; the server log has the details"


async def _unexpected(request: Request, error: Exception) -> MsgspecJSON:
    # Any exception no other handler knows (Starlette runs this one in its outermost
    # middleware): JSON like every other failure, never its plain-text page; the traceback
    # goes to the log, not to the client.
    log.error("unhandled error on %s %s", request.method, request.url.path, exc_info=error)
    return MsgspecJSON({"error": "internal", "message": INTERNAL_MESSAGE}, status_code=500)


def install(app: FastAPI) -> None:
    """Register the handlers on `app` (the one for `Exception` answers whatever the others
    do not: an unforeseen failure is a JSON 500 too)."""
    app.add_exception_handler(SkaldError, _skald_error)
    app.add_exception_handler(RequestValidationError, _malformed)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(DBAPIError, _database_error)
    app.add_exception_handler(Exception, _unexpected)
