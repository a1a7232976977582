"""Pipelined requests on one connection (api/edge.py `JsonErrorHttpToolsProtocol`): each
valid request is answered, in order; malformed bytes after valid requests are answered
with the JSON 400 only after those requests' answers, and then the connection closes. A
move sent just before garbage is committed and its 201 reaches the client (uvicorn
answered the 400 and closed at once, and the move's answer was lost).

A real uvicorn on 127.0.0.1 with the service's protocol; the client is a raw socket that
sends everything in one `sendall` and reads until the server closes (or, for a connection
kept open, until the last answer is whole), bounded only as hung (tests/patience.py).
Where a test needs bytes to arrive at a given moment (while an answer is computed), it
waits for that moment (the app has started the request, the server has read the bytes),
never for a guessed pause.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from skald.api.edge import MAX_HEAD, JsonErrorHttpToolsProtocol
from skald.api.limits import HttpLimits
from skald.api.main import create_app
from tests.patience import HUNG, wait_until
from tests.test_wire import a_turn, serving

GARBAGE = b"\x16\x03\x01 not HTTP at all\r\n\r\n"
MALFORMED = (
    b'{"error":"malformed","message":"malformed HTTP request (a header too large, or bad syntax)"}'
)


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    with serving(
        create_app(f"sqlite:///{tmp_path / 'pipe.db'}"), JsonErrorHttpToolsProtocol
    ) as url:
        yield url


def port_of(base: str) -> int:
    return int(base.rsplit(":", 1)[1])


def answers(data: bytes, heads: tuple[int, ...] = ()) -> list[tuple[int, dict[str, str], bytes]]:
    """The responses in `data` (each with a Content-Length), in order: status, headers, body.
    The answers numbered in `heads` (from 0) are to HEAD requests: they have no body."""
    found: list[tuple[int, dict[str, str], bytes]] = []
    while data:
        head, sep, rest = data.partition(b"\r\n\r\n")
        assert sep, f"an incomplete answer: {data[:200]!r}"
        status_line, *fields = head.decode("latin-1").split("\r\n")
        headers = {
            name.lower(): value for name, value in (field.split(": ", 1) for field in fields)
        }
        length = 0 if len(found) in heads else int(headers["content-length"])
        assert len(rest) >= length, f"a body cut short: {data[:200]!r}"
        found.append((int(status_line.split()[1]), headers, rest[:length]))
        data = rest[length:]
    return found


def until_closed(sock: socket.socket, half_close: bool = False) -> bytes:
    """Everything the server sends until it closes the connection (unless hung)."""
    if half_close:
        sock.shutdown(socket.SHUT_WR)
    received, deadline = b"", time.monotonic() + HUNG
    while chunk := sock.recv(65536):
        received += chunk
        assert time.monotonic() < deadline, "the server did not close the connection"
    return received


def logged_moves(base: str, game_id: str) -> list[str]:
    log = httpx.get(f"{base}/games/{game_id}/log", timeout=HUNG).json()["events"]
    return [e["event"]["move"] for e in log if e["event"]["type"] == "skald.move_made"]


@pytest.mark.parametrize("half_close", [False, True], ids=["open", "half-closed"])
def test_a_move_before_garbage_is_answered_then_the_400(base: str, half_close: bool) -> None:
    """The move's 201 first (the client learns its move was committed), then the 400, then
    the server closes; a client that ends its sending side after the garbage too."""
    game_id, _token, move = a_turn(base)
    with socket.create_connection(("127.0.0.1", port_of(base)), timeout=HUNG) as sock:
        sock.sendall(move + GARBAGE)
        received = until_closed(sock, half_close)
    (moved, _, body), (refused, headers, error) = answers(received)
    assert moved == 201, received[:300]
    made = json.loads(body)
    assert made["receipt"]
    assert (refused, headers["connection"], error) == (400, "close", MALFORMED)
    assert len(logged_moves(base, game_id)) == 1
    assert httpx.get(f"{base}/games/{game_id}", timeout=HUNG).json()["seq"] == made["seq"]


def test_every_whole_request_before_the_garbage_is_answered_in_order(base: str) -> None:
    game_id, _token, move = a_turn(base)
    reads = [
        b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n",
        move,
        f"GET /games/{game_id} HTTP/1.1\r\nHost: x\r\n\r\n".encode(),
        b"HEAD /health HTTP/1.1\r\nHost: x\r\n\r\n",
    ]
    with socket.create_connection(("127.0.0.1", port_of(base)), timeout=HUNG) as sock:
        sock.sendall(b"".join(reads) + GARBAGE + b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        received = until_closed(sock)
    got = answers(received, heads=(3,))
    assert [status for status, _, _ in got] == [200, 201, 200, 200, 400]
    assert got[0][2] == b'{"ok":true}'
    summary = json.loads(got[2][2])
    assert summary["seq"] == json.loads(got[1][2])["seq"]  # read after the move
    assert got[3][1]["content-length"] == str(len(b'{"ok":true}'))
    assert got[4][2] == MALFORMED
    assert len(logged_moves(base, game_id)) == 1


def test_a_request_cut_off_by_malformed_bytes_is_not_run(base: str) -> None:
    """A POST whose head came whole but whose chunked body is malformed was never sent
    whole: the request before it is answered, then the 400; the cut-off one creates
    nothing (and is not waited for)."""
    cut = (
        b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
        b"2c\r\n" + b'{"game": "beowulf", "players": ["Ann", "Bo"]}' + b"\r\nzz\r\n"
    )
    game_id, _token, move = a_turn(base)
    with socket.create_connection(("127.0.0.1", port_of(base)), timeout=HUNG) as sock:
        sock.sendall(move + cut)
        received = until_closed(sock)
    assert [status for status, _, _ in answers(received)] == [201, 400]
    listed = httpx.get(f"{base}/games", timeout=HUNG).json()["items"]
    assert [item["id"] for item in listed] == [game_id]


STARTED: list[str] = []  # the paths slow_app has begun to answer
GATE = threading.Event()  # `/gate` is answered once a test opens it
READS: list[bytes] = []  # what the server read from its connections, read by read


async def slow_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """A stand-in app whose answer to `/slow/SECONDS` takes that long, and to `/gate` until
    the test opens `GATE`; its body the path."""
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    STARTED.append(scope["path"])
    if scope["path"] == "/gate":
        await asyncio.get_running_loop().run_in_executor(None, GATE.wait, HUNG)
    else:
        await asyncio.sleep(float(scope["path"].rsplit("/", 1)[1]))
    body = scope["path"].encode()
    headers = [(b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class RecordingProtocol(JsonErrorHttpToolsProtocol):
    """The service's protocol, each read recorded in `READS`."""

    def data_received(self, data: bytes) -> None:
        READS.append(bytes(data))
        super().data_received(data)


