"""Commands that only read work on a store in a folder the user may not write (a copy of
evidence, a read-only mount): SQLite opens it immutable when no write-ahead log is pending,
read-only through the log when its -shm file is there, and otherwise one line says why.

The folder is made read-only with chmod a-w; as root (who writes anywhere) it is bind-mounted
read-only over itself instead, and the tests are skipped where that is not allowed."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.cli_support import skald


@contextmanager
def _read_only(folder: Path) -> Iterator[None]:
    """`folder` read-only for this process while the block runs."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)
        return
    mounted = subprocess.run(
        ["mount", "--bind", "-o", "ro", str(folder), str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a read-only folder here: {mounted.stderr!r}")
    try:
        assert not os.access(folder, os.W_OK)
        yield
    finally:
        subprocess.run(["umount", str(folder)], check=True)


def _listing(folder: Path) -> dict[str, int]:
    return {path.name: path.stat().st_size for path in folder.iterdir()}


def _new_game(folder: Path) -> tuple[str, str]:
    db = str(folder / "s.db")
    code, out, err = skald("new", "beowulf", "--players", "Ann,Bob", "--db", db)
    assert code == 0, err
    game_id = out.strip()
    code, _, err = skald("receipt", game_id, "--db", db)  # the store records its signing key
    assert code == 0, err
    return db, game_id


def test_readers_work_on_a_store_in_a_read_only_folder(tmp_path: Path) -> None:
    folder = tmp_path / "evidence"
    folder.mkdir()
    db, game_id = _new_game(folder)
    code, receipt, err = skald("receipt", game_id, "--db", db)
    assert code == 0, err
    (tmp_path / "r.json").write_text(receipt, encoding="utf-8")
    expected = {
        ("verify", game_id): "ok: 5 events, chain intact",
        ("verify", game_id, "--receipt", str(tmp_path / "r.json")): "ok: 5 events",
        ("show", game_id): f"beowulf {game_id} at seq 5",
        ("log", game_id): "    1  ",
        ("replay", game_id, "--to", "3"): "    1  ",
        ("audit", game_id): f"# Audit of the Beowulf game {game_id}",
        ("export", game_id): "% skald text 1",
        ("export", game_id, "--format", "jsonl"): '{"format":"skald-history"',
        ("receipt", game_id): '{"stream":"' + game_id,
        ("legal", game_id, "--as", "Ann"): "place beowulf A1",
    }
    before = _listing(folder)
    with _read_only(folder):
        for args, start in expected.items():
            code, out, err = skald(*args, "--db", db)
            assert code == 0, (args, err)
            assert out.startswith(start), (args, out[:200])
    assert _listing(folder) == before  # nothing made beside the store


def test_a_writer_is_told_the_folder_is_read_only(tmp_path: Path) -> None:
    folder = tmp_path / "evidence"
    folder.mkdir()
    db, game_id = _new_game(folder)
    before = _listing(folder)
    with _read_only(folder):
        code, out, err = skald("move", game_id, "--as", "Ann", "place beowulf C3", "--db", db)
    assert code == 8
    assert out == ""
    assert err == (
        f"error: cannot write to the event store at {db}: its folder {folder} is read-only "
        "(SQLite writes its -wal and -shm files beside the store)\n"
    )
    assert _listing(folder) == before


def _copy_with_pending_log(source: Path, target: Path, game_id: str, shm: bool) -> None:
    """Copy the store while a move waits in its write-ahead log (a reader's open snapshot
    keeps the checkpoint from copying it into the file)."""
    holder = sqlite3.connect(source / "s.db", isolation_level=None)
    try:
        holder.execute("BEGIN")
        holder.execute("SELECT count(*) FROM events").fetchall()
        code, _, err = skald(
            "move", game_id, "--as", "Ann", "place beowulf C3", "--db", str(source / "s.db")
        )
        assert code == 0, err
        for name in ("s.db", "s.db-wal", *(("s.db-shm",) if shm else ())):
            shutil.copy(source / name, target / name)
        holder.execute("ROLLBACK")
    finally:
        holder.close()
    assert (target / "s.db-wal").stat().st_size > 0


def test_a_pending_log_is_read_through_its_shm_file(tmp_path: Path) -> None:
    source, folder = tmp_path / "live", tmp_path / "copy"
    source.mkdir()
    folder.mkdir()
    _, game_id = _new_game(source)
    _copy_with_pending_log(source, folder, game_id, shm=True)
    with _read_only(folder):
        code, out, err = skald("verify", game_id, "--db", str(folder / "s.db"))
    assert code == 0, err
    assert out.startswith("ok: 8 events")  # the move waiting in the log is read (not 5)


def test_a_pending_log_without_its_shm_file_says_why(tmp_path: Path) -> None:
    source, folder = tmp_path / "live", tmp_path / "copy"
    source.mkdir()
    folder.mkdir()
    _, game_id = _new_game(source)
    _copy_with_pending_log(source, folder, game_id, shm=False)
    before = _listing(folder)
    db = folder / "s.db"
    with _read_only(folder):
        code, out, err = skald("verify", game_id, "--db", str(db))
    assert code == 8
    assert out == ""
    assert err == (
        f"error: cannot open the event store at {db}: the folder {folder} is read-only and "
        "its write-ahead log (s.db-wal) holds changes SQLite can read only through a -shm "
        "file it must write beside the store; copy the store with its -wal file to a "
        "writable folder\n"
    )
    assert _listing(folder) == before
