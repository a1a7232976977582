"""The caches beside the streams: folded states (`snapshots`, decided by
`core/snapshots.py`) and viewers' information sets (`knowledge_checkpoints`, decided by
`projections/knowledge/store.py`).

Each is keyed by stream, seq and the code version that folded it (information sets also
by viewer), carries the chain hash at its seq, and is never read by the audit or the
chain verification: the store keeps, finds and forgets them, and a save drops the ones
folded by any other code version. A store written before the knowledge table, opened
read-only, keeps no information sets (`_without_knowledge`).
"""

from __future__ import annotations

from skald.core.store.base import StoreBase
from skald.core.store.records import StoredSnapshot
from skald.core.store.schema import MAX_SEQ


class CacheSql:
    """The caches' SQL, in a backend's parameter style (`mark`: `?` or `%s`)."""

    def __init__(self, mark: str) -> None:
        def sql(text: str) -> str:
            return text.replace("?", mark)

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


class Caches(StoreBase):
    """The store's snapshots and information sets (a part of `EventStore`); a backend
    supplies `_cache_sql`."""

    _cache_sql: CacheSql
    _without_knowledge: bool

    # -- snapshots (a cache; core/snapshots.py decides what goes in) ------------------------

    def snapshot(
        self, stream: str, version_key: str, at: int | None = None
    ) -> StoredSnapshot | None:
        """The latest snapshot of `stream` at or before seq `at` folded by `version_key`."""
        if "\x00" in stream:
            return None
        rows = self._query(
            self._cache_sql.snapshot, (stream, version_key, min(at or MAX_SEQ, MAX_SEQ))
        )
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
            cursor.execute(self._cache_sql.drop_stale_snapshots, (stream, version_key))
            cursor.execute(self._cache_sql.save_snapshot, (stream, seq, version_key, digest, state))

    def drop_snapshot(self, stream: str, version_key: str, seq: int) -> None:
        """Forget one snapshot (it did not match the chain)."""
        with self._driver(write=True) as cursor:
            cursor.execute(self._cache_sql.drop_snapshot, (stream, version_key, seq))

    # -- information sets (a cache; projections/knowledge/store.py decides what goes in) --

    def knowledge_checkpoint(
        self, stream: str, viewer: str, version_key: str, at: int
    ) -> StoredSnapshot | None:
        """The latest information set of `viewer` in `stream` at or before seq `at`."""
        if "\x00" in stream or self._without_knowledge:
            return None
        params = (stream, viewer, version_key, min(at, MAX_SEQ))
        rows = self._query(self._cache_sql.knowledge, params)
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
        rows = self._query(self._cache_sql.knowledge_hash, (stream, viewer, version_key, seq))
        return str(rows[0][0]) if rows else None

    def save_knowledge_checkpoint(
        self, stream: str, viewer: str, version_key: str, seq: int, digest: str, state: bytes
    ) -> None:
        """Keep an information set (a second one of the same seq and version is ignored),
        and drop the viewer's ones folded by any other code version."""
        if self._without_knowledge:
            return
        with self._driver(write=True) as cursor:
            cursor.execute(self._cache_sql.drop_stale_knowledge, (stream, viewer, version_key))
            cursor.execute(
                self._cache_sql.save_knowledge, (stream, viewer, seq, version_key, digest, state)
            )

    def drop_knowledge_checkpoint(
        self, stream: str, viewer: str, version_key: str, seq: int
    ) -> None:
        """Forget one information set (it did not match the chain, or did not decode)."""
        if self._without_knowledge:
            return
        with self._driver(write=True) as cursor:
            cursor.execute(self._cache_sql.drop_knowledge, (stream, viewer, version_key, seq))
