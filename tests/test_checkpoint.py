"""WAL checkpoints from a thread of their own (core/checkpoint.py): they happen, they keep
the log bounded while writers go on, and they stop with the store."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from skald.core.checkpoint import WalCheckpointer
from skald.core.store import EventStore, StoredRecord
from tests.patience import HUNG


def _wal_frames(path: Path) -> int:
    """Frames in the log (a passive checkpoint's report; it copies what it can too)."""
    with sqlite3.connect(path) as connection:
        return int(connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1])


def _writer(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA wal_autocheckpoint=0")  # only the thread checkpoints
    connection.execute("CREATE TABLE IF NOT EXISTS t (x BLOB)")
    return connection


def _wait_for(condition: Callable[[], bool], seconds: float = HUNG) -> bool:
    """Whether `condition` came true before `seconds` (a detector of a hung thread: on a
    loaded machine the checkpointer's thread may wait long for a core)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return False


def test_no_thread_before_enough_writes(tmp_path: Path) -> None:
    checkpointer = WalCheckpointer(str(tmp_path / "a.db"), threading.Lock(), every=5)
    for _ in range(4):
        checkpointer.wrote()
    assert checkpointer._thread is None
    checkpointer.wrote()
    assert checkpointer._thread is not None
    checkpointer.close()
    assert not checkpointer._thread.is_alive()


def test_the_log_stays_bounded_while_writers_go_on(tmp_path: Path) -> None:
    path = tmp_path / "a.db"
    writer = _writer(path)
    writers = threading.Lock()  # the store's writers' queue
    checkpointer = WalCheckpointer(str(path), writers, every=10, restart_pages=50)
    try:
        for written in range(1, 1501):
            with writers:
                writer.execute("BEGIN IMMEDIATE")
                writer.execute("INSERT INTO t VALUES (randomblob(3000))")  # one page or more
                writer.execute("COMMIT")
            checkpointer.wrote()
            if written % 10 == 0:
                # Writers go on while a pass runs, but never more than one wake-up ahead
                # of the thread: on a loaded machine the thread may not be scheduled for a
                # while, and the bound is the checkpointer's, not the scheduler's.
                behind = written // 10 - 1
                assert _wait_for(lambda b=behind: checkpointer.checkpoints >= b)
        assert _wait_for(lambda: checkpointer.checkpoints >= 10)
        # Without restarts the log would hold every page written (over 1,500 frames).
        assert _wal_frames(path) < 400
    finally:
        checkpointer.close()
        writer.close()


def test_a_store_checkpoints_from_its_thread_and_stops_it_on_dispose(tmp_path: Path) -> None:
    store = EventStore(f"sqlite:///{tmp_path / 'game.db'}")
    now = datetime.now(UTC)
    for seq in range(1, 301):
        record = StoredRecord(
            stream="s", seq=seq, recorded_at=now, actor="A", kind="k",
            payload="{}", prev_hash="0" * 64, hash="1" * 64,
        )  # fmt: skip
        store.append("s", [record], seq - 1, kind="toy")
    checkpointer = store._checkpointer
    assert checkpointer is not None
    assert _wait_for(lambda: checkpointer.checkpoints >= 1)
    thread = checkpointer._thread
    assert thread is not None
    assert thread.is_alive()
    store.dispose()
    assert not thread.is_alive()
    assert len(EventStore(f"sqlite:///{tmp_path / 'game.db'}").read("s")) == 300


def test_an_in_memory_store_has_no_checkpointer() -> None:
    assert EventStore("sqlite://")._checkpointer is None
