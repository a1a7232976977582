"""Fault suite (issue 11): a full disk, a read-only store, two processes initialising a
fresh PostgreSQL database at once, a PostgreSQL restart under open live streams, and a
real `skald serve` keeping tokens out of its log and answering bad requests in JSON.

Mounting a tmpfs needs root (skipped otherwise, with the reason); the restart test runs
its own throwaway PostgreSQL cluster on a free loopback port (skipped without the
server binaries). Every wait is bounded; all traffic goes to 127.0.0.1.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from skald.core.store import store_refusal
from tests.cli_support import one_line, skald
from tests.conftest import PG_URL
from tests.patience import HUNG
from tests.processes import Processes
from tests.servers import START_SECONDS, Cluster, Server, free_port, own_cluster, tmpfs
from tests.test_faults_pg import fill, new_game, refused, try_move

ROOT = Path(__file__).resolve().parent.parent


def test_a_full_disk_gives_clean_errors_and_writes_nothing_half(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "small", "600k") as disk:
        url = f"sqlite:///{disk}/full.db"
        code, out, err = skald("new", "toy", "--players", "Ann,Bob", "--seed", "full", "--db", url)
        assert code == 0, err
        games = [out.strip()]
        for number in range(400):  # fill the disk with new games until it refuses
            code, out, err = skald(
                "new", "toy", "--players", "Ann,Bob", "--seed", f"fill {number}", "--db", url
            )
            if code != 0:
                break
            games.append(out.strip())
        assert code == 8, f"the disk never filled ({len(games)} games)"
        assert "full" in one_line(err)
        code, _, err = skald("move", games[0], "bet 1", "--as", "Ann", "--db", url)
        assert code in (0, 8), err
        # Space returns: everything stored verifies, and play goes on.
        subprocess.run(["mount", "-o", "remount,size=16m", str(disk)], check=True, timeout=HUNG)
        for game_id in (games[0], games[-1]):
            code, out, err = skald("verify", game_id, "--db", url)
            assert code == 0, err
        code, _, err = skald("move", games[-1], "bet 2", "--as", "Ann", "--db", url)
        assert code == 0 or "not Ann's turn" in err, err


def test_a_read_only_store_gives_clean_errors(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "ro", "8m") as disk:
        url = f"sqlite:///{disk}/ro.db"
        code, out, err = skald("new", "toy", "--players", "Ann,Bob", "--seed", "ro", "--db", url)
        assert code == 0, err
        game_id = out.strip()
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True, timeout=HUNG)
        for args in (
            ["move", game_id, "bet 1", "--as", "Ann"],
            ["show", game_id],
            ["new", "toy", "--players", "Ann,Bob"],
            ["receipt", game_id],
        ):
            code, _, err = skald(*args, "--db", url)
            assert code in (0, 8), (args, err)
            if code:
                one_line(err)
        subprocess.run(["mount", "-o", "remount,rw", str(disk)], check=True, timeout=HUNG)
        code, out, err = skald("verify", game_id, "--db", url)
        assert code == 0, err
        assert "ok: 4 events" in out, err


def test_the_api_says_a_full_sqlite_store_will_not_take_writes(tmp_path: Path) -> None:
    with tmpfs(tmp_path / "small", "8m") as disk:
        url = f"sqlite:///{disk}/api.db"
        with Server(url, tmp_path / "server.log") as server:
            base = server.start()
            game = new_game(base).json()
            assert try_move(base, game).status_code == 201
            filler = fill(disk, 16 * 1024)
            for _ in range(200):  # new games until the disk refuses
                answer = new_game(base)
                if answer.status_code != 201:
                    break
            refused(answer, "store_full")  # (a move may still fit in a page: not asked)
            assert httpx.get(f"{base}/games/{game['id']}", timeout=HUNG).status_code == 200
            filler.unlink()
            assert try_move(base, game).status_code == 201


def test_a_read_only_sqlite_file_is_told_from_a_passing_failure(tmp_path: Path) -> None:
    path = tmp_path / "ro.db"
    with sqlite3.connect(path) as made:
        made.execute("CREATE TABLE t (x)")
    read_only = sa.create_engine(
        "sqlite://", creator=lambda: sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    )
    try:
        with pytest.raises(sa.exc.DBAPIError) as refusal, read_only.begin() as conn:
            conn.execute(sa.text("INSERT INTO t VALUES (1)"))
        assert store_refusal(refusal.value) == "read_only"
        with pytest.raises(sa.exc.DBAPIError) as passing, read_only.begin() as conn:
            conn.execute(sa.text("SELECT * FROM no_such_table"))
        assert store_refusal(passing.value) is None
    finally:
        read_only.dispose()


INIT = "import sys; from core.store import EventStore; import core.access; EventStore(sys.argv[1])"


def test_processes_initialising_a_fresh_postgresql_database_at_once(processes: Processes) -> None:
    if not PG_URL:
        pytest.skip("no PostgreSQL server (set SKALD_TEST_PG_URL)")
    admin = sa.create_engine(PG_URL, isolation_level="AUTOCOMMIT")
    base = sa.engine.make_url(PG_URL)
    try:
        for _ in range(3):
            name = f"skald_race_{uuid.uuid4().hex[:10]}"
            with admin.connect() as conn:
                conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
            url = base.set(database=name).render_as_string(hide_password=False)
            try:
                starters = [
                    processes.start(
                        [sys.executable, "-c", INIT, url],
                        cwd=ROOT,
                        stderr=subprocess.PIPE,
                        text=True,
                    )
                    for _ in range(4)
                ]
                results = [
                    (p.wait(timeout=HUNG), p.stderr.read() if p.stderr else "") for p in starters
                ]
                assert all(code == 0 for code, _ in results), results
            finally:
                with admin.connect() as conn:
                    conn.execute(sa.text(f'DROP DATABASE "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


# -- a throwaway PostgreSQL cluster, stopped and restarted under live streams ------------


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    with own_cluster() as own:
        yield own


@contextlib.contextmanager
def serve(url: str, log: Path) -> Iterator[str]:
    """A real `skald serve` (toy game loaded) with its output in `log`."""
    port = free_port()
    code = "import sys, tests.toy_game; from cli.main import app; sys.argv[0] = 'skald'; app()"
    with log.open("w") as sink, Processes() as group:
        process = group.start(
            [sys.executable, "-c", code, "serve", "--port", str(port), "--db", url],
            cwd=ROOT,
            stdout=sink,
            stderr=subprocess.STDOUT,
            env={**os.environ, "SKALD_LIVE_POLL": "0.2"},
        )
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + START_SECONDS
            while True:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                        break
                assert process.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "hung: the server did not start"
                time.sleep(0.1)
            yield base
        finally:
            process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=15)


def read_events(response: httpx.Response, until: float) -> Iterator[tuple[str, str, str]]:
    """(event, id, data) of each SSE message, until the stream ends or time runs out."""
    kind, last_id, data = "message", "", ""
    for line in response.iter_lines():
        if time.monotonic() > until:
            return
        if line.startswith("event:"):
            kind = line[6:].strip()
        elif line.startswith("id:"):
            last_id = line[3:].strip()
        elif line.startswith("data:"):
            data = line[5:].strip()
        elif line == "" and data:
            yield kind, last_id, data
            kind, data = "message", ""


def test_a_postgresql_restart_ends_live_streams_cleanly(cluster: Cluster, tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    with serve(cluster.url, log) as base:
        game = httpx.post(
            f"{base}/games",
            json={"game": "toy", "players": ["Ann", "Bob"], "seed": "restart"},
            timeout=HUNG,
        ).json()
        stream_url = f"{base}/games/{game['id']}/events"
        seen: list[tuple[str, str, str]] = []
        with httpx.stream("GET", stream_url, timeout=HUNG) as response:
            for message in read_events(response, time.monotonic() + HUNG):
                seen.append(message)
                if len(seen) == game["seq"]:
                    cluster.stop()
        assert [kind for kind, _, _ in seen[:-1]] == ["message"] * game["seq"]
        assert seen[-1][0] == "error"
        assert "store_unavailable" in seen[-1][2]
        cluster.start()
        ann = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
        deadline = time.monotonic() + HUNG
        while True:  # the pool reconnects on its own (as soon as a loaded machine lets it)
            moved = httpx.post(
                f"{base}/games/{game['id']}/moves",
                headers=ann,
                json={"move": "bet 1"},
                timeout=HUNG,
            )
            if moved.status_code == 201 or time.monotonic() > deadline:
                break
            assert moved.status_code == 503
            assert moved.json()["error"] == "store_unavailable"
            time.sleep(0.3)
        assert moved.status_code == 201, moved.text
        resumed = []
        with httpx.stream(
            "GET",
            stream_url,
            timeout=HUNG,
            headers={"Last-Event-ID": seen[-2][1]},
        ) as response:
            for message in read_events(response, time.monotonic() + HUNG):
                resumed.append(message)
                if int(message[1] or 0) >= moved.json()["seq"]:
                    break
        assert resumed[0][1] == str(game["seq"] + 1)
    text = log.read_text()
    assert "Exception in ASGI application" not in text, text
    assert "Traceback" not in text, text


def oversized_header(base: str) -> tuple[int, str]:
    """Send a request whose header outgrows uvicorn's buffer; its status and body."""
    port = int(base.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=HUNG) as sock:
        sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 40_000)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    head, _, body = answer.decode().partition("\r\n\r\n")
    return int(head.split()[1]), body


