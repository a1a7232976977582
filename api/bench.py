"""The HTTP half of `skald bench`: a real `skald serve` under a client that is not the
bottleneck.

For each backend (a fresh SQLite file; PostgreSQL when a URL is given) it starts `skald
serve` in a subprocess on 127.0.0.1 and measures, with the same client in the same run:

- `http.health`: requests/s of `GET /health` (a do-nothing route), the baseline;
- `http.move`: decisions/s of clients autoplaying their own games; a decision is one
  `POST /moves` (its answer says whose turn it is and carries the acting seat's legal
  moves), plus `GET /legal` when the next seat to act is another one (the client plays
  every seat of its games); with p50/p99 of the POSTs, the server's CPU per decision and
  the client's own CPU share (near 100% would mean the client limits the figure);
- `memory.rss.N`: the server's resident memory with 1, 100 and 10,000 live games (each
  created and moved once, so its state sits in the engine's cache).

The client is asyncio over raw sockets (HTTP/1.1 keep-alive, one connection per client,
hand-written requests): it spends a few microseconds per request. Every request's status
is counted (errors, and 5xx among them; an error ends the game it happened in, a lost
connection the client). Every run is bounded
in time and requests and stops by itself; nothing but 127.0.0.1 is contacted.
"""

from __future__ import annotations

import asyncio
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec

import skald.core.access  # noqa: F401  (its table is created with the store's)
from skald.core.store import EventStore

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class Figure(msgspec.Struct, frozen=True):
    """One measured figure beside its baseline; `ratio = value / baseline_value`."""

    name: str
    value: float
    unit: str
    baseline: str
    baseline_value: float
    ratio: float
    note: str = ""


def figure(
    name: str, value: float, unit: str, baseline: str, base: float, note: str = ""
) -> Figure:
    """A figure with its ratio."""
    return Figure(name, value, unit, baseline, base, value / base if base else float("nan"), note)


