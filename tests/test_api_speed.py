"""The HTTP path made short (issue 16) answers as the long one did.

`api.direct` answers the routes of a decision without FastAPI's request handling: every
request below is sent both through the app's own stack and through the same app's stack
built without it (FastAPI alone, over the same services and games), and the two answers
must be the same bytes, status and headers. The requests a client sends at every decision
must be answered directly (the fall-through to FastAPI is refused in that test), and a
route of another shape cannot be answered directly at all. The body limit, whose counting
now happens only for streamed bodies, is checked through a real `skald serve` on a
decision route.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import APIRouter, Query
from fastapi.testclient import TestClient
from starlette.types import Receive, Scope, Send

from skald.api.deps import GameId, ReadDep
from skald.api.direct import DirectRoutes, direct_routes
from skald.api.main import SkaldAPI, create_app
from skald.api.responses import MsgspecJSON
from skald.api.routes import games, moves
from tests.patience import HUNG
from tests.servers import bearer
from tests.test_faults import serve


class Stack:
    """The app's ASGI stack built with or without the direct routes."""

    def __init__(self, app: SkaldAPI, direct: bool) -> None:
        saved = app.direct
        if not direct:
            app.direct = None
        try:
            self.stack = app.build_middleware_stack()
        finally:
            app.direct = saved
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        scope["app"] = self.app
        await self.stack(scope, receive, send)


