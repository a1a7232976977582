"""The live channel's half of `skald bench`: decisions over `/games/ID/play` beside REST,
from the same clients against the same server in the same run.

For each backend and client count, one `skald serve` (or two on one PostgreSQL database)
is measured: `GET /health` (the do-nothing baseline), then, alternately (`ROUNDS` rounds,
so that the shared machine's drift hits both alike), the REST clients of `api.bench` (a
POST /moves per decision, and the next seat's GET /legal) and the channel's clients: each
plays its own games with one WebSocket per seat, sending one message per decision and
reading, on every seat's channel, the one frame the decision brings. Figures:

- `ws.move.B.N`: decisions/s over the channel beside `http.move.B.N` (REST, same run);
- `ws.move.p99.B.N` beside its p50 (a decision's message to the acting seat's frame);
- `ws.move.server_cpu.B.N`: server CPU per decision beside per `/health` request;
- `ws.frames.B.N` and `ws.bytes.B.N`: frames and bytes per decision per seat, beside the
  REST client's requests and answer bytes per decision;
- `ws.move.postgresql.2servers`: two servers on one database (half the clients on each)
  beside one server's figure from the same run;
- `ws.memory.N`: server RSS with N open idle channels (spectators of one game) beside none,
  and `ws.idle_cpu.N`: the server's CPU share over a few idle seconds with them open.

The client speaks WebSocket over raw asyncio streams (RFC 6455 by hand, text frames, a
zero mask so masking costs nothing), as `api.bench`'s HTTP client speaks HTTP: a few
microseconds per frame. A frame that does not come within `FRAME_SECONDS`, an error frame,
a lost connection, a 5xx: each is counted and ends the game (or the client). Every run is
bounded in time and contacts only 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import struct
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgspec

from skald.api.bench import (
    Connection,
    Figure,
    Tally,
    _measure,
    cpu_seconds,
    figure,
    rss_bytes,
    start_server,
)
from skald.api.bench_work import HEARD, Heard, decision_work
from skald.core.identity import sign_decision

FRAME_SECONDS = 10.0
ROUNDS = 2  # REST and channel measurements alternate, each `seconds / ROUNDS` long
_HANDSHAKE = (
    "GET /games/{game}/play HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
    "Connection: Upgrade\r\nSec-WebSocket-Key: c2thbGQtYmVuY2gtMTZieQ==\r\n"
    "Sec-WebSocket-Version: 13\r\n\r\n"
)


class Closed(Exception):
    """The server closed the channel (its close code)."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class Channel:
    """One client WebSocket: text frames out (masked with a zero key), frames in."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.frames = self.bytes = 0

    @classmethod
    async def open(cls, port: int, game_id: str, hello: dict[str, Any]) -> Channel:
        """Connect, upgrade and say hello."""
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(_HANDSHAKE.format(game=game_id).encode())
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 101"):
            writer.close()
            raise ConnectionError(f"no upgrade: {head[:40]!r}")
        channel = cls(reader, writer)
        channel.send(hello)
        return channel

    def send(self, message: dict[str, Any]) -> None:
        """One text frame."""
        payload = msgspec.json.encode(message)
        size = len(payload)
        if size < 126:
            head = struct.pack("!BB", 0x81, 0x80 | size)
        elif size < 65536:
            head = struct.pack("!BBH", 0x81, 0x80 | 126, size)
        else:
            head = struct.pack("!BBQ", 0x81, 0x80 | 127, size)
        self.writer.write(head + b"\0\0\0\0" + payload)

    async def receive(self) -> Heard:
        """The next data frame, read (pings answered; Closed on a close frame)."""
        while True:
            first, second = await asyncio.wait_for(self.reader.readexactly(2), FRAME_SECONDS)
            size = second & 0x7F
            if size == 126:
                (size,) = struct.unpack("!H", await self.reader.readexactly(2))
            elif size == 127:
                (size,) = struct.unpack("!Q", await self.reader.readexactly(8))
            payload = await self.reader.readexactly(size) if size else b""
            opcode = first & 0x0F
            if opcode == 0x8:
                raise Closed(struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005)
            if opcode == 0x9:  # ping: pong with its payload
                self.writer.write(struct.pack("!BB", 0x8A, 0x80 | size) + b"\0\0\0\0" + payload)
                continue
            if opcode in (0x1, 0x2):
                self.frames += 1
                self.bytes += 2 + size + (2 if 126 <= size < 65536 else 8 if size >= 65536 else 0)
                return HEARD.decode(payload)

    def close(self) -> None:
        """Close the socket."""
        self.writer.close()


@dataclass
class ChannelTally(Tally):
    """A `Tally` with the frames and bytes the seats' channels received."""

    frames: int = 0
    frame_bytes: int = 0
    seat_decisions: int = 0  # decisions times the seats that each had to hear of it