@dataclass
class Tally:
    """What one measurement collected."""

    latencies: list[float] = field(default_factory=list)
    requests: int = 0
    decisions: int = 0
    errors: int = 0
    server_errors: int = 0
    elapsed: float = 0.0
    client_cpu: float = 0.0
    server_cpu: float = 0.0
    received: int = 0  # bytes of the answers (heads and bodies) the clients read

    def percentile(self, fraction: float) -> float:
        """A latency percentile in milliseconds."""
        ordered = sorted(self.latencies)
        if not ordered:
            return float("nan")
        return 1000 * ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class Connection:
    """One keep-alive HTTP/1.1 connection: requests written by hand, answers read by
    Content-Length (the server never chunks these routes)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.received = 0  # bytes read: every answer's head and body

    @classmethod
    async def open(cls, port: int) -> Connection:
        """Connect to 127.0.0.1:`port`."""
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        return cls(reader, writer)

    async def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        """Send one request; its status and decoded JSON body."""
        payload = b"" if body is None else msgspec.json.encode(body)
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(payload)}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        if token is not None:
            head += f"Authorization: Bearer {token}\r\n"
        self.writer.write(head.encode() + b"\r\n" + payload)
        status_line = await self.reader.readline()
        if not status_line:
            raise ConnectionError("the server closed the connection")
        length, received = 0, len(status_line)
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            received += len(line)
            name, _, value = line.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        data = await self.reader.readexactly(length) if length else b""
        self.received += received + 2 + length
        status = int(status_line.split()[1])
        try:
            return status, msgspec.json.decode(data) if data else None
        except msgspec.DecodeError:
            return status, data  # not JSON (a server error page): the status is what counts

    def close(self) -> None:
        """Close the socket."""
        self.writer.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(
    url: str, workers: int = 1, env: dict[str, str] | None = None
) -> tuple[subprocess.Popen[bytes], int]:
    """`skald serve` on a free port of 127.0.0.1, once /health answers."""
    EventStore(url).dispose()
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "skald.cli.main", "serve", "--port", str(port), "--db", url,
         "--workers", str(workers), "--log-level", "warning"],
        env={**os.environ, "SKALD_DB": url, **(env or {})},
    )  # fmt: skip
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                sock.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                if b" 200 " in sock.recv(100):
                    return process, port
        except OSError:
            time.sleep(0.1)
    process.terminate()
    raise RuntimeError("the benchmark server did not start")


def _tree(pid: int) -> list[int]:
    """A process and its descendants (uvicorn workers)."""
    found = [pid]
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) in found:
                        found.append(int(entry))
            except (OSError, ValueError, IndexError):
                continue
    return found


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process tree so far."""
    total = 0
    for member in _tree(pid):
        try:
            with open(f"/proc/{member}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, ValueError, IndexError):
            continue
    return total / CLOCK_TICKS


def rss_bytes(pid: int) -> int:
    """Resident memory of a process tree."""
    total = 0
    for member in _tree(pid):
        try:
            with open(f"/proc/{member}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
        except OSError:
            continue
    return total


def _answered(tally: Tally, status: int, expected: int) -> bool:
    """Count one request and its status; False (an error, counted) when it is not the
    expected one."""
    tally.requests += 1
    if status == expected:
        return True
    tally.errors += 1
    tally.server_errors += status >= 500
    return False


async def _health(port: int, deadline: float, tally: Tally) -> None:
    conn = await Connection.open(port)
    try:
        while time.monotonic() < deadline:
            started = time.perf_counter()
            status, _ = await conn.request("GET", "/health")
            tally.latencies.append(time.perf_counter() - started)
            _answered(tally, status, 200)
    except (OSError, asyncio.IncompleteReadError):
        tally.errors += 1  # the connection is gone: this client stops
    finally:
        conn.close()


async def _player(
    port: int, deadline: float, tally: Tally, game: str, players: int, k: int
) -> None:
    """Autoplay games until `deadline`. Every request's status is counted; an error ends
    the game it happened in (the next one starts), a refused game or a lost connection
    ends the client."""
    rnd = random.Random(k)
    conn = await Connection.open(port)
    names = [f"P{i + 1}" for i in range(players)]
    try:
        while time.monotonic() < deadline:
            status, created = await conn.request("POST", "/games", {"game": game, "players": names})
            if not _answered(tally, status, 201):
                return
            tokens = [seat["token"] for seat in created["seats"]]
            path = f"/games/{created['id']}"
            status, summary = await conn.request("GET", path)
            if not _answered(tally, status, 200):
                continue
            seq, to_act = summary["seq"], summary["to_act"]
            known: dict[int, list[str]] = {}
            while to_act and time.monotonic() < deadline:
                seat = to_act[0]
                moves = known.get(seat)
                if moves is None:
                    status, legal = await conn.request("GET", f"{path}/legal", token=tokens[seat])
                    if not _answered(tally, status, 200):
                        break
                    moves = legal["moves"]
                body = {"move": rnd.choice(moves), "expected_seq": seq}
                started = time.perf_counter()
                status, answer = await conn.request("POST", f"{path}/moves", body, tokens[seat])
                tally.latencies.append(time.perf_counter() - started)
                if not _answered(tally, status, 201):
                    break
                tally.decisions += 1
                seq, to_act, known = answer["seq"], answer["to_act"], {seat: answer["legal"]}
    except (OSError, asyncio.IncompleteReadError):  # ConnectionError is an OSError
        tally.errors += 1  # the connection is gone: this client stops
    finally:
        tally.received += conn.received
        conn.close()


async def _measure(
    port: int, clients: int, seconds: float, game: str | None, players: int, pid: int
) -> Tally:
    tally = Tally()
    cpu_before, server_before = time.process_time(), cpu_seconds(pid)
    started = time.monotonic()
    deadline = started + seconds
    if game is None:
        jobs = [_health(port, deadline, tally) for _ in range(clients)]
    else:
        jobs = [_player(port, deadline, tally, game, players, k) for k in range(clients)]
    await asyncio.gather(*jobs)
    tally.elapsed = time.monotonic() - started
    tally.client_cpu = time.process_time() - cpu_before
    tally.server_cpu = cpu_seconds(pid) - server_before
    return tally


def http_figures(
    label: str, url: str, clients: int, seconds: float, game: str, players: int, workers: int
) -> Iterator[Figure]:
    """`http.move` against `http.health` on one backend."""
    process, port = start_server(url, workers)
    try:
        health = asyncio.run(_measure(port, clients, seconds, None, players, process.pid))
        moves = asyncio.run(_measure(port, clients, seconds, game, players, process.pid))
    finally:
        process.terminate()
        process.wait(timeout=30)
    health_rate = health.requests / health.elapsed
    move_rate = moves.decisions / moves.elapsed
    p50, p99 = moves.percentile(0.5), moves.percentile(0.99)
    note = (
        f"{clients} client{'s' * (clients != 1)}, {workers} worker(s), {game} {players}p; "
        f"POST /moves p50 "
        f"{p50:.2f} ms p99 {p99:.2f} ms (p99/p50 {p99 / p50:.1f}); server CPU "
        f"{1000 * moves.server_cpu / max(moves.decisions, 1):.2f} ms/decision; client CPU "
        f"{100 * moves.client_cpu / moves.elapsed:.0f}% (health run "
        f"{100 * health.client_cpu / health.elapsed:.0f}%); requests/decision "
        f"{moves.requests / max(moves.decisions, 1):.2f}; errors {moves.errors} "
        f"(health run {health.errors}; 5xx {moves.server_errors + health.server_errors})"
    )
    yield figure(f"http.move.{label}", move_rate, "/s", f"http.health.{label}", health_rate, note)
    yield figure(
        f"http.move.p99.{label}", p99, "ms", f"http.move.p50.{label}", p50, "goal: ratio <= 5"
    )
    yield figure(
        f"http.move.server_cpu.{label}",
        1000 * moves.server_cpu / max(moves.decisions, 1),
        "ms",
        f"http.health.server_cpu.{label}",
        1000 * health.server_cpu / max(health.requests, 1),
        "server CPU per decision against per /health request",
    )


async def _populate(
    port: int, count: int, game: str, players: int, deadline: float
) -> tuple[int, int]:
    """Create and move `count` games (bounded by `deadline`): how many were, and how many
    requests failed (a worker stops at its first failure)."""
    names = [f"P{i + 1}" for i in range(players)]
    made = failed = 0

    async def worker(share: int) -> None:
        nonlocal made, failed
        conn = await Connection.open(port)
        try:
            for _ in range(share):
                if time.monotonic() > deadline:
                    return
                status, created = await conn.request(
                    "POST", "/games", {"game": game, "players": names}
                )
                if status != 201:
                    failed += 1
                    return
                path = f"/games/{created['id']}"
                status, summary = await conn.request("GET", path)
                if status != 200:
                    failed += 1
                    return
                seat = summary["to_act"][0]
                token = created["seats"][seat]["token"]
                status, legal = await conn.request("GET", f"{path}/legal", token=token)
                if status != 200:
                    failed += 1
                    return
                status, _ = await conn.request(
                    "POST", f"{path}/moves", {"move": legal["moves"][0]}, token
                )
                if status != 201:
                    failed += 1
                    return
                made += 1
        except (OSError, asyncio.IncompleteReadError):
            failed += 1
        finally:
            conn.close()

    parallel = 8
    await asyncio.gather(
        *(worker(count // parallel + (k < count % parallel)) for k in range(parallel))
    )
    return made, failed


def memory_figures(
    url: str, counts: tuple[int, ...], game: str, players: int, seconds: float
) -> Iterator[Figure]:
    """Server RSS with 1, 100, 10,000 live games (cache sized to hold them all)."""
    largest = max(counts)
    process, port = start_server(url, 1, {"SKALD_CACHE_GAMES": str(largest)})
    try:
        empty = rss_bytes(process.pid)
        live = failed = 0
        deadline = time.monotonic() + seconds
        for count in sorted(counts):
            made, errors = asyncio.run(_populate(port, count - live, game, players, deadline))
            live, failed = live + made, failed + errors
            rss = rss_bytes(process.pid)
            note = f"{live} live games of {game} {players}p"
            if failed:
                note += f" ({failed} failed requests stopped clients before {count})"
            elif live < count:
                note += f" (time bound of {seconds:g} s reached before {count})"
            yield figure(
                f"memory.rss.{count}", rss / 2**20, "MiB", "memory.rss.0", empty / 2**20, note
            )
    finally:
        process.terminate()
        process.wait(timeout=30)
