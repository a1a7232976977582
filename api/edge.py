"""What the service guards before a request reaches a route: the body size, tokens kept out
of the access log, uvicorn's own 400 answers given in the JSON error shape, and HEAD.

- Bodies over `MAX_BODY` (1 MiB; no route needs more than a few KiB) are refused with 413
  before they are read into memory: by `Content-Length` up front, or while streaming a
  body sent with `Transfer-Encoding` (only those are counted: without it, HTTP/1.1 gives
  a request exactly its `Content-Length`, or no body).
- uvicorn's access log prints each request's path with its query; `RedactTokens` replaces
  the value of every `token=` in it, so a seat's `?token=` never lands in a log file.
- A request uvicorn cannot parse (an oversized or malformed header) is answered by the
  protocol itself, before any app code; `JsonErrorHttpToolsProtocol` (uvicorn's httptools
  protocol, the C parser `skald serve` runs on) makes that answer the same
  `{"error", "message"}` body as every other error. httptools has no limit of its own on
  a request's head; ours is h11's (`MAX_HEAD`, 16 KiB).
- A malformed request pipelined after valid ones (on the same connection, before their
  answers left) does not cost them their answers: the protocol parses nothing more
  (what still comes is dropped), answers every request that came whole before the
  malformed bytes, in order, then the 400, and closes (uvicorn answered the 400 and closed
  at once, and a move already committed was never answered). A request whose head came
  but whose body the malformed bytes cut off is not run; it was not sent whole.
- A client that half-closes (`shutdown(SHUT_WR)`, `nc -N`), after its requests or after
  malformed bytes, still gets every answer; then the connection closes.
- Connections are bounded (api/limits.py, the one place for the numbers): a request head
  must come whole within 5 s of its first byte and a body within 10 s of its head (else a
  JSON 408, and the connection closes), a connection idle for 5 s with no request under
  way is closed, and past 1000 open connections a new one is answered a JSON 503
  `too_many_connections` and closed. A request being answered is never timed, and a
  connection upgraded to a WebSocket leaves these timers behind (its own rules apply).
- `HEAD` on every GET resource (FastAPI's routes take GET alone and answered HEAD with
  405): `HeadAsGet` runs the GET and sends its status and headers, `Content-Length`
  included, and no body (RFC 9110 9.3.2). Nothing is run for HEAD that a GET does not
  run: a path without a GET answers HEAD as it answers GET (a 405, or a 404). A
  streamed answer (the live feed) is a 200 with its headers that ends there: the GET is
  stopped once its head has gone.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import deque

import anyio
import httptools
import msgspec
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle

from skald.api.limits import http_limits
from skald.api.wire import CoalescedWrites

MAX_BODY = 1024 * 1024
MAX_HEAD = 16 * 1024  # bytes of a request line and headers (h11's default limit)
_MALFORMED = (
    b'{"error":"malformed","message":"malformed HTTP request (a header too large, or bad syntax)"}'
)
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
    """Add the filter to uvicorn's access logger, and to its error logger, which logs each
    WebSocket upgrade's path with its query (once per process)."""
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())


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


def _body_headers(scope: Scope) -> tuple[bytes | None, bool]:
    """A request's (last) `Content-Length`, and whether it has a `Transfer-Encoding`."""
    declared, streamed = None, False
    for name, value in scope.get("headers") or ():
        if name == b"content-length":
            declared = value
        elif name == b"transfer-encoding":
            streamed = True
    return declared, streamed


class BodyLimit:
    """ASGI middleware: 413 with the JSON error shape for bodies over `limit` bytes."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit
        self.message = f"the request body is over {limit} bytes"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared, streamed = _body_headers(scope)
        message = self.message
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            for part in _json_error(413, "too_large", message):
                await send(part)
            return
        if not streamed:
            # A body of a declared length within the limit, or none at all (neither
            # header): the HTTP server hands the app no more than that, so there is
            # nothing to count (and no wrapper on every message).
            await self.app(scope, receive, send)
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


class HeadAsGet:
    """ASGI: a HEAD request answered as its GET: the GET's status and headers, no body.

    The app sees a GET (in a copy of the scope; the server keeps its HEAD, and with it
    its own rule of writing no body). Once the head is sent the answer ends, and the GET
    is stopped: nothing of its body is needed, and a stream would never end."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return
        answered = False
        with anyio.CancelScope() as get:

            async def head_send(message: Message) -> None:
                nonlocal answered
                if answered or message["type"] != "http.response.start":
                    return  # the body, and anything after the answer ended
                answered = True
                await send(message)
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                get.cancel()

            async def head_receive() -> Message:
                if answered:
                    return {"type": "http.disconnect"}
                return await receive()

            await self.app({**scope, "method": "GET"}, head_receive, head_send)


class JsonErrorHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, answering unparseable requests, and heads over
    `MAX_HEAD` bytes, with the JSON error shape, after the answers of the requests that
    came whole before them; its answers leave in one socket write each
    (`CoalescedWrites`, api/wire.py)."""

    _head_bytes = 0
    _awaiting_head = True
    _partial: RequestResponseCycle | None = None  # a request whose head came, not its end
    _owed: tuple[RequestResponseCycle, ...] = ()  # answers due before a pending 400
    _refusing = False  # a 400 is due (or sent): nothing more is read
    _half_closed = False  # the client sends no more: close once every answer has gone
    _timer: asyncio.TimerHandle | None = None  # the limit now running (api/limits.py)
    _timing = ""  # which: "idle", "head", "body" or "linger"

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self.transport = CoalescedWrites(self.transport, self.loop)  # type: ignore[assignment]
        self._open: list[RequestResponseCycle] = []  # requests not yet answered, in order
        self.limits = http_limits()
        # uvicorn's keep-alive timer, between requests (it declares an int; any number works)
        self.timeout_keep_alive = self.limits.idle_seconds  # type: ignore[assignment]
        if len(self.connections) > self.limits.max_connections:
            self._too_many()
            return
        self._time("idle", self.limits.idle_seconds)

    # -- the limits on a connection (api/limits.py) ---------------------------------------

    def _time(self, what: str, seconds: float) -> None:
        self._untime()
        self._timing = what
        self._timer = self.loop.call_later(seconds, self._time_out)

    def _untime(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer, self._timing = None, ""

    def _time_out(self) -> None:
        what, self._timer, self._timing = self._timing, None, ""
        if self.transport.is_closing():
            return
        limits = self.limits
        cycle = self.cycle
        quiet = what in ("idle", "linger") or (
            # an answer already under way, or owed to an earlier request: no 408 between
            any(not c.response_complete and c is not self._partial for c in self._open)
            if what == "head"
            else cycle is None or cycle.response_started
        )
        if quiet:
            self.transport.close()
            return
        part, seconds = (
            ("head", limits.head_seconds) if what == "head" else ("body", limits.body_seconds)
        )
        if cycle is not None and what == "body":
            cycle.disconnected = True  # the app reading the body is told the client left
            cycle.message_event.set()
        self._refusing = True
        self._answer_and_close(
            b"408 Request Timeout",
            msgspec.json.encode(
                {
                    "error": "timeout",
                    "message": f"the request {part} did not arrive within {seconds:g} s",
                }
            ),
        )

    def _too_many(self) -> None:
        """Past `max_connections`: a 503 now, then the connection closes (after the client's
        end, or a second: what it sends meanwhile is read and dropped, so it gets the 503)."""
        self._refusing = True
        body = msgspec.json.encode(
            {
                "error": "too_many_connections",
                "message": f"the server has {self.limits.max_connections} connections open, "
                "its limit; try again in a moment",
                "retry": True,
            }
        )
        self.transport.write(_answer(b"503 Service Unavailable", body, b"retry-after: 1\r\n"))
        self._time("linger", 1.0)

    def _answer_and_close(self, status: bytes, body: bytes) -> None:
        self._unset_keepalive_if_required()
        self.transport.write(_answer(status, body))
        self.transport.close()

    def handle_websocket_upgrade(self) -> None:
        self._untime()  # a WebSocket keeps its own rules, not an HTTP request's
        super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        self._untime()
        super().connection_lost(exc)

    # -- parsing --------------------------------------------------------------------------

    def eof_received(self) -> bool | None:  # type: ignore[override]  # asyncio's contract
        if self._timing == "linger":
            self.transport.close()
            return None
        # The client half-closed (`shutdown(SHUT_WR)`, `nc -N`): it sends nothing more but
        # still reads. An answer written in this loop turn and still held leaves now.
        self.transport.send_held()  # type: ignore[attr-defined]
        super().eof_received()
        if self.transport.is_closing():
            return None
        if self._refusing:
            return True  # open for the answers owed before the 400 (which closes it)
        # Requests that came whole are still being answered (a move already committed,
        # say): the transport stays open for them and closes after the last one. A
        # request cut off by the end never completes: it is not waited for.
        self._half_closed = True
        if self._unanswered():
            return True
        return None

    def _unanswered(self) -> list[RequestResponseCycle]:
        return [
            cycle
            for cycle in self._open
            if not cycle.response_complete and cycle is not self._partial
        ]

    def data_received(self, data: bytes) -> None:
        if self._refusing:
            return  # after malformed bytes nothing can be parsed; the 400 will close
        # Counted before parsing, judged after: a chunk that completes the head (and brings
        # body bytes along) resets the count in `on_headers_complete`.
        if self._awaiting_head:
            self._head_bytes += len(data)
            if self._timing != "head":  # its first byte: the head's time begins
                self._time("head", self.limits.head_seconds)
        super().data_received(data)
        if self._awaiting_head and self._head_bytes > MAX_HEAD and not self.transport.is_closing():
            self.send_400_response("request head too large")

    def on_headers_complete(self) -> None:
        self._awaiting_head, self._head_bytes = False, 0
        # A whole head that came in one read was never judged by the count above: judge
        # what was parsed, as it was sent: "METHOD URL HTTP/1.1\r\n", each "name: value\r\n"
        # and the blank line.
        size = (
            len(self.parser.get_method())
            + len(self.url)
            + 12
            + sum(len(name) + len(value) + 4 for name, value in self.headers)
            + 2
        )
        if size > MAX_HEAD:
            # uvicorn answers a parser error with `send_400_response` (the JSON 400 below).
            raise httptools.HttpParserError("request head too large")
        before = self.cycle
        self._untime()
        super().on_headers_complete()
        if self.cycle is not before and not self.transport.is_closing():
            self._time("body", self.limits.body_seconds)  # until the message is whole
        if self.cycle is not before:  # a request (not an upgrade): owed an answer
            self._partial = self.cycle
            self._open = [cycle for cycle in self._open if not cycle.response_complete]
            self._open.append(self.cycle)

    def on_message_complete(self) -> None:
        if self._timing == "body":
            self._untime()
        self._awaiting_head = True
        self._partial = None
        super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._half_closed and not self._unanswered() and not self.transport.is_closing():
            self.transport.close()  # the half-closed client's last answer has gone
            return
        if (
            self._refusing
            and not self.transport.is_closing()
            and all(cycle.response_complete for cycle in self._owed)
        ):
            self._refuse()

    def send_400_response(self, msg: str) -> None:
        """The 400 for malformed bytes: now, or after the answers of the requests that came
        whole before them (each answered in turn, as pipelined requests are)."""
        if self._refusing:
            return
        self._refusing = True
        partial = self._partial
        if partial is not None and any(cycle is partial for cycle, _app in self.pipeline):
            # Queued behind others, and cut off by the malformed bytes: never run.
            self.pipeline = deque(entry for entry in self.pipeline if entry[0] is not partial)
        self._owed = tuple(self._unanswered())
        if not self._owed:
            self._refuse()
            return
        self.cycle = self._owed[-1]  # the request uvicorn waits on (its end, its client leaving)

    def _refuse(self) -> None:
        self._untime()
        self._answer_and_close(b"400 Bad Request", _MALFORMED)


def _answer(status: bytes, body: bytes, extra: bytes = b"") -> bytes:
    """A whole JSON answer that closes its connection (written by the protocol itself)."""
    return (
        b"HTTP/1.1 " + status + b"\r\ncontent-type: application/json\r\n"
        b"content-length: "
        + str(len(body)).encode()
        + b"\r\n"
        + extra
        + b"connection: close\r\n\r\n"
        + body
    )
