"""The live channel of a seat (`api.channel`): `GET /games/ID/play`, upgraded to a WebSocket."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from skald.api.channel import Watches, serve_channel

router = APIRouter()


@router.websocket("/games/{game_id}/play")
async def play(websocket: WebSocket, game_id: str) -> None:
    """Act for a seat and follow the game: one message per decision, one frame after each
    decision by anyone (see `api.channel` and the README's "The live channel")."""
    watches: Watches = websocket.app.state.watches
    await serve_channel(websocket, game_id, watches)
