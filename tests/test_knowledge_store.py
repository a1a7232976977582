"""Information sets kept in the store (projections/knowledge/store.py), on SQLite and a real
PostgreSQL server: a process that kept nothing reads on from the nearest stored fold and
answers what the whole redacted log folded from seq 1 answers; a stored fold is used only
when it belongs to this chain, this code and this viewer, and a store that cannot hold
them (read-only, older) still answers."""

from __future__ import annotations

import contextlib
import random
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import msgspec
import pytest
import sqlalchemy as sa

from skald.core.engine import Engine
from skald.core.errors import SkaldError
from skald.core.rules import get_rules
from skald.core.state import fold
from skald.core.store import EventStore, knowledge_checkpoints
from skald.events.envelope import Envelope
from skald.events.viewer import SPECTATOR, Viewer, seat_viewer
from skald.projections.beast.knowledge.stored import StoredBeastFold, depths
from skald.projections.knowledge import cache as knowledge_cache
from skald.projections.knowledge.cache import CHECKPOINT_EVERY, possible_at
from skald.projections.knowledge.possible import possible_for
from skald.projections.knowledge.store import fold_codec, kept_knowledge, viewer_key
from skald.projections.table import Table

GAMES = (("hagar", 6), ("beowulf", 2), ("beast", 4))


@pytest.fixture(autouse=True)
def nothing_kept_in_memory() -> Iterator[None]:
    knowledge_cache.forget()
    yield
    knowledge_cache.forget()


def _played(
    store: EventStore, game: str, players: int, decisions: int = 170, undo: float = 0.0
) -> str:
    """A game of random decisions; with `undo`, each decision is taken back with that
    chance when the table allows it (and the undone one redone half the time)."""
    table = Table(Engine(store))
    names = [f"P{i + 1}" for i in range(players)]
    game_id = table.create(game, names, seed=f"kept-{game}", reproducible=True)
    rnd = random.Random(7)
    for _ in range(decisions):
        turn = table.turn(game_id)
        if turn.outcome is not None or not turn.to_act:
            break
        seat = turn.to_act[0]
        table.move(game_id, seat, rnd.choice(sorted(table.legal(game_id, seat))), turn.seq)
        if rnd.random() < undo:
            with contextlib.suppress(SkaldError):
                table.undo(game_id, seat)
                if rnd.random() < 0.5:
                    table.redo(game_id, seat)
    return game_id


class _Reads:
    """The game's envelopes, noting where each read began."""

    def __init__(self, store: EventStore, game_id: str) -> None:
        self.log = Engine(store).envelopes(game_id)
        self.began: list[int] = []

    def __call__(self, first: int, last: int) -> Sequence[Envelope[Any]]:
        self.began.append(first)
        return self.log[first - 1 : last]


def _rows(store: EventStore) -> list[Any]:
    with store.engine.connect() as conn:
        query = sa.select(knowledge_checkpoints).order_by(knowledge_checkpoints.c.seq)
        return list(conn.execute(query))


def _ask(
    store: EventStore, game: str, game_id: str, viewer: Viewer, seq: int
) -> tuple[Any, _Reads]:
    """`possible` as a fresh process asks it (nothing in memory), with the reads it made."""
    knowledge_cache.forget()
    reads = _Reads(store, game_id)
    kept = kept_knowledge(store, game, game_id, viewer)
    return possible_at(game, game_id, viewer, seq, reads, kept), reads


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_a_fresh_process_reads_on_from_the_stored_fold(
    store: EventStore, game: str, players: int
) -> None:
    """The first ask folds from seq 1 and stores the last grid fold it passed; every later
    ask from a process that kept nothing starts there, at or after it, and answers what
    the whole log answers, for each viewer apart."""
    game_id = _played(store, game, players)
    last = Engine(store).load(game_id).version
    assert last > 2 * CHECKPOINT_EVERY
    for viewer in (seat_viewer(0), seat_viewer(1)):
        answer, reads = _ask(store, game, game_id, viewer, last)
        assert reads.began == [1]
        assert answer == possible_for(game, reads.log[:last], viewer)
        grid = last - last % CHECKPOINT_EVERY
        mine = [r for r in _rows(store) if r.viewer == viewer_key(viewer)]
        assert [r.seq for r in mine] == [grid]
        for seq in sorted({grid, max(grid, last - 1), last}):  # (last may be on the grid)
            answer, reads = _ask(store, game, game_id, viewer, seq)
            assert reads.began == [grid], seq
            assert answer == possible_for(game, reads.log[:seq], viewer), seq
        answer, reads = _ask(store, game, game_id, viewer, grid - 1)  # before it: from 1
        assert reads.began == [1]
        assert answer == possible_for(game, reads.log[: grid - 1], viewer)
    assert {r.viewer for r in _rows(store)} == {"seats:0", "seats:1"}


