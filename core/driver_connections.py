"""The store's hot-path DBAPI connections, kept out of SQLAlchemy's pool.

`DriverConnections` is a free list of detached driver connections: taking one is a list
pop, where a pool checkout and checkin cost about 30 µs (more than a SQLite commit).
"""

from __future__ import annotations

import contextlib
from typing import Any

from sqlalchemy.engine import Engine as SqlEngine


class DriverConnections:
    """The hot paths' DBAPI connections, detached from SQLAlchemy's pool and kept in a free
    list: taking one is a list pop. A pool checkout and checkin cost about 30 µs, more than
    a SQLite commit; SQLAlchemy's pool still serves everything else. At most `keep` idle
    connections are kept; `list.pop`/`append` are atomic, so threads share the list."""

    def __init__(
        self, engine: SqlEngine, keep: int, on_file: bool = True, setting: str | None = None
    ) -> None:
        self._engine = engine
        # An in-memory SQLite database lives in its one pooled connection: borrow that.
        self._keep = keep if on_file else 0
        self._idle: list[Any] = []
        # A statement run once on each connection this list makes (its connections keep
        # it: they are never given to anyone else).
        self._setting = setting

    def take(self) -> Any:
        """An idle connection, or a new one (through the pool, so its connect-time
        settings apply, then detached from it)."""
        try:
            return self._idle.pop()
        except IndexError:
            pass
        fairy = self._engine.raw_connection()
        if not self._keep:
            return fairy  # closing it gives it back to the pool
        fairy.detach()
        connection: Any = fairy.dbapi_connection
        if self._setting is not None:
            try:
                connection.execute(self._setting)
            except BaseException:
                close_quietly(connection)
                raise
        return connection

    def give(self, connection: Any) -> None:
        """Return a healthy connection."""
        if len(self._idle) < self._keep:
            self._idle.append(connection)
        else:
            close_quietly(connection)

    def drop_all(self) -> None:
        """Close every idle connection (the server went away: they all predate it)."""
        idle, self._idle = self._idle, []
        for connection in idle:
            close_quietly(connection)


def close_quietly(connection: Any) -> None:
    """Close a connection, whatever state it is in."""
    with contextlib.suppress(Exception):  # a broken connection has nothing left to close
        connection.close()
