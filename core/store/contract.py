"""The event store: SQLAlchemy Core over a SQLite file (default, WAL) or PostgreSQL.

The only module that talks SQL. A stream is an ordered, gapless sequence of records
starting at seq 1. `append(stream, records, expected_version)` is one transaction: the
stream's version row is moved from `expected_version` to the new version with a
compare-and-set, then the records are inserted; a stale version or a duplicate seq raises
`VersionConflict` and writes nothing. Records are opaque to the store: the engine encodes
events and computes the hash chain.

Opening a store creates its tables, safely: a SQLite file is created 0600 before SQLite
opens it (its -wal and -shm files take the same mode: they hold every seed and hidden
value); on PostgreSQL the tables are created under an advisory lock, so processes
starting together on a fresh database do not race. A database that already has tables but
not Skald's belongs to another program: the store refuses it rather than adding tables.
Every failure to open, read or write the database is a `StoreError` with one line.

Hot paths go through the driver: `append`, `read`, `read_folded` (only what a fold needs:
seq, payload, hash; no datetime parsing), `version` and the snapshot calls use DBAPI
connections directly, kept in a free list of their own (`core/driver_connections.py`),
because SQLAlchemy Core's statement compilation, result processing and even a pool
checkout cost more per move than the database itself. SQLAlchemy keeps the schema and
everything else. Driver errors are re-raised as SQLAlchemy's `DBAPIError` family, so the
edges map them as before; a dropped PostgreSQL connection is closed on the error (with
every kept one) instead of pinging the server at every checkout. PostgreSQL reads run in
autocommit (one round trip, no BEGIN/ROLLBACK around a single SELECT), and so does a
PostgreSQL append: one statement does the compare-and-set, the inserts and the NOTIFY.
SQLite writers queue on a lock and a lock file (`core/sqlite_writers.py`), and
`answers_at_once` tells the service when store work is brief enough to do on its event
loop. A SQLite file's write-ahead log is copied back into the database by a thread of its
own (`core/checkpoint.py`), not inside a commit.

Snapshots (`snapshots` table, see `core/snapshots.py`) sit beside the streams: a cache of
folded states keyed by stream, seq and the code version that folded them; never read by
the audit or the chain verification. So do viewers' information sets
(`knowledge_checkpoints`, see `projections/knowledge_store.py`), keyed also by viewer.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import msgspec
import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy.engine import Engine as SqlEngine
from sqlalchemy.exc import DBAPIError, IntegrityError

from skald.core.checkpoint import BACKSTOP_PAGES, WalCheckpointer
from skald.core.driver_connections import DriverConnections, close_quietly
from skald.core.errors import (
    AlreadyStored,
    CorruptRecord,
    NotFound,
    StoreError,
    VersionConflict,
    WouldWait,
)
from skald.core.sqlite_writers import NEVER_WAIT, NoWaiting, WriterQueue

metadata = sa.MetaData()

streams = sa.Table(
    "streams",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("kind", sa.String(64), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("title", sa.Text, nullable=False, default=""),
)

events = sa.Table(
    "events",
    metadata,
    sa.Column("stream_id", sa.String(64), sa.ForeignKey("streams.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("actor", sa.String(64), nullable=False),
    sa.Column("kind", sa.String(128), nullable=False),
    sa.Column("payload", sa.Text, nullable=False),
    sa.Column("prev_hash", sa.String(64), nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
)

# Bearer tokens of seats and referees, kept as SHA-256 hashes (core/access.py issues them).
seat_tokens = sa.Table(
    "seat_tokens",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("stream_id", sa.String(64), sa.ForeignKey("streams.id"), nullable=False, index=True),
    sa.Column("seat", sa.Integer, nullable=True),  # NULL: the referee
)

# Folded states every N events (core/snapshots.py): a cache beside the stream, keyed by the
# code version that folded them, checked against the chain hash at `seq` before use.
snapshots = sa.Table(
    "snapshots",
    metadata,
    sa.Column("stream_id", sa.String(64), sa.ForeignKey("streams.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("version_key", sa.String(128), primary_key=True),
    sa.Column("hash", sa.String(64), nullable=False),
    sa.Column("state", sa.LargeBinary, nullable=False),
)

# A viewer's information set folded up to `seq` (projections/knowledge_store.py): a cache
# like `snapshots`, one line of checkpoints per (stream, viewer), never read by the audit.
knowledge_checkpoints = sa.Table(
    "knowledge_checkpoints",
    metadata,
    sa.Column("stream_id", sa.String(64), sa.ForeignKey("streams.id"), primary_key=True),
    sa.Column("viewer", sa.String(64), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("version_key", sa.String(128), primary_key=True),
    sa.Column("hash", sa.String(64), nullable=False),
    sa.Column("state", sa.LargeBinary, nullable=False),
)

# The public keys that signed this store's receipts (core/signing.py): a store keeps one
# key, so a server started elsewhere never mints a second one and calls old receipts forged.
signing_keys = sa.Table(
    "signing_keys",
    metadata,
    sa.Column("public_key", sa.String(64), primary_key=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

# Where an imported stream came from (core/provenance.py): one JSON record a stream, written
# with the stream's first events and never changed (a partial copy's mark, a tournament
# head's signer).
provenance = sa.Table(
    "provenance",
    metadata,
    sa.Column("stream_id", sa.String(64), sa.ForeignKey("streams.id"), primary_key=True),
    sa.Column("record", sa.Text, nullable=False),
)

DEFAULT_URL = "sqlite:///skald.db"
MAX_SEQ = 2**31 - 1  # the seq column is a 32-bit integer on PostgreSQL
# Any constant: the key of the advisory lock held while creating tables.
SCHEMA_LOCK = 0x536B616C64
# PostgreSQL: every append notifies this channel with "stream:version" inside its own
# transaction, so listeners (core/feed.py) hear of it exactly when it commits.
NOTIFY_CHANNEL = "skald_events"


def no_such(stream: str) -> NotFound:
    """What asking for a stream the store does not hold says, in the words of what was
    asked for: a game, or a game's variation or notes (never a stream id)."""
    game, tilde, part = stream.partition("~")
    if tilde and part == "notes":
        return NotFound(f"there are no notes of game {game!r}")
    if tilde and part[:1] == "v" and part[1:].isdigit():
        return NotFound(f"there is no variation {part} of game {game!r}")
    return NotFound(f"there is no game {stream!r}")