@pytest.mark.parametrize(("game", "players"), [("hagar", 6), ("beast", 4)])
def test_a_stored_fold_of_another_chain_is_dropped(
    store: EventStore, game: str, players: int
) -> None:
    """A stored fold whose chain hash is not the stored event's at its seq (the stream was
    replaced or restored under it) is not used, and is deleted."""
    game_id = _played(store, game, players)
    last = Engine(store).load(game_id).version
    viewer = seat_viewer(2)
    _ask(store, game, game_id, viewer, last)
    with store.engine.begin() as conn:
        conn.execute(sa.update(knowledge_checkpoints).values(hash="0" * 64))
    answer, reads = _ask(store, game, game_id, viewer, last)
    assert reads.began[-1] == 1
    assert answer == possible_for(game, reads.log[:last], viewer)
    assert all(r.hash != "0" * 64 for r in _rows(store))  # dropped, then stored anew


@pytest.mark.parametrize(("game", "players"), [("beowulf", 2), ("beast", 4)])
def test_undecodable_and_other_versions_are_ignored(
    store: EventStore, game: str, players: int
) -> None:
    """Bytes that do not decode are dropped; a fold stored by other code (another version
    key) is invisible and deleted when this code stores one for that viewer."""
    game_id = _played(store, game, players)
    last = Engine(store).load(game_id).version
    viewer = seat_viewer(0)
    _ask(store, game, game_id, viewer, last)
    with store.engine.begin() as conn:
        conn.execute(sa.update(knowledge_checkpoints).values(state=b"\x93garbage"))
    answer, reads = _ask(store, game, game_id, viewer, last)
    assert reads.began == [1]
    assert answer == possible_for(game, reads.log[:last], viewer)
    assert [bytes(r.state) for r in _rows(store)] != [b"\x93garbage"]
    with store.engine.begin() as conn:
        conn.execute(sa.update(knowledge_checkpoints).values(version_key="older/code"))
    _, reads = _ask(store, game, game_id, viewer, last)
    assert reads.began == [1]
    codec = fold_codec(game)
    assert codec is not None
    assert {r.version_key for r in _rows(store)} == {codec.version_key}


def test_a_hagar_fold_stored_before_arrangements_is_recomputed(store: EventStore) -> None:
    """A Hägar fold in the layout stored before its groups kept arrangements (token ->
    group, group -> tokens, group -> pieces, the counters, `merged`: six fields where the
    layout now has seven) is invisible under its own version key, and where it sits under
    this code's key it does not decode: either way the fold is recomputed from seq 1,
    answers what the whole log answers, and is stored anew in the new layout."""
    game_id = _played(store, "hagar", 6)
    last = Engine(store).load(game_id).version
    viewer = seat_viewer(2)
    _ask(store, "hagar", game_id, viewer, last)
    (row,) = _rows(store)
    groups, state = msgspec.msgpack.decode(bytes(row.state))
    old = msgspec.msgpack.encode([[{}, {}, {}, 1 << 20, 0, False], state])
    assert len(groups) == 7
    for key in ("hagar/0123456789abcdef/1", row.version_key):
        with store.engine.begin() as conn:
            conn.execute(sa.update(knowledge_checkpoints).values(state=old, version_key=key))
        answer, reads = _ask(store, "hagar", game_id, viewer, last)
        assert reads.began == [1]
        assert answer == possible_for("hagar", reads.log[:last], viewer)
        assert [(bytes(r.state), r.version_key) for r in _rows(store)] == [
            (bytes(row.state), row.version_key)
        ]


