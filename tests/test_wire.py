"""One socket write per response (api/wire.py): the writes a callback makes leave together,
closing sends what is held, aborting drops it, and a real server's answers (plain, error,
streamed) reach a real client whole, each response in one write."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from skald.api.edge import JsonErrorHttpToolsProtocol
from skald.api.main import create_app
from skald.api.wire import HOLD_LIMIT, CoalescedWrites
from tests.patience import HUNG
from tests.servers import free_port


class RecordingTransport:
    """A transport that records what is written and whether it was closed or aborted."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False
        self.aborted = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def is_closing(self) -> bool:
        return self.closed or self.aborted

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.aborted = True

    def get_extra_info(self, name: str) -> str:
        return f"extra:{name}"

    def write_eof(self) -> None:
        self.writes.append(b"<eof>")


def test_writes_of_one_callback_leave_in_one_write_at_the_next_turn() -> None:
    async def scenario() -> tuple[list[bytes], list[bytes]]:
        raw = RecordingTransport()
        wire = CoalescedWrites(raw, asyncio.get_running_loop())  # type: ignore[arg-type]
        wire.write(b"HTTP/1.1 200 OK\r\n\r\n")
        wire.write(b"body")
        before = list(raw.writes)
        await asyncio.sleep(0)  # one loop turn
        wire.write(b"next")
        await asyncio.sleep(0)
        return before, raw.writes

    before, after = asyncio.run(scenario())
    assert before == []  # nothing left while the callback ran
    assert after == [b"HTTP/1.1 200 OK\r\n\r\nbody", b"next"]


def test_close_sends_what_is_held_and_abort_drops_it() -> None:
    async def scenario() -> tuple[RecordingTransport, RecordingTransport]:
        loop = asyncio.get_running_loop()
        closing, aborting = RecordingTransport(), RecordingTransport()
        first = CoalescedWrites(closing, loop)  # type: ignore[arg-type]
        first.write(b"last words")
        first.close()
        second = CoalescedWrites(aborting, loop)  # type: ignore[arg-type]
        second.write(b"never sent")
        second.abort()
        await asyncio.sleep(0)  # the scheduled sends find nothing (or a closed transport)
        return closing, aborting

    closing, aborting = asyncio.run(scenario())
    assert closing.writes == [b"last words"]
    assert closing.closed
    assert aborting.writes == []
    assert aborting.aborted


def test_writes_held_when_the_transport_closed_underneath_are_dropped() -> None:
    async def scenario() -> RecordingTransport:
        raw = RecordingTransport()
        wire = CoalescedWrites(raw, asyncio.get_running_loop())  # type: ignore[arg-type]
        wire.write(b"too late")
        raw.closed = True  # the client went away before the loop's next turn
        await asyncio.sleep(0)
        return raw

    assert asyncio.run(scenario()).writes == []


def test_a_large_write_goes_at_once_and_order_is_kept() -> None:
    """Over `HOLD_LIMIT` the held bytes leave at once (the socket's buffer and uvicorn's
    flow control see them); writelines and write_eof keep the order of what was written."""

    async def scenario() -> list[bytes]:
        raw = RecordingTransport()
        wire = CoalescedWrites(raw, asyncio.get_running_loop())  # type: ignore[arg-type]
        wire.write(b"head")
        wire.write(b"x" * HOLD_LIMIT)
        assert raw.writes == [b"head" + b"x" * HOLD_LIMIT]  # not held for the next turn
        wire.writelines([b"a", b"b"])
        wire.write_eof()
        await asyncio.sleep(0)
        return raw.writes

    assert asyncio.run(scenario())[1:] == [b"ab", b"<eof>"]


def test_everything_else_is_the_wrapped_transports() -> None:
    raw = RecordingTransport()
    wire = CoalescedWrites(raw, asyncio.new_event_loop())  # type: ignore[arg-type]
    assert wire.get_extra_info("peername") == "extra:peername"
    assert wire.is_closing() is False


# -- a real server: every answer in one write, and whole --------------------------------

SOCKET_WRITES: list[bytes] = []