@pytest.fixture
def slow_base(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """slow_app served with the service's protocol, whose time limits are set far off (ten
    minutes): a connection these tests see closed was closed by what they test, never by
    a limit, however slowly a loaded machine answers."""
    far = HttpLimits(head_seconds=600, idle_seconds=600, body_seconds=600)
    monkeypatch.setattr("skald.api.edge.http_limits", lambda: far)
    for shared in (STARTED, READS):
        shared.clear()
    GATE.clear()
    with serving(slow_app, RecordingProtocol) as url:
        yield url
    GATE.set()


def test_malformed_bytes_arriving_while_answers_are_computed_wait_for_them(
    slow_base: str,
) -> None:
    """The bad bytes come in a later read, while a request before them is still being
    answered: a head over the limit, and garbage after two pipelined requests. The second
    is held at `/gate` until the server has read the bad bytes (uvicorn reads nothing more
    while a pipelined request waits, so the first is answered at once)."""
    late = (
        b"GET /h HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (MAX_HEAD + 10),
        GARBAGE,
    )
    for bad in late:
        STARTED.clear()
        READS.clear()
        GATE.clear()
        with socket.create_connection(("127.0.0.1", port_of(slow_base)), timeout=HUNG) as sock:
            sock.sendall(b"GET /slow/0 HTTP/1.1\r\n\r\nGET /gate HTTP/1.1\r\n\r\n")
            wait_until(lambda: "/gate" in STARTED, "the second request being answered")
            sock.sendall(bad)
            wait_until(lambda bad=bad: b"".join(READS).endswith(bad), "the bad bytes read")
            GATE.set()  # the bad bytes came in a later read, with /gate's answer unsent
            received = until_closed(sock)
        got = answers(received)
        assert [(status, body) for status, _, body in got[:2]] == [
            (200, b"/slow/0"),
            (200, b"/gate"),
        ], received[:300]
        assert [(status, body) for status, _, body in got[2:]] == [(400, MALFORMED)]


def test_pipelined_valid_requests_are_answered_in_order_on_an_open_connection(
    base: str,
) -> None:
    game_id, _token, move = a_turn(base)
    last = f"GET /games/{game_id} HTTP/1.1\r\nHost: x\r\n\r\n".encode()
    sent = [
        b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n",
        move,
        b"GET /nope HTTP/1.1\r\nHost: x\r\n\r\n",
    ]
    with socket.create_connection(("127.0.0.1", port_of(base)), timeout=HUNG) as sock:
        sock.sendall(b"".join(sent) + last)
        received, deadline = b"", time.monotonic() + HUNG
        while received.count(b"HTTP/1.1 ") < 4 or not received.endswith(b"}"):
            assert time.monotonic() < deadline, received[:300]
            chunk = sock.recv(65536)
            assert chunk, "the server closed a connection it should keep"
            received += chunk
    got: list[Any] = answers(received)
    assert [status for status, _, _ in got] == [200, 201, 404, 200]
    assert json.loads(got[3][2])["seq"] == json.loads(got[1][2])["seq"]


def test_a_client_that_half_closes_after_garbage_gets_the_slow_answers_first(
    slow_base: str,
) -> None:
    """The client's end arrives long before the answers are ready: the connection stays
    open for them (and the 400) instead of closing at the end of the client's data."""
    with socket.create_connection(("127.0.0.1", port_of(slow_base)), timeout=HUNG) as sock:
        sock.sendall(b"GET /slow/0.4 HTTP/1.1\r\n\r\nGET /slow/0.1 HTTP/1.1\r\n\r\n" + GARBAGE)
        received = until_closed(sock, half_close=True)
    got = answers(received)
    assert [(status, body) for status, _, body in got] == [
        (200, b"/slow/0.4"),
        (200, b"/slow/0.1"),
        (400, MALFORMED),
    ], received[:300]


def test_a_client_that_half_closes_after_valid_requests_gets_every_answer(
    slow_base: str,
) -> None:
    """`shutdown(SHUT_WR)` (`nc -N`) right after the requests, answers slower than that:
    each is answered, in order, and then the connection closes (before, the end of the
    client's data closed it and the answers were lost: a committed move unanswered)."""
    with socket.create_connection(("127.0.0.1", port_of(slow_base)), timeout=HUNG) as sock:
        sock.sendall(b"GET /slow/0.3 HTTP/1.1\r\n\r\nGET /slow/0.1 HTTP/1.1\r\n\r\n")
        received = until_closed(sock, half_close=True)
    got = answers(received)
    assert [(status, body) for status, _, body in got] == [
        (200, b"/slow/0.3"),
        (200, b"/slow/0.1"),
    ], received[:300]


def test_a_move_from_a_half_closing_client_is_answered(base: str) -> None:
    game_id, _token, move = a_turn(base)
    with socket.create_connection(("127.0.0.1", port_of(base)), timeout=HUNG) as sock:
        sock.sendall(move)
        received = until_closed(sock, half_close=True)
    [(status, _, body)] = answers(received)
    assert status == 201, body[:300]
    assert len(logged_moves(base, game_id)) == 1


def test_a_request_cut_off_by_the_clients_end_is_not_waited_for(slow_base: str) -> None:
    """A head without its end, then the client's end: nothing can complete it, so the
    connection closes at once instead of staying open for an answer that never comes."""
    with socket.create_connection(("127.0.0.1", port_of(slow_base)), timeout=HUNG) as sock:
        sock.sendall(
            b"GET /slow/0.1 HTTP/1.1\r\n\r\nPOST /slow/0 HTTP/1.1\r\nContent-Length: 9\r\n\r\nab"
        )
        received = until_closed(sock, half_close=True)  # not the ten-minute body limit
    assert [(status, body) for status, _, body in answers(received)] == [(200, b"/slow/0.1")]