async def _one_game(
    port: int, conn: Connection, deadline: float, tally: ChannelTally, game: str, players: int,
    rnd: random.Random, signed: bool = False,
) -> bool:  # fmt: skip
    """Play one game over the channel until it ends or `deadline`; False when the client
    should stop (the game could not be created)."""
    names = [f"P{i + 1}" for i in range(players)]
    status, created = await conn.request("POST", "/games", {"game": game, "players": names})
    tally.requests += 1
    if status != 201:
        tally.errors += 1
        tally.server_errors += status >= 500
        return False
    seats = [
        await Channel.open(port, created["id"], {"type": "hello", "token": seat["token"]})
        for seat in created["seats"]
    ]
    secrets_of = [secrets.token_bytes(32) for _ in seats]
    try:
        latest = []
        for channel in seats:
            welcome = await channel.receive()
            if welcome.type != "welcome":
                tally.errors += 1
                return True
            latest.append(await channel.receive())
        while latest[0].outcome is None and time.monotonic() < deadline:
            actor = latest[0].to_act[0]
            update = latest[actor]
            started = time.perf_counter()
            move = rnd.choice(update.legal or [""])
            message: dict[str, Any] = {"type": "move", "move": move, "expected_seq": update.seq}
            if signed:  # each seat signs with its own key, as the web table does
                message["signed"] = _signing(secrets_of[actor], created["id"], actor, update, move)
            seats[actor].send(message)
            answers = [await channel.receive() for channel in seats]
            if any(answer.type != "update" for answer in answers):
                tally.errors += 1
                return True
            tally.latencies.append(time.perf_counter() - started)
            tally.decisions += 1
            tally.seat_decisions += players
            latest = answers
        return True
    except Closed as closed:
        tally.errors += closed.code != 1000
        return True
    except (OSError, asyncio.IncompleteReadError, TimeoutError):
        tally.errors += 1
        return False
    finally:
        for channel in seats:
            tally.frames += channel.frames
            tally.frame_bytes += channel.bytes
            channel.close()


def _signing(secret: bytes, game_id: str, seat: int, update: Heard, move: str) -> Any:
    register = seat not in {who for who, _ in update.keys}
    assert update.seq is not None
    signing = sign_decision(secret, game_id, seat, update.seq, update.head, "move", move, register)
    return msgspec.to_builtins(signing)


async def _ws_player(
    port: int,
    deadline: float,
    tally: ChannelTally,
    game: str,
    players: int,
    k: int,
    signed: bool = False,
) -> None:
    rnd = random.Random(k)
    while time.monotonic() < deadline:
        # A connection per game's creation: a game outlasts the server's keep-alive
        # timeout (uvicorn's 5 s), which would close one kept between games.
        try:
            conn = await Connection.open(port)
        except OSError:
            tally.errors += 1
            return
        try:
            if not await _one_game(port, conn, deadline, tally, game, players, rnd, signed):
                return
        except (OSError, asyncio.IncompleteReadError):
            tally.errors += 1
            return
        finally:
            conn.close()


async def _measure_ws(
    ports: list[int],
    clients: int,
    seconds: float,
    game: str,
    players: int,
    pids: list[int],
    signed: bool = False,
) -> ChannelTally:
    tally = ChannelTally()
    cpu_before, server_before = time.process_time(), sum(map(cpu_seconds, pids))
    started = time.monotonic()
    deadline = started + seconds
    jobs = [
        _ws_player(ports[k % len(ports)], deadline, tally, game, players, k, signed)
        for k in range(clients)
    ]
    await asyncio.gather(*jobs)
    tally.elapsed = time.monotonic() - started
    tally.client_cpu = time.process_time() - cpu_before
    tally.server_cpu = sum(map(cpu_seconds, pids)) - server_before
    return tally


def _per(total: float, count: int) -> float:
    return total / count if count else float("nan")


def _stop(process: Any) -> None:
    process.terminate()
    process.wait(timeout=30)


