"""One conformance suite for every store backend: SQLite file and real PostgreSQL."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from skald.core.errors import VersionConflict
from skald.core.store import EventStore, StoredRecord, events

WHEN = datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)


def records(stream: str, first: int, count: int, actor: str = "system") -> list[StoredRecord]:
    return [
        StoredRecord(
            stream=stream,
            seq=seq,
            recorded_at=WHEN,
            actor=actor,
            kind="test.thing",
            payload=f'{{"n": {seq}}}',
            prev_hash="0" * 64,
            hash=f"{seq:064x}",
        )
        for seq in range(first, first + count)
    ]


def test_empty_stream_reads_nothing(store: EventStore) -> None:
    assert store.read("nope") == []
    assert store.version("nope") == 0


def test_append_then_read_round_trips(store: EventStore) -> None:
    written = records("s", 1, 3)
    assert store.append("s", written, 0, kind="test") == 3
    assert store.read("s") == written
    assert store.version("s") == 3
    assert store.info("s").kind == "test"


AWKWARD_TEXTS = [
    "quotes \" and ' and a backslash \\ and \\u0000 spelled out",
    '{"json": ["inside", {"a": 1}], "escaped": "\\"\\n"}',
    "unicode: Hägar, Þórr, 漢字, 🐉 and a right-to-left \u05d0",
    "newlines\nand\ttabs\r\n" + "long " * 2000,
]


def test_awkward_text_and_moments_read_back_exactly(store: EventStore) -> None:
    """Whatever a payload or actor holds (PostgreSQL's append carries them inside one JSON
    text) and whatever moment a record has, it reads back exactly as written."""
    moments = [
        datetime(2026, 1, 2, 3, 4, 5, 999999, tzinfo=UTC),
        datetime(2026, 12, 31, 23, 59, 59, 1, tzinfo=UTC),
        datetime(2026, 6, 1, 12, 0, 0, 0, tzinfo=UTC),
        datetime(1999, 12, 31, 23, 59, 59, 500000, tzinfo=UTC),
    ]
    written = [
        StoredRecord(
            stream="odd",
            seq=seq,
            recorded_at=moments[seq - 1],
            actor=text[:40],
            kind="test.thing",
            payload=text,
            prev_hash="0" * 64,
            hash=f"{seq:064x}",
        )
        for seq, text in enumerate(AWKWARD_TEXTS, start=1)
    ]
    store.append("odd", written[:1], 0, kind="test")
    store.append("odd", written[1:], 1)  # a batch of several rows too
    assert store.read("odd") == written


def test_stale_version_raises_and_writes_nothing(store: EventStore) -> None:
    store.append("s", records("s", 1, 2), 0, kind="test")
    with pytest.raises(VersionConflict) as caught:
        store.append("s", records("s", 2, 2), 1)
    assert caught.value.current == 2
    assert [r.seq for r in store.read("s")] == [1, 2]


def test_duplicate_creation_is_a_conflict(store: EventStore) -> None:
    store.append("s", records("s", 1, 1), 0, kind="test")
    with pytest.raises(VersionConflict):
        store.append("s", records("s", 1, 1), 0, kind="test")
    assert len(store.read("s")) == 1


def test_batch_is_atomic(store: EventStore) -> None:
    store.append("s", records("s", 1, 1), 0, kind="test")
    # A stray row at seq 3 (written behind the store's back) makes the third insert of the
    # next batch fail after the first two succeeded: the whole batch must roll back.
    with store.engine.begin() as conn:
        conn.execute(
            events.insert().values(
                stream_id="s",
                seq=3,
                recorded_at=WHEN,
                actor="x",
                kind="k",
                payload="{}",
                prev_hash="0" * 64,
                hash="0" * 64,
            )
        )
    with pytest.raises(VersionConflict):
        store.append("s", records("s", 2, 3), 1)
    assert [r.seq for r in store.read("s")] == [1, 3]
    assert store.version("s") == 1


def test_streams_are_isolated(store: EventStore) -> None:
    store.append("a", records("a", 1, 2), 0, kind="test")
    store.append("b", records("b", 1, 5), 0, kind="test")
    assert [r.seq for r in store.read("a")] == [1, 2]
    assert {r.stream for r in store.read("b")} == {"b"}
    assert store.version("a") == 2
    assert store.version("b") == 5


def test_range_reads(store: EventStore) -> None:
    store.append("s", records("s", 1, 10), 0, kind="test")
    assert [r.seq for r in store.read("s", 4, 6)] == [4, 5, 6]
    assert [r.seq for r in store.read("s", 9)] == [9, 10]
    assert store.read("s", 11) == []
    assert [r.seq for r in store.read("s", 1, 1)] == [1]


def test_records_rejects_wrong_seqs(store: EventStore) -> None:
    with pytest.raises(ValueError, match="seqs"):
        store.append("s", records("s", 2, 1), 0, kind="test")
    assert store.read("s") == []


def test_eight_concurrent_writers_leave_no_gap_or_duplicate(store_url: str) -> None:
    setup = EventStore(store_url)
    setup.append("s", records("s", 1, 1), 0, kind="test")
    per_writer, failures = 10, []

    def writer(number: int) -> None:
        store = EventStore(store_url)
        written = 0
        try:
            while written < per_writer:
                version = store.version("s")
                batch = records("s", version + 1, 1, actor=f"w{number}")
                try:
                    store.append("s", batch, version)
                    written += 1
                except VersionConflict:
                    continue
        except Exception as error:  # pragma: no cover - reported below
            failures.append(error)
        finally:
            store.dispose()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    rows = setup.read("s")
    assert [r.seq for r in rows] == list(range(1, 2 + 8 * per_writer))
    actors = [r.actor for r in rows[1:]]
    assert all(actors.count(f"w{n}") == per_writer for n in range(8))
    with setup.engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(events)).scalar() == 81
    setup.dispose()
