"""The service's edges (issues 9 and 11): tokens on every route, names and ids, body and
seq strictness, receipts that survive a signing failure, file modes, the Markdown audit,
and the signing key's life (atomic creation, kept beside the store, never a second one)."""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import APIRouter
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from skald.api.deps import ReadDep, checks_tokens
from skald.api.main import create_app
from skald.core.engine import Engine
from skald.core.signing import Signer, SigningKeyError, open_signer
from skald.core.store import EventStore
from skald.projections.table import Table
from tests.patience import HUNG


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path}/edges.db")) as test_client:
        yield test_client


def new_game(client: TestClient, players: list[str] | None = None) -> dict[str, Any]:
    answer = client.post(
        "/games", json={"game": "toy", "players": players or ["Ann", "Bob"], "seed": "edges"}
    )
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


ROUTES = [
    ("GET", "/games"),
    ("POST", "/games"),
    ("GET", "/games/{id}"),
    ("GET", "/games/{id}/view"),
    ("GET", "/games/{id}/log"),
    ("GET", "/games/{id}/legal"),
    ("POST", "/games/{id}/moves"),
    ("POST", "/games/{id}/undo"),
    ("POST", "/games/{id}/redo"),
    ("GET", "/games/{id}/events"),
    ("GET", "/games/{id}/audit"),
    ("GET", "/games/{id}/verify"),
    ("GET", "/games/{id}/receipt"),
]


@pytest.mark.parametrize(("method", "path"), ROUTES)
@pytest.mark.parametrize("how", ["query", "bearer"])
def test_a_bad_token_is_401_on_every_route(
    client: TestClient, method: str, path: str, how: str
) -> None:
    game = new_game(client)
    url = path.format(id=game["id"])
    body: dict[str, Any] = {"move": "bet 1"} if path.endswith("moves") else {}
    if path == "/games":
        body = {"game": "toy", "players": ["Ann", "Bob"]}
    if how == "query":
        answer = client.request(method, url, params={"token": "not-a-token"}, json=body)
    else:
        answer = client.request(
            method, url, headers={"Authorization": "Bearer not-a-token"}, json=body
        )
    assert answer.status_code == 401, (method, url, answer.text)
    assert answer.json()["error"] == "unauthorized"
    # Another game's valid token is just as bad here.
    other = new_game(client)
    if "{id}" in path:
        wrong = client.request(method, url, params={"token": other["seats"][0]["token"]}, json=body)
        assert wrong.status_code == 401


def test_a_route_that_checks_no_token_is_found() -> None:
    """`create_app` refuses routes `checks_tokens` finds unchecked."""
    router = APIRouter()

    @router.get("/games/{game_id}/checked")
    async def checked(call: ReadDep) -> None: ...

    @router.get("/unchecked")
    async def unchecked() -> None: ...

    found = {r.path: checks_tokens(r.dependant) for r in router.routes if isinstance(r, APIRoute)}
    assert found == {"/games/{game_id}/checked": True, "/unchecked": False}


def test_a_good_query_token_shows_that_seat(client: TestClient) -> None:
    game = new_game(client)
    token = game["seats"][0]["token"]
    shown = client.get(f"/games/{game['id']}/view", params={"token": token}).json()
    assert shown["viewer"] == "Ann"
    assert shown["state"]["hand"] is not None


@pytest.mark.parametrize(
    "players",
    [
        ["1", "Bob"],
        ["Ann", "Ann"],
        ["Ann", "ann"],
        ["Ann", "ANN "],
        ["referee", "Bob"],
        ["Spectator", "Bob"],
        ["a" * 65, "Bob"],
        ["Ann\x07", "Bob"],
        ["Ann\u202e", "Bob"],
        [" ", "Bob"],
    ],
)
def test_bad_player_names_are_422(client: TestClient, players: list[str]) -> None:
    answer = client.post("/games", json={"game": "toy", "players": players})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"] in ("illegal_move", "malformed")


@pytest.mark.parametrize("game_id", ["a%00b", "a%07b", "a%C2%85b", "x" * 65])
def test_control_characters_in_game_ids_are_422(client: TestClient, game_id: str) -> None:
    for suffix in ("", "/view", "/verify"):
        answer = client.get(f"/games/{game_id}{suffix}")
        assert answer.status_code == 422, (game_id, suffix, answer.text)
        assert set(answer.json()) >= {"error", "message"}


def test_expected_seq_is_a_strict_integer(client: TestClient) -> None:
    game = new_game(client)
    ann = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    for wrong in (True, "4", 4.5):
        answer = client.post(
            f"/games/{game['id']}/moves", headers=ann, json={"move": "bet 1", "expected_seq": wrong}
        )
        assert answer.status_code == 422, wrong
    assert client.get(f"/games/{game['id']}").json()["seq"] == game["seq"]


def test_bodies_over_one_mib_are_413_json(client: TestClient) -> None:
    big = b'{"game": "toy", "players": ["' + b"a" * (1024 * 1024) + b'"]}'
    answer = client.post("/games", content=big, headers={"Content-Type": "application/json"})
    assert answer.status_code == 413
    assert answer.json()["error"] == "too_large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted while streaming
        yield b'{"game": "toy", "players": ["'
        for _ in range(20):
            yield b"a" * 65536
        yield b'"]}'

    answer = client.post("/games", content=chunks(), headers={"Content-Type": "application/json"})
    assert answer.status_code == 413
    assert answer.json()["error"] == "too_large"
    assert client.get("/games").json()["items"] == []


