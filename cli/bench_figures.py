"""The in-process figures of `skald bench`, each measured beside its baseline in one run.

- `engine.move` (µs per decision through the engine, one commit) against `raw.append`
  (the same records inserted through the bare driver, one commit per decision, the same
  journal and sync mode), on SQLite and, given a URL, PostgreSQL;
- `move.evicted` (a move timed right after every cached state was dropped, at decision
  2,000: it loads the nearest snapshot and the rows after it) against `move.cached` (the
  next moves of the same game, picked and timed the same way with the cache warm);
- `replay` (events/s: read + decode + fold of a long Hägar game with 6 players) against
  `evolve` (folding the same events already decoded);
- `view.cold.10k` against `view.cold.100` (µs for a view built with an empty cache at
  the end of a 10k-event game, and at seq 100 of it);
- `peer.eventsourcing` (µs per one-event command on a held aggregate through the
  `eventsourcing` library's application and recorder, on the same stores) against
  `engine.move` measured beside it, block by block; skipped with a note when the `bench`
  extra is not installed.

Nothing here asserts a speed; each figure is a median of rounds, and nothing is timed
under tracemalloc. The games are played by a seeded random bot.
"""

from __future__ import annotations

import contextlib
import functools
import random
import sqlite3
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

from skald.api.bench import Figure, figure
from skald.core.codec import decoder_for
from skald.core.engine import Engine, to_envelope
from skald.core.rules import get_rules
from skald.core.state import GameState, fold
from skald.core.store import EventStore, StoredRecord
from skald.events.viewer import SPECTATOR
from skald.projections.table import Table


def _median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6 if samples else float("nan")


Clock = Callable[[], float]
Decision = tuple[int, str, int]  # the seat, its move in notation, the seq it is made at


def next_decision(table: Table, game_id: str, rnd: random.Random) -> Decision | None:
    """The random bot's next decision (None when the game is over); loads the game."""
    turn = table.turn(game_id)
    if turn.outcome is not None or not turn.to_act:
        return None
    seat = turn.to_act[0]
    return seat, rnd.choice(table.legal(game_id, seat)), turn.seq


def timed_move(
    table: Table, game_id: str, decision: Decision, clock: Clock = time.perf_counter
) -> float:
    """The time of one `table.move` (seconds): nothing else is inside the timed section."""
    seat, move, seq = decision
    started = clock()
    table.move(game_id, seat, move, seq)
    return clock() - started


def play(table: Table, game_id: str, decisions: int, rnd: random.Random) -> list[float]:
    """Play up to `decisions` random legal decisions; the time of each (seconds)."""
    times: list[float] = []
    for _ in range(decisions):
        decision = next_decision(table, game_id, rnd)
        if decision is None:
            break
        times.append(timed_move(table, game_id, decision))
    return times


# -- engine.move against raw.append ------------------------------------------------------


def _raw_sqlite(path: str) -> tuple[Any, Callable[[list[tuple[Any, ...]]], None]]:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute(
        "CREATE TABLE raw_events (stream_id TEXT, seq INTEGER, recorded_at TEXT, actor TEXT,"
        " kind TEXT, payload TEXT, prev_hash TEXT, hash TEXT, PRIMARY KEY (stream_id, seq))"
    )

    def append(rows: list[tuple[Any, ...]]) -> None:
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany("INSERT INTO raw_events VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
        conn.execute("COMMIT")

    return conn, append


def _raw_postgres(url: str) -> tuple[Any, Callable[[list[tuple[Any, ...]]], None]]:
    import psycopg

    from skald.core.feed import libpq_url

    conn = psycopg.connect(libpq_url(url))
    conn.execute("DROP TABLE IF EXISTS raw_events")
    conn.execute(
        "CREATE TABLE raw_events (stream_id TEXT, seq INTEGER, recorded_at TIMESTAMPTZ,"
        " actor TEXT, kind TEXT, payload TEXT, prev_hash TEXT, hash TEXT,"
        " PRIMARY KEY (stream_id, seq))"
    )
    conn.commit()

    def append(rows: list[tuple[Any, ...]]) -> None:
        with conn.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO raw_events VALUES (%s, %s, %s, %s, %s, %s, %s, %s)", rows
            )
        conn.commit()

    return conn, append


