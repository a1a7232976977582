"""Settling disputes over HTTP: the audit report (everyone after the game under the
default reveal policy, the referee at any time), the chain check, and a signed receipt
of the current head."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse, PlainTextResponse, Response

from skald.api.deps import OPTIONAL_TOKEN, GameId, ReadDep
from skald.api.responses import MsgspecJSON, errors
from skald.api.schemas import AuditOut, ChainOut, ReceiptOut
from skald.projections.audit.render import render_audit

router = APIRouter(prefix="/games/{game_id}", tags=["audit"])


@router.get(
    "/audit",
    response_model=AuditOut,
    responses={
        **errors(401, 403, 404, 422),
        200: {
            "content": {"application/json": {}, "text/markdown": {}, "text/html": {}},
            "description": "The report; `format` picks JSON, Markdown or HTML.",
        },
    },
    openapi_extra=OPTIONAL_TOKEN,
)
def audit(
    game_id: GameId,
    call: ReadDep,
    format: Annotated[
        Literal["json", "md", "html"], Query(description="json (default), md or html.")
    ] = "json",
) -> Response:
    """Every hidden value revealed, who knew what when, every decision re-derived from the
    rules and the seed, the chain and commitments, ending with a verdict."""
    report = call.table.audit(call.game_id, call.caller.viewer)
    if format == "json":
        return MsgspecJSON(report)
    text = render_audit(report, format)
    if format == "html":
        return HTMLResponse(text)
    return PlainTextResponse(text, media_type="text/markdown")


@router.get("/verify", response_model=ChainOut, responses=errors(403, 404, 422))
def verify(game_id: GameId, call: ReadDep) -> MsgspecJSON:
    """Check the stored hash chain and every commitment; names the first bad seq."""
    return MsgspecJSON(call.table.verify(call.game_id))


@router.get("/receipt", response_model=ReceiptOut, responses=errors(403, 404, 422))
def receipt(game_id: GameId, call: ReadDep) -> MsgspecJSON:
    """A signed receipt for the game's current head, once the whole chain verifies and
    the log replays (a receipt certifies the log): else 500 `corrupt_record` naming the
    first bad seq, and nothing is signed."""
    return MsgspecJSON(call.table.receipt(call.game_id))
