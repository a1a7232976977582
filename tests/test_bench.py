"""`skald bench` measures what it names and is safe to point at a database: the evicted
move is timed right after the eviction (it replays, the cached one reads nothing), --pg
refuses a database the benchmark did not take, --only refuses unknown parts, and the HTTP
client counts every request's status instead of crashing on a 5xx."""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import msgspec
import pytest
import sqlalchemy as sa

from skald.api import bench as http_bench
from skald.cli import bench_figures
from skald.cli.bench_run import OWNED_MARK, claim
from skald.core.engine import Engine
from skald.core.errors import StoreError
from skald.core.store import EventStore
from skald.projections.table import Table
from tests.cli_support import one_line, skald
from tests.patience import HUNG

READS = ("version", "read", "read_folded", "snapshot", "info")


def test_the_evicted_move_replays_inside_its_timed_section_and_the_cached_one_reads_nothing(
    tmp_path: object,
) -> None:
    store = EventStore(f"sqlite:///{tmp_path}/evict.db")
    table = Table(Engine(store))
    rnd = random.Random(3)
    game_id = table.create("hagar", [f"P{i + 1}" for i in range(6)], seed="evict")
    bench_figures.play(table, game_id, 150, rnd)  # past a snapshot (every 50 events)
    # Every store read is recorded into the timed section it happens in, if any.
    sections: list[list[str]] = []
    timing = False

    def clock() -> float:  # called at the start, then at the end, of each timed move
        nonlocal timing
        timing = not timing
        if timing:
            sections.append([])
        return time.perf_counter()

    def recording(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def read(*args: Any, **kwargs: Any) -> Any:
            if timing:
                sections[-1].append(name)
            return method(*args, **kwargs)

        return read

    for name in READS:
        setattr(store, name, recording(name, getattr(store, name)))
    try:
        measured = bench_figures.evicted_round(table, game_id, rnd, cached_moves=3, clock=clock)
    finally:
        store.dispose()
    assert measured is not None
    assert len(measured[1]) == 3
    evicted, *cached = sections
    assert "snapshot" in evicted  # the nearest snapshot, then the rows after it
    assert "read_folded" in evicted
    assert cached == [[], [], []]


def test_evicted_move_is_a_median_of_several_evictions(tmp_path: object) -> None:
    (found,) = bench_figures.evicted_move(f"sqlite:///{tmp_path}/e.db", decisions=60, rounds=3)
    assert (found.name, found.baseline, found.unit) == ("move.evicted", "move.cached", "us")
    assert found.value > 0
    assert found.baseline_value > 0
    assert "3 evictions" in found.note


def test_only_refuses_an_unknown_part() -> None:
    code, out, err = skald("bench", "--only", "engin")
    assert code == 2
    assert out == ""
    line = one_line(err)
    assert "'engin'" in line
    assert "engine, long, peer, http, memory" in line


# -- --pg: a database the benchmark did not take is refused ---------------------------------


@pytest.fixture
def safety_url() -> Iterator[str]:
    """An empty database of this test's own on the test server (per xdist worker, and
    named after the run's database: runs of other work trees on the same server each have
    their own, and a shared name had one run's DROP ... WITH (FORCE) end another's test)."""
    base = os.environ.get("SKALD_TEST_PG_URL")
    if not base:
        if os.environ.get("SKALD_REQUIRE_PG"):
            pytest.fail("SKALD_REQUIRE_PG is set but SKALD_TEST_PG_URL is not")
        pytest.skip("no PostgreSQL server (set SKALD_TEST_PG_URL)")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    run = sa.engine.make_url(base).database
    name = f"{run}_bench_safety" + (f"_{worker}" if worker else "")
    admin = sa.create_engine(sa.engine.make_url(base), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    try:
        yield sa.engine.make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def _tables(url: str) -> set[str]:
    engine = sa.create_engine(url)
    try:
        return set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


def _execute(url: str, sql: str) -> None:
    engine = sa.create_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(sql))
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_pg_refuses_a_database_holding_tables_it_did_not_create(safety_url: str) -> None:
    _execute(safety_url, "CREATE TABLE ledger (id integer primary key)")
    _execute(safety_url, "INSERT INTO ledger VALUES (1)")
    with pytest.raises(StoreError, match="holds tables the benchmark did not create"):
        claim(safety_url)
    # Through the command: one line, a non-zero exit, before anything is measured.
    code, out, err = skald("bench", "--only", "engine", "--decisions", "3", "--pg", safety_url)
    assert code == 8
    assert out == ""
    line = one_line(err)
    assert "holds tables the benchmark did not create (ledger)" in line
    assert "give it a throwaway database" in line
    assert _tables(safety_url) == {"ledger"}
    engine = sa.create_engine(safety_url)
    with engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM ledger")).scalar() == 1
    engine.dispose()


@pytest.mark.postgres
def test_pg_takes_an_empty_database_and_wipes_only_one_it_marked(safety_url: str) -> None:
    code, out, err = skald("bench", "--only", "engine", "--decisions", "6", "--pg", safety_url)
    assert code == 0, err
    assert "engine.move.postgresql" in out
    tables = _tables(safety_url)
    assert {OWNED_MARK, "streams", "raw_events"} <= tables
    # Marked: the next run may drop what the last one left (and anything added since).
    _execute(safety_url, "CREATE TABLE leftover (id integer)")
    claim(safety_url)
    tables = _tables(safety_url)
    assert OWNED_MARK in tables
    assert "raw_events" not in tables
    assert "leftover" not in tables
    EventStore(safety_url).dispose()  # the store opens a database the benchmark took


# -- the HTTP client counts every status ----------------------------------------------------


async def _serve_once(answers: dict[tuple[str, str], int], clients: int) -> http_bench.Tally:
    """`_player` against a fake server: each (method, path prefix) answers its status, a
    5xx with a plain-text body as uvicorn's own error page."""
    seen: list[str] = []

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while request_line := await reader.readline():
                method, path, _ = request_line.decode().split(" ", 2)
                length = 0
                while (line := await reader.readline()) not in (b"\r\n", b""):
                    name, _, value = line.partition(b":")
                    if name.lower() == b"content-length":
                        length = int(value)
                if length:
                    await reader.readexactly(length)
                seen.append(f"{method} {path}")
                kind = "legal" if path.endswith("/legal") else "moves" if "/moves" in path else ""
                status = answers.get(
                    (method, kind or path.split("/")[1]), 201 if method == "POST" else 200
                )
                if status >= 500:
                    body = b"Internal Server Error"
                elif method == "POST" and path == "/games":
                    body = msgspec.json.encode({"id": "g1", "seats": [{"token": "t0"}]})
                elif kind == "legal":
                    body = msgspec.json.encode({"moves": ["pass"]})
                elif kind == "moves":
                    body = msgspec.json.encode({"seq": 3, "to_act": [0], "legal": ["pass"]})
                else:
                    body = msgspec.json.encode({"seq": 2, "to_act": [0]})
                writer.write(
                    f"HTTP/1.1 {status} X\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body
                )
                await writer.drain()
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    tally = http_bench.Tally()
    began = time.monotonic()
    try:
        # The clients play for 0.3 s at a time, again until one has met the error (a loaded
        # machine may not get that far in one round): what happened is counted, not how
        # many requests fit in the time.
        while tally.errors == 0:
            assert time.monotonic() - began < HUNG, "hung: no error met"
            deadline = time.monotonic() + 0.3
            await asyncio.wait_for(
                asyncio.gather(
                    *(
                        http_bench._player(port, deadline, tally, "toy", 1, k)
                        for k in range(clients)
                    )
                ),
                timeout=HUNG,
            )
    finally:
        server.close()
    assert seen
    return tally


@pytest.mark.parametrize(
    "answers",
    [
        {("GET", "games"): 500},  # the summary after a game is created
        {("GET", "legal"): 503},
        {("POST", "moves"): 500},
    ],
    ids=["summary", "legal", "move"],
)
def test_the_http_client_counts_a_5xx_on_every_request(answers: dict[tuple[str, str], int]) -> None:
    tally = asyncio.run(_serve_once(answers, clients=2))
    assert tally.errors > 0
    assert tally.server_errors == tally.errors  # every error was a 5xx, every one counted
    assert tally.decisions == 0  # the game of each error stopped at it
    assert tally.requests >= 2 * tally.errors  # each failed request followed a created game


def test_the_http_client_stops_at_a_refused_game() -> None:
    tally = asyncio.run(_serve_once({("POST", "games"): 500}, clients=3))
    assert (tally.requests, tally.errors, tally.server_errors) == (3, 3, 3)


def test_the_peer_is_timed_in_blocks_beside_skald_decisions_on_the_same_kind_of_store(
    tmp_path: object,
) -> None:
    """Both medians come from alternating blocks: the peer's commands and Skald's
    decisions (appended to the store given, games started as earlier ones end)."""
    skald_url = f"sqlite:///{tmp_path}/peer-skald.db"
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": f"{tmp_path}/es.db"}
    (found,) = bench_figures.peer_eventsourcing(env, "sqlite", 12, skald_url, block=4)
    assert found.name == "peer.eventsourcing.sqlite"
    assert found.baseline == "engine.move.sqlite"
    assert found.value > 0
    assert found.baseline_value > 0
    assert found.ratio == pytest.approx(found.value / found.baseline_value)
    assert "blocks of 4" in found.note
    store = EventStore(skald_url)
    try:
        (stream,) = store.list_streams()
        # 12 decisions (3 blocks of 4) after the opening: the move markers say so.
        markers = [r for r in store.read(stream.id) if r.kind == "skald.move_made"]
        assert len(markers) == 12
    finally:
        store.dispose()
