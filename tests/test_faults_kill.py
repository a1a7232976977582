"""Fault suite (issue 11): `kill -9` of a real `skald serve` under load, on a SQLite file
and on PostgreSQL (a throwaway database of this test's own in the test server).

A few HTTP clients autoplay Beowulf games (whose turn from `GET /games/{id}`, a random
move from `/legal`, `POST /moves` with `expected_seq`) while the server is killed with
SIGKILL at random moments and started again on the same store and port. Afterwards, read
straight from the store: every acknowledged (201) move is in the log with the hash it was
answered with, its receipt verifies, every game's chain verifies, and the audit's
re-derivation (as referee) is clean and ends on a whole decision (`complete_through` is
the last seq: no half batch). The test counts what happened, not how fast: it makes its
`KILLS` kills however long a loaded machine takes (each after the load flowed again: some
moves acknowledged since the restart), and reports how long they took; every wait is
bounded only as hung (tests/patience.py). All traffic goes to 127.0.0.1; the server is
stopped (and the database dropped) however the test ends.
"""

from __future__ import annotations

import contextlib
import json
import random
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

import skald.core.access  # noqa: F401  (its table is created with the store's)
from skald.core.engine import Engine
from skald.core.signing import load_receipt
from skald.core.store import EventStore, events, streams
from skald.projections.table import Table
from tests.conftest import _pg_or_skip
from tests.patience import HUNG, wait_until
from tests.servers import Server, pg_database

KILLS = 5  # per backend, every one made
CLIENTS = 4
FLOWING = 3  # moves acknowledged after a (re)start before the next kill: under load
REQUESTS_PER_CLIENT = 50_000  # a bound on a runaway client, far above what a run makes


@dataclass
class Ack:
    """A move the server acknowledged (201): where, and what it answered."""

    game: str
    seq: int
    hash: str
    events: int
    receipt: bytes | None


@dataclass
class Load:
    """What the clients did, shared between their threads."""

    acks: list[Ack] = field(default_factory=list)
    games: dict[str, int] = field(default_factory=dict)  # id -> seq answered at creation
    statuses: dict[int, int] = field(default_factory=dict)
    refused: int = 0  # requests while the server was down
    cut: int = 0  # requests in flight when it was killed (outcome unknown to the client)
    moves_cut: int = 0  # of which moves
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, status: int) -> None:
        with self.lock:
            self.statuses[status] = self.statuses.get(status, 0) + 1


def autoplay(base: str, load: Load, stop: threading.Event, rng: random.Random) -> None:
    """One client: create a game, play random legal moves for whoever is to act; when the
    server is gone, wait for it to come back and carry on with the same game."""
    game: dict[str, Any] | None = None
    # A request the kill cuts fails at once; one that outlasts HUNG is stuck.
    with httpx.Client(base_url=base, timeout=HUNG) as client:
        for _ in range(REQUESTS_PER_CLIENT):
            if stop.is_set():
                return
            try:
                if game is None:
                    created = client.post(
                        "/games", json={"game": "beowulf", "players": ["Ann", "Bob"]}
                    )
                    load.count(created.status_code)
                    if created.status_code == 201:
                        game = created.json()
                        with load.lock:
                            load.games[str(game["id"])] = int(game["seq"])
                    continue
                summary = client.get(f"/games/{game['id']}")
                load.count(summary.status_code)
                if summary.status_code != 200:
                    continue
                if summary.json()["outcome"] is not None:
                    game = None
                    continue
                seat = summary.json()["to_act"][0]
                token = game["seats"][seat]["token"]
                headers = {"Authorization": f"Bearer {token}"}
                legal = client.get(f"/games/{game['id']}/legal", headers=headers)
                load.count(legal.status_code)
                if legal.status_code != 200 or not legal.json()["moves"]:
                    continue
                moved = client.post(
                    f"/games/{game['id']}/moves",
                    headers=headers,
                    json={
                        "move": rng.choice(legal.json()["moves"]),
                        "expected_seq": legal.json()["seq"],
                    },
                )
                load.count(moved.status_code)
                if moved.status_code == 201:
                    answer = moved.json()
                    receipt = answer.get("receipt")
                    with load.lock:
                        load.acks.append(
                            Ack(
                                game=str(game["id"]),
                                seq=answer["seq"],
                                hash=answer["events"][-1]["hash"],
                                events=len(answer["events"]),
                                receipt=json.dumps(receipt).encode() if receipt else None,
                            )
                        )
            except httpx.ConnectError:  # down: wait for it to come back
                with load.lock:
                    load.refused += 1
                time.sleep(0.05)
            except httpx.TransportError as error:  # killed under us: the outcome is unknown
                with load.lock:
                    load.cut += 1
                    load.moves_cut += "/moves" in str(error.request.url)