class StoredRecord(msgspec.Struct, frozen=True, kw_only=True):
    """One row of a stream as the store keeps it."""

    stream: str
    seq: int
    recorded_at: datetime
    actor: str
    kind: str
    payload: str
    prev_hash: str
    hash: str


class FoldRow(msgspec.Struct, frozen=True, array_like=True):
    """What replay needs of one stored record: its seq, payload and chain hash."""

    seq: int
    payload: str
    hash: str


class StoredSnapshot(msgspec.Struct, frozen=True, kw_only=True):
    """A folded state as stored: at `seq`, whose chain hash was `hash`."""

    seq: int
    hash: str
    state: bytes


class StreamInfo(msgspec.Struct, frozen=True, kw_only=True):
    """A stream's header row."""

    id: str
    kind: str
    version: int
    created_at: datetime
    title: str = ""


def resolve_url(text: str) -> str:
    """The SQLAlchemy URL of a store named by a URL or by a SQLite file's path
    (`games.db`, `/srv/skald.db`); `postgres://` is taken as `postgresql://`. StoreError
    when nothing is named."""
    text = text.strip()
    if not text:
        raise StoreError("no event store named: give a SQLite file or a postgresql:// URL")
    if text.startswith("postgres://"):
        return "postgresql://" + text.removeprefix("postgres://")
    if "://" not in text and not text.startswith("sqlite:"):
        return f"sqlite:///{text}"
    return text


def shown_url(url: str) -> str:
    """A store URL fit to print: its password hidden (an unreadable URL: its scheme)."""
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except (sa.exc.ArgumentError, ValueError):
        return url.partition("://")[0] + "://..." if "://" in url else "(unreadable URL)"


def _no_password(error: BaseException, url: str) -> str:
    """`error`'s text, with the URL's password (if any) masked should it appear there."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    try:
        password = sa.engine.make_url(url).password
    except (sa.exc.ArgumentError, ValueError):
        head = url.partition("://")[2].rpartition("@")[0]
        password = head.partition(":")[2] if ":" in head else None
    if password:
        text = text.replace(str(password), "***")
    return text


def _header(
    stream: str, kind: Any, version: Any, created_at: Any, title: Any, moment: Any
) -> StreamInfo:
    """A stream's header row as a StreamInfo; CorruptRecord (seq 1, the header's seq in
    chain verification) naming the column a stored value of which cannot be read."""
    _check_version(stream, version)
    if not isinstance(kind, str):
        raise CorruptRecord(1, f"the stream header of {stream}: its kind {kind!r} is not text")
    if title is not None and not isinstance(title, str):
        raise CorruptRecord(1, f"the stream header of {stream}: its title {title!r} is not text")
    try:
        created = moment(created_at)
    except (ValueError, TypeError, OverflowError):
        raise CorruptRecord(
            1, f"the stream header of {stream}: its created_at {created_at!r} is not a time"
        ) from None
    return StreamInfo(id=stream, kind=kind, version=version, created_at=created, title=title or "")


def _check_version(stream: str, version: Any) -> None:
    """CorruptRecord (seq 1) unless a stream header's stored version is a whole number."""
    if type(version) is not int:
        raise CorruptRecord(
            1, f"the stream header of {stream}: its version {version!r} is not a whole number"
        )


def _bad_recorded_at(rows: Sequence[Any], moment: Any) -> CorruptRecord:
    """The first row (seq, recorded_at, ...) whose recorded_at cannot be read, as the error
    to raise (looked for only once converting the rows failed)."""
    for row in rows:
        try:
            moment(row[1])
        except (ValueError, TypeError, OverflowError):
            return CorruptRecord(row[0], f"its recorded_at {row[1]!r} is not a time")
    return CorruptRecord(rows[0][0] if rows else 1, "a stored value cannot be read")


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


def describe_db_error(error: BaseException) -> str:
    """One line for a database error (the driver's message, without SQL or traceback)."""
    original = getattr(error, "orig", None) or error
    text = str(original).strip().splitlines()
    return text[0] if text else type(original).__name__


