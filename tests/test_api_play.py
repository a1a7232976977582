"""The live channel (`/games/ID/play`) against a real `skald serve` (tests/servers.py):
a whole game with one message per decision, reconnecting, spectators and the referee
listening, moves made through REST and through another server, and bad messages.

Clients are `websockets`' synchronous client; every read has a timeout."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.conftest import fresh_store_url
from tests.patience import HUNG
from tests.servers import Server, pg_database

TIMEOUT = HUNG  # every wait here is for a frame that comes (tests/patience.py)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the module's tests (each plays games of its own on it): a start costs
    seconds, more on a loaded machine."""
    folder = tmp_path_factory.mktemp("play")
    with Server(f"sqlite:///{folder}/skald.db", folder / "server.log") as server:
        server.start()
        yield server


@pytest.fixture
def base(served: Server) -> str:
    return served.base


def new_game(base: str, seed: str = "play") -> dict[str, Any]:
    created = httpx.post(
        f"{base}/games",
        json={"game": "beowulf", "players": ["Ann", "Bob"], "seed": seed, "reproducible": True},
    )
    assert created.status_code == 201, created.text
    return dict(created.json())


def ws_url(base: str, game_id: str) -> str:
    return base.replace("http://", "ws://") + f"/games/{game_id}/play"


def frame(conn: ClientConnection) -> dict[str, Any]:
    return dict(json.loads(conn.recv(timeout=TIMEOUT)))


@contextmanager
def channel(
    base: str,
    game_id: str,
    token: str | None = None,
    after: int | None = None,
    header: bool = False,
) -> Iterator[tuple[ClientConnection, dict[str, Any]]]:
    """An open channel past its hello: the connection and its welcome."""
    headers = {"Authorization": f"Bearer {token}"} if header and token else None
    with connect(ws_url(base, game_id), additional_headers=headers, open_timeout=TIMEOUT) as conn:
        hello: dict[str, Any] = {"type": "hello"}
        if token and not header:
            hello["token"] = token
        if after is not None:
            hello["after"] = after
        conn.send(json.dumps(hello))
        welcome = frame(conn)
        assert welcome["type"] == "welcome", welcome
        yield conn, welcome


def summary(base: str, game_id: str) -> dict[str, Any]:
    return dict(httpx.get(f"{base}/games/{game_id}").json())


def close_code(conn: ClientConnection) -> int:
    """The code the server closed `conn` with (after any frames still to read: none)."""
    with pytest.raises(ConnectionClosed) as closed:
        conn.recv(timeout=TIMEOUT)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


def event_seqs(frames: list[dict[str, Any]]) -> list[int]:
    return [event["seq"] for f in frames for event in f["events"]]


def test_a_seat_plays_a_whole_game_one_message_per_decision(base: str, served: Server) -> None:
    game = new_game(base)
    tokens = [seat["token"] for seat in game["seats"]]
    rnd = random.Random(3)
    with (
        channel(base, game["id"], tokens[0]) as (ann, ann_hi),
        channel(base, game["id"], tokens[1], header=True) as (bob, bob_hi),
        channel(base, game["id"]) as (spectator, spectator_hi),
    ):
        assert (ann_hi["seat"], ann_hi["viewer"]) == (0, "Ann")
        assert (bob_hi["seat"], bob_hi["viewer"]) == (1, "Bob")
        assert (spectator_hi["seat"], spectator_hi["viewer"]) == (None, "spectator")
        seats = [ann, bob]
        latest = [frame(ann), frame(bob)]
        first_seq = latest[0]["seq"]
        assert latest[0]["events"] == []
        assert latest[0]["view"]["viewer"] == "Ann"
        seen: list[list[dict[str, Any]]] = [[], [], []]
        spectator_first = frame(spectator)
        assert spectator_first["legal"] is None
        sent = decisions = 0
        while latest[0]["outcome"] is None:
            to_act = latest[0]["to_act"][0]
            update = latest[to_act]
            assert update["legal"], "the seat to act is told its legal moves"
            other = latest[1 - to_act]
            assert other["legal"] == [], "a seat not to act has no legal moves"
            seats[to_act].send(
                json.dumps(
                    {
                        "type": "move",
                        "move": rnd.choice(update["legal"]),
                        "expected_seq": update["seq"],
                    }
                )
            )
            sent += 1
            latest = [frame(ann), frame(bob)]  # one frame per decision on each channel
            decisions += 1
            assert latest[0]["seq"] == latest[1]["seq"] > update["seq"]
            assert latest[0]["receipt"]["seq"] == latest[0]["seq"]
            for k in (0, 1):
                seen[k].append(latest[k])
            assert decisions < 2000
        assert sent == decisions
        final = latest[0]["seq"]
        for k in (0, 1):
            assert event_seqs(seen[k]) == list(
                range(first_seq + 1, final + 1)
            )  # none lost, none twice
            assert close_code(seats[k]) == 1000
        while True:  # the spectator follows to the end (several decisions may share a frame)
            update = frame(spectator)
            seen[2].append(update)
            if update["outcome"] is not None:
                break
        assert event_seqs(seen[2]) == list(range(first_seq + 1, final + 1))
    assert summary(base, game["id"])["outcome"] is not None
    # A client that leaves abruptly mid-game is no error of the server's.
    other = new_game(base, "abrupt")
    with channel(base, other["id"], other["seats"][0]["token"]) as (gone, _):
        frame(gone)
        gone.socket.close()
    assert summary(base, other["id"])["seq"] > 0  # the server still answers
    assert "Traceback" not in served.log.read_text()


