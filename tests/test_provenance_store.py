"""The provenance table (core/provenance.py): written with a stream's first events, in
the same transaction; a store written before it, opened where it cannot be written (a
read-only copy of evidence), is still read."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from skald.core.store import EventStore, StoredRecord
from skald.events.envelope import GENESIS

MOMENT = datetime(2026, 1, 1, tzinfo=UTC)


def _record(stream: str, seq: int = 1) -> StoredRecord:
    return StoredRecord(
        stream=stream,
        seq=seq,
        recorded_at=MOMENT,
        actor="system",
        kind="x",
        payload="{}",
        prev_hash=GENESIS,
        hash="1" * 64,
    )


def test_a_provenance_record_is_written_with_the_first_events_only(tmp_path: Path) -> None:
    store = EventStore(f"sqlite:///{tmp_path}/p.db")
    store.append("g", [_record("g")], 0, kind="toy", provenance='{"partial":null}')
    assert store.provenance("g") == '{"partial":null}'
    assert store.provenance("other") is None
    with pytest.raises(ValueError, match="first events"):
        store.append("g", [_record("g", 2)], 1, provenance="{}")
    store.dispose()


def test_an_older_store_read_only_is_read_without_the_table(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    store = EventStore(f"sqlite:///{path}")
    store.append("g", [_record("g")], 0, kind="toy")
    store.dispose()
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TABLE provenance")
    old = EventStore(f"sqlite:///file:{path}?mode=ro&immutable=1&uri=true")
    assert old.version("g") == 1
    assert old.provenance("g") is None
    old.dispose()
