"""Snapshots are a cache: replay from one equals replay from seq 1 at every seq, one that
does not match the chain is dropped, one folded by other rules is rebuilt, and the audit
never reads them."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from skald.core import snapshots
from skald.core.engine import Engine
from skald.core.errors import StoreError
from skald.core.rules import get_rules
from skald.core.state import fold
from skald.core.store import EventStore
from skald.events.common import MoveMade
from skald.projections.bots.autoplay import autoplay
from skald.projections.table import Table


@pytest.fixture(autouse=True)
def fresh_codecs() -> Iterator[None]:
    snapshots.codec_for.cache_clear()
    yield
    snapshots.codec_for.cache_clear()


def played(store: EventStore, game: str = "toy", players: int = 2, every: int = 3) -> str:
    """A finished game written by an engine snapshotting every `every` events."""
    return autoplay(Table(Engine(store, snapshot_every=every)), game, players, seed="s").id


def snapshot_seqs(store: EventStore, game_id: str, game: str = "toy") -> list[int]:
    codec = snapshots.codec_for(game)
    assert codec is not None
    seqs, at = [], None
    while (found := store.snapshot(game_id, codec.version_key, at)) is not None:
        seqs.append(found.seq)
        at = found.seq - 1
    return sorted(seqs)


def spy_on_folded_reads(store: EventStore, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The seq each replay read of `store` starts from, as they happen."""
    reads: list[int] = []
    original = store.read_folded

    def spy(stream: str, from_seq: int = 1, to_seq: int | None = None) -> list:  # type: ignore[type-arg]
        reads.append(from_seq)
        return original(stream, from_seq, to_seq)

    monkeypatch.setattr(store, "read_folded", spy)
    return reads


def test_replay_from_a_snapshot_equals_replay_from_seq_1_at_every_seq(store: EventStore) -> None:
    game_id = played(store)
    assert len(snapshot_seqs(store, game_id)) >= 3
    plain = Engine(store, snapshot_every=0)
    last = plain.load(game_id).version
    for at in range(1, last + 1):
        assert Engine(store).load(game_id, at) == plain.load(game_id, at), at
    assert Engine(store).load(game_id) == plain.load(game_id)


