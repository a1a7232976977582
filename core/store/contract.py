"""The event store's contract: `EventStore`, what every backend is, and the part of it
they share.

A stream is an ordered, gapless sequence of records starting at seq 1. `append(stream,
records, expected_version)` is one transaction: the stream's version row is moved from
`expected_version` to the new version with a compare-and-set, then the records are
inserted; a stale version or a duplicate seq raises `VersionConflict` and writes nothing.
Records are opaque to the store: the engine encodes events and computes the hash chain.

Opening a store creates its tables. A database that already has tables but not Skald's
belongs to another program: the store refuses it rather than adding tables. Every failure
to open, read or write the database is a `StoreError` with one line.

`EventStore(url)` opens the backend the URL names: `SqliteStore` (sqlite.py, the default)
or `PostgresStore` (postgres.py), each a subclass registered by its `backend=` name. This
module holds what they share, in terms of the hooks each supplies (listed first in the
class, and in `StoreBase`, `SigningKeys` and `Caches`); the seat tokens, signing keys and
caches are parts of every store (tokens.py, keys.py, caches.py).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine as SqlEngine
from sqlalchemy.exc import DBAPIError, IntegrityError

from skald.core.driver_connections import DriverConnections
from skald.core.errors import StoreError, VersionConflict
from skald.core.sqlite_writers import NEVER_WAIT, NoWaiting
from skald.core.store.caches import Caches
from skald.core.store.failures import describe_db_error
from skald.core.store.keys import SigningKeys
from skald.core.store.records import (
    FoldRow,
    StoredRecord,
    StreamInfo,
    bad_recorded_at,
    check_version,
    header,
    no_such,
)
from skald.core.store.schema import (
    MAX_SEQ,
    knowledge_checkpoints,
    metadata,
    provenance,
    streams,
)
from skald.core.store.tokens import SeatTokens
from skald.core.store.urls import DEFAULT_URL, resolve_url, shown_url, without_password

# The events' columns, as every append inserts them.
INSERT_EVENTS = (
    "INSERT INTO events (stream_id, seq, recorded_at, actor, kind, payload, prev_hash, hash)"
)


class StreamSql:
    """The SQL of the streams' driver paths both backends run, in a backend's parameter
    style (`mark`: `?` or `%s`)."""

    def __init__(self, mark: str) -> None:
        def sql(text: str) -> str:
            return text.replace("?", mark)

        self.new_stream = sql(
            "INSERT INTO streams (id, kind, version, created_at, title) VALUES (?, ?, ?, ?, ?)"
        )
        self.insert_events = sql(f"{INSERT_EVENTS} VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        self.version = sql("SELECT version FROM streams WHERE id = ?")
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


class StaleVersion(Exception):
    """A backend's append: the compare-and-set on the stream's version moved no row."""


# A stream's header as stored: created_at as the driver gives it (SQLite: text), read by
# `header`, so an unreadable value is a CorruptRecord, not an error inside SQLAlchemy.
_HEADER = sa.select(
    streams.c.id,
    streams.c.kind,
    streams.c.version,
    sa.type_coerce(streams.c.created_at, sa.String).label("created_at"),
    streams.c.title,
)

# The backends by name (`class SqliteStore(EventStore, backend="sqlite")`).
_BACKENDS: dict[str, type[EventStore]] = {}


class EventStore(SeatTokens, SigningKeys, Caches):
    """Streams of records in one SQL database. `EventStore(url)` is a store of the backend
    `url` names: SQLite (a file's path, `sqlite:...`) or else PostgreSQL."""

    _sql: StreamSql
    # False: an in-memory database, which lives in its one pooled connection (the kept
    # connections borrow it).
    _on_file = True

    def __init_subclass__(cls, backend: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if backend:
            _BACKENDS[backend] = cls

    def __new__(cls, url: str = DEFAULT_URL) -> EventStore:
        if cls is EventStore:
            cls = _BACKENDS["sqlite" if resolve_url(url).startswith("sqlite") else "postgresql"]
        return super().__new__(cls)

    def __init__(self, url: str = DEFAULT_URL) -> None:
        url = self.url = resolve_url(url)
        try:
            self.engine = self._make_engine(url)
        except (sa.exc.ArgumentError, ValueError, ImportError) as error:
            # ValueError: a URL SQLAlchemy parses but cannot use (a port that is not a
            # number, an unclosed [IPv6 address]); its text is masked all the same.
            raise StoreError(
                f"cannot open the event store at {shown_url(url)}: {without_password(error, url)}"
                " (give a SQLite "
                "file, sqlite:///FILE or postgresql://USER@HOST/DB)"
            ) from None
        self._writer = self.engine.execution_options(skald_write=True)
        self._connections = DriverConnections(self.engine, keep=32, on_file=self._on_file)
        self._dbapi_error = self.engine.dialect.loaded_dbapi.Error
        self._without_provenance = False
        self._without_knowledge = False
        self.create_tables()

    # -- what each backend provides (besides StoreBase's, SigningKeys' and Caches') ----------

    def _make_engine(self, url: str) -> SqlEngine:
        """The SQLAlchemy engine of `url` (resolved), set up for this backend."""
        raise NotImplementedError

    def _lock_schema(self, conn: sa.Connection) -> None:
        """Inside the transaction that creates the tables: make stores opening together on
        a fresh database take their turns."""
        raise NotImplementedError

    @staticmethod
    def _stamp(moment: datetime) -> Any:
        """A record's moment as this backend stores it."""
        raise NotImplementedError

    @staticmethod
    def _moment(stored: Any) -> datetime:
        """A stored moment (recorded_at, created_at) as the aware UTC value it was."""
        raise NotImplementedError

    def _append_rows(
        self, stream: str, kind: str, title: str, expected: int, rows: list[tuple[Any, ...]]
    ) -> None:
        """Write `rows` (each as `StreamSql.insert_events` takes it) after the stream's
        version moved from `expected` (0: a new stream, `kind` and `title`), in one
        transaction; StaleVersion (or IntegrityError) when it did not."""
        raise NotImplementedError

    def _append_new_with_provenance(
        self, stream: str, kind: str, title: str, rows: list[tuple[Any, ...]], record: str
    ) -> None:
        """A new stream, its records and its provenance record in one transaction."""
        raise NotImplementedError

    def _prefix_query(self, prefix: str) -> tuple[str, tuple[Any, ...]]:
        """The SQL and parameters of `versions_under(prefix)`: (id, version) in id order."""
        raise NotImplementedError

    def answers_at_once(self) -> bool:
        """Whether a read or an append here is brief enough to run without a thread of its
        own (on the service's event loop) at this moment."""
        raise NotImplementedError

    # -- opening ----------------------------------------------------------------------------

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
                self._lock_schema(conn)
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

    # -- work on an event loop --------------------------------------------------------------

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

    @property
    def dialect(self) -> str:
        """`sqlite` or `postgresql`."""
        return self.engine.dialect.name

    # -- streams ----------------------------------------------------------------------------

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
            else:
                self._append_rows(stream, kind, title, expected_version, rows)
        except (IntegrityError, StaleVersion):
            raise self._conflict(stream, expected_version) from None
        return new_version

    def provenance(self, stream: str) -> str | None:
        """The stream's provenance record as stored (None: it has none)."""
        if "\x00" in stream or self._without_provenance:
            return None
        rows = self._query(self._sql.provenance, (stream,))
        return rows[0][0] if rows else None

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
        check_version(stream, version)
        return version

    def versions_under(self, prefix: str) -> tuple[tuple[str, int], ...]:
        """The id and last seq of every stream whose id starts with `prefix` (non-empty), in
        id order: one indexed read (a game's notes and variations: `GAME~`)."""
        if not prefix or "\x00" in prefix:
            return ()
        sql, params = self._prefix_query(prefix)
        return tuple((row[0], row[1]) for row in self._query(sql, params))

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
            raise bad_recorded_at(rows, moment) from None

    def read_folded(
        self, stream: str, from_seq: int = 1, to_seq: int | None = None
    ) -> list[FoldRow]:
        """What replay folds of the records from_seq..to_seq: seq, payload and hash only."""
        bounds = self._bounds(stream, from_seq, to_seq)
        if bounds is None:
            return []
        rows = self._query(self._sql.read_folded, (stream, *bounds))
        return [FoldRow(seq, payload, digest) for seq, payload, digest in rows]

    def info(self, stream: str) -> StreamInfo:
        """The stream's header; NotFound when it does not exist."""
        if "\x00" in stream:  # PostgreSQL refuses NUL in text; no stream has one
            raise no_such(stream)
        with self.engine.connect() as conn:
            row = conn.execute(_HEADER.where(streams.c.id == stream)).first()
        if row is None:
            raise no_such(stream)
        return header(row[0], row[1], row[2], row[3], row[4], self._moment)

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
        return [header(r[0], r[1], r[2], r[3], r[4], moment) for r in rows]

    # -- closing ----------------------------------------------------------------------------

    def dispose(self) -> None:
        """Close every pooled and kept connection."""
        self._drop_kept()
        self.engine.dispose()
