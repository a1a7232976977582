"""The store failing while seats play over the live channel (`/games/ID/play`), against a
real `skald serve` and real sockets: a SQLite store's disk filling up, a PostgreSQL
database turned read-only, and PostgreSQL ending the server's connections
(`pg_terminate_backend`).

Each time the seat whose decision the store fails under gets an error frame with the REST
answer's code and retry hint (`store_full` / `store_read_only`: retry false;
`store_unavailable`: retry true), nothing is written (the game's seq stays, the other
seat gets no update), the channel stays open, and once the store is back the same
channels play on: every seat's events arrive in seq order, none lost or repeated, and
the stored game verifies. The game's other channels may be told `store_unavailable`
once, when the failure hits their updates (a poll), and then follow on."""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection

from tests.conftest import _pg_or_skip
from tests.patience import HUNG
from tests.servers import Server, pg_database, tmpfs
from tests.test_api_play import channel, frame, new_game, summary
from tests.test_faults_pg import STORE_FAILURES, check_whole, end_sessions, fill, set_read_only


class Seats:
    """Both seats of one game, each on its own channel, with every frame each received."""

    def __init__(self, base: str, stack: ExitStack) -> None:
        self.base = base
        self.game = new_game(base, "store failure")
        self.conns: list[ClientConnection] = [
            stack.enter_context(channel(base, self.game["id"], seat["token"]))[0]
            for seat in self.game["seats"]
        ]
        self.latest = [frame(conn) for conn in self.conns]
        self.first = self.latest[0]["seq"]
        self.updates: list[list[dict[str, Any]]] = [[], []]
        self.told: list[list[dict[str, Any]]] = [[], []]  # the watch's store_unavailable
        self.rnd = random.Random(7)

    def next(self, k: int) -> dict[str, Any]:
        """Seat `k`'s next frame that is not the watch telling of a failing store."""
        while True:
            got = frame(self.conns[k])
            if got["type"] == "error" and got["message"].startswith(
                "the event store is unavailable; updates"
            ):
                self.told[k].append(got)
                continue
            return got

    def decide(self) -> dict[str, Any]:
        """The seat to act sends one legal move; its answer (an update or an error)."""
        actor = self.latest[0]["to_act"][0]
        update = self.latest[actor]
        move = {"type": "move", "move": self.rnd.choice(update["legal"])}
        self.conns[actor].send(json.dumps({**move, "expected_seq": update["seq"]}))
        answer = self.next(actor)
        if answer["type"] == "update":
            other = self.next(1 - actor)
            assert other["type"] == "update", other
            assert other["seq"] == answer["seq"], other
            pair = [answer, other] if actor == 0 else [other, answer]
            for k in (0, 1):
                self.updates[k].append(pair[k])
            self.latest = pair
        return answer

    def nothing_more(self) -> None:
        """No seat got an update it should not have (nothing was written)."""
        for k in (0, 1):
            while (got := self._within(k, 0.6)) is not None:
                assert "updates follow" in got["message"], got
                self.told[k].append(got)

    def _within(self, k: int, seconds: float) -> dict[str, Any] | None:
        try:
            return dict(json.loads(self.conns[k].recv(timeout=seconds)))
        except TimeoutError:
            return None

    def refused(self, code: str) -> dict[str, Any]:
        """A decision answered with the store failure `code`; nothing written."""
        seq = self.latest[0]["seq"]
        answer = self.decide()
        assert answer["type"] == "error", answer
        status_retry = STORE_FAILURES[code]
        assert answer["error"] == code, answer
        assert answer["retry"] is status_retry[1], answer
        assert ("try again" in answer["message"]) is status_retry[1], answer
        assert summary(self.base, self.game["id"])["seq"] == seq == self.latest[0]["seq"]
        self.nothing_more()
        return answer

    def plays_on(self, decisions: int = 3, wait: float = 15) -> None:
        """The same channels take decisions again (retried while the store comes back)."""
        made = 0
        for _ in range(int(wait / 0.2) + decisions):
            answer = self.decide()
            if answer["type"] == "update":
                made += 1
                if made == decisions or answer["outcome"] is not None:
                    break
            else:
                assert answer["error"] in STORE_FAILURES, answer
        assert made == decisions or self.latest[0]["outcome"] is not None
        final = self.latest[0]["seq"]
        for k in (0, 1):
            seqs = [e["seq"] for u in self.updates[k] for e in u["events"]]
            assert seqs == list(range(self.first + 1, final + 1)), "none lost, none twice"
            assert len(self.told[k]) <= 1, self.told[k]
        assert summary(self.base, self.game["id"])["seq"] == final


def play_through(
    url: str, log: Path, fail: Callable[[Seats], str], heal: Callable[[], None], poll: str = "0.2"
) -> None:
    """Two seats play, `fail` breaks the store (and names the error code expected), a
    decision is refused, `heal` mends it, and the same channels play on (`poll`: the
    server's live poll interval)."""
    env = {**os.environ, "SKALD_LIVE_POLL": poll}
    with Server(url, log, env=env) as server, ExitStack() as stack:
        seats = Seats(server.start(), stack)
        seats.plays_on(2)
        code = fail(seats)
        try:
            seats.refused(code)
        finally:
            heal()
        seats.plays_on(3)
    check_whole(url)
    text = log.read_text()
    assert "Traceback" not in text, text[-3000:]


def test_a_full_sqlite_disk_is_told_on_the_channel_and_play_resumes(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "disk", "8m") as disk:
        filler: list[Path] = []

        def fail(seats: Seats) -> str:
            filler.append(fill(disk, 512))
            for _ in range(200):  # decisions until one no longer fits (a page may hold one)
                answer = seats.decide()
                if answer["type"] == "error":
                    assert answer["error"] == "store_full", answer
                    break
            return "store_full"

        def heal() -> None:
            filler[0].unlink()

        play_through(f"sqlite:///{disk}/skald.db", tmp_path / "server.log", fail, heal)


@pytest.fixture
def pg(tmp_path: Path) -> Iterator[tuple[str, str, str]]:
    """A database of this test's own: (its URL, the server's URL, its name)."""
    server_url = _pg_or_skip()
    with pg_database("skald_play_fail", server_url) as url:
        name = url.rsplit("/", 1)[-1].split("?")[0]
        yield url, server_url, name


@pytest.mark.postgres
def test_a_read_only_postgresql_store_is_told_on_the_channel(
    pg: tuple[str, str, str], tmp_path: Path
) -> None:
    url, server_url, name = pg

    def fail(seats: Seats) -> str:
        set_read_only(server_url, name, True)  # (its sessions ended: the pool reconnects)
        deadline = time.monotonic() + HUNG
        while httpx.get(f"{seats.base}/games/{seats.game['id']}", timeout=HUNG).is_error:
            assert time.monotonic() < deadline, "hung: reads did not come back"
            time.sleep(0.2)
        return "store_read_only"

    def heal() -> None:
        set_read_only(server_url, name, False)

    play_through(url, tmp_path / "server.log", fail, heal)


@pytest.mark.postgres
def test_postgresql_ending_the_servers_connections_is_told_on_the_channel(
    pg: tuple[str, str, str], tmp_path: Path
) -> None:
    url, server_url, name = pg

    def fail(_seats: Seats) -> str:
        end_sessions(server_url, name)  # the seat's decision is the server's next statement
        return "store_unavailable"

    # No poll in the window: the decision, not the watch, meets the ended connection.
    play_through(url, tmp_path / "server.log", fail, lambda: None, poll="60")