def channel_figures(
    label: str, url: str, client_counts: tuple[int, ...], seconds: float, game: str, players: int
) -> Iterator[Figure]:
    """The channel against REST (and /health) on one server, for each client count."""
    process, port = start_server(url)
    pid, half = process.pid, seconds / ROUNDS
    try:
        for clients in client_counts:
            health = asyncio.run(_measure(port, clients, half, None, players, pid))
            rest, ws, signed = Tally(), ChannelTally(), ChannelTally()
            work = 0.0
            for _ in range(ROUNDS):  # alternately, so that the machine's drift hits each alike
                _add(rest, asyncio.run(_measure(port, clients, half, game, players, pid)))
                _add(ws, asyncio.run(_measure_ws([port], clients, half, game, players, [pid])))
                _add(
                    signed,
                    asyncio.run(_measure_ws([port], clients, half, game, players, [pid], True)),
                )
                work += decision_work(url, half / 2, game, players)[0] / ROUNDS
            yield from _figures(f"{label}.{clients}", clients, health, rest, ws, work)
            yield from _signed_figures(f"{label}.{clients}", ws, signed)
    finally:
        _stop(process)


def _add(total: Tally, part: Tally) -> None:
    """Count `part` into `total` (every counter summed, latencies joined)."""
    for name, value in vars(part).items():
        if name == "latencies":
            total.latencies.extend(value)
        else:
            setattr(total, name, getattr(total, name) + value)


def _figures(
    where: str, clients: int, health: Tally, rest: Tally, ws: ChannelTally, work: float
) -> Iterator[Figure]:
    rest_rate, ws_rate = rest.decisions / rest.elapsed, ws.decisions / ws.elapsed
    rest_cpu, ws_cpu = _per(rest.server_cpu, rest.decisions), _per(ws.server_cpu, ws.decisions)
    p50, p99 = ws.percentile(0.5), ws.percentile(0.99)
    note = (
        f"{clients} client(s); channel p50 {p50:.2f} ms p99 {p99:.2f} ms, REST POST p50 "
        f"{rest.percentile(0.5):.2f} p99 {rest.percentile(0.99):.2f} ms; client CPU "
        f"{100 * ws.client_cpu / ws.elapsed:.0f}% "
        f"(REST {100 * rest.client_cpu / rest.elapsed:.0f}%)"
        f"; errors {ws.errors} (REST {rest.errors}, health {health.errors}; 5xx "
        f"{ws.server_errors + rest.server_errors + health.server_errors})"
    )
    yield figure(f"ws.move.{where}", ws_rate, "/s", f"http.move.{where}", rest_rate, note)
    yield figure(f"ws.move.p99.{where}", p99, "ms", f"ws.move.p50.{where}", p50, "goal: ratio <= 5")
    yield figure(
        f"ws.move.server_cpu.{where}",
        1000 * ws_cpu,
        "ms",
        f"http.health.server_cpu.{where}",
        1000 * _per(health.server_cpu, health.requests),
        f"goal: ratio <= 3; REST {1000 * rest_cpu:.3f} ms/decision",
    )
    yield figure(
        f"ws.work.{where}",
        1000 * work,
        "ms",
        f"http.move.server_cpu.{where}",
        1000 * rest_cpu,
        f"the engine's work of a channel decision in process (rules, store, receipt, every "
        f"seat's frame; no socket) beside REST's server CPU per decision; the channel spends "
        f"{1000 * ws_cpu:.3f} ms in all, so {1000 * (ws_cpu - work):.3f} ms on its sockets and "
        f"loop; x1.6 REST's decisions/s allows {1000 * rest_cpu / 1.6:.3f} ms in all, 3 "
        f"/health requests {3000 * _per(health.server_cpu, health.requests):.3f} ms "
        f"(api/bench_work.py)",
    )
    yield figure(
        f"ws.frames.{where}",
        _per(ws.frames, ws.seat_decisions),
        "/seat",
        f"http.requests.{where}",
        _per(rest.requests, rest.decisions),
        "frames per decision per seat (welcome and first update included) beside REST "
        "requests per decision",
    )
    yield figure(
        f"ws.bytes.{where}",
        _per(ws.frame_bytes, ws.seat_decisions),
        "B/seat",
        f"http.bytes.{where}",
        _per(rest.received, rest.decisions),
        "bytes received per decision per seat beside REST answer bytes per decision",
    )