# What a failed write says about the store, by the drivers' own codes: SQLite's result
# codes (SQLITE_READONLY 8, SQLITE_FULL 13, low byte of the extended code) and PostgreSQL's
# SQLSTATEs (25006 read_only_sql_transaction, 53100 disk_full), or an errno in the text.
_SQLITE_REFUSALS = {8: "read_only", 13: "full"}
_PG_REFUSALS = {"25006": "read_only", "53100": "full"}


def store_refusal(error: BaseException) -> str | None:
    """`read_only` or `full` when a database error says the store cannot take writes at
    all (a retry cannot help until someone changes that), else None (it may be passing)."""
    original = getattr(error, "orig", None) or error
    code = getattr(original, "sqlite_errorcode", None)
    if isinstance(code, int) and (code & 0xFF) in _SQLITE_REFUSALS:
        return _SQLITE_REFUSALS[code & 0xFF]
    state = getattr(original, "sqlstate", None)
    if state in _PG_REFUSALS:
        return _PG_REFUSALS[state]
    text = str(original)
    if "No space left on device" in text:
        return "full"
    if "Read-only file system" in text:
        return "read_only"
    return None


def _utc(moment: datetime) -> datetime:
    # Every backend hands back the same aware UTC value, so canonical bytes (and hashes)
    # do not depend on where the event was stored.
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _make_engine(url: str) -> SqlEngine:
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    if not url.startswith("sqlite"):
        # No pre-ping per checkout: a dropped connection fails one statement, is invalidated
        # there (EventStore._driver), and the pool reconnects.
        return sa.create_engine(url, pool_size=8, max_overflow=24)
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


_SQLITE_BUSY = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


_BUSY_TIMEOUT_MS = 30000


_RECORDS_JSON = msgspec.json.Encoder()


# A stream's header as stored: created_at as the driver gives it (SQLite: text), read by
# `_header`, so an unreadable value is a CorruptRecord, not an error inside SQLAlchemy.
_HEADER = sa.select(
    streams.c.id,
    streams.c.kind,
    streams.c.version,
    sa.type_coerce(streams.c.created_at, sa.String).label("created_at"),
    streams.c.title,
)


class _Stale(Exception):
    """The compare-and-set on a stream's version moved no row."""


def _stamp_sqlite(moment: datetime) -> str:
    # The text SQLAlchemy's SQLite DateTime stores (UTC fields, no offset): rows written by
    # either path read back alike.
    if moment.tzinfo is not UTC:
        moment = _utc(moment)
    return moment.replace(tzinfo=None).isoformat(" ", "microseconds")


def _stamp_postgres(moment: datetime) -> datetime:
    return _utc(moment)


