"""The one mapping from Skald's error tree to HTTP statuses and the JSON error model.

Malformed requests (FastAPI's validation errors) use the same model with `error:
"malformed"`, so a client parses every failure one way.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError

from api.responses import MsgspecJSON
from core.errors import (
    Forbidden,
    IllegalMove,
    InvalidNotation,
    NotFound,
    SkaldError,
    Unauthorized,
    VersionConflict,
)
from core.store import StoreError

log = logging.getLogger(__name__)

# First match wins: subclasses before their parents.
STATUS: tuple[tuple[type[SkaldError], int, str], ...] = (
    (InvalidNotation, 422, "invalid_notation"),
    (IllegalMove, 422, "illegal_move"),
    (VersionConflict, 409, "version_conflict"),
    (NotFound, 404, "not_found"),
    (Unauthorized, 401, "unauthorized"),
    (Forbidden, 403, "forbidden"),
    (StoreError, 503, "store_unavailable"),
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


async def _malformed(_request: Request, error: Exception) -> MsgspecJSON:
    assert isinstance(error, RequestValidationError)
    detail = [{"loc": [str(part) for part in item.get("loc", ())],
               "msg": str(item.get("msg", "")), "type": str(item.get("type", ""))}
              for item in error.errors()]
    where = "; ".join(f"{'.'.join(d['loc'])}: {d['msg']}" for d in detail)
    return MsgspecJSON({"error": "malformed", "message": f"malformed request: {where}",
                        "detail": detail}, status_code=422)


def install(app: FastAPI) -> None:
    """Register the handlers on `app`."""
    app.add_exception_handler(SkaldError, _skald_error)
    app.add_exception_handler(RequestValidationError, _malformed)
