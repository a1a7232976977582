"""Bounded connections on a real `skald serve` (api/limits.py), with real sockets on
127.0.0.1 and bounded counts: half-sent heads are answered 408 and closed within the head
limit while `/health` goes on answering; a body that trickles is cut within the body
limit; an idle connection is closed after the idle limit; a normal client (keep-alive,
a head or body sent in parts, each well inside its limit) is unaffected; past the
connection bound a new connection is answered 503 `too_many_connections`."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from skald.api.limits import HttpLimits
from tests.patience import HUNG, wait_until
from tests.servers import Server

LIMITS = HttpLimits()  # the defaults the server runs with
# A limit's timer may fire late on a loaded machine (its event loop waits for a core), never
# early: a close is checked to come no sooner than the limit, and only as hung after it
# (without the limits, nothing would ever close these connections). The lateness is shown.
SLACK = HUNG
HALF_HEAD = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n"  # no blank line: never ends


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server with the default limits for the module's tests (each on connections of
    its own): a start costs seconds, more on a loaded machine."""
    folder = tmp_path_factory.mktemp("limits")
    with Server(f"sqlite:///{folder}/limits.db", folder / "server.log") as running:
        running.start()
        yield running


def _connect(server: Server) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=HUNG)
    sock.settimeout(0.05)
    return sock


def _read_until_closed(sock: socket.socket, deadline: float) -> tuple[bytes, float] | None:
    """What the server sent before closing, and when it closed; None if still open then."""
    received = b""
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except ConnectionResetError:
            return received, time.monotonic()
        if not chunk:
            return received, time.monotonic()
        received += chunk
    return None


def _body(answer: bytes) -> dict[str, object]:
    return dict(json.loads(answer.split(b"\r\n\r\n", 1)[1]))


def test_half_sent_heads_are_closed_within_the_limit_while_health_answers(
    server: Server,
) -> None:
    socks = [_connect(server) for _ in range(10)]
    for sock in socks:
        sock.sendall(HALF_HEAD)
    sent = time.monotonic()
    deadline = sent + LIMITS.head_seconds + SLACK
    # While they hang, /health answers, five times in a row (each asked at once); the
    # server cannot close a head before its limit, so an answer that came before it came
    # while all ten hung. How many did is counted, not how many fit in the window.
    answered = []
    for _ in range(5):
        assert httpx.get(f"{server.base}/health", timeout=HUNG).status_code == 200
        answered.append(time.monotonic())
    while_hanging = sum(when < sent + LIMITS.head_seconds - 0.5 for when in answered)
    assert while_hanging >= 1, f"/health first answered {answered[0] - sent:.1f} s after"
    for sock in socks:
        closed = _read_until_closed(sock, deadline)
        assert closed is not None, "a half-sent head was still open past the limit"
        answer, when = closed
        assert when - sent >= LIMITS.head_seconds - 0.5  # not before the limit either
        assert answer.startswith(b"HTTP/1.1 408 "), answer
        assert _body(answer) == {
            "error": "timeout",
            "message": f"the request head did not arrive within {LIMITS.head_seconds:g} s",
        }
        sock.close()
    print(f"{while_hanging} of 5 /health answers while the heads hung; the last head closed "
          f"{when - sent - LIMITS.head_seconds:.2f} s past the limit")  # fmt: skip
    assert httpx.get(f"{server.base}/health", timeout=HUNG).status_code == 200


def test_a_trickling_body_is_cut_within_the_limit(server: Server) -> None:
    sock = _connect(server)
    sock.sendall(
        b"POST /games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 400\r\n\r\n{"
    )
    sent = time.monotonic()
    deadline = sent + LIMITS.body_seconds + SLACK
    closed = None
    while closed is None and time.monotonic() < deadline:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            sock.sendall(b" ")  # one byte a second: 400 would take minutes
        closed = _read_until_closed(sock, min(deadline, time.monotonic() + 1))
    assert closed is not None, "a trickling body was still read past the limit"
    answer, when = closed
    assert when - sent >= LIMITS.body_seconds - 0.5
    assert answer.startswith(b"HTTP/1.1 408 "), answer
    assert _body(answer)["message"] == (
        f"the request body did not arrive within {LIMITS.body_seconds:g} s"
    )
    print(f"cut {when - sent - LIMITS.body_seconds:.2f} s past the limit")
    sock.close()
    log = server.log.read_text()
    assert "Traceback" not in log, log[-3000:]


def test_idle_connections_are_closed_after_the_limit(server: Server) -> None:
    silent = _connect(server)  # never sends a byte
    used = _connect(server)  # one request, then nothing
    used.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    opened = time.monotonic()
    for sock in (silent, used):
        closed = _read_until_closed(sock, opened + LIMITS.idle_seconds + SLACK)
        assert closed is not None, "an idle connection was still open past the limit"
        answer, when = closed
        assert when - opened >= LIMITS.idle_seconds - 0.5
        assert b"408" not in answer  # idle is no error: no answer, just the close
        print(f"closed {when - opened - LIMITS.idle_seconds:.2f} s past the limit")
        sock.close()
    assert answer.startswith(b"HTTP/1.1 200 ")  # the one request was answered


def test_a_normal_client_is_unaffected(server: Server) -> None:
    with httpx.Client(base_url=server.base, timeout=HUNG) as client:
        for _ in range(3):  # keep-alive, pauses inside the idle limit
            assert client.get("/health").status_code == 200
            time.sleep(LIMITS.idle_seconds / 2)
        made = client.post("/games", json={"game": "beowulf", "players": ["Ann", "Bob"]})
        assert made.status_code == 201, made.text
    sock = _connect(server)  # a head, and a body, each in two parts a second apart
    body = b'{"game": "beowulf", "players": ["Ann", "Bob"]}'
    sock.sendall(b"POST /games HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    time.sleep(1)
    sock.sendall(
        b"Content-Type: application/json\r\nContent-Length: "
        + str(len(body)).encode()
        + b"\r\nConnection: close\r\n\r\n"
        + body[:10]
    )
    time.sleep(1)
    sock.sendall(body[10:])
    closed = _read_until_closed(sock, time.monotonic() + 10)
    assert closed is not None
    assert closed[0].startswith(b"HTTP/1.1 201 "), closed[0]
    sock.close()


def test_past_the_connection_bound_a_new_connection_is_told_so(tmp_path: Path) -> None:
    env = {**os.environ, "SKALD_HTTP_MAX_CONNECTIONS": "5", "SKALD_HTTP_IDLE_SECONDS": "30"}
    with Server(f"sqlite:///{tmp_path}/bound.db", tmp_path / "server.log", env=env) as server:
        server.start()
        held = [_connect(server) for _ in range(5)]
        # The server takes connections in the order they came (one listening socket's
        # queue), so the sixth is past the bound however late it is accepted.
        extra = _connect(server)
        extra.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        closed = _read_until_closed(extra, time.monotonic() + HUNG)
        assert closed is not None
        answer = closed[0]
        assert answer.startswith(b"HTTP/1.1 503 "), answer
        assert b"retry-after: 1" in answer.lower()
        body = _body(answer)
        assert body["error"] == "too_many_connections"
        assert body["retry"] is True
        assert "5 connections" in str(body["message"])
        for sock in (*held, extra):
            sock.close()
        # Once the server has seen them close (when a loaded machine lets it), a new
        # connection is served again: asked until it is, not after a guessed pause.
        wait_until(
            lambda: httpx.get(f"{server.base}/health", timeout=HUNG).status_code == 200,
            "a connection served after the held ones closed",
        )