def engine_move(url: str, raw_target: str, label: str, decisions: int) -> Iterator[Figure]:
    """`engine.move` and `raw.append` on one backend, interleaved in rounds."""
    store = EventStore(url)
    table = Table(Engine(store))
    engine = table._engine
    rnd = random.Random(1)
    conn, raw_append = (
        _raw_sqlite(raw_target) if raw_target.endswith(".db") else _raw_postgres(raw_target)
    )
    moved: list[float] = []
    raw: list[float] = []
    try:
        for number in range(3):
            game_id = table.create("beowulf", ["A", "B", "C", "D"], seed=f"bench-{number}")
            start = engine.load(game_id).version
            moved += play(table, game_id, decisions // 3, rnd)
            records = store.read(game_id, start + 1)
            for batch in _decisions(records):
                rows = [
                    (f"raw-{number}", r.seq, r.recorded_at.isoformat(), r.actor, r.kind,
                     r.payload, r.prev_hash, r.hash)
                    for r in batch
                ]  # fmt: skip
                started = time.perf_counter()
                raw_append(rows)
                raw.append(time.perf_counter() - started)
    finally:
        conn.close()
        store.dispose()
    yield figure(
        f"engine.move.{label}", _median_us(moved), "us", f"raw.append.{label}", _median_us(raw)
    )


def _decisions(records: list[StoredRecord]) -> Iterator[list[StoredRecord]]:
    """Records grouped by decision (a batch starts at each move marker)."""
    batch: list[StoredRecord] = []
    for record in records:
        if record.kind == "skald.move_made" and batch:
            yield batch
            batch = []
        batch.append(record)
    if batch:
        yield batch


# -- a long game: replay, cold views, a move after eviction -------------------------------


def long_game(url: str, events: int, seed: str = "bench-long") -> tuple[str, int]:
    """A Hägar game for 6 players played to `events` events (or its end)."""
    store = EventStore(url)
    table = Table(Engine(store))
    players = [f"P{i + 1}" for i in range(6)]
    game_id = table.create("hagar", players, seed=seed, deal=seed)  # the same deal every run
    rnd = random.Random(7)
    decisions = 0
    while table.turn(game_id).seq < events:
        if not play(table, game_id, 200, rnd):
            break
        decisions += 200
    store.dispose()
    return game_id, decisions


def replay_and_views(url: str, game_id: str) -> Iterator[Figure]:
    """`replay` against `evolve`, and cold views at the end and at seq 100."""
    store = EventStore(url)
    try:
        plain = Engine(store, snapshot_every=0)
        last = plain.load(game_id).version
        replays, folds = [], []
        rules = get_rules("hagar")
        envelopes = [to_envelope(r, "hagar") for r in store.read(game_id)]
        for _ in range(3):
            plain.clear_cache()
            started = time.perf_counter()
            plain.load(game_id)
            replays.append(time.perf_counter() - started)
            started = time.perf_counter()
            state: GameState | None = None
            for envelope in envelopes:
                state = fold(rules, state, envelope)
            folds.append(time.perf_counter() - started)
        decoder_for("hagar")
        yield figure(
            "replay",
            last / statistics.median(replays),
            "events/s",
            "evolve",
            last / statistics.median(folds),
            note=f"hagar, 6 players, {last} events, from seq 1 (no snapshot)",
        )
        at = min(last, 10_000)
        cold: dict[int, list[float]] = {at: [], 100: []}
        for _ in range(5):
            for seq in cold:
                table = Table(Engine(store))  # an empty cache: a cold view
                started = time.perf_counter()
                table.show(game_id, SPECTATOR, seq if seq != last else None)
                cold[seq].append(time.perf_counter() - started)
        yield figure(
            "view.cold.10k",
            _median_us(cold[at]),
            "us",
            "view.cold.100",
            _median_us(cold[100]),
            note=f"at seq {at}; snapshots every {Engine(store).snapshot_every} events",
        )
    finally:
        store.dispose()


def evicted_round(
    table: Table,
    game_id: str,
    rnd: random.Random,
    cached_moves: int = 3,
    clock: Clock = time.perf_counter,
) -> tuple[float, list[float]] | None:
    """One eviction: the next decision is picked with the cache warm, every cached state
    is dropped, and that move is timed, the first thing after the eviction (it loads the
    nearest snapshot and the rows after it); then the `cached_moves` next decisions, picked
    and timed the same way with the cache warm. None when the game is over."""
    decision = next_decision(table, game_id, rnd)
    if decision is None:
        return None
    table._engine.clear_cache()
    evicted = timed_move(table, game_id, decision, clock)
    cached: list[float] = []
    for _ in range(cached_moves):
        decision = next_decision(table, game_id, rnd)
        if decision is None:
            break
        cached.append(timed_move(table, game_id, decision, clock))
    return evicted, cached


def evicted_move(url: str, decisions: int = 2000, rounds: int = 45) -> Iterator[Figure]:
    """A move right after its game left the cache, at decision `decisions`, against the
    next moves of the same game with the cache warm; medians over `rounds` evictions."""
    store = EventStore(url)
    table = Table(Engine(store))
    rnd = random.Random(11)
    game_id = table.create(
        "hagar", [f"P{i + 1}" for i in range(6)], seed="bench-evict", deal="bench-evict"
    )
    played = len(play(table, game_id, decisions, rnd))
    evicted: list[float] = []
    cached: list[float] = []
    try:
        for _ in range(rounds):
            measured = evicted_round(table, game_id, rnd)
            if measured is None:
                break
            evicted.append(measured[0])
            cached += measured[1]
    finally:
        store.dispose()
    yield figure(
        "move.evicted",
        _median_us(evicted),
        "us",
        "move.cached",
        _median_us(cached),
        note=f"hagar, 6 players, at decision {played}; {len(evicted)} evictions, "
        f"snapshots every {table._engine.snapshot_every} events",
    )


# -- the peer library ---------------------------------------------------------------------


@functools.cache
def _tally_aggregate() -> Any:
    """The peer's aggregate (defined once: the library registers each class by topic)."""
    from eventsourcing.domain import Aggregate, event

    class Tally(Aggregate):
        @event("Started")
        def __init__(self) -> None:
            self.count = 0

        @event("Counted")
        def count_one(self) -> None:
            self.count += 1

    return Tally


def _same_sync_mode() -> None:
    """Give the peer's SQLite connections Skald's sync mode (WAL, synchronous=NORMAL):
    with its default (FULL) every commit waits for the disk, which would measure the
    disk, not the library."""
    from eventsourcing import sqlite as peer_sqlite

    pool = peer_sqlite.SQLiteConnectionPool
    if getattr(pool, "_skald_bench", False):
        return
    create = pool._create_connection

    def create_normal(self: Any) -> Any:
        connection = create(self)
        connection._sqlite_conn.execute("PRAGMA synchronous=NORMAL")
        return connection

    pool._create_connection = create_normal  # type: ignore[method-assign]
    pool._skald_bench = True  # type: ignore[attr-defined]


def peer_eventsourcing(
    env: dict[str, str], label: str, commands: int, skald_url: str, block: int = 25
) -> Iterator[Figure]:
    """One-event commands on a held aggregate through eventsourcing's application, timed
    in blocks of `block` alternating with blocks of Skald decisions on a store of the same
    kind: both medians come from the same stretch of time, so the machine's moods cancel
    out of the ratio (the baseline is this paired engine.move, not the figure above)."""
    try:
        from eventsourcing.application import Application
    except ImportError:
        yield Figure(f"peer.eventsourcing.{label}", float("nan"), "us", "engine.move",
                     float("nan"), float("nan"),
                     "not installed: pip install 'skald-gamelog[bench]'")  # fmt: skip
        return
    Tally = _tally_aggregate()
    if label == "sqlite":
        _same_sync_mode()
    app: Any = Application(env=env)
    tally = Tally()
    app.save(tally)
    store = EventStore(skald_url)
    table = Table(Engine(store))
    rnd = random.Random(3)
    game_id = table.create("beowulf", ["A", "B", "C", "D"], seed="bench-peer")
    peer: list[float] = []
    skald: list[float] = []
    try:
        while len(peer) < commands:
            for _ in range(block):
                started = time.perf_counter()
                tally.count_one()
                app.save(tally)
                peer.append(time.perf_counter() - started)
            for _ in range(block):
                decision = next_decision(table, game_id, rnd)
                if decision is None:  # over: the next game goes on
                    game_id = table.create("beowulf", ["A", "B", "C", "D"])
                    decision = next_decision(table, game_id, rnd)
                    assert decision is not None
                skald.append(timed_move(table, game_id, decision))
    finally:
        with contextlib.suppress(Exception):
            app.close()
        store.dispose()
    yield figure(
        f"peer.eventsourcing.{label}",
        _median_us(peer),
        "us",
        f"engine.move.{label}",
        _median_us(skald),
        note=f"eventsourcing application, held aggregate, one event per command; in blocks "
        f"of {block} alternating with Skald decisions (beowulf, 4 players)",
    )
