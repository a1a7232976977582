"""Live events over Server-Sent Events, each viewer receiving its own redacted copies."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import StreamingResponse

from skald.api.deps import OPTIONAL_TOKEN, GameId, ReadDep
from skald.api.live import event_stream
from skald.api.responses import errors
from skald.api.schemas import MAX_SEQ

router = APIRouter(prefix="/games/{game_id}", tags=["live"])

SSE_EXAMPLE = (
    'id: 5\ndata: {"stream":"3f9a1c2b7d4e5f60","seq":5,"recorded_at":'
    '"2025-01-01T12:00:00Z","actor":"0","event":{"type":"skald.move_made",'
    '"seat":0,"move":"bet 2","hidden_move":null},"prev_hash":"ab12…",'
    '"hash":"cd34…"}\n\n'
)


@router.get(
    "/events",
    response_class=StreamingResponse,
    responses={
        200: {
            "description": "An endless `text/event-stream`: one message per "
            "event (`id:` its seq, `data:` the envelope as in "
            "GET /log); it ends after the game's last event.",
            "content": {
                "text/event-stream": {"schema": {"type": "string"}, "example": SSE_EXAMPLE}
            },
        },
        **errors(401, 403, 404, 422),
    },
    openapi_extra=OPTIONAL_TOKEN,
)
async def events(
    game_id: GameId,
    request: Request,
    call: ReadDep,
    token: Annotated[
        str | None,
        Query(
            max_length=200,
            description=("The token, for clients that cannot set headers (EventSource)."),
        ),
    ] = None,
    from_seq: Annotated[
        int, Query(alias="from", ge=1, le=MAX_SEQ, description="First seq (default 1).")
    ] = 1,
    last_event_id: Annotated[
        int | None,
        Header(
            ge=0,
            le=MAX_SEQ,
            description=("Resume after this seq (sent by reconnecting EventSource clients)."),
        ),
    ] = None,
) -> StreamingResponse:
    """The game's events as the caller sees them, from `from` (or after Last-Event-ID),
    then live as they are appended by any process."""
    del token  # read by `ReadDep` with the header's (`deps.presented_token`)
    after = last_event_id if last_event_id is not None else from_seq - 1
    stream = event_stream(
        call.table, call.feed, game_id, call.caller.viewer, after, request.is_disconnected
    )
    return StreamingResponse(
        stream,
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
