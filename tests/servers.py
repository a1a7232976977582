"""Real servers for tests: a free loopback port, a server process run until the test's
block ends (yielding its base URL once `/health` answers), and `Server`, a real
`skald serve` that a test can kill -9 and start again on the same store."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa

from tests.patience import HUNG
from tests.processes import Processes

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


START_SECONDS = HUNG
"""How long a server may take to answer /health before it is taken as hung: two workers
importing every game on a machine the suite keeps busy have taken over 30 s (a detector
of a stuck start, never a requirement of speed: see tests/patience.py)."""


@contextmanager
def running(command: list[str], port: int, url: str, poll: str = "0.2") -> Iterator[str]:
    """Run a server command until the block ends; yields its base URL once it answers."""
    env = {**os.environ, "SKALD_DB": url, "SKALD_LIVE_POLL": poll}
    group = Processes()
    process = group.start(command, cwd=ROOT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert process.poll() is None, "the server exited"
            assert time.monotonic() < deadline, f"hung: no start in {START_SECONDS:.0f} s"
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=15)
        group.end_all()


def skald_command() -> list[str]:
    """The installed `skald` script beside this interpreter, else `python -m cli.main`."""
    script = Path(sys.executable).with_name("skald")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "skald.cli.main"]


def bearer(token: str) -> dict[str, str]:
    """The request headers that present `token`."""
    return {"Authorization": f"Bearer {token}"}


def legal_moves(http: httpx.Client, game: str, token: str) -> list[str]:
    """`GET /games/GAME/legal` as the token's seat: its legal moves (asserting a 200)."""
    answer = http.get(f"/games/{game}/legal", headers=bearer(token))
    assert answer.status_code == 200, answer.text
    moves: list[str] = answer.json()["moves"]
    return moves


def finish_game(http: httpx.Client, game: str, tokens: dict[int, str]) -> None:
    """Play `game` to its end with its seats' tokens, each seat's first legal move."""
    for _ in range(2000):
        summary = http.get(f"/games/{game}", headers=bearer(tokens[0])).json()
        if summary["outcome"] is not None:
            return
        seat = summary["to_act"][0]
        move = legal_moves(http, game, tokens[seat])[0]
        done = http.post(f"/games/{game}/moves", json={"move": move}, headers=bearer(tokens[seat]))
        assert done.status_code in (200, 201), done.text
    raise AssertionError(f"{game} did not finish in 2,000 decisions")


def served_sqlite(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[str]:
    """A module fixture's body: `skald serve` of a new SQLite store in a temporary folder
    called `name`, yielding its base URL until the module's tests are done."""
    url = f"sqlite:///{tmp_path_factory.mktemp(name) / 'skald.db'}"
    with serving(url) as base:
        yield base


@contextmanager
def serving(url: str) -> Iterator[str]:
    """`skald serve` of the store at `url` on a free port of 127.0.0.1 until the block
    ends; yields its base URL once it answers."""
    port = free_port()
    with running([*skald_command(), "serve", "--port", str(port)], port, url) as base:
        yield base


class Server:
    """A real `skald serve` on 127.0.0.1 that a test may `kill -9` and start again on the
    same store and port. It runs in its own session, so a kill reaches its workers too;
    its output goes to `log`. Use as a context manager: the process is always stopped."""

    def __init__(
        self,
        url: str,
        log: Path,
        cwd: Path = ROOT,
        port: int | None = None,
        env: dict[str, str] | None = None,
        workers: int = 1,
    ) -> None:
        self.url, self.log, self.cwd, self.workers = url, log, cwd, workers
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "SKALD_LIVE_POLL": "0.2"} if env is None else env
        self.process: subprocess.Popen[bytes] | None = None
        self.group = Processes()  # its own session, so a kill reaches its workers too

    def start(self, timeout: float = START_SECONDS) -> str:
        """Start it and wait until `/health` answers (bounded only as hung); its base URL."""
        assert self.process is None, "already running"
        with self.log.open("a") as sink:
            self.process = self.group.start(
                [
                    *skald_command(),
                    "serve",
                    "--port",
                    str(self.port),
                    "--db",
                    self.url,
                    "--workers",
                    str(self.workers),
                    "--log-level",
                    "warning",
                ],
                cwd=self.cwd,
                env=self.env,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while True:
            try:
                if httpx.get(f"{self.base}/health", timeout=1).status_code == 200:
                    return self.base
            except httpx.HTTPError:
                pass
            if self.process.poll() is not None:
                self.process = None
                raise AssertionError(f"the server exited: {self.log.read_text()[-2000:]}")
            if time.monotonic() > deadline:
                self.kill()
                raise AssertionError(f"hung: the server did not start in {timeout:.0f} s")
            time.sleep(0.05)

    def kill(self) -> None:
        """`kill -9` the server and every process of its session; wait until it is gone."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=15)
        self.process = None

    def stop(self) -> None:
        """Stop it gently (SIGTERM), and for good (SIGKILL) if it lingers."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        self.kill()  # whatever lingers in its session, workers included

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()


@contextmanager
def tmpfs(folder: Path, size: str) -> Iterator[Path]:
    """A tmpfs of `size` mounted at `folder` (created) for the block; skips the test when
    mounting is not possible here (it needs root)."""
    folder.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
        capture_output=True,
        timeout=10,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, timeout=10)