def test_a_move_through_rest_is_seen_on_the_channel_and_the_referee_listens(base: str) -> None:
    game = new_game(base)
    tokens = [seat["token"] for seat in game["seats"]]
    with (
        channel(base, game["id"], game["referee_token"]) as (referee, hello),
        channel(base, game["id"], tokens[1]) as (bob, _),
    ):
        assert hello["viewer"] == "referee"
        assert hello["seat"] is None
        start = frame(referee)
        frame(bob)
        legal = httpx.get(
            f"{base}/games/{game['id']}/legal", headers={"Authorization": f"Bearer {tokens[0]}"}
        ).json()
        moved = httpx.post(
            f"{base}/games/{game['id']}/moves",
            json={"move": legal["moves"][0], "expected_seq": start["seq"]},
            headers={"Authorization": f"Bearer {tokens[0]}"},
        )
        assert moved.status_code == 201
        for conn in (referee, bob):
            update = frame(conn)
            assert update["seq"] == moved.json()["seq"]
            assert [e["seq"] for e in update["events"]] == [
                e["seq"] for e in moved.json()["events"]
            ]
        assert update["legal"], "Bob is to act after Ann's move"
        referee.send(json.dumps({"type": "move", "move": update["legal"][0]}))
        refused = frame(referee)
        assert refused["type"] == "error"
        assert refused["error"] == "forbidden"
    assert summary(base, game["id"])["seq"] == moved.json()["seq"]


def test_a_channel_resumes_after_a_reconnect(base: str) -> None:
    game = new_game(base)
    tokens = [seat["token"] for seat in game["seats"]]
    with channel(base, game["id"], tokens[0]) as (ann, _):
        had = frame(ann)
    for _ in range(3):  # moves made while Ann is away
        now = summary(base, game["id"])
        seat = now["to_act"][0]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        moves = httpx.get(f"{base}/games/{game['id']}/legal", headers=auth).json()["moves"]
        answer = httpx.post(
            f"{base}/games/{game['id']}/moves",
            json={"move": moves[0], "expected_seq": now["seq"]},
            headers=auth,
        )
        assert answer.status_code == 201
    head = summary(base, game["id"])["seq"]
    with channel(base, game["id"], tokens[0], after=had["seq"]) as (ann, _):
        resumed = frame(ann)
    assert resumed["seq"] == head
    assert [e["seq"] for e in resumed["events"]] == list(range(had["seq"] + 1, head + 1))
    assert resumed["receipt"]["head"] == resumed["events"][-1]["hash"]