def test_serve_keeps_tokens_out_of_its_log_and_answers_bad_requests_in_json(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    with serve(f"sqlite:///{tmp_path}/served.db", log) as base:
        game = httpx.post(
            f"{base}/games", json={"game": "toy", "players": ["Ann", "Bob"]}, timeout=HUNG
        ).json()
        token = game["seats"][0]["token"]
        seen = httpx.get(f"{base}/games/{game['id']}/view", params={"token": token}, timeout=HUNG)
        assert seen.status_code == 200
        assert seen.json()["viewer"] == "Ann"
        bad = httpx.get(
            f"{base}/games/{game['id']}/log?from=1&token=sekrit-{token[:8]}", timeout=HUNG
        )
        assert bad.status_code == 401
        status, body = oversized_header(base)
        assert status == 400, body
        assert json.loads(body)["error"] == "malformed", body
        big_body = httpx.post(
            f"{base}/games",
            content=b"x" * (2 * 1024 * 1024),
            headers={"Content-Type": "application/json"},
            timeout=HUNG,
        )
        assert big_body.status_code == 413
        assert big_body.json()["error"] == "too_large"
        # Its access log is whole once it has exited (stopped and waited for below).
    text = log.read_text()
    assert "/view?token=[redacted]" in text, text
    assert token not in text
    assert token[:8] not in text
