"""Fault suite (issue 11): receipts outlive the folder a server starts from and the machine
the store lives on. The key lives beside the SQLite store (`<file>.key`), so a receipt
from a server started in one folder verifies against a server started from another
folder, and against a copy of the store and its key in another folder ("another
machine"); a copy without its key still verifies old receipts (the store recorded the
public key) but refuses to sign; a genuine receipt from a foreign key is "NOT VERIFIED:
signed by another key", never "TAMPERED".

These tests unset SKALD_SIGNING_KEY (which the test suite otherwise sets): the point is
where the key is found without it. One smoke test runs the real `skald serve`,
`skald receipt` and `skald verify --receipt` as processes; the rest use Typer's CliRunner.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from skald.core.signing import Signer, load_receipt
from tests.cli_support import one_line, skald
from tests.patience import HUNG
from tests.processes import run as run_process
from tests.servers import Server, skald_command


@pytest.fixture(autouse=True)
def key_beside_the_store(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("SKALD_SIGNING_KEY", raising=False)
    monkeypatch.delenv("SKALD_DB", raising=False)
    monkeypatch.chdir(tmp_path)  # no legacy ./skald-signing.key of the caller's folder


def clean_env() -> dict[str, str]:
    return {
        name: value
        for name, value in os.environ.items()
        if name not in ("SKALD_SIGNING_KEY", "SKALD_DB")
    }


def copy_store(database: Path, folder: Path, with_key: bool = True) -> Path:
    """Copy a SQLite store (its -wal/-shm too, if any) and, unless told not to, its key."""
    folder.mkdir()
    suffixes = ["", "-wal", "-shm"] + ([".key"] if with_key else [])
    for suffix in suffixes:
        source = database.with_name(database.name + suffix)
        if source.exists():
            shutil.copy2(source, folder / source.name)
    return folder / database.name


def play_one(base: str, game: dict[str, Any]) -> dict[str, Any]:
    """One legal move for whoever is to act; the 201 answer."""
    summary = httpx.get(f"{base}/games/{game['id']}", timeout=HUNG).json()
    token = game["seats"][summary["to_act"][0]]["token"]
    headers = {"Authorization": f"Bearer {token}"}
    legal = httpx.get(f"{base}/games/{game['id']}/legal", headers=headers, timeout=HUNG).json()
    moved = httpx.post(
        f"{base}/games/{game['id']}/moves",
        headers=headers,
        timeout=HUNG,
        json={"move": legal["moves"][0], "expected_seq": legal["seq"]},
    )
    assert moved.status_code == 201, moved.text
    return dict(moved.json())


def test_a_receipt_from_a_server_in_one_folder_verifies_from_another_and_on_a_copy(
    tmp_path: Path,
) -> None:
    """Smoke test with real processes: `skald serve` twice, from two folders, on one
    SQLite store; then `skald verify --receipt` and `skald receipt` as commands."""
    (tmp_path / "store").mkdir()
    here, there, elsewhere = (tmp_path / "here", tmp_path / "there", tmp_path / "elsewhere")
    for folder in (here, there, elsewhere):
        folder.mkdir()
    database = tmp_path / "store" / "skald.db"
    env = clean_env()
    # First start: from tmp_path, the store named relative to it.
    with Server("sqlite:///store/skald.db", tmp_path / "one.log", cwd=tmp_path, env=env) as server:
        base = server.start()
        game = httpx.post(
            f"{base}/games", json={"game": "beowulf", "players": ["Ann", "Bob"]}, timeout=HUNG
        ).json()
        first = play_one(base, game)["receipt"]
    key = database.with_name("skald.db.key")
    assert key.is_file()
    assert key.stat().st_mode & 0o777 == 0o600
    assert not list(tmp_path.glob("*.key"))
    assert not (tmp_path / "skald-signing.key").exists()
    (tmp_path / "first.json").write_text(json.dumps(first))
    # Second start: from another folder, the same store by its absolute path.
    with Server(f"sqlite:///{database}", tmp_path / "two.log", cwd=there, env=env) as server:
        base = server.start()
        again = httpx.get(f"{base}/games/{game['id']}/receipt", timeout=HUNG).json()
        assert again["public_key"] == first["public_key"]
        assert again["seq"] == first["seq"]
        second = play_one(base, game)["receipt"]
    assert second["public_key"] == first["public_key"]
    assert second["seq"] > first["seq"]
    assert not list(there.iterdir()), "a key was minted in the working folder"
    (tmp_path / "second.json").write_text(json.dumps(second))

    def command(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
        return run_process(
            [*skald_command(), *args], cwd=cwd, env=env, text=True, capture_output=True, timeout=60
        )

    for name in ("first.json", "second.json"):
        checked = command(
            "verify",
            str(game["id"]),
            "--receipt",
            str(tmp_path / name),
            "--db",
            f"sqlite:///{database}",
            cwd=elsewhere,
        )
        assert checked.returncode == 0, checked
        assert checked.stdout.startswith("ok: "), checked
    # "Another machine": the store and its key copied to another folder.
    copied = copy_store(database, tmp_path / "machine")
    checked = command(
        "verify",
        str(game["id"]),
        "--receipt",
        str(tmp_path / "first.json"),
        "--db",
        f"sqlite:///{copied}",
        cwd=elsewhere,
    )
    assert checked.returncode == 0, checked
    assert checked.stdout.startswith("ok: "), checked
    signed = command(
        "receipt", str(game["id"]), "--db", f"sqlite:///{copied}", cwd=tmp_path / "machine"
    )
    assert signed.returncode == 0, signed.stderr
    assert json.loads(signed.stdout)["public_key"] == first["public_key"]
    assert not list(elsewhere.iterdir())


def new_game_with_a_move(url: str) -> tuple[str, str]:
    """A Beowulf game with one move made; its id and a receipt (JSON) of its head."""
    code, out, err = skald("new", "beowulf", "--players", "Ann,Bob", "--db", url)
    assert code == 0, err
    game_id = out.strip()
    code, out, err = skald("legal", game_id, "--as", "Ann", "--json", "--db", url)
    assert code == 0, err
    code, _, err = skald("move", game_id, json.loads(out)[0], "--as", "Ann", "--db", url)
    assert code == 0, err
    code, out, err = skald("receipt", game_id, "--db", url)
    assert code == 0, err
    return game_id, out


def test_a_store_moved_with_its_key_verifies_and_signs_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "first").mkdir()
    database = tmp_path / "first" / "skald.db"
    game_id, receipt = new_game_with_a_move(f"sqlite:///{database}")
    receipt_file = tmp_path / "receipt.json"
    receipt_file.write_text(receipt)
    copied = copy_store(database, tmp_path / "machine")
    url = f"sqlite:///{copied}"
    monkeypatch.chdir(tmp_path / "machine")  # a fresh start on "another machine"
    code, out, err = skald("verify", game_id, "--receipt", str(receipt_file), "--db", url)
    assert code == 0, err
    assert out.startswith("ok: "), err
    # Play goes on there, signed by the same key: no second key was minted.
    code, out, err = skald("receipt", game_id, "--db", url)
    assert code == 0, err
    assert load_receipt(out.encode()).public_key == load_receipt(receipt.encode()).public_key
    assert sorted(path.name for path in copied.parent.glob("*.key")) == ["skald.db.key"]


def test_a_store_moved_without_its_key_verifies_old_receipts_but_refuses_to_sign(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "first").mkdir()
    database = tmp_path / "first" / "skald.db"
    game_id, receipt = new_game_with_a_move(f"sqlite:///{database}")
    receipt_file = tmp_path / "receipt.json"
    receipt_file.write_text(receipt)
    copied = copy_store(database, tmp_path / "machine", with_key=False)
    url = f"sqlite:///{copied}"
    monkeypatch.chdir(tmp_path / "machine")
    code, out, err = skald("verify", game_id, "--receipt", str(receipt_file), "--db", url)
    assert code == 0, err
    assert out.startswith("ok: "), err
    code, _, err = skald("receipt", game_id, "--db", url)
    assert code == 8, err
    assert "no key" in one_line(err), err
    assert not copied.with_name("skald.db.key").exists(), "a second key was minted"


def test_a_receipt_from_a_foreign_key_is_another_key_not_tampering(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "first").mkdir()
    database = tmp_path / "first" / "skald.db"
    game_id, receipt = new_game_with_a_move(f"sqlite:///{database}")
    genuine = load_receipt(receipt.encode())
    # The store copied with a foreign key beside it (another store's key).
    copied = copy_store(database, tmp_path / "machine", with_key=False)
    foreign = Signer(tmp_path / "foreign.key")
    shutil.copy2(tmp_path / "foreign.key", copied.with_name("skald.db.key"))
    url = f"sqlite:///{copied}"
    monkeypatch.chdir(tmp_path / "machine")
    code, _, err = skald("receipt", game_id, "--db", url)
    assert code == 8, err
    assert "not this store's key" in one_line(err), err
    # The genuine receipt still verifies; the same head signed by the foreign key is
    # "another key"; an altered receipt is tampering.
    files = {
        "genuine": genuine,
        "foreign": foreign.receipt(game_id, genuine.seq, genuine.head),
        "altered": msgspec.structs.replace(genuine, seq=genuine.seq - 1),
    }
    for name, signed in files.items():
        (tmp_path / f"{name}.json").write_bytes(msgspec.json.encode(signed))
    code, out, err = skald(
        "verify", game_id, "--receipt", str(tmp_path / "genuine.json"), "--db", url
    )
    assert code == 0, err
    assert out.startswith("ok: "), err
    code, out, err = skald(
        "verify", game_id, "--receipt", str(tmp_path / "foreign.json"), "--db", url
    )
    line = one_line(err)
    assert code == 1, err
    assert line.startswith("NOT VERIFIED: signed by another key"), err
    assert "TAMPERED" not in line
    assert foreign.public_key[:16] in line
    code, out, err = skald(
        "verify", game_id, "--receipt", str(tmp_path / "altered.json"), "--db", url
    )
    # A receipt altered after signing is the receipt's fault, not the log's.
    assert code == 3, err
    assert one_line(err).startswith("RECEIPT INVALID: the receipt's signature does not match"), err
    # The same answers in JSON: other_key marks the foreign receipt only.
    code, out, _ = skald(
        "verify", game_id, "--receipt", str(tmp_path / "foreign.json"), "--json", "--db", url
    )
    assert code == 1
    assert json.loads(out)["other_key"] is True