@pytest.mark.parametrize(("game", "players"), [("beowulf", 3), ("beast", 3), ("hagar", 4)])
def test_every_game_round_trips_through_a_snapshot(
    sqlite_store: EventStore, game: str, players: int
) -> None:
    game_id = played(sqlite_store, game, players, every=50)
    codec = snapshots.codec_for(game)
    assert codec is not None
    assert not codec.broken
    assert snapshot_seqs(sqlite_store, game_id, game)
    plain = Engine(sqlite_store, snapshot_every=0)
    last = plain.load(game_id).version
    for at in range(1, last + 1, max(1, last // 40)):
        assert Engine(sqlite_store).load(game_id, at) == plain.load(game_id, at), at


def test_a_cold_load_folds_only_the_tail(
    sqlite_store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = played(sqlite_store)
    newest = snapshot_seqs(sqlite_store, game_id)[-1]
    reads = spy_on_folded_reads(sqlite_store, monkeypatch)
    Engine(sqlite_store).load(game_id)
    assert reads == [newest]  # the snapshot's own row (its hash is checked), then the tail


def test_a_snapshot_off_the_chain_is_dropped_and_the_load_replays(store: EventStore) -> None:
    game_id = played(store)
    codec = snapshots.codec_for("toy")
    assert codec is not None
    expected = Engine(store, snapshot_every=0).load(game_id)
    newest = snapshot_seqs(store, game_id)[-1]
    found = store.snapshot(game_id, codec.version_key)
    assert found is not None
    store.drop_snapshot(game_id, codec.version_key, newest)
    # A snapshot whose hash is not the chain's at its seq (a doctored or foreign one).
    store.save_snapshot(game_id, codec.version_key, newest, "f" * 64, found.state)
    assert Engine(store).load(game_id) == expected
    assert newest not in snapshot_seqs(store, game_id)


def cut_tail(store: EventStore, game_id: str, last: int) -> None:
    """Delete every event after `last`, as a tamperer or an old backup of the events would."""
    with store.engine.begin() as conn:
        conn.execute(
            sa.text("DELETE FROM events WHERE stream_id = :s AND seq > :n"),
            {"s": game_id, "n": last},
        )
        conn.execute(
            sa.text("UPDATE streams SET version = :n WHERE id = :s"), {"s": game_id, "n": last}
        )


@pytest.mark.parametrize("drops", [True, False], ids=["writable", "refuses-writes"])
def test_snapshots_past_a_deleted_tail_are_skipped_with_one_warning(
    store: EventStore,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    drops: bool,
) -> None:
    game_id = played(store)
    seqs = snapshot_seqs(store, game_id)
    assert len(seqs) >= 4
    last = seqs[-3] + 1  # two snapshots (and more events) lie past the new end
    cut_tail(store, game_id, last)
    if not drops:  # a read-only copy: the snapshots stay, the load still works

        def refuse(*_args: object) -> None:
            raise StoreError("attempt to write a readonly database")

        monkeypatch.setattr(store, "drop_snapshot", refuse)
    reads = spy_on_folded_reads(store, monkeypatch)
    with caplog.at_level(logging.WARNING, logger="skald.core.engine"):
        state = Engine(store).load(game_id)
    load_reads = list(reads)
    assert state == Engine(store, snapshot_every=0).load(game_id)
    assert state.version == last
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1, warnings
    assert f"snapshot at seq {seqs[-1]}, past the game's last event" in warnings[0]
    assert "removed" in warnings[0]
    # Each snapshot past the end was tried (its row is missing), then the tail folded
    # from the nearest snapshot still on the chain.
    assert load_reads == [seqs[-1], seqs[-2], seqs[-3]]
    kept = snapshot_seqs(store, game_id)
    assert kept == (seqs[:-2] if drops else seqs)


def test_an_undecodable_snapshot_is_dropped(store: EventStore) -> None:
    game_id = played(store)
    codec = snapshots.codec_for("toy")
    assert codec is not None
    expected = Engine(store, snapshot_every=0).load(game_id)
    found = store.snapshot(game_id, codec.version_key)
    assert found is not None
    store.drop_snapshot(game_id, codec.version_key, found.seq)
    store.save_snapshot(game_id, codec.version_key, found.seq, found.hash, b"\x93garbage")
    assert Engine(store).load(game_id) == expected
    assert found.seq not in snapshot_seqs(store, game_id)


def test_new_rules_version_ignores_old_snapshots_and_rebuilds(
    store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = played(store)
    old_key = snapshots.codec_for("toy").version_key  # type: ignore[union-attr]
    assert store.snapshot(game_id, old_key) is not None
    monkeypatch.setattr(type(get_rules("toy")), "version", "2")
    snapshots.codec_for.cache_clear()
    new_key = snapshots.codec_for("toy").version_key  # type: ignore[union-attr]
    assert new_key != old_key
    assert store.snapshot(game_id, new_key) is None
    state = Engine(store, snapshot_every=3).load(game_id)  # replays, then snapshots anew
    assert state == Engine(store, snapshot_every=0).load(game_id)
    assert store.snapshot(game_id, new_key) is not None
    assert store.snapshot(game_id, old_key) is None  # the stale ones are gone


def test_the_audit_and_verification_ignore_snapshots(store: EventStore) -> None:
    game_id = played(store)
    codec = snapshots.codec_for("toy")
    assert codec is not None
    table = Table(Engine(store, snapshot_every=0))
    before = (table.verify(game_id), table.audit(game_id, table.viewer(game_id, "referee")))
    for seq in snapshot_seqs(store, game_id):
        store.drop_snapshot(game_id, codec.version_key, seq)
        store.save_snapshot(game_id, codec.version_key, seq, "0" * 64, b"junk")
    after = (table.verify(game_id), table.audit(game_id, table.viewer(game_id, "referee")))
    assert after == before


@pytest.mark.parametrize(("game", "players"), [("beowulf", 3), ("beast", 3), ("hagar", 4)])
def test_a_snapshot_is_kept_where_each_act_day_or_round_begins(
    sqlite_store: EventStore, game: str, players: int
) -> None:
    """Beside every N events (here: never, N is beyond the game's length), the state where
    each new chapter begins is kept, so `?at=` the start of one folds no tail."""
    game_id = played(sqlite_store, game, players, every=10**6)
    rules = get_rules(game)
    envelopes = Engine(sqlite_store, snapshot_every=0).envelopes(game_id)
    chapters, state = [], None
    for envelope in envelopes:
        state = fold(rules, state, envelope)
        chapters.append(rules.chapter(state.rules))
    assert len(set(chapters)) >= 2, chapters  # the game went through several chapters
    # The batch (a decision, or the opening) in which a chapter changed ends with a snapshot.
    starts = [env.seq for env in envelopes if env.seq == 1 or isinstance(env.event, MoveMade)]
    ends = [nxt - 1 for nxt in starts[1:]] + [envelopes[-1].seq]
    expected = {
        end
        for begin, end in zip(starts, ends, strict=True)
        if begin > 1 and chapters[end - 1] != chapters[begin - 2]
    }
    assert expected
    assert set(snapshot_seqs(sqlite_store, game_id, game)) == expected


def test_a_change_to_a_games_reducer_code_gives_new_snapshot_keys(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A reducer fix that keeps the rules version and the state type still makes old
    snapshots invisible: the key covers the source of the game's package and data."""
    before = snapshots.codec_for("beowulf").version_key  # type: ignore[union-attr]
    read = Path.read_bytes
    for name in ("evolve.py", "tiles.toml"):

        def edited(path: Path, name: str = name) -> bytes:
            return read(path) + b"\n# a fix" if path.name == name else read(path)

        monkeypatch.setattr(Path, "read_bytes", edited)
        snapshots.codec_for.cache_clear()
        assert snapshots.codec_for("beowulf").version_key != before, name  # type: ignore[union-attr]
    monkeypatch.setattr(Path, "read_bytes", read)
    snapshots.codec_for.cache_clear()
    assert snapshots.codec_for("beowulf").version_key == before  # type: ignore[union-attr]
