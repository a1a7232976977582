"""The service as real uvicorn processes: live SSE streams, several servers on one
PostgreSQL, concurrent moves, and `skald serve --workers 2`.

Each server is a subprocess on a free loopback port. For the toy game the subprocess
imports `tests.toy_game` before starting uvicorn (single worker); the multi-worker test
uses `skald serve` itself with the built-in Beowulf.
"""

from __future__ import annotations

import contextlib
import json
import queue
import socket
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

import skald.core.access  # noqa: F401  (creates the token table with the store's)
from skald.core.engine import Engine
from skald.core.rules import game_names
from skald.core.store import EventStore
from skald.projections.table import Table
from tests.conftest import fresh_store_url
from tests.patience import HUNG, wait_until
from tests.servers import free_port, running

ROOT = Path(__file__).resolve().parent.parent
# uvicorn as `skald serve` runs it (the service's protocol: its answers, streams included,
# leave through api/wire.py), with the toy game registered.
TOY_SERVER = (
    "import sys, uvicorn, tests.toy_game; from skald.api.edge import JsonErrorHttpToolsProtocol;"
    " from skald.api.ws_protocol import SkaldWebSocketProtocol;"
    " uvicorn.run('skald.api.main:app_from_env', factory=True, host='127.0.0.1',"
    " port=int(sys.argv[1]), log_level='warning', timeout_graceful_shutdown=3,"
    " http=JsonErrorHttpToolsProtocol, ws=SkaldWebSocketProtocol)"
)


@contextmanager
def toy_server(url: str, poll: str = "0.2") -> Iterator[str]:
    port = free_port()
    with running([sys.executable, "-c", TOY_SERVER, str(port)], port, url, poll) as base:
        yield base


@contextmanager
def private_postgres(tmp_path: Path) -> Iterator[str]:
    """A database of its own on the test cluster (other suites drop the shared one's
    tables), with the tables created once, before several servers start on it."""
    shared = sa.engine.make_url(fresh_store_url("postgresql", tmp_path))
    name = f"skald_api_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(shared, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f"CREATE DATABASE {name}"))
    url = shared.set(database=name).render_as_string(hide_password=False)
    try:
        EventStore(url).dispose()
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        admin.dispose()


class Subscriber:
    """An SSE connection read by a thread; messages arrive on a queue as (seq, envelope)."""

    def __init__(
        self, base: str, game_id: str, token: str | None, last_event_id: int | None = None
    ) -> None:
        self.messages: queue.Queue[tuple[int, dict[str, Any]]] = queue.Queue()
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self.response: httpx.Response | None = None
        self.client = httpx.Client(timeout=httpx.Timeout(HUNG))
        self.thread = threading.Thread(
            target=self._read, daemon=True, args=(f"{base}/games/{game_id}/events", headers)
        )
        self.thread.start()

    def _read(self, url: str, headers: dict[str, str]) -> None:
        with contextlib.suppress(httpx.HTTPError):  # closed by the test
            self._stream(url, headers)

    def _stream(self, url: str, headers: dict[str, str]) -> None:
        with self.client.stream("GET", url, headers=headers) as response:
            self.response = response
            fields: dict[str, str] = {}
            for line in response.iter_lines():
                if not line:
                    if "id" in fields:
                        self.messages.put((int(fields["id"]), json.loads(fields["data"])))
                    fields = {}
                elif not line.startswith(":"):
                    name, _, value = line.partition(": ")
                    fields[name] = value

    def take(self, count: int, timeout: float = HUNG) -> list[tuple[int, dict[str, Any]]]:
        """The next `count` messages (waiting for each as long as it takes, unless hung)."""
        return [self.messages.get(timeout=timeout) for _ in range(count)]

    def close(self) -> None:
        """Hang up for real: shut the socket down, so the reader and the server both see
        it at once (closing the client from another thread would leave a recv blocked)."""
        if self.response is not None:
            stream = self.response.extensions["network_stream"]
            with contextlib.suppress(OSError):
                stream.get_extra_info("socket").shutdown(socket.SHUT_RDWR)
        self.thread.join(timeout=5)
        self.client.close()


def create(
    base: str, game: str = "toy", players: tuple[str, ...] = ("Ann", "Bob"), **options: str
) -> dict[str, Any]:
    response = httpx.post(
        f"{base}/games", json={"game": game, "players": list(players), "options": options}
    )
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def post_move(
    base: str, game_id: str, token: str, notation: str, expected: int | None
) -> httpx.Response:
    return httpx.post(
        f"{base}/games/{game_id}/moves",
        json={"move": notation, "expected_seq": expected},
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )


def card_of(envelope: dict[str, Any]) -> dict[str, Any] | None:
    event = envelope["event"]
    return event["card"] if event["type"] == "toy.card_dealt" else None


