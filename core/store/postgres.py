"""The PostgreSQL backend: `PostgresStore`, a store in a PostgreSQL database (through
psycopg; `pip install skald-gamelog[postgres]`).

Reads run in autocommit (one round trip, no BEGIN/ROLLBACK around a single SELECT), and so
does an append: one statement does the compare-and-set, the inserts and the NOTIFY on
`NOTIFY_CHANNEL`, which listeners (core/feed.py) hear exactly when the append commits.
Tables are created under an advisory lock, so processes starting together on a fresh
database do not race; recording the signing key takes one of its own. Every statement
waits for the server, so store work never runs on the service's event loop
(`answers_at_once` is False). A dropped connection fails one statement and is closed
there, with every kept one; the pool reconnects (no pre-ping per checkout).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import msgspec
import sqlalchemy as sa
from sqlalchemy.engine import Engine as SqlEngine

from skald.core.store.caches import CacheSql
from skald.core.store.contract import INSERT_EVENTS, EventStore, StaleVersion, StreamSql
from skald.core.store.records import utc

# Any constant: the key of the advisory lock held while creating tables.
SCHEMA_LOCK = 0x536B616C64
# PostgreSQL: every append notifies this channel with "stream:version" inside its own
# transaction, so listeners (core/feed.py) hear of it exactly when it commits.
NOTIFY_CHANNEL = "skald_events"

_RECORDS_JSON = msgspec.json.Encoder()

# An append in one statement (`PostgresStore._append_rows`). The records travel as one
# JSON text (encoded by msgspec): psycopg dumps arrays element by element in Python, which
# cost 2.5 times the CPU of the whole append.
_INSERTED = (
    f" {INSERT_EVENTS} SELECT %s, (r->>0)::int, (r->>1)::timestamptz, r->>2, r->>3,"
    " r->>4, r->>5, r->>6 FROM json_array_elements(%s::json) AS r"
)
_APPEND_ADVANCE = (
    "WITH moved AS (UPDATE streams SET version = %s WHERE id = %s AND version = %s"
    " RETURNING id), added AS (" + _INSERTED + " WHERE EXISTS (SELECT FROM moved)"
    " RETURNING 1) SELECT pg_notify(%s, %s) FROM moved"
)
_APPEND_NEW_STREAM = (
    "WITH made AS (INSERT INTO streams (id, kind, version, created_at, title)"
    " VALUES (%s, %s, %s, %s, %s) RETURNING id), added AS ("
    + _INSERTED
    + " RETURNING 1) SELECT pg_notify(%s, %s) FROM made"
)
# The streams whose ids start with a prefix (its length, the prefix): PostgreSQL's
# collation may order ids otherwise than byte by byte, so it compares the start alone.
_UNDER = "SELECT id, version FROM streams WHERE left(id, %s) = %s ORDER BY id"


def _make_engine(url: str) -> SqlEngine:
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    # No pre-ping per checkout: a dropped connection fails one statement, is invalidated
    # there (PostgresStore._driver_connection), and the pool reconnects.
    return sa.create_engine(url, pool_size=8, max_overflow=24)


class PostgresStore(EventStore, backend="postgresql"):
    """Streams of records in one PostgreSQL database."""

    _sql = StreamSql("%s")
    _cache_sql = CacheSql("%s")

    def _make_engine(self, url: str) -> SqlEngine:
        return _make_engine(url)

    def _lock_schema(self, conn: sa.Connection) -> None:
        # Held to the end of this transaction: concurrent starters queue here.
        conn.execute(sa.select(sa.func.pg_advisory_xact_lock(SCHEMA_LOCK)))

    def _lock_signing_keys(self, conn: sa.Connection) -> None:
        conn.execute(sa.select(sa.func.pg_advisory_xact_lock(SCHEMA_LOCK + 1)))

    @staticmethod
    def _stamp(moment: datetime) -> datetime:
        return utc(moment)

    @staticmethod
    def _moment(stored: Any) -> datetime:
        return utc(stored)

    def answers_at_once(self) -> bool:
        """Never: every statement waits for the server."""
        return False

    # -- appends ----------------------------------------------------------------------------

    def _append_rows(
        self, stream: str, kind: str, title: str, expected: int, rows: list[tuple[Any, ...]]
    ) -> None:
        """The whole append is one statement in autocommit (one round trip, no
        BEGIN/COMMIT): the compare-and-set (or the new stream's row), the inserts of every
        record (one JSON text, set out as rows) only if it moved a row, and the
        notification with them. A stale version moves no row, so nothing is inserted and
        no row comes back."""
        new_version = expected + len(rows)
        # Each row without its stream, as a JSON array (the stream is one parameter).
        records = _RECORDS_JSON.encode([row[1:] for row in rows]).decode()
        notice = (NOTIFY_CHANNEL, f"{stream}:{new_version}")
        if expected == 0:
            sql = _APPEND_NEW_STREAM
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
            sql = _APPEND_ADVANCE
            params = (new_version, stream, expected, stream, records, *notice)
        with self._driver() as cursor:  # autocommit: the statement is its own transaction
            cursor.execute(sql, params)
            if not cursor.fetchall():
                raise StaleVersion

    def _append_new_with_provenance(
        self, stream: str, kind: str, title: str, rows: list[tuple[Any, ...]], record: str
    ) -> None:
        with self._driver(write=True) as cursor:
            cursor.execute(self._sql.new_stream, (stream, kind, len(rows), rows[0][2], title))
            cursor.executemany(self._sql.insert_events, rows)
            cursor.execute(self._sql.insert_provenance, (stream, record))
            cursor.execute("SELECT pg_notify(%s, %s)", (NOTIFY_CHANNEL, f"{stream}:{len(rows)}"))

    def _prefix_query(self, prefix: str) -> tuple[str, tuple[Any, ...]]:
        return _UNDER, (len(prefix), prefix)

    # -- the driver path --------------------------------------------------------------------

    @contextmanager
    def _queued(self) -> Iterator[None]:
        """No queue: the server orders writers."""
        yield

    @contextmanager
    def _driver_connection(self, write: bool) -> Iterator[Any]:
        kept = self._connections
        dbapi = self._take(kept)
        cursor = None
        healthy = True
        try:
            dbapi.autocommit = not write
            cursor = dbapi.cursor()
            try:
                yield cursor
            except BaseException:
                if write:
                    dbapi.rollback()
                raise
            if write:
                dbapi.commit()
        except self._dbapi_error as error:
            # A failed write may leave its connection inside a transaction: never reuse it.
            healthy = not write
            failure = self._failed(error, dbapi, cursor)
            if failure.connection_invalidated:
                healthy = False
            raise failure from None
        finally:
            if cursor is not None:
                with contextlib.suppress(self._dbapi_error):
                    cursor.close()
            self._release(kept, dbapi, healthy)