@contextlib.contextmanager
def store_url_for(backend: str, tmp_path: Path) -> Iterator[str]:
    """A fresh store: a SQLite file, or a PostgreSQL database of this test's own."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path}/kill.db"
        return
    with pg_database("skald_kill", _pg_or_skip()) as url:
        yield url


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_kill_9_under_load_loses_no_acknowledged_move_and_leaves_no_half_batch(
    backend: str, tmp_path: Path
) -> None:
    seed = random.randrange(2**32)
    rng = random.Random(seed)
    load = Load()
    stop = threading.Event()
    with store_url_for(backend, tmp_path) as url, Server(url, tmp_path / "server.log") as server:
        EventStore(url).dispose()  # the tables exist before the first start
        clients = [
            threading.Thread(
                target=autoplay,
                daemon=True,
                args=(server.base, load, stop, random.Random(seed + n)),
            )
            for n in range(CLIENTS)
        ]
        started = time.monotonic()
        kills = 0
        try:
            while kills < KILLS:  # every kill is made, however long a loaded machine takes
                server.start()
                if not any(client.is_alive() for client in clients):
                    for client in clients:
                        client.start()
                before = len(load.acks)
                wait_until(  # load is flowing again
                    lambda before=before: len(load.acks) >= before + FLOWING,
                    f"{FLOWING} moves acknowledged after start {kills + 1} (seed {seed})",
                )
                time.sleep(rng.uniform(0.0, 1.0))  # then a random moment under load
                server.kill()
                kills += 1
            server.start()  # once more on the same store: it starts after the last kill
            assert httpx.get(f"{server.base}/games", timeout=HUNG).status_code == 200
        finally:
            took = time.monotonic() - started
            stop.set()
            for client in clients:
                if client.is_alive() or client.ident is not None:
                    client.join(timeout=HUNG)
            server.stop()

        assert kills == KILLS, (kills, seed)
        assert not any(client.is_alive() for client in clients), f"a client hung (seed {seed})"
        assert len(load.acks) >= KILLS * FLOWING, (len(load.acks), seed)
        failures = {
            status: n for status, n in load.statuses.items() if status not in (200, 201, 409)
        }
        assert not failures, (failures, seed)
        checked = check_store(url, load)
        cut_last_batch(url)  # the check is not vacuous: a half batch is caught
        with pytest.raises(AssertionError, match="half batch"):
            check_store(url, Load())
    print(
        f"\n{backend}: {kills} kills in {took:.0f} s, {len(load.games)} games, {len(load.acks)} "
        f"acknowledged moves, {load.cut} requests cut in flight "
        f"({load.moves_cut} moves), "
        f"{load.statuses.get(409, 0)} conflicts, {checked} events checked (seed {seed})"
    )


def check_store(url: str, load: Load) -> int:
    """Every acknowledged game and move is in the store as answered; every game verifies
    and re-derives clean to a whole decision. The number of events checked."""
    store = EventStore(url)
    try:
        table = Table(Engine(store))
        stored = {info.id: info.version for info in store.list_streams(limit=10_000)}
        assert set(load.games) <= set(stored), set(load.games) - set(stored)
        last_receipt: dict[str, Ack] = {}
        records = {game: store.read(game) for game in stored}
        for game, version in stored.items():  # the header moved with its events
            assert version == len(records[game]) == records[game][-1].seq, game
        for ack in load.acks:
            log = records[ack.game]
            lost = f"acknowledged move at {ack.game}:{ack.seq} lost or changed"
            assert len(log) >= ack.seq, lost
            assert log[ack.seq - 1].hash == ack.hash, lost
            if ack.receipt is not None:
                last_receipt[ack.game] = ack
        for game, created_seq in load.games.items():
            assert len(records[game]) >= created_seq
        checked = 0
        for game, log in records.items():
            chain = table.verify(game)
            assert chain.ok, (game, chain)
            assert chain.checked == len(log), (game, chain)
            report = table.audit(game, table.viewer(game, "referee"))
            derived = report.rederivation
            assert derived.complete_through == len(log), (
                f"{game}: a half batch after seq {derived.complete_through}",
                derived.findings,
            )
            assert derived.clean, (game, derived.findings, derived.unsupported)
            assert derived.checked_through == len(log), game
            assert report.verdict == "clean", (game, report.verdict, report.anomalies)
            checked += len(log)
        for game, ack in last_receipt.items():
            assert ack.receipt is not None
            assert table.verify_receipt(game, load_receipt(ack.receipt)).ok, game
        return checked
    finally:
        store.dispose()


def cut_last_batch(url: str) -> None:
    """Drop the last event of the longest game (its header moved back too): what a store
    that wrote a batch in pieces would leave after a kill between them."""
    store = EventStore(url)
    try:
        game = max(store.list_streams(limit=10_000), key=lambda info: info.version)
        with store.engine.begin() as conn:
            conn.execute(
                sa.delete(events).where(events.c.stream_id == game.id, events.c.seq == game.version)
            )
            conn.execute(
                sa.update(streams).where(streams.c.id == game.id).values(version=game.version - 1)
            )
    finally:
        store.dispose()