def test_a_move_is_never_answered_as_failed_once_written(client: TestClient) -> None:
    game = new_game(client)
    table: Table = client.app.state.services.table  # type: ignore[attr-defined]

    class Broken:
        def receipt(self, *_args: Any) -> Any:
            raise OSError("disk full")

    table._signer = Broken()  # type: ignore[assignment]
    ann = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    answer = client.post(
        f"/games/{game['id']}/moves",
        headers=ann,
        json={"move": "bet 1", "expected_seq": game["seq"]},
    )
    assert answer.status_code == 201
    body = answer.json()
    assert body["receipt"] is None
    assert "recorded" in body["receipt_error"]
    assert client.get(f"/games/{game['id']}").json()["seq"] == body["seq"]


def test_the_sqlite_files_are_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SKALD_SIGNING_KEY", raising=False)  # the key beside the store
    monkeypatch.chdir(tmp_path)  # no legacy ./skald-signing.key of the caller's folder
    with TestClient(create_app(f"sqlite:///{tmp_path}/private.db")) as test_client:
        new_game(test_client)
        files = [
            tmp_path / name
            for name in ("private.db", "private.db-wal", "private.db-shm", "private.db.key")
        ]
        for path in files:
            assert path.exists(), path
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


def test_the_markdown_audit_escapes_player_names(client: TestClient) -> None:
    game = new_game(client, ["<img src=x onerror=alert(1)>", "[x](javascript:alert(1))"])
    referee = {"Authorization": f"Bearer {game['referee_token']}"}
    text = client.get(f"/games/{game['id']}/audit?format=md", headers=referee).text
    assert "<img" not in text
    assert "\\[x\\](javascript:alert(1))" in text  # its brackets escaped: no link
    assert "&lt;img src=x onerror=alert(1)&gt;" in text


# -- the signing key ---------------------------------------------------------------------


def test_threads_creating_the_key_at_once_agree(tmp_path: Path) -> None:
    path = tmp_path / "race.key"
    keys: list[str] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(8)

    def create() -> None:
        barrier.wait()
        try:
            keys.append(Signer(path).public_key)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=create) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=HUNG)
    assert not errors
    assert len(set(keys)) == 1
    assert len(keys) == 8
    assert sorted(p.name for p in tmp_path.iterdir()) == ["race.key"]  # no draft left
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_the_key_lives_beside_the_store_and_moves_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SKALD_SIGNING_KEY", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a").mkdir()
    store = EventStore(f"sqlite:///{tmp_path}/a/game.db")
    table = Table(Engine(store), open_signer(store))
    game_id = table.create("toy", ["Ann", "Bob"], seed="moved")
    receipt = table.receipt(game_id)
    assert (tmp_path / "a" / "game.db.key").exists()
    store.dispose()
    # Moved to another folder with its key, and opened from a third working folder.
    (tmp_path / "a").rename(tmp_path / "b")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(tmp_path / "elsewhere")
    moved = EventStore(f"sqlite:///{tmp_path}/b/game.db")
    assert Table(Engine(moved), open_signer(moved)).verify_receipt(game_id, receipt).ok
    # Without its key it refuses to mint a second one...
    (tmp_path / "b" / "game.db.key").rename(tmp_path / "kept.key")
    with pytest.raises(SigningKeyError, match="no key at"):
        open_signer(moved)
    # ...and another key is refused too.
    other = Signer(tmp_path / "other.key")
    with pytest.raises(SigningKeyError, match="is not this store's key"):
        open_signer(moved, tmp_path / "other.key")
    # A genuine receipt from another key is "another key", not tampering.
    stranger = other.receipt(game_id, receipt.seq, receipt.head)
    report = Table(Engine(moved)).verify_receipt(game_id, stranger)
    assert not report.ok
    assert report.other_key
    assert "another key" in report.reason
    forged = stranger.__class__(
        stream=stranger.stream,
        seq=stranger.seq,
        head="0" * 64,
        public_key=stranger.public_key,
        signature=stranger.signature,
    )
    report = Table(Engine(moved)).verify_receipt(game_id, forged)
    assert not report.ok
    assert not report.other_key
    assert "signature" in report.reason
    moved.dispose()


def test_an_app_without_a_usable_key_is_not_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "bad.key").write_text("not hex\n")
    monkeypatch.setenv("SKALD_SIGNING_KEY", str(tmp_path / "bad.key"))
    with pytest.raises(SigningKeyError, match="not a Skald signing key"):
        create_app(f"sqlite:///{tmp_path}/nokey.db")
    os.chmod(tmp_path, 0o700)


def test_a_body_sent_as_a_form_is_told_to_be_json(client: TestClient) -> None:
    """`curl -d` sends form data: the 422 names the content type and what to send."""
    game = client.post("/games", json={"game": "toy", "players": ["Ann", "Bob"]}).json()
    token = game["seats"][0]["token"]
    answer = client.post(
        f"/games/{game['id']}/moves",
        content=b'{"move": "bet 1"}',
        headers={
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    assert answer.status_code == 422
    message = answer.json()["message"]
    assert "sent as application/x-www-form-urlencoded" in message
    assert "Content-Type: application/json" in message
    wrong_json = client.post(
        f"/games/{game['id']}/moves",
        json={"move": 5},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert wrong_json.status_code == 422
    assert "Content-Type" not in wrong_json.json()["message"]  # JSON was sent: no hint