@pytest.fixture
def clients(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    app = create_app(f"sqlite:///{tmp_path}/speed.db")
    with TestClient(Stack(app, True)) as fast, TestClient(Stack(app, False)) as slow:
        yield fast, slow


def new_game(client: TestClient) -> dict[str, Any]:
    answer = client.post("/games", json={"game": "toy", "players": ["Ann", "Bob"], "seed": "s"})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def same(fast: TestClient, slow: TestClient, method: str, url: str, **kwargs: Any) -> Any:
    """Send the request both ways; the answers must be identical. The fast one's JSON."""
    one = fast.request(method, url, follow_redirects=False, **kwargs)
    two = slow.request(method, url, follow_redirects=False, **kwargs)
    assert (one.status_code, one.content) == (two.status_code, two.content), (method, url)
    assert sorted(one.headers.multi_items()) == sorted(two.headers.multi_items()), (method, url)
    return one.status_code, (one.json() if one.content and one.content[:1] in b"{[" else None)


def test_refused_moves_are_answered_alike(clients: tuple[TestClient, TestClient]) -> None:
    fast, slow = clients
    game, other = new_game(fast), new_game(fast)
    gid, seq = game["id"], game["seq"]
    ann, bob = game["seats"][0]["token"], game["seats"][1]["token"]
    moves_url = f"/games/{gid}/moves"
    good = {"move": "bet 1", "expected_seq": seq}
    json_type = {"Content-Type": "application/json"}
    tried = {
        "no token": {"json": good},
        "a spectator's nothing": {"json": good, "headers": {"Authorization": ""}},
        "not bearer": {"json": good, "headers": {"Authorization": "Basic x"}},
        "unknown token": {"json": good, "headers": bearer("nope")},
        "another game's token": {"json": good, "headers": bearer(other["seats"][0]["token"])},
        "the referee": {"json": good, "headers": bearer(game["referee_token"])},
        "not its turn": {"json": good, "headers": bearer(bob)},
        "stale seq": {"json": {"move": "bet 1", "expected_seq": seq - 1}, "headers": bearer(ann)},
        "future seq": {"json": {"move": "bet 1", "expected_seq": 10**6}, "headers": bearer(ann)},
        "illegal": {"json": {"move": "bet 9", "expected_seq": seq}, "headers": bearer(ann)},
        "bad notation": {"json": {"move": "fly", "expected_seq": seq}, "headers": bearer(ann)},
        "empty move": {"json": {"move": "", "expected_seq": seq}, "headers": bearer(ann)},
        "long move": {"json": {"move": "b" * 501}, "headers": bearer(ann)},
        "extra field": {"json": {**good, "x": 1}, "headers": bearer(ann)},
        "no move": {"json": {"expected_seq": seq}, "headers": bearer(ann)},
        "a list": {"json": [good], "headers": bearer(ann)},
        "seq as text": {"json": {"move": "bet 1", "expected_seq": "4"}, "headers": bearer(ann)},
        "seq true": {"json": {"move": "bet 1", "expected_seq": True}, "headers": bearer(ann)},
        "seq 4.0": {"content": b'{"move": "bet 1", "expected_seq": 4.0}', "headers": json_type},
        "seq NaN": {"content": b'{"move": "bet 1", "expected_seq": NaN}', "headers": json_type},
        "seq huge": {"content": b'{"move": "bet 1", "expected_seq": 1' + b"0" * 40 + b"}"},
        "bad JSON": {"content": b'{"move": ', "headers": {**json_type, **bearer(ann)}},
        "deep JSON": {"content": b"[" * 100_000, "headers": {**json_type, **bearer(ann)}},
        "not UTF-8": {"content": b'{"move": "\xff"}', "headers": {**json_type, **bearer(ann)}},
        "empty body": {"content": b"", "headers": {**json_type, **bearer(ann)}},
        "no content type": {"content": b'{"move": "bet 1"}', "headers": bearer(ann)},
        "text/plain": {"content": b"{}", "headers": {"Content-Type": "text/plain", **bearer(ann)}},
        "bad token, bad body": {"content": b"{", "headers": {**json_type, **bearer("nope")}},
        "bad token, no body": {"headers": bearer("nope")},
    }
    for why, request in tried.items():
        status, _ = same(fast, slow, "POST", moves_url, **request)
        assert status >= 400, why
    for url in (f"/games/{gid}x/moves", f"/games/{'a' * 65}/moves", "/games/%01/moves"):
        same(fast, slow, "POST", url, json=good, headers=bearer(ann))
    for url in ("/games//moves", f"/games/{gid}/moves/", f"/games/{gid}/moves?token={ann}x"):
        same(fast, slow, "POST", url, json=good)
    same(fast, slow, "GET", moves_url, headers=bearer(ann))  # 405, with Allow
    same(fast, slow, "POST", f"/games/{gid}/undo", json={}, headers=bearer(ann))
    same(fast, slow, "POST", f"/games/{gid}/redo", json={"expected_seq": seq}, headers=bearer(ann))
    assert fast.get(f"/games/{gid}").json()["seq"] == seq  # nothing was appended


def test_reads_of_a_decision_are_answered_alike(clients: tuple[TestClient, TestClient]) -> None:
    fast, slow = clients
    game = new_game(fast)
    gid = game["id"]
    ann, bob = game["seats"][0]["token"], game["seats"][1]["token"]
    for headers in ({}, bearer(ann), bearer(bob), bearer(game["referee_token"]), bearer("x")):
        same(fast, slow, "GET", f"/games/{gid}", headers=headers)
        same(fast, slow, "GET", f"/games/{gid}/legal", headers=headers)
    for url in (
        f"/games/{gid}/legal?token={ann}",
        f"/games/{gid}/legal?token=",
        "/games/unknown/legal",
        "/games/unknown",
        f"/games/{gid}/",
        f"/games/{'é' * 3}",
        "/games/%7F",
        f"/games/{gid}/legal/",
    ):
        same(fast, slow, "GET", url, headers=bearer(ann))
    same(fast, slow, "HEAD", f"/games/{gid}/legal", headers=bearer(ann))
    same(fast, slow, "POST", f"/games/{gid}/legal", headers=bearer(ann))


def test_a_failure_inside_is_answered_alike(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path}/failing.db")
    fast = TestClient(Stack(app, True), raise_server_exceptions=False)
    slow = TestClient(Stack(app, False), raise_server_exceptions=False)
    with fast, slow:
        game = new_game(fast)
        table: Any = app.state.services.table

        def broken(*_args: Any) -> Any:
            raise RuntimeError("broken")

        table.legal_now = broken
        status, _ = same(
            fast,
            slow,
            "GET",
            f"/games/{game['id']}/legal",
            headers=bearer(game["seats"][0]["token"]),
        )
        assert status == 500


def test_a_decision_is_answered_directly(clients: tuple[TestClient, TestClient]) -> None:
    fast, _ = clients
    stack: Any = fast.app
    direct = stack.stack
    while not isinstance(direct, DirectRoutes):
        direct = direct.app
    game = new_game(fast)
    gid, seq = game["id"], game["seq"]
    tokens = [seat["token"] for seat in game["seats"]]
    fallback = direct.app

    async def refused(scope: Scope, receive: Receive, send: Send) -> None:
        raise AssertionError(f"{scope['method']} {scope['path']} went to FastAPI")

    direct.app = refused
    try:
        summary = fast.get(f"/games/{gid}").json()
        for _ in range(3):
            seat = summary["to_act"][0]
            legal = fast.get(f"/games/{gid}/legal", headers=bearer(tokens[seat])).json()
            move = next(move for move in legal["moves"] if move.startswith("bet"))
            answer = fast.post(
                f"/games/{gid}/moves",
                json={"move": move, "expected_seq": seq},
                headers=bearer(tokens[seat]),
            )
            assert answer.status_code == 201, answer.text
            seq = answer.json()["seq"]
            summary = fast.get(f"/games/{gid}").json()
            assert summary["seq"] == seq
        undone = fast.post(
            f"/games/{gid}/undo", json={"expected_seq": seq}, headers=bearer(tokens[seat])
        )
        assert undone.status_code == 201, undone.text
        redone = fast.post(f"/games/{gid}/redo", json={}, headers=bearer(tokens[seat]))
        assert redone.status_code == 201, redone.text
    finally:
        direct.app = fallback


def test_direct_routes_are_the_ones_fastapi_would_run(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path}/routes.db")
    assert app.direct is not None
    endpoints = {key: found.endpoint for key, found in app.direct.items()}
    assert endpoints == {
        ("POST", "moves"): moves.move,
        ("POST", "undo"): moves.undo,
        ("POST", "redo"): moves.redo,
        ("GET", "legal"): games.legal,
        ("GET", None): games.game_summary,
    }


def test_a_route_of_another_shape_is_not_answered_directly() -> None:
    router = APIRouter(prefix="/games/{game_id}")

    @router.get("/legal")
    async def with_query(game_id: GameId, call: ReadDep, at: int = Query(1)) -> MsgspecJSON:
        return MsgspecJSON({})

    routes = [*moves.router.routes, *games.router.routes]
    routes = [route for route in routes if getattr(route, "path", "") != "/games/{game_id}/legal"]
    with pytest.raises(RuntimeError, match="not of the shape"):
        direct_routes([*routes, *router.routes])
    with pytest.raises(RuntimeError, match="not found"):
        direct_routes(routes)


def test_bodies_over_the_limit_on_a_move_are_413_json_from_a_real_server(tmp_path: Path) -> None:
    with serve(f"sqlite:///{tmp_path}/limit.db", tmp_path / "server.log") as base:
        game = httpx.post(
            f"{base}/games", json={"game": "toy", "players": ["Ann", "Bob"]}, timeout=HUNG
        ).json()
        url = f"{base}/games/{game['id']}/moves"
        headers = {"Content-Type": "application/json", **bearer(game["seats"][0]["token"])}
        declared = httpx.post(url, content=b"x" * (1024 * 1024 + 1), headers=headers, timeout=HUNG)

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted while streaming
            yield b'{"move": "'
            for _ in range(20):
                yield b"a" * 65536
            yield b'"}'

        streamed = httpx.post(url, content=chunks(), headers=headers, timeout=HUNG)
        for answer in (declared, streamed):
            assert answer.status_code == 413
            assert answer.json() == {
                "error": "too_large",
                "message": "the request body is over 1048576 bytes",
            }
        fine = httpx.post(url, json={"move": "bet 1", "expected_seq": game["seq"]}, headers=headers)
        assert fine.status_code == 201, fine.text
        port = int(base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=HUNG) as sock:
            # A head that outgrows 16 KiB before it ends (as in test_faults).
            sock.sendall(
                f"GET /games/{game['id']}/legal HTTP/1.1\r\nHost: x\r\nX-Big: ".encode()
                + b"a" * 40_000
            )
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.split()[1] == b"400", answer
        assert b'"error":"malformed"' in body
        # The same, complete in one write: judged once the head is parsed.
        # The limit is exact: a head of 16,384 bytes is answered, one of 16,385 is not.
        request_line = f"GET /games/{game['id']}/legal HTTP/1.1\r\nHost: x\r\nX-Big: "
        ending = len("\r\nConnection: close\r\n\r\n")
        exact = 16_384 - len(request_line) - ending
        for size, status in (
            (20_000, b"400"),
            (15_000, b"401"),
            (exact, b"401"),
            (exact + 1, b"400"),
        ):
            with socket.create_connection(("127.0.0.1", port), timeout=HUNG) as sock:
                sock.sendall(
                    f"GET /games/{game['id']}/legal HTTP/1.1\r\nHost: x\r\nX-Big: ".encode()
                    + b"a" * size
                    + b"\r\nConnection: close\r\n\r\n"
                )
                answer = b""
                while chunk := sock.recv(65536):
                    answer += chunk
            head, _, body = answer.partition(b"\r\n\r\n")
            assert head.split()[1] == status, (size, answer[:200])
            if status == b"400":
                assert b'"error":"malformed"' in body
