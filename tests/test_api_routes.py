"""Every route and every error of the HTTP API, through TestClient, on the toy game.

The toy deals Ann and Bob one hidden card each (seqs 1–4: created, shuffled, dealt,
dealt); then turns alternate Ann, Bob, ... with `bet N` (public, undoable) or `draw`
(hidden, a barrier); six decisions end it. The main walk runs on SQLite and PostgreSQL.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from skald.api.main import create_app
from skald.core.access import token_hash
from skald.core.signing import load_receipt, signature_valid
from skald.core.store import seat_tokens

NOTHING_TO_UNDO = (
    "nothing to undo: no decision since the game began or since something hidden was drawn "
    "or shown (a draw, a roll, or a tile or card played from a hand: those cannot be taken "
    "back)"
)
NOTHING_TO_REDO = "nothing to redo: no decision was undone since the last move"


class Game:
    """A created game: its id and the headers of each seat and the referee."""

    def __init__(self, created: dict[str, Any]) -> None:
        self.id: str = created["id"]
        self.ann = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
        self.bob = {"Authorization": f"Bearer {created['seats'][1]['token']}"}
        self.referee = {"Authorization": f"Bearer {created['referee_token']}"}
        self.created = created


@pytest.fixture
def client(store_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(store_url)) as test_client:
        yield test_client


@pytest.fixture
def sqlite_client(tmp_path: object) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path}/api.db")) as test_client:
        yield test_client


def new_game(client: TestClient, **options: str) -> Game:
    response = client.post(
        "/games",
        json={"game": "toy", "players": ["Ann", "Bob"], "seed": "fixed", "options": options},
    )
    assert response.status_code == 201, response.text
    return Game(response.json())


def seq_of(client: TestClient, game: Game) -> int:
    return int(client.get(f"/games/{game.id}").json()["seq"])


def move(
    client: TestClient, game: Game, who: dict[str, str], notation: str, expected: int | None = None
) -> Any:
    return client.post(
        f"/games/{game.id}/moves", headers=who, json={"move": notation, "expected_seq": expected}
    )


def test_walk_create_read_play_undo_redo(client: TestClient) -> None:
    game = new_game(client)
    assert game.created["seq"] == 4
    assert game.created["game"] == "toy"
    assert [(s["seat"], s["name"]) for s in game.created["seats"]] == [(0, "Ann"), (1, "Bob")]
    tokens = {s["token"] for s in game.created["seats"]} | {game.created["referee_token"]}
    assert len(tokens) == 3

    summary = client.get(f"/games/{game.id}").json()
    assert summary["players"] == ["Ann", "Bob"]
    assert summary["to_act"] == [0]
    assert summary["outcome"] is None
    assert summary["seq"] == 4

    legal = client.get(f"/games/{game.id}/legal", headers=game.ann).json()
    assert re.fullmatch(r"[0-9a-f]{64}", legal.pop("head"))  # what a signed decision names
    assert legal == {
        "seat": 0,
        "seq": 4,
        "moves": ["bet 1", "bet 2", "bet 3", "bet 4", "bet 5", "draw"],
        "undo": {"allowed": False, "reason": NOTHING_TO_UNDO},
        "redo": {"allowed": False, "reason": NOTHING_TO_REDO},
        "keys": [],
    }
    assert client.get(f"/games/{game.id}/legal", headers=game.bob).json()["moves"] == []

    played = move(client, game, game.ann, "bet 2", 4)
    assert played.status_code == 201
    body = played.json()
    assert body["seq"] == 6
    assert [e["event"]["type"] for e in body["events"]] == ["skald.move_made", "toy.bet_placed"]
    assert body["events"][1]["event"]["amount"] == 2

    # Who may take the bet back is said before anyone tries: Ann may, Bob may not, and why.
    ann_now = client.get(f"/games/{game.id}/legal", headers=game.ann).json()
    bob_now = client.get(f"/games/{game.id}/legal", headers=game.bob).json()
    assert ann_now["undo"] == {"allowed": True, "reason": None}
    assert bob_now["undo"] == {
        "allowed": False,
        "reason": "only Ann, who made that decision, may undo it (table policy: author)",
    }
    undone = client.post(f"/games/{game.id}/undo", headers=game.ann, json={"expected_seq": 6})
    assert undone.status_code == 201
    assert undone.json()["events"][0]["event"]["type"] == "skald.decision_undone"
    view = client.get(f"/games/{game.id}/view").json()
    assert view["state"]["bets"] == [0, 0]
    assert view["seq"] == 7

    assert client.get(f"/games/{game.id}/legal", headers=game.ann).json()["redo"] == {
        "allowed": True,
        "reason": None,
    }
    redone = client.post(f"/games/{game.id}/redo", headers=game.ann, json={"expected_seq": 7})
    assert redone.status_code == 201
    assert redone.json()["seq"] == 8
    assert client.get(f"/games/{game.id}/view").json()["state"]["bets"] == [2, 0]

    log = client.get(f"/games/{game.id}/log", params={"from": 5}).json()
    assert [e["seq"] for e in log["events"]] == [5, 6, 7, 8]
    assert log["viewer"] == "spectator"


def test_views_depend_on_the_token(sqlite_client: TestClient) -> None:
    game = new_game(sqlite_client)
    ann = sqlite_client.get(f"/games/{game.id}/view", headers=game.ann).json()
    bob = sqlite_client.get(f"/games/{game.id}/view", headers=game.bob).json()
    spectator = sqlite_client.get(f"/games/{game.id}/view").json()
    referee = sqlite_client.get(f"/games/{game.id}/view", headers=game.referee).json()
    assert (ann["viewer"], bob["viewer"], spectator["viewer"], referee["viewer"]) == (
        "Ann",
        "Bob",
        "spectator",
        "referee",
    )
    assert len(ann["state"]["hand"]) == 1
    assert len(bob["state"]["hand"]) == 1
    assert spectator["state"]["hand"] is None


def test_view_and_log_at_an_earlier_seq(sqlite_client: TestClient) -> None:
    game = new_game(sqlite_client)
    move(sqlite_client, game, game.ann, "bet 3", 4)
    then = sqlite_client.get(f"/games/{game.id}/view", params={"at": 3}).json()
    assert then["seq"] == 3
    assert then["state"]["hand_sizes"] == [1, 0]
    log = sqlite_client.get(f"/games/{game.id}/log", params={"from": 2, "at": 4}).json()
    assert [e["seq"] for e in log["events"]] == [2, 3, 4]
    for route in ("view", "log"):
        beyond = sqlite_client.get(f"/games/{game.id}/{route}", params={"at": 99})
        assert beyond.status_code == 404
        assert beyond.json()["error"] == "not_found"
        zero = sqlite_client.get(f"/games/{game.id}/{route}", params={"at": 0})
        assert zero.status_code == 422
        assert zero.json()["error"] == "malformed"


def test_list_is_paged_newest_first(sqlite_client: TestClient) -> None:
    ids = [new_game(sqlite_client).id for _ in range(3)]
    first = sqlite_client.get("/games", params={"limit": 2}).json()
    assert [item["id"] for item in first["items"]] == ids[::-1][:2]
    assert first["next_offset"] == 2
    assert first["items"][0]["title"] == "Ann, Bob"
    rest = sqlite_client.get("/games", params={"limit": 2, "offset": 2}).json()
    assert [item["id"] for item in rest["items"]] == [ids[0]]
    assert rest["next_offset"] is None
    assert sqlite_client.get("/games", params={"game": "beast"}).json()["items"] == []
    assert sqlite_client.get("/games", params={"limit": 0}).status_code == 422


def test_tokens_are_stored_only_as_hashes(client: TestClient, store_url: str) -> None:
    game = new_game(client)
    engine = sa.create_engine(store_url)
    with engine.connect() as conn:
        rows = conn.execute(sa.select(seat_tokens).where(seat_tokens.c.stream_id == game.id)).all()
    stored = {row.token_hash: row.seat for row in rows}
    plain = [s["token"] for s in game.created["seats"]] + [game.created["referee_token"]]
    assert stored == {token_hash(plain[0]): 0, token_hash(plain[1]): 1, token_hash(plain[2]): None}
    assert not set(plain) & {str(v) for row in rows for v in row}
    engine.dispose()


def error_of(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert body["error"] == code
    assert body["message"]
    return body


@pytest.mark.parametrize(
    ("who", "notation", "expected", "status", "code"),
    [
        ("ann", "bet 1", 3, 409, "version_conflict"),
        ("ann", "bet 9", 4, 422, "illegal_move"),
        ("ann", "bett 1", 4, 422, "invalid_notation"),
        ("bob", "bet 1", 4, 403, "forbidden"),
        ("referee", "bet 1", 4, 403, "forbidden"),
        (None, "bet 1", 4, 401, "unauthorized"),
        ("other_game", "bet 1", 4, 401, "unauthorized"),
        ("garbage", "bet 1", 4, 401, "unauthorized"),
    ],
)
def test_move_errors_append_nothing(
    client: TestClient, who: str | None, notation: str, expected: int, status: int, code: str
) -> None:
    game, other = new_game(client), new_game(client)
    headers = {
        "ann": game.ann,
        "bob": game.bob,
        "referee": game.referee,
        "other_game": other.ann,
        "garbage": {"Authorization": "Bearer nope"},
        None: {},
    }[who]
    before = client.get(f"/games/{game.id}/log", headers=game.referee).json()
    body = error_of(move(client, game, headers, notation, expected), status, code)
    if status == 409:
        assert body["current_seq"] == 4
    if status == 401:
        assert "current_seq" not in body
    assert client.get(f"/games/{game.id}/log", headers=game.referee).json() == before


def test_unknown_game_is_404_everywhere(sqlite_client: TestClient) -> None:
    game = new_game(sqlite_client)
    for method, path, body in [
        ("GET", "", None),
        ("GET", "/view", None),
        ("GET", "/log", None),
        ("GET", "/legal", None),
        ("GET", "/events", None),
        ("POST", "/moves", {"move": "bet 1"}),
        ("POST", "/undo", {}),
        ("POST", "/redo", {}),
    ]:
        response = sqlite_client.request(
            method, f"/games/nosuchgame{path}", json=body, headers=game.ann
        )
        error_of(response, 404, "not_found")


def test_malformed_requests_are_422(sqlite_client: TestClient) -> None:
    game = new_game(sqlite_client)
    for body in [
        {"players": ["Ann", "Bob"]},
        {"game": "toy", "players": "Ann"},
        {"game": "toy", "players": ["Ann", "Bob"], "extra": 1},
        {"game": "toy", "players": ["Ann", "\x00"]},
    ]:
        error_of(sqlite_client.post("/games", json=body), 422, "malformed")
    bad_json = sqlite_client.post(
        "/games", content=b"{nope", headers={"Content-Type": "application/json"}
    )
    error_of(bad_json, 422, "malformed")
    for body in [
        {},
        {"move": ""},
        {"move": "bet 1", "expected_seq": -1},
        {"move": "bet 1", "expected_seq": "four"},
    ]:
        error_of(
            sqlite_client.post(f"/games/{game.id}/moves", json=body, headers=game.ann),
            422,
            "malformed",
        )
    assert seq_of(sqlite_client, game) == 4


def test_create_errors(sqlite_client: TestClient) -> None:
    error_of(
        sqlite_client.post("/games", json={"game": "chess", "players": ["A", "B"]}),
        404,
        "not_found",
    )
    error_of(
        sqlite_client.post("/games", json={"game": "toy", "players": ["A"]}), 422, "illegal_move"
    )
    error_of(
        sqlite_client.post("/games", json={"game": "toy", "players": ["A", "A"]}),
        422,
        "illegal_move",
    )
    error_of(
        sqlite_client.post(
            "/games", json={"game": "toy", "players": ["A", "B"], "options": {"undo": "never"}}
        ),
        422,
        "invalid_option",
    )
    assert sqlite_client.get("/games").json()["items"] == []


def test_read_token_errors(sqlite_client: TestClient) -> None:
    game, other = new_game(sqlite_client), new_game(sqlite_client)
    for route in ("view", "log", "legal"):
        for headers in (
            other.ann,
            {"Authorization": "Basic QW5uOnB3"},
            {"Authorization": "Bearer"},
        ):
            response = sqlite_client.get(f"/games/{game.id}/{route}", headers=headers)
            error_of(response, 401, "unauthorized")
            assert response.headers["www-authenticate"] == "Bearer"
    error_of(sqlite_client.get(f"/games/{game.id}/legal"), 401, "unauthorized")
    error_of(sqlite_client.get(f"/games/{game.id}/legal", headers=game.referee), 403, "forbidden")


def test_undo_and_redo_errors(sqlite_client: TestClient) -> None:
    game = new_game(sqlite_client)
    error_of(
        sqlite_client.post(f"/games/{game.id}/undo", headers=game.ann, json={}), 422, "illegal_move"
    )  # nothing to undo: the deal is a barrier
    move(sqlite_client, game, game.ann, "bet 1", 4)
    error_of(
        sqlite_client.post(f"/games/{game.id}/undo", headers=game.bob, json={}), 403, "forbidden"
    )  # table policy: only the author
    body = error_of(
        sqlite_client.post(f"/games/{game.id}/undo", headers=game.ann, json={"expected_seq": 4}),
        409,
        "version_conflict",
    )
    assert body["current_seq"] == 6
    error_of(
        sqlite_client.post(f"/games/{game.id}/redo", headers=game.ann, json={}), 422, "illegal_move"
    )
    error_of(sqlite_client.post(f"/games/{game.id}/undo", json={}), 401, "unauthorized")
    assert seq_of(sqlite_client, game) == 6


def test_sse_replays_a_finished_game_and_resumes(sqlite_client: TestClient) -> None:
    game = new_game(sqlite_client)
    for turn, who in enumerate([game.ann, game.bob] * 3):
        assert move(sqlite_client, game, who, "bet 1", None).status_code == 201, turn
    last = seq_of(sqlite_client, game)

    def messages(headers: dict[str, str]) -> list[tuple[int, dict[str, Any]]]:
        with sqlite_client.stream("GET", f"/games/{game.id}/events", headers=headers) as r:
            assert r.status_code == 200
            assert r.headers["content-type"].startswith("text/event-stream")
            text = "".join(r.iter_text())
        out = []
        for block in text.split("\n\n"):
            fields = dict(
                line.split(": ", 1) for line in block.splitlines() if not line.startswith(":")
            )
            if fields:
                out.append((int(fields["id"]), json.loads(fields["data"])))
        return out

    everything = messages(game.ann)
    assert [seq for seq, _ in everything] == list(range(1, last + 1))
    assert everything[-1][1]["event"]["type"] == "skald.game_finished"
    resumed = messages({**game.ann, "Last-Event-ID": str(last - 2)})
    assert [seq for seq, _ in resumed] == [last - 1, last]
    assert messages({"Last-Event-ID": str(last)}) == []


def test_health_and_openapi(sqlite_client: TestClient) -> None:
    assert sqlite_client.get("/health").json() == {"ok": True}
    document = sqlite_client.get("/openapi.json").json()
    moves = document["paths"]["/games/{game_id}/moves"]["post"]
    # 413: the body limit (api/edge.py) answers it on every route that takes a body.
    assert set(moves["responses"]) == {"201", "401", "403", "404", "409", "413", "422"}
    assert moves["security"] == [{"HTTPBearer": []}]
    view = document["paths"]["/games/{game_id}/view"]["get"]
    assert view["security"] == [{"HTTPBearer": []}, {}]  # a token is optional
    assert moves["responses"]["409"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "ErrorOut"
    )
    assert "examples" in document["components"]["schemas"]["MoveRequest"]
    assert document["components"]["securitySchemes"]["HTTPBearer"]["scheme"] == "bearer"


def test_moves_carry_a_receipt_that_verifies(tmp_path: Path) -> None:
    client = TestClient(create_app(f"sqlite:///{tmp_path}/r.db"))
    created = client.post(
        "/games", json={"game": "beowulf", "players": ["Ann", "Bob"], "seed": "receipt"}
    ).json()
    ann = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    answer = client.post(
        f"/games/{created['id']}/moves", headers=ann, json={"move": "place beowulf A1"}
    ).json()
    receipt = load_receipt(json.dumps(answer["receipt"]).encode())
    assert receipt.seq == answer["seq"]
    assert signature_valid(receipt)
    assert receipt.head == answer["events"][-1]["hash"]
    assert client.get(f"/games/{created['id']}/receipt").json()["seq"] == answer["seq"]
    assert client.get(f"/games/{created['id']}/verify").json()["ok"] is True


def test_audit_is_for_the_referee_until_the_game_ends(tmp_path: Path) -> None:
    client = TestClient(create_app(f"sqlite:///{tmp_path}/a.db"))
    created = client.post(
        "/games", json={"game": "beowulf", "players": ["Ann", "Bob"], "seed": "audit"}
    ).json()
    game = created["id"]
    ann = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    referee = {"Authorization": f"Bearer {created['referee_token']}"}
    assert client.get(f"/games/{game}/audit", headers=ann).status_code == 403
    assert client.get(f"/games/{game}/audit").status_code == 403
    report = client.get(f"/games/{game}/audit", headers=referee).json()
    assert report["verdict"] == "clean"
    assert report["seed"] == "audit"
    page = client.get(f"/games/{game}/audit?format=html", headers=referee)
    assert page.headers["content-type"].startswith("text/html")
    assert "clean" in page.text
    markdown = client.get(f"/games/{game}/audit?format=md", headers=referee)
    assert markdown.text.startswith("# Audit of the Beowulf game")
