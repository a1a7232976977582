"""The HTTP benchmark behind `skald bench`: autoplaying clients against a real server.

For each backend (a fresh SQLite file; PostgreSQL when a URL is given) it starts
`skald serve` in a subprocess, measures a do-nothing endpoint (`GET /health`) with the
same number of concurrent clients as the baseline, then lets the clients autoplay whole
games through HTTP: each decision is `GET /games/{id}` (whose turn), `GET .../legal` with
that seat's token, and `POST .../moves` with `expected_seq`. It reports decisions per
second, all requests per second, and the latency of the move POSTs, with ratios to the
baseline. Clients run in this process on one asyncio loop; the server in its own.
"""

from __future__ import annotations

import asyncio
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import httpx

import skald.core.access  # noqa: F401  (its table is created with the store's)
from skald.core.store import EventStore


@dataclass
class Tally:
    """What one measurement collected."""

    latencies: list[float] = field(default_factory=list)
    requests: int = 0
    moves: int = 0
    conflicts: int = 0
    errors: int = 0
    games: int = 0
    elapsed: float = 0.0

    def percentile(self, fraction: float) -> float:
        """A latency percentile in milliseconds."""
        ordered = sorted(self.latencies)
        if not ordered:
            return float("nan")
        return 1000 * ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start_server(url: str, workers: int) -> tuple[subprocess.Popen[bytes], str]:
    EventStore(url).dispose()
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "skald.cli.main",
            "serve",
            "--port",
            str(port),
            "--db",
            url,
            "--workers",
            str(workers),
            "--log-level",
            "warning",
        ],
        env={**os.environ, "SKALD_DB": url},
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                return process, base
        except httpx.HTTPError:
            time.sleep(0.1)
    process.terminate()
    raise RuntimeError("the benchmark server did not start")


async def _baseline_client(client: httpx.AsyncClient, deadline: float, tally: Tally) -> None:
    while time.monotonic() < deadline:
        started = time.perf_counter()
        response = await client.get("/health")
        tally.latencies.append(time.perf_counter() - started)
        tally.requests += 1
        tally.errors += response.status_code != 200


async def _player(
    client: httpx.AsyncClient,
    deadline: float,
    tally: Tally,
    game: str,
    players: int,
    rnd: random.Random,
) -> None:
    names = [f"P{i + 1}" for i in range(players)]
    while time.monotonic() < deadline:
        created = (await client.post("/games", json={"game": game, "players": names})).json()
        tally.requests += 1
        tally.games += 1
        tokens = [{"Authorization": f"Bearer {seat['token']}"} for seat in created["seats"]]
        path = f"/games/{created['id']}"
        while time.monotonic() < deadline:
            summary = (await client.get(path)).json()
            if summary["outcome"] is not None or not summary["to_act"]:
                break
            seat = summary["to_act"][0]
            legal = (await client.get(f"{path}/legal", headers=tokens[seat])).json()
            tally.requests += 2
            if not legal["moves"]:
                break
            body = {"move": rnd.choice(legal["moves"]), "expected_seq": legal["seq"]}
            started = time.perf_counter()
            response = await client.post(f"{path}/moves", json=body, headers=tokens[seat])
            tally.latencies.append(time.perf_counter() - started)
            tally.requests += 1
            if response.status_code == 201:
                tally.moves += 1
            elif response.status_code == 409:
                tally.conflicts += 1
            else:
                tally.errors += 1


async def _measure(
    base: str, clients: int, seconds: float, game: str | None, players: int
) -> Tally:
    tally = Tally()
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as client:
        started = time.monotonic()
        deadline = started + seconds
        if game is None:
            jobs = [_baseline_client(client, deadline, tally) for _ in range(clients)]
        else:
            jobs = [
                _player(client, deadline, tally, game, players, random.Random(k))
                for k in range(clients)
            ]
        await asyncio.gather(*jobs)
        tally.elapsed = time.monotonic() - started
    return tally


def run_benchmark(
    clients: int, seconds: float, game: str, players: int, pg_url: str | None, workers: int = 1
) -> Iterator[str]:
    """Measure every backend; yield the report line by line."""
    with tempfile.TemporaryDirectory() as folder:
        backends = [("SQLite", f"sqlite:///{folder}/bench.db")]
        if pg_url:
            backends.append(("PostgreSQL", pg_url))
        yield (
            f"skald bench: {clients} concurrent clients, {seconds:g} s per measurement, "
            f"{game} with {players} players, {workers} server worker(s)"
        )
        for name, url in backends:
            process, base = _start_server(url, workers)
            try:
                baseline = asyncio.run(_measure(base, clients, seconds, None, players))
                played = asyncio.run(_measure(base, clients, seconds, game, players))
            finally:
                process.terminate()
                process.wait(timeout=30)
            yield from _report(name, baseline, played)


def _report(name: str, baseline: Tally, played: Tally) -> Iterator[str]:
    base_rate = baseline.requests / baseline.elapsed
    move_rate = played.moves / played.elapsed
    request_rate = played.requests / played.elapsed
    p50, p99 = played.percentile(0.50), played.percentile(0.99)
    b50, b99 = baseline.percentile(0.50), baseline.percentile(0.99)
    yield f"{name}:"
    yield (
        f"  baseline GET /health   {base_rate:8.0f} req/s   p50 {b50:7.2f} ms   p99 {b99:7.2f} ms"
    )
    yield (
        f"  autoplay               {move_rate:8.0f} moves/s ({request_rate:.0f} req/s, "
        f"{played.games} games, {played.conflicts} conflicts, {played.errors} errors)"
    )
    yield (f"  POST /moves latency    p50 {p50:7.2f} ms   p99 {p99:7.2f} ms")
    yield (
        f"  vs baseline            moves/s = {move_rate / base_rate:.3f} x health req/s; "
        f"all req/s = {request_rate / base_rate:.3f} x; move p50 = {p50 / b50:.1f} x, "
        f"p99 = {p99 / b99:.1f} x"
    )