def _pg_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if not found or os.geteuid() != 0 or shutil.which("runuser") is None:
        pytest.skip("needs root, runuser and PostgreSQL's server binaries")
    return Path(found[-1]).parent


class Cluster:
    """A PostgreSQL cluster of our own (initdb'd in a temporary folder, fsync off), on a
    free loopback port, with a database `skald`; `own_cluster` runs one for a block."""

    def __init__(self, folder: Path) -> None:
        self.bin = _pg_bin()
        self.data = folder / "pgdata"
        self.port = free_port()
        subprocess.run(
            ["install", "-d", "-o", "postgres", "-g", "postgres", str(folder)],
            check=True,
            timeout=10,
        )
        self._pg("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres")
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/skald"
        self.running = False

    def _pg(self, tool: str, *args: str) -> None:
        subprocess.run(
            ["runuser", "-u", "postgres", "--", str(self.bin / tool), *args],
            check=True,
            capture_output=True,
            timeout=60,
        )

    def start(self) -> None:
        self.running = True  # even if start fails half-way, stop() will be tried
        self._pg(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.data / "log"),
            "-w",
            "-o",
            f"-p {self.port} -k /tmp -c listen_addresses=127.0.0.1 -c fsync=off",
            "start",
        )

    def stop(self) -> None:
        self._pg("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        self.running = False

    def createdb(self, name: str) -> None:
        self._pg("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", name)


@contextmanager
def postgres_folder() -> Iterator[Path]:
    """A new folder that the `postgres` user can reach (for a cluster's data or a
    tablespace), removed afterwards. Not under pytest's temporary root: every pytest run
    that starts as the same user takes group and other access off that root again (pytest
    7.3 and later), and on a machine shared with other runs one did in the middle of a test,
    cutting PostgreSQL off from its own files ("could not access directory ... Permission
    denied")."""
    folder = Path(tempfile.mkdtemp(prefix="skald-pg-"))
    try:
        os.chmod(folder, 0o755)
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def own_cluster() -> Iterator[Cluster]:
    """A running throwaway cluster in a `postgres_folder` (not in a test's `tmp_path`: see
    that helper), stopped however the block ends."""
    with postgres_folder() as folder:
        own = Cluster(folder / "pg")
        try:
            own.start()
            own.createdb("skald")
            yield own
        finally:
            if own.running:
                with contextlib.suppress(subprocess.SubprocessError):
                    own.stop()


@contextmanager
def pg_database(prefix: str, server_url: str) -> Iterator[str]:
    """A database of this test's own (`prefix` and a random suffix) in the PostgreSQL
    server of `server_url`, dropped afterwards: the shared test database is left alone."""
    admin = sa.create_engine(server_url, isolation_level="AUTOCOMMIT")
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    try:
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
        try:
            yield (
                sa.engine.make_url(server_url)
                .set(database=name)
                .render_as_string(hide_password=False)
            )
        finally:
            with admin.connect() as conn:
                conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()