def _signed_figures(where: str, ws: ChannelTally, signed: ChannelTally) -> Iterator[Figure]:
    """Decisions signed by each seat's own key beside unsigned ones, same server and run."""
    note = (
        f"every decision signed by its seat's own Ed25519 key (core/identity.py: the server "
        f"checks each); goal: ratio >= 0.9; errors {signed.errors}; the clients sign in the "
        f"bench's process (client CPU {100 * signed.client_cpu / signed.elapsed:.0f}%, "
        f"unsigned {100 * ws.client_cpu / ws.elapsed:.0f}%)"
    )
    yield figure(
        f"ws.move.signed.{where}",
        signed.decisions / signed.elapsed,
        "/s",
        f"ws.move.{where}",
        ws.decisions / ws.elapsed,
        note,
    )
    yield figure(
        f"ws.move.signed.server_cpu.{where}",
        1000 * _per(signed.server_cpu, signed.decisions),
        "ms",
        f"ws.move.server_cpu.{where}",
        1000 * _per(ws.server_cpu, ws.decisions),
        "server CPU per signed decision beside per unsigned one",
    )


def two_server_figures(
    url: str, clients: int, seconds: float, game: str, players: int
) -> Iterator[Figure]:
    """Two servers on one database (half the clients on each) beside one, same run."""
    one, port_one = start_server(url)
    two, port_two = start_server(url)
    try:
        single = asyncio.run(_measure_ws([port_one], clients, seconds, game, players, [one.pid]))
        both = asyncio.run(
            _measure_ws([port_one, port_two], clients, seconds, game, players, [one.pid, two.pid])
        )
    finally:
        _stop(one)
        _stop(two)
    yield figure(
        "ws.move.postgresql.2servers",
        both.decisions / both.elapsed,
        "/s",
        "ws.move.postgresql.1server",
        single.decisions / single.elapsed,
        f"{clients} clients; goal: ratio >= 1.5 where the cores allow it; errors "
        f"{both.errors} (one server {single.errors}); server CPU "
        f"{1000 * _per(both.server_cpu, both.decisions):.2f} ms/decision "
        f"(one {1000 * _per(single.server_cpu, single.decisions):.2f})",
    )


async def _open_idle(port: int, game_id: str, count: int, into: list[Channel]) -> None:
    for _ in range(count):
        channel = await Channel.open(port, game_id, {"type": "hello"})
        await channel.receive()  # welcome
        await channel.receive()  # the game as it is
        into.append(channel)


def memory_figures(
    url: str, counts: tuple[int, ...], game: str, idle_seconds: float = 3.0
) -> Iterator[Figure]:
    """Server RSS and idle CPU with 1, 100, 1,000 open idle channels (spectators of one
    game) beside none."""
    process, port = start_server(url)
    opened: list[Channel] = []

    async def run() -> list[Figure]:
        conn = await Connection.open(port)
        status, created = await conn.request(
            "POST", "/games", {"game": game, "players": ["A", "B"]}
        )
        conn.close()
        if status != 201:
            raise RuntimeError(f"the memory run could not create a game ({status})")
        found: list[Figure] = []
        await asyncio.sleep(0.5)
        empty = rss_bytes(process.pid)
        before = cpu_seconds(process.pid)
        await asyncio.sleep(idle_seconds)
        idle_empty = (cpu_seconds(process.pid) - before) / idle_seconds
        for count in sorted(counts):
            await _open_idle(port, created["id"], count - len(opened), opened)
            await asyncio.sleep(0.5)
            rss = rss_bytes(process.pid)
            before = cpu_seconds(process.pid)
            await asyncio.sleep(idle_seconds)
            idle = (cpu_seconds(process.pid) - before) / idle_seconds
            per = (rss - empty) / max(count, 1) / 1024
            found.append(
                figure(
                    f"ws.memory.{count}", rss / 2**20, "MiB", "ws.memory.0", empty / 2**20,
                    f"{per:.1f} KiB per open channel; goal: 1,000 cost <= 50 MiB",
                )
            )  # fmt: skip
            found.append(
                figure(
                    f"ws.idle_cpu.{count}", 100 * idle, "%", "ws.idle_cpu.0", 100 * idle_empty,
                    f"server CPU share over {idle_seconds:g} s with {count} idle channels open",
                )
            )  # fmt: skip
        for channel in opened:
            channel.close()
        return found

    try:
        yield from asyncio.run(run())
    finally:
        _stop(process)