def test_sse_streams_each_viewer_its_own_events_live_and_resumes(tmp_path: Path) -> None:
    url = fresh_store_url("sqlite", tmp_path)
    with toy_server(url) as base:
        game = create(base)
        ann, bob = (seat["token"] for seat in game["seats"])
        ann_feed, bob_feed = Subscriber(base, game["id"], ann), Subscriber(base, game["id"], bob)
        spectator = Subscriber(base, game["id"], None)
        for feed in (ann_feed, bob_feed, spectator):
            assert [seq for seq, _ in feed.take(4)] == [1, 2, 3, 4]  # the history first
        assert post_move(base, game["id"], ann, "draw", 4).status_code == 201  # seqs 5, 6
        ann_sees, bob_sees, public = ann_feed.take(2), bob_feed.take(2), spectator.take(2)
        assert [seq for seq, _ in ann_sees] == [5, 6] == [seq for seq, _ in bob_sees]
        assert card_of(ann_sees[1][1])["value"] is not None  # type: ignore[index]
        assert card_of(bob_sees[1][1])["value"] is None  # type: ignore[index]
        assert card_of(public[1][1])["salt"] is None  # type: ignore[index]
        bob_feed.close()

        assert post_move(base, game["id"], bob, "bet 3", 6).status_code == 201  # seqs 7, 8
        resumed = Subscriber(base, game["id"], bob, last_event_id=6)
        assert [seq for seq, _ in resumed.take(2)] == [7, 8]
        assert [seq for seq, _ in ann_feed.take(2)] == [7, 8]
        for feed in (ann_feed, spectator, resumed):
            feed.close()


def listeners(url: str) -> int:
    """The connections LISTENing on the database of `url` (each server's feed holds one)."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return int(
                conn.execute(
                    sa.text(
                        "SELECT count(*) FROM pg_stat_activity"
                        " WHERE datname = current_database() AND query LIKE 'LISTEN %'"
                    )
                ).scalar_one()
            )
    finally:
        engine.dispose()


@pytest.mark.postgres
def test_two_servers_one_postgres_live_updates_cross_processes(tmp_path: Path) -> None:
    # Polling once a day: only a notification can deliver before the test calls it hung,
    # however long a loaded machine takes to (a poll every 60 s raced a 10 s deadline).
    with (
        private_postgres(tmp_path) as url,
        toy_server(url, poll="86400") as first,
        toy_server(url, poll="86400") as second,
    ):
        # Both servers listen on the store's channel before the move (not a sleep that
        # hopes so): a notification sent before the listener's LISTEN is lost by design.
        wait_until(lambda: listeners(url) == 2, "both servers listening")
        game = create(first)
        ann, bob = (seat["token"] for seat in game["seats"])
        watcher = Subscriber(first, game["id"], bob)
        assert [seq for seq, _ in watcher.take(4)] == [1, 2, 3, 4]
        started = time.monotonic()
        assert post_move(second, game["id"], ann, "bet 2", 4).status_code == 201
        assert [seq for seq, _ in watcher.take(2)] == [5, 6]
        print(f"a move on the second server reached the first's stream in "
              f"{time.monotonic() - started:.2f} s")  # fmt: skip
        assert post_move(second, game["id"], bob, "draw", 6).status_code == 201
        drawn = watcher.take(2)
        assert card_of(drawn[1][1])["value"] is not None  # type: ignore[index]
        watcher.close()


def race(
    bases: list[str], game_id: str, token: str, notation: str, expected: int, racers: int
) -> list[httpx.Response]:
    """`racers` identical moves at once, spread over the servers."""
    barrier = threading.Barrier(racers)

    def one(index: int) -> httpx.Response:
        barrier.wait()
        return post_move(bases[index % len(bases)], game_id, token, notation, expected)

    with ThreadPoolExecutor(racers) as pool:
        return list(pool.map(one, range(racers)))


def check_one_winner(responses: list[httpx.Response], expected: int) -> int:
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [201] + [409] * (len(responses) - 1), statuses
    winner = next(r for r in responses if r.status_code == 201).json()
    assert winner["events"][0]["seq"] == expected + 1
    for loser in (r for r in responses if r.status_code == 409):
        assert loser.json()["current_seq"] == winner["seq"]
    return int(winner["seq"])


@pytest.mark.postgres
def test_concurrent_moves_on_two_servers_have_one_winner(tmp_path: Path) -> None:
    with private_postgres(tmp_path) as url:
        with toy_server(url) as first, toy_server(url) as second:
            game = create(first)
            tokens = [seat["token"] for seat in game["seats"]]
            seq = game["seq"]
            for decision in range(6):
                seq = check_one_winner(
                    race([first, second], game["id"], tokens[decision % 2], "bet 1", seq, racers=8),
                    seq,
                )
        store = EventStore(url)
        try:
            report = Table(Engine(store)).verify(game["id"])
            records = store.read(game["id"])
        finally:
            store.dispose()
    assert report.ok, report.reason
    assert [r.seq for r in records] == list(range(1, seq + 1))
    assert sum(r.kind == "skald.move_made" for r in records) == 6


@pytest.mark.postgres
@pytest.mark.skipif("beowulf" not in game_names(), reason="Beowulf is not installed")
def test_skald_serve_with_two_workers(tmp_path: Path) -> None:
    port = free_port()
    with (
        private_postgres(tmp_path) as url,
        running(
            [
                sys.executable,
                "-m",
                "skald.cli.main",
                "serve",
                "--port",
                str(port),
                "--workers",
                "2",
                "--db",
                url,
                "--log-level",
                "warning",
            ],
            port,
            url,
        ) as base,
    ):
        game = create(base, "beowulf")
        seq = game["seq"]
        for _ in range(3):
            summary = httpx.get(f"{base}/games/{game['id']}").json()
            token = game["seats"][summary["to_act"][0]]["token"]
            legal = httpx.get(
                f"{base}/games/{game['id']}/legal", headers={"Authorization": f"Bearer {token}"}
            ).json()
            seq = check_one_winner(
                race([base], game["id"], token, legal["moves"][0], seq, racers=6), seq
            )
