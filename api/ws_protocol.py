"""The WebSocket protocol `skald serve` runs: uvicorn's (websockets' sans-I/O), plus one
way to send a frame built once for many channels, at once.

A live channel's update goes to every channel of its viewer and seq (`api/channel.py`).
Through ASGI, each channel's frame took a wake-up of its writer task, then starlette's
and uvicorn's `send`, which encoded the text again and framed it anew, channel by
channel. `SkaldWebSocketProtocol` offers the ASGI extension `DIRECT_SEND` instead: a
plain function that writes a frame's ready bytes (`text_frame`) to the connection now, or
answers False when it cannot (the handshake not done, the close begun, the client gone, or
the transport paused because the client reads slowly: then the caller sends through ASGI,
where uvicorn waits for the client). A server's frames are not masked, so one frame's bytes
serve every channel; whole frames written in order keep the stream valid between
uvicorn's own (its pings and the close), which it writes the same way.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

DIRECT_SEND = "skald.direct_send"
"""The scope extension's name; its value is `{"send": fn}`, `fn(frame_bytes) -> bool`."""


def text_frame(payload: bytes) -> bytes:
    """One unmasked, final text frame (RFC 6455 5.2) carrying `payload` (UTF-8)."""
    size = len(payload)
    if size < 126:
        head = struct.pack("!BB", 0x81, size)
    elif size < 65536:
        head = struct.pack("!BBH", 0x81, 126, size)
    else:
        head = struct.pack("!BBQ", 0x81, 127, size)
    return head + payload


class SkaldWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, with `DIRECT_SEND` in every accepted scope."""

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # none when the handshake was refused
        if scope is not None:
            scope["extensions"][DIRECT_SEND] = {"send": self.send_frame}

    def send_frame(self, frame: bytes) -> bool:
        """Write a whole frame now; False when it must go through ASGI's send instead."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.disconnected
            or self.initial_response is not None
            or not self.writable.is_set()
            or self.transport.is_closing()
        ):
            return False
        self.transport.write(frame)
        return True


def direct_sender(scope: Mapping[str, Any]) -> Callable[[bytes], bool] | None:
    """The connection's `DIRECT_SEND` function, if its server offers one."""
    extension = scope.get("extensions", {}).get(DIRECT_SEND)
    return None if extension is None else extension["send"]