def test_a_beast_fold_whose_parts_do_not_fit_is_dropped(store: EventStore) -> None:
    """A stored Beast fold that decodes typed but whose parts do not fit together (its
    shadow an index past the table of states) is not used, and is deleted; so is one whose
    timeline states are not the bytes stored with them (their SHA-256 differs)."""
    game_id = _played(store, "beast", 4)
    last = Engine(store).load(game_id).version
    viewer = seat_viewer(1)
    _ask(store, "beast", game_id, viewer, last)
    (row,) = _rows(store)
    data = msgspec.msgpack.decode(bytes(row.state), type=StoredBeastFold)
    assert data.reader is not None
    brokens = (
        msgspec.structs.replace(data, reader=msgspec.structs.replace(data.reader, shadow=10**6)),
        msgspec.structs.replace(data, timeline_digest=bytes(32)),
    )
    for broken in map(msgspec.msgpack.encode, brokens):
        with store.engine.begin() as conn:
            conn.execute(sa.update(knowledge_checkpoints).values(state=broken))
        answer, reads = _ask(store, "beast", game_id, viewer, last)
        assert reads.began == [1]
        assert answer == possible_for("beast", reads.log[:last], viewer)
        assert [bytes(r.state) for r in _rows(store)] == [bytes(row.state)]  # stored anew


def test_a_read_only_older_store_answers_without_the_table(tmp_path: Path) -> None:
    """A store from before the table, opened read-only (evidence), keeps no fold and says
    the same; a read-only store that has the table reads from it and writes nothing."""
    path = tmp_path / "old.db"
    store = EventStore(f"sqlite:///{path}")
    game_id = _played(store, "hagar", 6, decisions=120)
    last = Engine(store).load(game_id).version
    viewer = seat_viewer(1)
    expected, _ = _ask(store, "hagar", game_id, viewer, last)
    store.dispose()
    read_only = EventStore(f"sqlite:///file:{path}?mode=ro&uri=true")
    answer, reads = _ask(read_only, "hagar", game_id, viewer, last)
    assert answer == expected
    assert reads.began == [last - last % CHECKPOINT_EVERY]
    read_only.dispose()
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE knowledge_checkpoints")
    conn.commit()
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # immutable=1 reads no write-ahead log
    conn.close()
    older = EventStore(f"sqlite:///file:{path}?mode=ro&immutable=1&uri=true")
    answer, reads = _ask(older, "hagar", game_id, viewer, last)
    assert answer == expected
    assert reads.began == [1]
    older.dispose()


def test_the_table_keeps_folds_for_the_cli(store: EventStore) -> None:
    """`Table.possible` (what `GET /possible` and `skald possible` call) stores the fold,
    and a new Table over the same store answers the same from it."""
    game_id = _played(store, "hagar", 6)
    viewer = seat_viewer(3)
    first = Table(Engine(store)).possible(game_id, viewer)
    assert [r.viewer for r in _rows(store)] == ["seats:3"]
    knowledge_cache.forget()
    again = Table(Engine(store)).possible(game_id, viewer)
    assert again == first
    assert again.possible == possible_for("hagar", Engine(store).envelopes(game_id), viewer)


def test_a_beast_fold_keeps_the_undo_the_table_can_still_take(store: EventStore) -> None:
    """Beast, with decisions taken back and redone: the fold counts the engine's undo and
    redo stacks as it is fed (beast_stored.depths: what core/state.py keeps), so its stored
    replay keeps only the undo snapshots the table can still restore; a process that kept
    nothing answers from the stored fold what the log from seq 1 answers, for a hunter, the
    Beast and a spectator, at seqs on and off the grid, including after undos."""
    game_id = _played(store, "beast", 4, decisions=260, undo=0.35)
    log = Engine(store).envelopes(game_id)
    kinds = {type(e.event).__name__ for e in log}
    assert {"DecisionUndone", "DecisionRedone"} <= kinds
    rules, state, undo, redo = get_rules("beast"), None, 0, 0
    for envelope in log:
        state = fold(rules, state, envelope)
        undo, redo = depths(undo, redo, envelope.event)
        assert (undo, redo) == (len(state.undo), len(state.redo)), envelope.seq
    undone = [e.seq for e in log if type(e.event).__name__ == "DecisionUndone"]
    stops = sorted({*range(37, len(log) + 1, 37), *undone[::5], len(log)})
    for viewer in (seat_viewer(1), seat_viewer(0), SPECTATOR):
        for seq in stops:
            answer, _ = _ask(store, "beast", game_id, viewer, seq)
            assert answer == possible_for("beast", log[:seq], viewer), (viewer.name, seq)
        assert any(r.viewer == viewer_key(viewer) for r in _rows(store))