def _parse_sqlite(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


class _Statements:
    """The SQL of the driver paths, in the driver's parameter style."""

    def __init__(self, postgres: bool) -> None:
        def sql(text: str) -> str:
            return text.replace("?", "%s") if postgres else text

        self.new_stream = sql(
            "INSERT INTO streams (id, kind, version, created_at, title) VALUES (?, ?, ?, ?, ?)"
        )
        self.advance = sql("UPDATE streams SET version = ? WHERE id = ? AND version = ?")
        insert_events = (
            "INSERT INTO events (stream_id, seq, recorded_at, actor, kind, payload, prev_hash,"
            " hash)"
        )
        # PostgreSQL appends in one statement (EventStore._append_postgres).
        # The records travel as one JSON text (encoded by msgspec): psycopg dumps arrays
        # element by element in Python, which cost 2.5 times the CPU of the whole append.
        inserted = (
            f" {insert_events} SELECT %s, (r->>0)::int, (r->>1)::timestamptz, r->>2, r->>3,"
            " r->>4, r->>5, r->>6 FROM json_array_elements(%s::json) AS r"
        )
        self.append_advance = (
            "WITH moved AS (UPDATE streams SET version = %s WHERE id = %s AND version = %s"
            " RETURNING id), added AS (" + inserted + " WHERE EXISTS (SELECT FROM moved)"
            " RETURNING 1) SELECT pg_notify(%s, %s) FROM moved"
        )
        self.append_new_stream = (
            "WITH made AS (INSERT INTO streams (id, kind, version, created_at, title)"
            " VALUES (%s, %s, %s, %s, %s) RETURNING id), added AS ("
            + inserted
            + " RETURNING 1) SELECT pg_notify(%s, %s) FROM made"
        )
        self.insert_events = sql(f"{insert_events} VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        self.version = sql("SELECT version FROM streams WHERE id = ?")
        # The streams whose ids start with a prefix (its length, the prefix): SQLite
        # compares text byte by byte, so a range on the key finds them through the index;
        # PostgreSQL's collation may order them otherwise, so it compares the start alone.
        self.versions_under = (
            "SELECT id, version FROM streams WHERE left(id, %s) = %s ORDER BY id"
            if postgres
            else "SELECT id, version FROM streams WHERE id >= ? AND id < ?"
            " AND substr(id, 1, ?) = ? ORDER BY id"
        )
        self.insert_provenance = sql("INSERT INTO provenance (stream_id, record) VALUES (?, ?)")
        self.provenance = sql("SELECT record FROM provenance WHERE stream_id = ?")
        self.read = sql(
            "SELECT seq, recorded_at, actor, kind, payload, prev_hash, hash FROM events"
            " WHERE stream_id = ? AND seq >= ? AND seq <= ? ORDER BY seq"
        )
        self.read_folded = sql(
            "SELECT seq, payload, hash FROM events"
            " WHERE stream_id = ? AND seq >= ? AND seq <= ? ORDER BY seq"
        )
        self.snapshot = sql(
            "SELECT seq, hash, state FROM snapshots WHERE stream_id = ? AND version_key = ?"
            " AND seq <= ? ORDER BY seq DESC LIMIT 1"
        )
        self.save_snapshot = sql(
            "INSERT INTO snapshots (stream_id, seq, version_key, hash, state)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
        )
        self.drop_stale_snapshots = sql(
            "DELETE FROM snapshots WHERE stream_id = ? AND version_key <> ?"
        )
        self.drop_snapshot = sql(
            "DELETE FROM snapshots WHERE stream_id = ? AND version_key = ? AND seq = ?"
        )
        self.knowledge = sql(
            "SELECT seq, hash, state FROM knowledge_checkpoints WHERE stream_id = ?"
            " AND viewer = ? AND version_key = ? AND seq <= ? ORDER BY seq DESC LIMIT 1"
        )
        self.knowledge_hash = sql(
            "SELECT hash FROM knowledge_checkpoints WHERE stream_id = ? AND viewer = ?"
            " AND version_key = ? AND seq = ?"
        )
        self.save_knowledge = sql(
            "INSERT INTO knowledge_checkpoints (stream_id, viewer, seq, version_key, hash,"
            " state) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
        )
        self.drop_stale_knowledge = sql(
            "DELETE FROM knowledge_checkpoints WHERE stream_id = ? AND viewer = ?"
            " AND version_key <> ?"
        )
        self.drop_knowledge = sql(
            "DELETE FROM knowledge_checkpoints WHERE stream_id = ? AND viewer = ?"
            " AND version_key = ? AND seq = ?"
        )


class EventStore:
    """Streams of records in one SQL database."""

    def __init__(self, url: str = DEFAULT_URL) -> None:
        url = self.url = resolve_url(url)
        path = sqlite_path(url)
        if path is not None:
            if os.path.isdir(path):
                raise StoreError(f"cannot open the event store {path}: it is a directory")
            _create_private(path)
        try:
            self.engine = _make_engine(url)
        except (sa.exc.ArgumentError, ValueError, ImportError) as error:
            # ValueError: a URL SQLAlchemy parses but cannot use (a port that is not a
            # number, an unclosed [IPv6 address]); its text is masked all the same.
            raise StoreError(
                f"cannot open the event store at {shown_url(url)}: {_no_password(error, url)}"
                " (give a SQLite "
                "file, sqlite:///FILE or postgresql://USER@HOST/DB)"
            ) from None
        self._writer = self.engine.execution_options(skald_write=True)
        self._postgres = self.engine.dialect.name == "postgresql"
        self._sqlite_writer = WriterQueue(path)
        self._checkpointer = None if path is None else WalCheckpointer(path, self._sqlite_writer)
        if self._checkpointer is not None:
            weakref.finalize(self, self._checkpointer.close)
        # An in-memory SQLite database lives in its one pooled connection: it is borrowed.
        on_file = self.engine.dialect.name != "sqlite" or path is not None
        self._connections = DriverConnections(self.engine, keep=32, on_file=on_file)
        # SQLite work on an event loop (`never_waiting`) takes connections that never wait
        # for a lock: setting busy_timeout there and back cost two statements a request.
        self._never_waiting_connections = (
            DriverConnections(self.engine, keep=8, setting="PRAGMA busy_timeout=0")
            if path is not None
            else None
        )
        self._dbapi_error: type[Exception] = self.engine.dialect.loaded_dbapi.Error
        self._sql = _Statements(postgres=self._postgres)
        self._stamp = _stamp_postgres if self._postgres else _stamp_sqlite
        self._moment = _utc if self._postgres else _parse_sqlite
        self._without_provenance = False
        self._without_knowledge = False
        self.create_tables()

    def create_tables(self, tables: Sequence[sa.Table] | None = None) -> None:
        """Create the missing tables (all of `metadata`, or `tables`), refusing a database
        that holds another program's tables; StoreError when the database is unusable.

        A store written before the provenance or the knowledge table, opened where it
        cannot be written (a read-only copy of evidence), is read without them: none of its
        streams was imported with a provenance record, and it keeps no information sets."""
        try:
            self._create_tables(tables)
        except StoreError:
            missing = self._older_read_only()
            if missing is None:
                raise
            self._without_provenance = provenance.name in missing
            self._without_knowledge = knowledge_checkpoints.name in missing

    def _older_read_only(self) -> set[str] | None:
        """The tables this store lacks, if they are only those a later version added (which
        it could not create: it takes no writes); None when it lacks more."""
        try:
            with self.engine.connect() as conn:
                names = set(sa.inspect(conn).get_table_names())
        except DBAPIError:
            return None
        later = {provenance.name, knowledge_checkpoints.name}
        missing = set(metadata.tables) - names
        return missing if missing and missing <= later else None

    def _create_tables(self, tables: Sequence[sa.Table] | None) -> None:
        try:
            with self.engine.begin() as conn:
                if conn.dialect.name == "postgresql":
                    # Held to the end of this transaction: concurrent starters queue here.
                    conn.execute(sa.select(sa.func.pg_advisory_xact_lock(SCHEMA_LOCK)))
                self._refuse_foreign(conn)
                metadata.create_all(conn, tables=tables)
        except DBAPIError as error:
            raise StoreError(
                f"cannot open the event store at {self._shown_url()}: {describe_db_error(error)}"
            ) from None

    def _refuse_foreign(self, conn: sa.Connection) -> None:
        inspector = sa.inspect(conn)
        names = set(inspector.get_table_names())
        if not names:
            return
        if "streams" in names:
            columns = {column["name"] for column in inspector.get_columns("streams")}
            if {"id", "kind", "version", "created_at"} <= columns:
                return
        shown = ", ".join(sorted(names)[:5]) + (", ..." if len(names) > 5 else "")
        raise StoreError(
            f"{self._shown_url()} is another program's database (tables: "
            f"{shown}); Skald will not add its tables to it"
        )

    def _shown_url(self) -> str:
        return shown_url(self.url)

    def add_tokens(self, stream: str, hashes: Sequence[tuple[str, int | None]]) -> None:
        """Store token hashes for `stream`, each with the seat it speaks for (None: referee)."""
        rows = [
            {"token_hash": digest, "stream_id": stream, "seat": seat} for digest, seat in hashes
        ]
        with self._queued(), self._writer.begin() as conn:
            conn.execute(seat_tokens.insert(), rows)

    def token(self, digest: str) -> tuple[str, int | None] | None:
        """The stream and seat of a token hash, or None when no game issued it."""
        query = sa.select(seat_tokens.c.stream_id, seat_tokens.c.seat).where(
            seat_tokens.c.token_hash == digest
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None else (row.stream_id, row.seat)

    def signing_keys(self) -> list[str]:
        """The public keys (hex) that sign this store's receipts, oldest first."""
        query = sa.select(signing_keys.c.public_key).order_by(signing_keys.c.created_at)
        with self.engine.connect() as conn:
            return [row.public_key for row in conn.execute(query)]

    def record_signing_key(self, public_key: str) -> list[str]:
        """Record `public_key` as this store's signing key unless one is recorded already;
        return the recorded keys (the first writer wins when processes start together)."""
        with self._queued(), self._writer.begin() as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(sa.select(sa.func.pg_advisory_xact_lock(SCHEMA_LOCK + 1)))
            found = [row.public_key for row in conn.execute(sa.select(signing_keys.c.public_key))]
            if not found:
                conn.execute(
                    signing_keys.insert().values(
                        public_key=public_key, created_at=datetime.now(UTC)
                    )
                )
                found = [public_key]
        return found

    @contextmanager
    def never_waiting(self) -> Iterator[NoWaiting]:
        """A block for work on an event loop: until a write commits in it, no SQLite
        statement or writer waits for a lock, it raises `WouldWait` instead, and nothing
        was written (see `NoWaiting`; the block says whether anything committed)."""
        block = NoWaiting()
        token = NEVER_WAIT.set(block)
        try:
            yield block
        finally:
            NEVER_WAIT.reset(token)

    def answers_at_once(self) -> bool:
        """Whether a read or an append here is brief enough to run without a thread of its
        own: a SQLite store (a local file: no round trips; WAL readers never wait) whose
        writers' queue is free at this moment. Never on PostgreSQL, where every statement
        waits for the server."""
        return not self._postgres and not self._sqlite_writer.busy()

    @property
    def dialect(self) -> str:
        """`sqlite` or `postgresql`."""
        return self.engine.dialect.name

    def append(
        self,
        stream: str,
        records: Sequence[StoredRecord],
        expected_version: int,
        kind: str = "",
        title: str = "",
        provenance: str = "",
    ) -> int:
        """Append `records` (seqs expected_version+1 ...) atomically; return the new version.

        `provenance` (a new stream only): its provenance record, written in the same
        transaction (`core/provenance.py`)."""
        if provenance and expected_version != 0:
            raise ValueError("a provenance record is written with a stream's first events")
        if not records:
            raise ValueError("append needs at least one record")
        new_version = expected_version + len(records)
        rows: list[tuple[Any, ...]] = []
        moment, stamp = None, None  # a decision's records share one moment: stamped once
        for seq, r in enumerate(records, expected_version + 1):
            if r.seq != seq or r.stream != stream:
                expected_seqs = list(range(expected_version + 1, new_version + 1))
                raise ValueError(f"records must be seqs {expected_seqs} of stream {stream!r}")
            if r.recorded_at is not moment:
                moment, stamp = r.recorded_at, self._stamp(r.recorded_at)
            rows.append((stream, seq, stamp, r.actor, r.kind, r.payload, r.prev_hash, r.hash))
        try:
            if provenance:
                self._append_new_with_provenance(stream, kind, title, rows, provenance)
            elif self._postgres:
                self._append_postgres(stream, kind, title, expected_version, rows)
            else:
                self._append_sqlite(stream, kind, title, expected_version, rows)
        except (IntegrityError, _Stale):
            raise self._conflict(stream, expected_version) from None
        return new_version

    def _append_sqlite(
        self, stream: str, kind: str, title: str, expected: int, rows: list[tuple[Any, ...]]
    ) -> None:
        """SQLite: one transaction under the writers' queue; the compare-and-set's rowcount
        says whether the version moved."""
        new_version = expected + len(rows)
        with self._driver(write=True) as cursor:
            if expected == 0:
                cursor.execute(self._sql.new_stream, (stream, kind, new_version, rows[0][2], title))
            else:
                cursor.execute(self._sql.advance, (new_version, stream, expected))
                if cursor.rowcount != 1:
                    raise _Stale
            cursor.executemany(self._sql.insert_events, rows)

    def _append_new_with_provenance(
        self, stream: str, kind: str, title: str, rows: list[tuple[Any, ...]], record: str
    ) -> None:
        """A new stream, its records and its provenance record in one transaction."""
        with self._driver(write=True) as cursor:
            cursor.execute(self._sql.new_stream, (stream, kind, len(rows), rows[0][2], title))
            cursor.executemany(self._sql.insert_events, rows)
            cursor.execute(self._sql.insert_provenance, (stream, record))
            if self._postgres:
                cursor.execute(
                    "SELECT pg_notify(%s, %s)", (NOTIFY_CHANNEL, f"{stream}:{len(rows)}")
                )

    def provenance(self, stream: str) -> str | None:
        """The stream's provenance record as stored (None: it has none)."""
        if "\x00" in stream or self._without_provenance:
            return None
        rows = self._query(self._sql.provenance, (stream,))
        return rows[0][0] if rows else None

    def _append_postgres(
        self, stream: str, kind: str, title: str, expected: int, rows: list[tuple[Any, ...]]
    ) -> None:
        """PostgreSQL: the whole append is one statement in autocommit (one round trip, no
        BEGIN/COMMIT): the compare-and-set (or the new stream's row), the inserts of every
        record (one JSON text, set out as rows) only if it moved a row, and the
        notification with them. A stale version moves no row, so nothing is inserted and
        no row comes back."""
        new_version = expected + len(rows)
        # Each row without its stream, as a JSON array (the stream is one parameter).
        records = _RECORDS_JSON.encode([row[1:] for row in rows]).decode()
        notice = (NOTIFY_CHANNEL, f"{stream}:{new_version}")
        if expected == 0:
            sql = self._sql.append_new_stream
            params: tuple[Any, ...] = (
                stream,
                kind,
                new_version,
                rows[0][2],
                title,
                stream,
                records,
                *notice,
            )
        else:
            sql = self._sql.append_advance
            params = (new_version, stream, expected, stream, records, *notice)
        with self._driver() as cursor:  # autocommit: the statement is its own transaction
            cursor.execute(sql, params)
            if not cursor.fetchall():
                raise _Stale

    @contextmanager
    def _queued(self) -> Iterator[None]:
        """Every SQLite write takes its turn in the writers' queue (PostgreSQL: no queue)."""
        if self._postgres:
            yield
            return
        with self._sqlite_writer:
            yield
        if self._checkpointer is not None:
            self._checkpointer.wrote()

    @contextmanager
    def _driver(self, write: bool = False) -> Iterator[Any]:
        """A DBAPI cursor on a kept connection: one transaction when `write` (committed on
        success, rolled back on any error; SQLite writers take their turn in the queue
        first), autocommit reads otherwise. Driver errors come out as SQLAlchemy's
        DBAPIError family; a dropped connection is closed with every kept one."""
        with (
            self._queued() if write else contextlib.nullcontext(),
            self._driver_connection(write) as cursor,
        ):
            yield cursor

    @contextmanager
    def _driver_connection(self, write: bool) -> Iterator[Any]:
        block = None if self._postgres else NEVER_WAIT.get()
        never_wait = block is not None and (write or not block.committed)
        # In memory (no second list), the one connection's busy_timeout is set and restored.
        toggled = never_wait and self._never_waiting_connections is None
        kept = (
            self._never_waiting_connections
            if never_wait and self._never_waiting_connections is not None
            else self._connections
        )
        try:
            dbapi = kept.take()
        except self._dbapi_error as error:  # the pool hands out the driver's own error
            raise DBAPIError.instance(
                None, None, error, self._dbapi_error, dialect=self.engine.dialect
            ) from None
        cursor = None
        healthy = True
        try:
            if self._postgres:
                dbapi.autocommit = not write
            cursor = dbapi.cursor()
            if toggled:
                cursor.execute("PRAGMA busy_timeout=0")
            if write and not self._postgres:
                cursor.execute("BEGIN IMMEDIATE")
            try:
                yield cursor
            except BaseException:
                if write:
                    self._finish(dbapi, cursor, "ROLLBACK")
                raise
            if write:
                self._finish(dbapi, cursor, "COMMIT")
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
            disconnected = self.engine.dialect.is_disconnect(error, dbapi, cursor)  # type: ignore[arg-type]
            if disconnected:
                healthy = False
                # Every kept connection predates the failure: drop them all at once.
                self._drop_kept()
                self.engine.pool.dispose()
            raise DBAPIError.instance(
                None,
                None,
                error,
                self._dbapi_error,
                connection_invalidated=disconnected,
                dialect=self.engine.dialect,
            ) from None
        finally:
            if cursor is not None:
                with contextlib.suppress(self._dbapi_error):
                    if toggled:
                        cursor.execute(f"PRAGMA busy_timeout={_BUSY_TIMEOUT_MS}")
                    cursor.close()
            if healthy and not getattr(dbapi, "closed", False):
                kept.give(dbapi)
            else:
                close_quietly(dbapi)

    def _query(self, sql: str, params: tuple[Any, ...]) -> list[Any]:
        """The rows of one read; a read that met a dropped connection (a server restart,
        terminated backends) is retried once on a fresh one, as pre-ping would have."""
        for attempt in (1, 2):
            try:
                with self._driver() as cursor:
                    cursor.execute(sql, params)
                    return list(cursor.fetchall())
            except DBAPIError as error:
                if attempt == 2 or not error.connection_invalidated:
                    raise
        raise AssertionError("unreachable")

    def _finish(self, dbapi: Any, cursor: Any, verb: str) -> None:
        if self._postgres:
            dbapi.commit() if verb == "COMMIT" else dbapi.rollback()
        else:
            cursor.execute(verb)

    def _conflict(self, stream: str, expected: int) -> VersionConflict:
        current = self.version(stream)
        return VersionConflict(
            f"stream {stream} is at version {current}, not {expected}; reload and try again",
            current,
        )

    def version(self, stream: str) -> int:
        """The stream's last seq, 0 when it does not exist (one primary-key lookup)."""
        if "\x00" in stream:  # PostgreSQL refuses NUL in text; no stream has one
            return 0
        rows = self._query(self._sql.version, (stream,))
        if not rows:
            return 0
        version: int = rows[0][0]
        _check_version(stream, version)
        return version

    def versions_under(self, prefix: str) -> tuple[tuple[str, int], ...]:
        """The id and last seq of every stream whose id starts with `prefix` (non-empty), in
        id order: one indexed read (a game's notes and variations: `GAME~`)."""
        if not prefix or "\x00" in prefix:
            return ()
        if self._postgres:
            params: tuple[Any, ...] = (len(prefix), prefix)
        else:
            params = (prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1), len(prefix), prefix)
        return tuple((row[0], row[1]) for row in self._query(self._sql.versions_under, params))

    def _bounds(self, stream: str, from_seq: int, to_seq: int | None) -> tuple[int, int] | None:
        # Bounds beyond the seq column's range select nothing or everything, never an error.
        if from_seq > MAX_SEQ or (to_seq is not None and to_seq < 1) or "\x00" in stream:
            return None
        return max(from_seq, 1), MAX_SEQ if to_seq is None else min(to_seq, MAX_SEQ)

    def read(self, stream: str, from_seq: int = 1, to_seq: int | None = None) -> list[StoredRecord]:
        """Records with from_seq <= seq <= to_seq, in order."""
        bounds = self._bounds(stream, from_seq, to_seq)
        if bounds is None:
            return []
        rows = self._query(self._sql.read, (stream, *bounds))
        moment = self._moment
        try:
            return [
                StoredRecord(
                    stream=stream,
                    seq=seq,
                    recorded_at=moment(recorded_at),
                    actor=actor,
                    kind=kind,
                    payload=payload,
                    prev_hash=prev_hash,
                    hash=digest,
                )
                for seq, recorded_at, actor, kind, payload, prev_hash, digest in rows
            ]
        except (ValueError, TypeError, OverflowError):
            # Only now is each row looked at: the first unreadable recorded_at is named.
            raise _bad_recorded_at(rows, moment) from None

    def read_folded(
        self, stream: str, from_seq: int = 1, to_seq: int | None = None
    ) -> list[FoldRow]:
        """What replay folds of the records from_seq..to_seq: seq, payload and hash only."""
        bounds = self._bounds(stream, from_seq, to_seq)
        if bounds is None:
            return []
        rows = self._query(self._sql.read_folded, (stream, *bounds))
        return [FoldRow(seq, payload, digest) for seq, payload, digest in rows]

    # -- snapshots (a cache; core/snapshots.py decides what goes in) ------------------------

    def snapshot(
        self, stream: str, version_key: str, at: int | None = None
    ) -> StoredSnapshot | None:
        """The latest snapshot of `stream` at or before seq `at` folded by `version_key`."""
        if "\x00" in stream:
            return None
        rows = self._query(self._sql.snapshot, (stream, version_key, min(at or MAX_SEQ, MAX_SEQ)))
        if not rows:
            return None
        seq, digest, state = rows[0]
        return StoredSnapshot(seq=seq, hash=digest, state=bytes(state))

    def save_snapshot(
        self, stream: str, version_key: str, seq: int, digest: str, state: bytes
    ) -> None:
        """Keep a snapshot (a second one of the same seq and version is ignored), and drop
        the stream's snapshots folded by any other code version."""
        with self._driver(write=True) as cursor:
            cursor.execute(self._sql.drop_stale_snapshots, (stream, version_key))
            cursor.execute(self._sql.save_snapshot, (stream, seq, version_key, digest, state))

    def drop_snapshot(self, stream: str, version_key: str, seq: int) -> None:
        """Forget one snapshot (it did not match the chain)."""
        with self._driver(write=True) as cursor:
            cursor.execute(self._sql.drop_snapshot, (stream, version_key, seq))

    # -- information sets (a cache; projections/knowledge_store.py decides what goes in) --

    def knowledge_checkpoint(
        self, stream: str, viewer: str, version_key: str, at: int
    ) -> StoredSnapshot | None:
        """The latest information set of `viewer` in `stream` at or before seq `at`."""
        if "\x00" in stream or self._without_knowledge:
            return None
        params = (stream, viewer, version_key, min(at, MAX_SEQ))
        rows = self._query(self._sql.knowledge, params)
        if not rows:
            return None
        seq, digest, state = rows[0]
        return StoredSnapshot(seq=seq, hash=digest, state=bytes(state))

    def knowledge_checkpoint_hash(
        self, stream: str, viewer: str, version_key: str, seq: int
    ) -> str | None:
        """The chain hash of `viewer`'s information set stored at exactly `seq`, if any (a
        writer asks before it makes one the store already holds)."""
        if "\x00" in stream or self._without_knowledge or not 0 <= seq <= MAX_SEQ:
            return None
        rows = self._query(self._sql.knowledge_hash, (stream, viewer, version_key, seq))
        return str(rows[0][0]) if rows else None

    def save_knowledge_checkpoint(
        self, stream: str, viewer: str, version_key: str, seq: int, digest: str, state: bytes
    ) -> None:
        """Keep an information set (a second one of the same seq and version is ignored),
        and drop the viewer's ones folded by any other code version."""
        if self._without_knowledge:
            return
        with self._driver(write=True) as cursor:
            cursor.execute(self._sql.drop_stale_knowledge, (stream, viewer, version_key))
            cursor.execute(
                self._sql.save_knowledge, (stream, viewer, seq, version_key, digest, state)
            )

    def drop_knowledge_checkpoint(
        self, stream: str, viewer: str, version_key: str, seq: int
    ) -> None:
        """Forget one information set (it did not match the chain, or did not decode)."""
        if self._without_knowledge:
            return
        with self._driver(write=True) as cursor:
            cursor.execute(self._sql.drop_knowledge, (stream, viewer, version_key, seq))

    def info(self, stream: str) -> StreamInfo:
        """The stream's header; NotFound when it does not exist."""
        if "\x00" in stream:  # PostgreSQL refuses NUL in text; no stream has one
            raise no_such(stream)
        with self.engine.connect() as conn:
            row = conn.execute(_HEADER.where(streams.c.id == stream)).first()
        if row is None:
            raise no_such(stream)
        return _header(row[0], row[1], row[2], row[3], row[4], self._moment)

    def list_streams(
        self,
        kind: str | None = None,
        limit: int = 50,
        offset: int = 0,
        kinds: Sequence[str] | None = None,
        without_like: str | None = None,
    ) -> list[StreamInfo]:
        """Stream headers, newest first (`kind`: only that kind; `kinds`: only these;
        `without_like`: not the ids matching this SQL LIKE pattern)."""
        query = _HEADER.order_by(streams.c.created_at.desc(), streams.c.id)
        if without_like is not None:
            query = query.where(streams.c.id.not_like(without_like))
        if kind is not None:
            query = query.where(streams.c.kind == kind)
        if kinds is not None:
            query = query.where(streams.c.kind.in_(list(kinds)))
        with self.engine.connect() as conn:
            rows = conn.execute(query.limit(limit).offset(offset)).all()
        moment = self._moment
        return [_header(r[0], r[1], r[2], r[3], r[4], moment) for r in rows]

    def _drop_kept(self) -> None:
        self._connections.drop_all()
        if self._never_waiting_connections is not None:
            self._never_waiting_connections.drop_all()

    def dispose(self) -> None:
        """Close every pooled and kept connection."""
        self._drop_kept()
        self._sqlite_writer.close()
        if self._checkpointer is not None:
            self._checkpointer.close()
        self.engine.dispose()


def copy_streams(
    source: EventStore, target: EventStore, marked: dict[str, str] | None = None
) -> None:
    """Copy every stream of `source` (a scratch store an import played into) into
    `target`, games first (their notes and variations name them), each with its
    provenance record (`source`'s, or the one `marked` gives). A stream `target` holds
    already is refused (IllegalMove) before anything is copied."""
    infos = sorted(
        source.list_streams(limit=1_000_000), key=lambda i: (i.kind.startswith("skald."), i.id)
    )
    for info in infos:
        if target.version(info.id):
            raise AlreadyStored(f"{info.id} is already in the store; nothing was imported")
    for info in infos:
        target.append(
            info.id,
            source.read(info.id),
            0,
            kind=info.kind,
            title=info.title,
            provenance=(marked or {}).get(info.id) or source.provenance(info.id) or "",
        )
