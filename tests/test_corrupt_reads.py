"""Corruption outside an event's payload (an unreadable recorded_at, a stream header whose
version or created_at is not what its column holds) is a CorruptRecord naming the seq and
the column: the CLI's one line and exit 9, HTTP's JSON 500 `corrupt_record`, never a
traceback or a plain-text page. An exception no handler knows is a JSON 500 too. An
unparseable PostgreSQL URL is one line, exit 8, its password never shown. A receipt for a
seq below 1 is RECEIPT INVALID (exit 3), even when its signature is the store's."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import msgspec
import pytest
from fastapi.testclient import TestClient

from skald.api.main import create_app
from skald.core.signing import load_receipt, open_signer
from skald.core.store import EventStore
from tests.cli_support import one_line, skald

MOVES = ["bet 1", "draw", "bet 2", "draw", "bet 1", "bet 3"]

# (SQL on the store, the seq named, a column named in the message)
CORRUPTIONS = {
    "recorded_at text": ("update events set recorded_at='garbage' where seq=4", 4, "recorded_at"),
    "recorded_at number": ("update events set recorded_at=12 where seq=5", 5, "recorded_at"),
    "version text": ("update streams set version='abc'", 1, "version"),
    "version fraction": ("update streams set version=2.5", 1, "version"),
    "created_at text": ("update streams set created_at='junk'", 1, "created_at"),
    "created_at number": ("update streams set created_at=5", 1, "created_at"),
}


@pytest.fixture
def game(tmp_path: Path) -> tuple[Path, str]:
    """A finished toy game (with its store's signing key made): (file, game id)."""
    path = tmp_path / "c.db"
    db = str(path)
    code, out, _ = skald("new", "toy", "--players", "Ann,Bob", "--seed", "s", "--db", db)
    assert code == 0
    game_id = out.strip()
    for turn, move in enumerate(MOVES):
        code, _, err = skald("move", game_id, move, "--as", str(turn % 2), "--db", db)
        assert code == 0, err
    assert skald("receipt", game_id, "--db", db)[0] == 0
    return path, game_id


def corrupt(path: Path, sql: str) -> None:
    with sqlite3.connect(path) as conn:
        conn.execute(sql)
    conn.close()


COMMANDS = [
    ("verify",),
    ("receipt",),
    ("audit",),
    ("export",),
    ("log",),
]


@pytest.mark.parametrize("name", CORRUPTIONS)
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_an_unreadable_stored_value_is_exit_9_naming_seq_and_column(
    game: tuple[Path, str], name: str, command: tuple[str, ...]
) -> None:
    path, game_id = game
    sql, seq, column = CORRUPTIONS[name]
    corrupt(path, sql)
    code, _, err = skald(*command, game_id, "--db", str(path))
    line = one_line(err)
    assert code == 9, err
    assert f"seq {seq}" in line, line
    assert column in line, line


@pytest.mark.parametrize("name", CORRUPTIONS)
def test_verify_with_a_receipt_of_a_corrupt_store_is_exit_9(
    game: tuple[Path, str], name: str, tmp_path: Path
) -> None:
    path, game_id = game
    receipt = tmp_path / "r.json"
    code, out, _ = skald("receipt", game_id, "--db", str(path))
    receipt.write_text(out)
    sql, seq, column = CORRUPTIONS[name]
    corrupt(path, sql)
    code, _, err = skald("verify", game_id, "--receipt", str(receipt), "--db", str(path))
    line = one_line(err)
    assert code == 9, err
    assert f"seq {seq}" in line, line
    assert column in line, line


def test_the_store_lists_no_header_it_cannot_read(game: tuple[Path, str]) -> None:
    from skald.core.errors import CorruptRecord
    from skald.core.store import EventStore

    path, game_id = game
    corrupt(path, "update streams set created_at='junk'")
    store = EventStore(str(path))
    try:
        with pytest.raises(CorruptRecord, match="created_at"):
            store.list_streams()
        corrupt(path, "update streams set created_at='2026-01-01 00:00:00', version='x'")
        with pytest.raises(CorruptRecord, match="version"):
            store.version(game_id)
    finally:
        store.dispose()


@pytest.mark.parametrize("name", CORRUPTIONS)
@pytest.mark.parametrize("route", ["verify", "receipt", "audit", "log", "lines"])
def test_over_http_an_unreadable_stored_value_is_a_json_corrupt_record(
    game: tuple[Path, str], name: str, route: str
) -> None:
    path, game_id = game
    sql, seq, column = CORRUPTIONS[name]
    corrupt(path, sql)
    with TestClient(create_app(f"sqlite:///{path}"), raise_server_exceptions=False) as client:
        answer = client.get(f"/games/{game_id}/{route}")
    if answer.status_code in (401, 403):
        pytest.skip(f"/{route} wants a token before it reads the log")
    assert answer.status_code == 500, answer.text
    body = answer.json()
    assert body["error"] == "corrupt_record", body
    assert f"seq {seq}" in body["message"], body
    assert column in body["message"], body


def test_an_exception_no_handler_knows_is_a_json_500_and_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app(f"sqlite:///{tmp_path}/x.db")

    def boom() -> None:
        raise RuntimeError("a bug nobody foresaw")

    app.add_api_route("/boom-for-test", boom)
    with (
        caplog.at_level(logging.ERROR, logger="skald.api.errors"),
        TestClient(app, raise_server_exceptions=False) as client,
    ):
        answer = client.get("/boom-for-test")
    assert answer.status_code == 500
    assert answer.json() == {
        "error": "internal",
        "message": "an internal error; the server log has the details",
    }
    logged = [r for r in caplog.records if r.name == "skald.api.errors"]
    assert logged
    assert logged[0].exc_info is not None
    assert "a bug nobody foresaw" in str(logged[0].exc_info[1])


@pytest.mark.parametrize(
    "url",
    ["postgresql://user:s3cretpw@host:notaport/db", "postgresql://user:s3cretpw@[::1/db"],
)
def test_an_unparseable_postgres_url_is_one_line_exit_8_without_password(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = skald("new", "beowulf", "--players", "A1,B1", "--db", url)
    line = one_line(err)
    assert code == 8, err
    assert "s3cretpw" not in out + err
    assert "event store" in line


@pytest.mark.parametrize("seq", [0, -1, -100000])
def test_a_receipt_below_seq_1_is_invalid_even_signed_by_the_store(
    game: tuple[Path, str], seq: int, tmp_path: Path
) -> None:
    path, game_id = game
    genuine = load_receipt(skald("receipt", game_id, "--db", str(path))[1].encode())
    store = EventStore(str(path))
    try:
        signer = open_signer(store)
    finally:
        store.dispose()
    assert signer.public_key == genuine.public_key
    minted = signer.receipt(game_id, seq, genuine.head)
    receipt = tmp_path / "low.json"
    receipt.write_bytes(msgspec.json.encode(minted))
    code, out, err = skald("verify", game_id, "--receipt", str(receipt), "--db", str(path))
    line = one_line(err)
    assert code == 3, (code, out, err)
    assert line.startswith("RECEIPT INVALID:"), line
    assert f"seq {seq}," in line, line
