"""SQLite writers queue on a lock file beside the database, and a decision runs on the
event loop only while that queue is free: a writer elsewhere (another worker, the CLI)
makes the server take its thread-pool hop, so the loop keeps answering while the move
waits its turn. A writer that does not use the queue (another program holding SQLite's
own lock) is met without waiting: the work stops before writing and takes the hop.
PostgreSQL never runs store work on the loop."""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from skald.core.engine import Engine
from skald.core.errors import WouldWait
from skald.core.store import EventStore
from skald.projections.table import Table
from tests.conftest import fresh_store_url
from tests.patience import HUNG
from tests.servers import Server


def test_the_queue_is_busy_while_another_process_holds_the_lock_file(tmp_path: Path) -> None:
    store = EventStore(f"sqlite:///{tmp_path}/queue.db")
    try:
        assert store.answers_at_once()
        lock = os.open(f"{tmp_path}/queue.db-lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(lock, fcntl.LOCK_EX)  # the same as a writer of another process
            assert not store.answers_at_once()
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
            os.close(lock)
        assert store.answers_at_once()
        assert oct(os.stat(f"{tmp_path}/queue.db-lock").st_mode & 0o777) == "0o600"
    finally:
        store.dispose()


def test_never_waiting_stops_before_writing_when_another_program_holds_the_lock(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path}/outside.db"
    table = Table(Engine(EventStore(url)))
    game_id = table.create("toy", ["Ann", "Bob"], seed="outside")
    seq = table.turn(game_id).seq
    outside = sqlite3.connect(f"{tmp_path}/outside.db", isolation_level=None)
    try:
        outside.execute("BEGIN IMMEDIATE")  # SQLite's write lock, not Skald's queue
        started = time.monotonic()
        with table.never_waiting() as block, pytest.raises(WouldWait):
            table.move(game_id, 0, "bet 1", seq)
        assert not block.committed
        kept = table._engine.store._never_waiting_connections
        assert kept is not None
        assert len(kept._idle) == 1  # refused at once, outside a transaction: kept
        with table.never_waiting(), pytest.raises(WouldWait):
            table.move(game_id, 0, "bet 1", seq)  # again, on the same connection
        assert len(kept._idle) == 1
        # It did not wait out the busy timeout (each of the two would have taken all of it;
        # compared with the store's own setting, not with a guess at how fast a core is).
        took = time.monotonic() - started
        assert took < busy_timeout(table), f"{took:.1f} s"
        assert table.turn(game_id).seq == seq  # reads still answer; nothing was written
    finally:
        outside.execute("ROLLBACK")
        outside.close()
    table.move(game_id, 0, "bet 1", seq)  # outside the block, the same move goes through
    assert table.turn(game_id).seq > seq


def busy_timeout(table: Table) -> float:
    """Seconds a connection of the table's store waits for SQLite's lock (`busy_timeout`)."""
    with table._engine.store.engine.connect() as conn:
        return int(conn.exec_driver_sql("PRAGMA busy_timeout").scalar_one()) / 1000


def test_work_outside_the_loop_still_waits_after_work_on_it(tmp_path: Path) -> None:
    """Connections that never wait are kept apart: a write after never-waiting work (the
    same process, the same store) still waits out another program's lock, then lands."""
    url = f"sqlite:///{tmp_path}/apart.db"
    table = Table(Engine(EventStore(url)))
    game_id = table.create("toy", ["Ann", "Bob"], seed="apart")
    with table.never_waiting():
        table.move(game_id, 0, "bet 1", table.turn(game_id).seq)  # on the loop's connections
    seq = table.turn(game_id).seq
    outside = sqlite3.connect(f"{tmp_path}/apart.db", isolation_level=None, check_same_thread=False)
    outside.execute("BEGIN IMMEDIATE")
    releaser = threading.Timer(0.5, lambda: outside.execute("ROLLBACK"))
    releaser.start()
    try:
        started = time.monotonic()
        table.move(game_id, 1, "bet 1", seq)  # waits for the lock instead of failing
        assert time.monotonic() - started >= 0.4
        assert table.turn(game_id).seq > seq
        latest = table.turn(game_id).seq
        # ... and the loop's connections still never wait
        with (
            sqlite_lock_held(tmp_path / "apart.db"),
            table.never_waiting(),
            pytest.raises(WouldWait),
        ):
            table.move(game_id, 0, "bet 1", latest)
    finally:
        releaser.join()
        outside.close()


def test_postgresql_never_answers_on_the_loop(tmp_path: Path) -> None:
    store = EventStore(fresh_store_url("postgresql", tmp_path))
    try:
        assert not store.answers_at_once()
    finally:
        store.dispose()


@contextlib.contextmanager
def queue_lock_held(db: Path) -> Iterator[None]:
    """Another Skald process writing: the writers' queue's lock file is held."""
    lock = os.open(f"{db}-lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield
    finally:
        fcntl.flock(lock, fcntl.LOCK_UN)
        os.close(lock)


@contextlib.contextmanager
def sqlite_lock_held(db: Path) -> Iterator[None]:
    """Another program writing: SQLite's own write lock is held, the queue is free."""
    outside = sqlite3.connect(str(db), isolation_level=None)
    try:
        outside.execute("BEGIN IMMEDIATE")
        yield
    finally:
        outside.execute("ROLLBACK")
        outside.close()


@pytest.mark.parametrize("held", [queue_lock_held, sqlite_lock_held])
def test_a_move_meeting_another_writer_leaves_the_server_answering(
    tmp_path: Path, held: Callable[[Path], contextlib.AbstractContextManager[None]]
) -> None:
    """Another writer holds a lock: the move waits for it off the event loop (before
    writing anything) while /health and reads still answer at once; released, the move
    is written."""
    db = tmp_path / "served.db"
    with Server(f"sqlite:///{db}", tmp_path / "server.log") as server:
        base = server.start()
        game = httpx.post(
            f"{base}/games", json={"game": "beowulf", "players": ["Ann", "Bob"]}, timeout=HUNG
        ).json()
        path = f"{base}/games/{game['id']}"
        seat = httpx.get(path, timeout=HUNG).json()["to_act"][0]
        token = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
        move = httpx.get(f"{path}/legal", headers=token, timeout=HUNG).json()["moves"][0]
        answer: dict[str, httpx.Response] = {}
        with held(db):
            mover = threading.Thread(
                target=lambda: answer.setdefault(
                    "move",
                    httpx.post(
                        f"{path}/moves",
                        headers=token,
                        json={"move": move, "expected_seq": game["seq"]},
                        timeout=HUNG,
                    ),
                )
            )
            mover.start()
            time.sleep(0.5)
            assert mover.is_alive(), "the move did not wait for the other writer"
            # The loop answers while the move waits: /health and a read come back with the
            # lock still held. A loop blocked by the move would answer only when its wait
            # ends: never while the queue's lock is held, only after the 30 s busy timeout
            # for SQLite's; so the reads must come back well inside that, and the move must
            # still be waiting then (how fast they came is shown, not required).
            started = time.monotonic()
            inside = 15.0  # half the store's busy timeout
            assert httpx.get(f"{base}/health", timeout=inside).status_code == 200
            assert httpx.get(path, timeout=inside).json()["seq"] == game["seq"]
            took = time.monotonic() - started
            assert took < inside, f"the event loop was blocked ({took:.1f} s)"
            assert mover.is_alive(), "the move did not wait for the other writer"
            print(f"/health and a read answered in {took:.2f} s while the move waited")
        mover.join(timeout=HUNG)
        assert answer["move"].status_code == 201, answer["move"].text
        assert httpx.get(path, timeout=HUNG).json()["seq"] == answer["move"].json()["seq"]
