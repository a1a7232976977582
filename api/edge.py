"""What the service guards before a request reaches a route: the body size, tokens kept out
of the access log, and uvicorn's own 400 answers given in the JSON error shape.

- Bodies over `MAX_BODY` (1 MiB; no route needs more than a few KiB) are refused with 413
  before they are read into memory: by `Content-Length` up front, or while streaming.
- uvicorn's access log prints each request's path with its query; `RedactTokens` replaces
  the value of every `token=` in it, so a seat's `?token=` never lands in a log file.
- A request uvicorn cannot parse (an oversized or malformed header) is answered by the
  protocol itself, before any app code; `JsonErrorH11Protocol` makes that answer the same
  `{"error", "message"}` body as every other error.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import h11
import msgspec
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

MAX_BODY = 1024 * 1024
_TOKEN_VALUE = re.compile(r"((?:^|[?&;])token=)[^&;#\s]*", re.IGNORECASE)


def redact_tokens(text: str) -> str:
    """`text` (a path with its query) with every `token=` value replaced."""
    return _TOKEN_VALUE.sub(r"\1[redacted]", text)


class RedactTokens(logging.Filter):
    """Redacts `token=` values from access-log records (their arguments and message)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                redact_tokens(arg) if isinstance(arg, str) else arg for arg in record.args
            )
        if isinstance(record.msg, str) and "token=" in record.msg.lower():
            record.msg = redact_tokens(record.msg)
        return True


def install_log_redaction() -> None:
    """Add the filter to uvicorn's access logger (once per process)."""
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, RedactTokens) for f in access.filters):
        access.addFilter(RedactTokens())


def _json_error(status: int, code: str, message: str) -> tuple[Message, Message]:
    body = msgspec.json.encode({"error": code, "message": message})
    start: Message = {
        "type": "http.response.start",
        "status": status,
        "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ],
    }
    return start, {"type": "http.response.body", "body": body}


class BodyLimit:
    """ASGI middleware: 413 with the JSON error shape for bodies over `limit` bytes."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        message = f"the request body is over {self.limit} bytes"
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            for part in _json_error(413, "too_large", message):
                await send(part)
            return
        received = 0
        started = answered = False

        async def limited_receive() -> Message:
            # Past the limit: answer 413 now and tell the app the client left, so it stops
            # reading; whatever it then tries to send is dropped.
            nonlocal received, answered
            if answered:
                return {"type": "http.disconnect"}
            incoming = await receive()
            if incoming["type"] == "http.request":
                received += len(incoming.get("body", b""))
                if received > self.limit:
                    if not started:
                        for part in _json_error(413, "too_large", message):
                            await send(part)
                    answered = True
                    return {"type": "http.disconnect"}
            return incoming

        async def tracking_send(outgoing: Message) -> None:
            nonlocal started
            if answered:
                return
            started = started or outgoing["type"] == "http.response.start"
            await send(outgoing)

        await self.app(scope, limited_receive, tracking_send)


class JsonErrorH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, answering unparseable requests with the JSON error shape."""

    def send_400_response(self, msg: str) -> None:
        body = (
            b'{"error":"malformed","message":"malformed HTTP request (a header too '
            b'large, or bad syntax)"}'
        )
        headers: list[tuple[bytes, bytes]] = [
            (b"content-type", b"application/json"),
            (b"connection", b"close"),
        ]
        event: Any = h11.Response(status_code=400, headers=headers, reason=b"Bad Request")
        for item in (event, h11.Data(data=body), h11.EndOfMessage()):
            output = self.conn.send(item)
            if output:
                self.transport.write(output)
        self.transport.close()