class CountedTransport:
    """A socket transport whose writes are recorded (everything else is the socket's)."""

    def __init__(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport

    def write(self, data: bytes) -> None:
        SOCKET_WRITES.append(bytes(data))
        self._transport.write(data)  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class CountedProtocol(JsonErrorHttpToolsProtocol):
    """The service's protocol over a socket whose writes are counted."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(CountedTransport(transport))  # type: ignore[arg-type]


@contextmanager
def serving(app: Any, protocol: type[JsonErrorHttpToolsProtocol]) -> Iterator[str]:
    """`app` served by a real uvicorn on 127.0.0.1 with `protocol` (in a thread of this
    process) until the block ends; yields its base URL."""
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, http=protocol, log_level="warning", lifespan="on"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + HUNG
    while not server.started:
        assert time.monotonic() < deadline, "hung: the test server did not start"
        assert thread.is_alive(), "the test server stopped"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=HUNG)


@pytest.fixture
def counted_server(tmp_path: Path) -> Iterator[str]:
    with serving(create_app(f"sqlite:///{tmp_path / 'wire.db'}"), CountedProtocol) as base:
        yield base


def _one_write_each(client: httpx.Client, method: str, path: str, **kwargs: Any) -> httpx.Response:
    SOCKET_WRITES.clear()
    response = client.request(method, path, **kwargs)
    time.sleep(0.05)  # anything written after the answer arrived would show up here
    assert len(SOCKET_WRITES) == 1, [w[:40] for w in SOCKET_WRITES]
    assert SOCKET_WRITES[0].startswith(b"HTTP/1.1 ")
    assert SOCKET_WRITES[0].endswith(response.content)
    return response


def test_a_real_servers_answers_leave_in_one_write_each(counted_server: str) -> None:
    with httpx.Client(base_url=counted_server) as client:
        assert _one_write_each(client, "GET", "/health").status_code == 200
        created = _one_write_each(
            client, "POST", "/games", json={"game": "hagar", "players": ["Ann", "Bo", "Cy"]}
        )
        assert created.status_code == 201
        game = created.json()
        token = game["seats"][0]["token"]
        legal = _one_write_each(
            client,
            "GET",
            f"/games/{game['id']}/legal",
            headers={"Authorization": f"Bearer {token}"},
        )
        assert legal.status_code == 200
        refused = _one_write_each(client, "POST", "/games", json={"game": "chess"})
        assert refused.status_code == 422
        assert refused.json()["error"]
        missing = _one_write_each(client, "GET", "/games/nope")
        assert missing.status_code == 404


def test_a_malformed_request_is_answered_whole_and_the_connection_closed(
    counted_server: str,
) -> None:
    port = int(counted_server.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=HUNG) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n")
        received = b""
        while chunk := sock.recv(4096):  # the server closes after its 400
            received += chunk
    assert received.startswith(b"HTTP/1.1 400 ")
    assert received.endswith(
        b'"malformed","message":"malformed HTTP request (a header too large, or bad syntax)"}'
    )


def _half_closed(port: int, request: bytes) -> bytes:
    """Send `request`, end the sending side (as `nc -N` does), read until the server closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=HUNG) as sock:
        sock.sendall(request)
        sock.shutdown(socket.SHUT_WR)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    return received


def a_turn(base: str) -> tuple[str, str, bytes]:
    """A new Beowulf game: its id, the token of the seat to act, and a POST of a legal move
    as raw bytes."""
    game = httpx.post(
        f"{base}/games", json={"game": "beowulf", "players": ["Ann", "Bob"]}, timeout=HUNG
    ).json()
    seat = httpx.get(f"{base}/games/{game['id']}", timeout=HUNG).json()["to_act"][0]
    token = game["seats"][seat]["token"]
    legal = httpx.get(
        f"{base}/games/{game['id']}/legal",
        headers={"Authorization": f"Bearer {token}"},
        timeout=HUNG,
    ).json()
    body = json.dumps({"move": legal["moves"][0], "expected_seq": legal["seq"]}).encode()
    move = (
        f"POST /games/{game['id']}/moves HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}"
        f"\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    return game["id"], token, move


def test_a_client_that_half_closes_after_its_request_still_gets_the_answer(
    counted_server: str,
) -> None:
    """The answer is written in the loop turn the client's end arrives in; the transport is
    closed right after, so the held answer must leave first (it was lost 3 times in 3)."""
    port = int(counted_server.rsplit(":", 1)[1])
    _game, _token, move = a_turn(counted_server)
    answer = _half_closed(port, move)
    assert answer.startswith(b"HTTP/1.1 201 "), answer[:80]
    assert b'"receipt"' in answer
    health = b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
    answers = [_half_closed(port, health) for _ in range(20)]
    assert all(a.startswith(b"HTTP/1.1 200 ") for a in answers), [a[:20] for a in answers]