def test_a_channel_resuming_at_the_head_is_told_where_the_game_is(base: str) -> None:
    """A client that reconnects with `after` at the head gets its update all the same (the
    turn, its legal moves, its view; no events), and on a finished game the outcome and
    the close: a review found a welcome and then silence, for ever on a finished game."""
    game = new_game(base)
    tokens = [seat["token"] for seat in game["seats"]]
    with channel(base, game["id"], tokens[0]) as (ann, _):
        had = frame(ann)
    with channel(base, game["id"], tokens[0], after=had["seq"]) as (ann, _):
        resumed = frame(ann)
        assert resumed["type"] == "update"
        assert (resumed["seq"], resumed["events"]) == (had["seq"], [])
        assert resumed["legal"], "Ann is to act"
        assert resumed["legal"] == had["legal"]
        assert resumed["view"] == had["view"]
    rnd = random.Random(5)
    while (now := summary(base, game["id"]))["outcome"] is None:
        auth = {"Authorization": f"Bearer {tokens[now['to_act'][0]]}"}
        moves = httpx.get(f"{base}/games/{game['id']}/legal", headers=auth).json()["moves"]
        answer = httpx.post(
            f"{base}/games/{game['id']}/moves",
            json={"move": rnd.choice(moves), "expected_seq": now["seq"]},
            headers=auth,
        )
        assert answer.status_code == 201, answer.text
    with channel(base, game["id"], tokens[1], after=now["seq"]) as (bob, _):
        last = frame(bob)
        assert (last["seq"], last["events"]) == (now["seq"], [])
        assert last["outcome"] == now["outcome"]
        assert close_code(bob) == 1000


def test_bad_messages_get_an_error_frame_and_write_nothing(base: str) -> None:
    game = new_game(base)
    tokens = [seat["token"] for seat in game["seats"]]
    with channel(base, game["id"], tokens[0]) as (ann, _):
        start = frame(ann)
        bad: list[tuple[str, str]] = [
            ("not json", "bad_message"),
            (json.dumps({"type": "shout"}), "bad_message"),
            (json.dumps({"type": "move"}), "bad_message"),
            (json.dumps({"type": "move", "move": 7}), "bad_message"),
            (json.dumps({"type": "move", "move": "a", "secret": 1}), "bad_message"),
            (json.dumps({"type": "move", "move": "fly to the moon"}), "invalid_notation"),
            (
                json.dumps({"type": "move", "move": start["legal"][0], "expected_seq": 1}),
                "version_conflict",
            ),
            (json.dumps({"type": "redo"}), "illegal_move"),
        ]
        for text, code in bad:
            ann.send(text)
            answer = frame(ann)
            assert answer["type"] == "error", text
            assert answer["error"] == code, (text, answer)
            assert answer["message"]
        assert answer.get("current_seq") is None or answer["current_seq"] == start["seq"]
        assert summary(base, game["id"])["seq"] == start["seq"]
        ann.send(
            json.dumps({"type": "move", "move": start["legal"][0], "expected_seq": start["seq"]})
        )
        assert frame(ann)["seq"] > start["seq"]  # still open, and it acts


@pytest.mark.parametrize(
    ("where", "token", "code"),
    [("url", "any", 4400), ("hello", "not-a-token", 4401), ("game", None, 4404)],
)
def test_a_bad_hello_is_answered_then_closed(
    base: str, where: str, token: str | None, code: int
) -> None:
    game = new_game(base)
    game_id = "no-such-game" if where == "game" else game["id"]
    url = ws_url(base, game_id) + ("?token=secret" if where == "url" else "")
    codes: list[int] = []
    with contextlib.suppress(ConnectionClosed), connect(url, open_timeout=TIMEOUT) as conn:
        with contextlib.suppress(ConnectionClosed):  # a token in the URL is refused at once
            conn.send(json.dumps({"type": "hello", "token": token} if token else {"type": "hello"}))
        answer = frame(conn)
        assert answer["type"] == "error"
        codes.append(close_code(conn))
    assert codes == [code]
    assert "secret" not in answer["message"]


@pytest.mark.postgres
def test_a_move_on_one_server_is_seen_on_another_servers_channel(tmp_path: Path) -> None:
    with (
        pg_database("skald_play", fresh_store_url("postgresql", tmp_path)) as url,
        Server(url, tmp_path / "a.log") as one,
        Server(url, tmp_path / "b.log") as two,
    ):
        first, second = one.start(), two.start()
        game = new_game(first)
        tokens = [seat["token"] for seat in game["seats"]]
        with (
            channel(second, game["id"], tokens[1]) as (bob, _),
            channel(first, game["id"], tokens[0]) as (ann, _),
        ):
            start, _ = frame(bob), frame(ann)
            ann.send(json.dumps({"type": "move", "move": frame_legal(first, game, tokens[0])}))
            mine = frame(ann)
            theirs = frame(bob)  # within the notification's gathering, or the poll
            assert theirs["seq"] == mine["seq"] > start["seq"]
            assert theirs["legal"]


def frame_legal(base: str, game: dict[str, Any], token: str) -> str:
    legal = httpx.get(
        f"{base}/games/{game['id']}/legal", headers={"Authorization": f"Bearer {token}"}
    ).json()
    return str(legal["moves"][0])
