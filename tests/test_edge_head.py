"""HEAD on every GET resource (api/edge.py `HeadAsGet`): the GET's status and headers,
`Content-Length` included, and not one byte of body on the socket (RFC 9110 9.3.2); the
routes answered directly, the pages, the SVG, the exports and the live feed included,
errors keeping their status, and nothing but GET routes run for HEAD.

Every request goes to a real uvicorn on 127.0.0.1 with the service's own protocol, and the
HEAD answers are read from a raw socket: a `GET /health` pipelined right behind each HEAD
must be the very next bytes after the HEAD's blank line.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute
from starlette.routing import Route, WebSocketRoute

from skald.api.edge import JsonErrorHttpToolsProtocol
from skald.api.main import SkaldAPI, create_app
from tests.patience import HUNG
from tests.test_wire import serving

HEALTH = b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
HEALTH_BODY = b'{"ok":true}'


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[SkaldAPI, str]]:
    app = create_app(f"sqlite:///{tmp_path / 'head.db'}")
    with serving(app, JsonErrorHttpToolsProtocol) as base:
        yield app, base


def head_at_the_socket(base: str, target: str, headers: dict[str, str]) -> tuple[int, list[Any]]:
    """Send `HEAD target` and a `GET /health` right behind it in one write; the HEAD's
    status and headers. Whatever came between the HEAD's head and the health answer (a
    body) fails the test."""
    port = int(base.rsplit(":", 1)[1])
    lines = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    request = f"HEAD {target} HTTP/1.1\r\nHost: x\r\n{lines}\r\n".encode()
    with socket.create_connection(("127.0.0.1", port), timeout=HUNG) as sock:
        sock.sendall(request + HEALTH)
        received = b""
        deadline = time.monotonic() + HUNG
        while not received.endswith(HEALTH_BODY):
            assert time.monotonic() < deadline, received[:300]
            chunk = sock.recv(65536)
            assert chunk, f"closed before the health answer: {received[:300]!r}"
            received += chunk
    head, _, rest = received.partition(b"\r\n\r\n")
    assert rest.startswith(b"HTTP/1.1 200 OK\r\n"), f"bytes after HEAD {target}: {rest[:120]!r}"
    assert rest.count(b"HTTP/1.1 ") == 1, rest[:300]
    status_line, *fields = head.decode("latin-1").split("\r\n")
    pairs = [tuple(field.split(": ", 1)) for field in fields]
    return int(status_line.split()[1]), [(name.lower(), value) for name, value in pairs]


def without_date(pairs: Any) -> list[tuple[str, str]]:
    return sorted((name.lower(), value) for name, value in pairs if name.lower() != "date")


def get_routes(app: SkaldAPI) -> list[str]:
    """The path of every route of the app that answers GET (included routers walked)."""
    found: list[str] = []
    pending = list(app.router.routes)
    while pending:
        route = pending.pop(0)
        if isinstance(route, (APIRoute, Route)):
            if "GET" in (route.methods or ()):
                found.append(route.path)
            continue
        if isinstance(route, WebSocketRoute):  # the live channel: an upgrade, not a GET
            continue
        inner = getattr(route, "original_router", None)
        assert inner is not None, f"a route of an unknown kind: {route!r}"
        pending.extend(inner.routes)
    return found


def make_game(base: str) -> dict[str, Any]:
    created = httpx.post(
        f"{base}/games", json={"game": "beowulf", "players": ["Ann", "Bob"]}, timeout=HUNG
    )
    assert created.status_code == 201, created.text
    game: dict[str, Any] = created.json()
    return game


def test_head_answers_every_get_route_as_its_get_without_a_body(
    served: tuple[SkaldAPI, str],
) -> None:
    app, base = served
    game = make_game(base)
    tournament = httpx.post(
        f"{base}/tournaments",
        json={"game": "beowulf", "players": ["Ann", "Bob"], "rounds": 1},
        timeout=HUNG,
    ).json()
    referee = {"Authorization": f"Bearer {game['referee_token']}"}
    names = {
        "game_id": game["id"],
        "game": game["id"],
        "tournament_id": tournament["id"],
        "tournament": tournament["id"],
        "name": "app.css",
    }
    paths = get_routes(app)
    assert len(paths) >= 25, paths  # the web pages, the API, the docs
    seen: dict[int, int] = {}
    for path in paths:
        target = path.format(**names)
        # A game's own routes are asked with its referee's token (it sees everything);
        # the tournament's and the web pages' take no game token.
        headers = referee if path.startswith("/games/{game_id}") else {}
        status, fields = head_at_the_socket(base, target, headers)
        if path.endswith("/events"):  # the live feed: checked in its own test below
            assert status == 200
            continue
        got = httpx.get(f"{base}{target}", headers=headers, timeout=30)
        assert status == got.status_code, target
        assert without_date(fields) == without_date(got.headers.multi_items()), target
        assert dict(fields)["content-length"] == str(len(got.content)), target
        seen[status] = seen.get(status, 0) + 1
    assert seen.get(200, 0) >= 20, seen  # most of them a real page, not an error


def test_head_on_the_routes_answered_directly(served: tuple[SkaldAPI, str]) -> None:
    _app, base = served
    game = make_game(base)
    seat = httpx.get(f"{base}/games/{game['id']}", timeout=HUNG).json()["to_act"][0]
    token = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
    for target in (f"/games/{game['id']}/legal", f"/games/{game['id']}"):
        status, fields = head_at_the_socket(base, target, token)
        got = httpx.get(f"{base}{target}", headers=token, timeout=HUNG)
        assert (status, got.status_code) == (200, 200), target
        assert dict(fields)["content-length"] == str(len(got.content))
        assert dict(fields)["content-type"] == "application/json"


def test_errors_on_head_keep_their_status_and_nothing_but_gets_run(
    served: tuple[SkaldAPI, str],
) -> None:
    _app, base = served
    game = make_game(base)
    gid = game["id"]
    status, fields = head_at_the_socket(base, "/games/0123456789abcdef", {})
    assert status == 404
    assert dict(fields)["content-type"] == "application/json"
    assert int(dict(fields)["content-length"]) > 0
    status, fields = head_at_the_socket(base, f"/games/{gid}/view", {"Authorization": "Bearer x"})
    assert status == 401
    assert dict(fields)["www-authenticate"] == "Bearer"
    assert head_at_the_socket(base, "/no/such/page", {})[0] == 404
    # A route that writes has no GET: HEAD is refused as GET is, and nothing is written.
    before = httpx.get(f"{base}/games/{gid}", timeout=HUNG).json()["seq"]
    seat = httpx.get(f"{base}/games/{gid}", timeout=HUNG).json()["to_act"][0]
    token = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
    for action in ("moves", "undo", "redo"):
        status, _fields = head_at_the_socket(base, f"/games/{gid}/{action}", token)
        assert status == httpx.get(f"{base}/games/{gid}/{action}", timeout=HUNG).status_code == 405
    assert head_at_the_socket(base, "/tournaments/x/pair", {})[0] == 405
    assert httpx.get(f"{base}/games/{gid}", timeout=HUNG).json()["seq"] == before
    listed = httpx.get(f"{base}/games", timeout=HUNG).json()["items"]
    assert [item["id"] for item in listed] == [gid]  # HEAD /games did not create one


def test_head_on_the_live_feed_is_its_head_and_ends(served: tuple[SkaldAPI, str]) -> None:
    """The stream's GET would never end: HEAD answers its 200 and headers, sends no event,
    leaves the connection usable (the pipelined request is answered) and stops the GET,
    which no longer waits on the game's feed."""
    app, base = served
    game = make_game(base)
    target = f"/games/{game['id']}/events"
    token = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    status, fields = head_at_the_socket(base, target, token)
    assert status == 200
    assert dict(fields)["content-type"].startswith("text/event-stream")
    assert dict(fields)["cache-control"] == "no-cache"
    assert "transfer-encoding" not in dict(fields)
    waiters = app.state.services.feed._waiters
    deadline = time.monotonic() + HUNG  # a stream left waiting would wait for ever
    while waiters.get(game["id"]):
        assert time.monotonic() < deadline, "the stream behind HEAD still waits on the feed"
        time.sleep(0.02)
    assert head_at_the_socket(base, target, {"Authorization": "Bearer nope"})[0] == 401
    assert head_at_the_socket(base, "/games/0123456789abcdef/events", {})[0] == 404


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("GET", "/games/abc123/moves", "POST"),
        ("DELETE", "/games", "GET, HEAD, POST"),
        ("PUT", "/health", "GET, HEAD"),
        ("POST", "/games/abc123/board.svg", "GET, HEAD"),
    ],
)
def test_a_405_lists_what_the_path_answers(
    served: tuple[SkaldAPI, str], method: str, path: str, allow: str
) -> None:
    """RFC 9110 §15.5.6: a 405 carries `Allow`. It was empty for every route of an included
    router (FastAPI wraps them in objects without `methods`)."""
    _app, base = served
    answer = httpx.request(method, f"{base}{path}", timeout=HUNG)
    assert answer.status_code == 405
    assert answer.headers["allow"] == allow
    assert answer.json()["error"] == "method_not_allowed"
