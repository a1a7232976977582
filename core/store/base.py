"""The piece of a store every other part stands on: its engine and its driver path.

Hot paths (appends, reads, the caches) go through the driver: DBAPI connections kept in a
free list of their own (`core/driver_connections.py`), because SQLAlchemy Core's statement
compilation, result processing and even a pool checkout cost more per move than the
database itself. SQLAlchemy keeps the schema and everything else (`engine`, and `_writer`
for its writes). Driver errors are re-raised as SQLAlchemy's `DBAPIError` family, so the
edges map them like any other; a dropped connection is closed on the error (with every
kept one) instead of pinging the server at every checkout.

`StoreBase` holds what is common to that path; how a write waits its turn (`_queued`) and
how a connection runs a transaction (`_driver_connection`) are each backend's own
(sqlite.py, postgres.py). The seat tokens, signing keys and caches build on it, and the
store's contract (`EventStore`, contract.py) on them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from sqlalchemy.engine import Engine as SqlEngine
from sqlalchemy.exc import DBAPIError, StatementError

from skald.core.driver_connections import DriverConnections, close_quietly


class StoreBase:
    """A store's engine and driver path; a backend supplies `_queued` and
    `_driver_connection` (see `EventStore` for the rest of what it supplies)."""

    url: str
    engine: SqlEngine
    # The engine for writes through SQLAlchemy (a backend may begin them otherwise).
    _writer: SqlEngine
    _connections: DriverConnections
    _dbapi_error: type[Exception]

    # -- what each backend provides ---------------------------------------------------------

    def _queued(self) -> AbstractContextManager[None]:
        """Where a write waits its turn before it begins (around the whole transaction)."""
        raise NotImplementedError

    def _driver_connection(self, write: bool) -> AbstractContextManager[Any]:
        """A DBAPI cursor on a kept connection: one transaction when `write` (committed on
        success, rolled back on any error), autocommit reads otherwise; driver errors come
        out through `_failed`, and the connection goes back through `_release`."""
        raise NotImplementedError

    # -- the driver path --------------------------------------------------------------------

    @contextmanager
    def _driver(self, write: bool = False) -> Iterator[Any]:
        """A DBAPI cursor on a kept connection: one transaction when `write` (committed on
        success, rolled back on any error; writers take their turn in the backend's queue
        first), autocommit reads otherwise. Driver errors come out as SQLAlchemy's
        DBAPIError family; a dropped connection is closed with every kept one."""
        with (
            self._queued() if write else contextlib.nullcontext(),
            self._driver_connection(write) as cursor,
        ):
            yield cursor

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

    def _take(self, kept: DriverConnections) -> Any:
        """A connection from `kept`; a failure to connect as SQLAlchemy's DBAPIError."""
        try:
            return kept.take()
        except self._dbapi_error as error:  # the pool hands out the driver's own error
            raise DBAPIError.instance(
                None, None, error, self._dbapi_error, dialect=self.engine.dialect
            ) from None

    def _failed(self, error: Exception, dbapi: Any, cursor: Any) -> StatementError:
        """The driver's `error` on `dbapi` as SQLAlchemy's DBAPIError, to raise; when it
        says the connection dropped (`connection_invalidated`), every kept connection
        predates the failure: they are dropped all at once, and the pool's with them."""
        disconnected = self.engine.dialect.is_disconnect(error, dbapi, cursor)  # type: ignore[arg-type]
        if disconnected:
            self._drop_kept()
            self.engine.pool.dispose()
        return DBAPIError.instance(
            None,
            None,
            error,
            self._dbapi_error,
            connection_invalidated=disconnected,
            dialect=self.engine.dialect,
        )

    @staticmethod
    def _release(kept: DriverConnections, dbapi: Any, healthy: bool) -> None:
        """Give a connection back to `kept` when it is sound, else close it."""
        if healthy and not getattr(dbapi, "closed", False):
            kept.give(dbapi)
        else:
            close_quietly(dbapi)

    def _drop_kept(self) -> None:
        """Close every kept connection."""
        self._connections.drop_all()
