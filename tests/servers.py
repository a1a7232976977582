"""Real servers for tests: a free loopback port, and a server process run until the
test's block ends (yielding its base URL once `/health` answers)."""

from __future__ import annotations

import os
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def running(command: list[str], port: int, url: str, poll: str = "0.2") -> Iterator[str]:
    """Run a server command until the block ends; yields its base URL once it answers."""
    env = {**os.environ, "SKALD_DB": url, "SKALD_LIVE_POLL": poll}
    process = subprocess.Popen(command, cwd=ROOT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert process.poll() is None, "the server exited"
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=15)
