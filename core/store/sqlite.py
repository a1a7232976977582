"""The SQLite backend (the default store): `SqliteStore`, a store in one SQLite file (or in
memory), and what a SQLite URL says about its file (`sqlite_path`, `in_memory`).

Opening a file creates it 0600 before SQLite opens it (its -wal and -shm files take the
same mode: they hold every seed and hidden value). Every connection runs in WAL mode
(readers never wait for writers) with a busy timeout, `synchronous=NORMAL` and foreign
keys on; transactions are begun by the store itself, writes with `BEGIN IMMEDIATE`, so
concurrent writers queue instead of failing on a lock upgrade.

Writers take their turn in a queue of their own before SQLite's lock: a lock for this
process's threads and a lock file for other processes (`core/sqlite_writers.py`). Inside
`never_waiting` (store work on the service's event loop) nothing waits for a lock: a
would-be wait raises `WouldWait` before anything is written, and `answers_at_once` tells
the service when the queue is free. The write-ahead log is copied back into the database
by a thread of its own (`core/checkpoint.py`), not inside a commit.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy.engine import Engine as SqlEngine

from skald.core.checkpoint import BACKSTOP_PAGES, WalCheckpointer
from skald.core.driver_connections import DriverConnections
from skald.core.errors import StoreError, WouldWait
from skald.core.sqlite_writers import NEVER_WAIT, WriterQueue
from skald.core.store.caches import CacheSql
from skald.core.store.contract import EventStore, StaleVersion, StreamSql
from skald.core.store.records import utc
from skald.core.store.urls import DEFAULT_URL, resolve_url

_SQLITE_BUSY = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)

_BUSY_TIMEOUT_MS = 30000

# A stream's compare-and-set: moves one row, or none when the version is stale.
_ADVANCE = "UPDATE streams SET version = ? WHERE id = ? AND version = ?"
# The streams whose ids start with a prefix (the prefix, the text just past every id that
# starts with it, its length, the prefix): SQLite compares text byte by byte, so a range
# on the key finds them through the index.
_UNDER = (
    "SELECT id, version FROM streams WHERE id >= ? AND id < ? AND substr(id, 1, ?) = ? ORDER BY id"
)


def _sqlite_url(url: str) -> sa.engine.URL | None:
    """The parsed URL of a SQLite store (a URL or a path), or None (not SQLite, or not a
    URL at all: opening it says why)."""
    try:
        parsed = sa.engine.make_url(resolve_url(url))
    except (sa.exc.ArgumentError, ValueError, StoreError):
        return None
    return parsed if parsed.drivername.startswith("sqlite") else None


def sqlite_path(url: str) -> str | None:
    """The file of a SQLite store (a URL or a path), or None (not SQLite, in memory, or
    not a URL at all: opening it says why)."""
    parsed = _sqlite_url(url)
    database = (parsed.database or "") if parsed is not None else ""
    if database in ("", ":memory:") or database.startswith("file:"):
        return None
    return database


def in_memory(url: str) -> bool:
    """Whether `url` names a SQLite store in memory (`sqlite://`, `:memory:`, ...): it
    keeps nothing once its process ends."""
    parsed = _sqlite_url(url)
    if parsed is None:
        return False
    database = parsed.database or ""
    return (
        database in ("", ":memory:")
        or database.startswith("file::memory:")
        or parsed.query.get("mode") == "memory"
    )


def _create_private(path: str) -> None:
    # Create the file 0600 before SQLite does (SQLite would use the umask: world-readable);
    # SQLite gives the -wal and -shm files the database file's mode.
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    except OSError as error:
        raise StoreError(
            f"cannot create the event store {path}: {error.strerror or error}"
        ) from None
    os.close(descriptor)


def _make_engine(url: str) -> SqlEngine:
    engine = sa.create_engine(url, connect_args={"timeout": 30, "check_same_thread": False})

    @sa_event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        if ":memory:" not in url and url not in ("sqlite://", "sqlite:///"):
            cursor.execute("PRAGMA journal_mode=WAL")
            # Checkpoints run in a thread of their own (core/checkpoint.py); a commit
            # checkpoints only as the backstop, should the log outgrow the thread.
            cursor.execute(f"PRAGMA wal_autocheckpoint={BACKSTOP_PAGES}")
        cursor.execute(f"PRAGMA busy_timeout={_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @sa_event.listens_for(engine, "begin")
    def _sqlite_begin(connection: Any) -> None:
        # Writers take the lock up front (IMMEDIATE), so concurrent writers queue instead of
        # failing on a lock upgrade; readers keep a plain snapshot under WAL.
        writing = connection.get_execution_options().get("skald_write", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writing else "BEGIN")

    return engine


class SqliteStore(EventStore, backend="sqlite"):
    """Streams of records in one SQLite database (a file, or in memory)."""

    _sql = StreamSql("?")
    _cache_sql = CacheSql("?")

    def __init__(self, url: str = DEFAULT_URL) -> None:
        url = resolve_url(url)
        path = sqlite_path(url)
        if path is not None:
            if os.path.isdir(path):
                raise StoreError(f"cannot open the event store {path}: it is a directory")
            _create_private(path)
        # An in-memory SQLite database lives in its one pooled connection: it is borrowed.
        self._on_file = path is not None
        self._sqlite_writer = WriterQueue(path)
        self._checkpointer = None if path is None else WalCheckpointer(path, self._sqlite_writer)
        if self._checkpointer is not None:
            weakref.finalize(self, self._checkpointer.close)
        super().__init__(url)
        # SQLite work on an event loop (`never_waiting`) takes connections that never wait
        # for a lock: setting busy_timeout there and back cost two statements a request.
        self._never_waiting_connections = (
            DriverConnections(self.engine, keep=8, setting="PRAGMA busy_timeout=0")
            if path is not None
            else None
        )

    def _make_engine(self, url: str) -> SqlEngine:
        return _make_engine(url)

    def _lock_schema(self, conn: sa.Connection) -> None:
        """Nothing is held beyond the transaction itself."""

    def _lock_signing_keys(self, conn: sa.Connection) -> None:
        """Nothing more to hold: a key is recorded in the writers' queue, in a transaction
        begun IMMEDIATE."""

    @staticmethod
    def _stamp(moment: datetime) -> str:
        # The text SQLAlchemy's SQLite DateTime stores (UTC fields, no offset): rows written
        # by either path read back alike.
        if moment.tzinfo is not UTC:
            moment = utc(moment)
        return moment.replace(tzinfo=None).isoformat(" ", "microseconds")

    @staticmethod
    def _moment(stored: Any) -> datetime:
        return datetime.fromisoformat(stored).replace(tzinfo=UTC)

    def answers_at_once(self) -> bool:
        """Whether a read or an append here is brief enough to run without a thread of its
        own: a SQLite store (a local file: no round trips; WAL readers never wait) whose
        writers' queue is free at this moment."""
        return not self._sqlite_writer.busy()

    # -- appends ----------------------------------------------------------------------------

    def _append_rows(
        self, stream: str, kind: str, title: str, expected: int, rows: list[tuple[Any, ...]]
    ) -> None:
        """One transaction under the writers' queue; the compare-and-set's rowcount says
        whether the version moved."""
        new_version = expected + len(rows)
        with self._driver(write=True) as cursor:
            if expected == 0:
                cursor.execute(self._sql.new_stream, (stream, kind, new_version, rows[0][2], title))
            else:
                cursor.execute(_ADVANCE, (new_version, stream, expected))
                if cursor.rowcount != 1:
                    raise StaleVersion
            cursor.executemany(self._sql.insert_events, rows)

    def _append_new_with_provenance(
        self, stream: str, kind: str, title: str, rows: list[tuple[Any, ...]], record: str
    ) -> None:
        with self._driver(write=True) as cursor:
            cursor.execute(self._sql.new_stream, (stream, kind, len(rows), rows[0][2], title))
            cursor.executemany(self._sql.insert_events, rows)
            cursor.execute(self._sql.insert_provenance, (stream, record))

    def _prefix_query(self, prefix: str) -> tuple[str, tuple[Any, ...]]:
        return _UNDER, (prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1), len(prefix), prefix)

    # -- the driver path --------------------------------------------------------------------

    @contextmanager
    def _queued(self) -> Iterator[None]:
        """Every SQLite write takes its turn in the writers' queue."""
        with self._sqlite_writer:
            yield
        if self._checkpointer is not None:
            self._checkpointer.wrote()

    @contextmanager
    def _driver_connection(self, write: bool) -> Iterator[Any]:
        block = NEVER_WAIT.get()
        never_wait = block is not None and (write or not block.committed)
        # In memory (no second list), the one connection's busy_timeout is set and restored.
        toggled = never_wait and self._never_waiting_connections is None
        kept = (
            self._never_waiting_connections
            if never_wait and self._never_waiting_connections is not None
            else self._connections
        )
        dbapi = self._take(kept)
        cursor = None
        healthy = True
        try:
            cursor = dbapi.cursor()
            if toggled:
                cursor.execute("PRAGMA busy_timeout=0")
            if write:
                cursor.execute("BEGIN IMMEDIATE")
            try:
                yield cursor
            except BaseException:
                if write:
                    cursor.execute("ROLLBACK")
                raise
            if write:
                cursor.execute("COMMIT")
                if block is not None:
                    block.committed = True
        except self._dbapi_error as error:
            # A failed write may leave its connection inside a transaction: never reuse it.
            healthy = not write
            code = getattr(error, "sqlite_errorcode", None)
            if never_wait and code is not None and code & 0xFF in _SQLITE_BUSY:
                # Refused the lock at once: outside any transaction, the connection is
                # sound (closing it made every try during another program's lock open,
                # and set up, a new one on the event loop).
                healthy = not dbapi.in_transaction
                raise WouldWait(f"the store is locked ({error})") from None
            failure = self._failed(error, dbapi, cursor)
            if failure.connection_invalidated:
                healthy = False
            raise failure from None
        finally:
            if cursor is not None:
                with contextlib.suppress(self._dbapi_error):
                    if toggled:
                        cursor.execute(f"PRAGMA busy_timeout={_BUSY_TIMEOUT_MS}")
                    cursor.close()
            self._release(kept, dbapi, healthy)

    # -- closing ----------------------------------------------------------------------------

    def _drop_kept(self) -> None:
        super()._drop_kept()
        if self._never_waiting_connections is not None:
            self._never_waiting_connections.drop_all()

    def dispose(self) -> None:
        """Close every pooled and kept connection, the writers' lock file and the
        checkpoint thread."""
        self._drop_kept()
        self._sqlite_writer.close()
        if self._checkpointer is not None:
            self._checkpointer.close()
        self.engine.dispose()
