"""Hearing of other processes' appends (core/feed.py): a burst of notifications is taken
in one wake-up after a short gathering pause, and none is lost."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import psycopg
import pytest

from skald.core.feed import libpq_url, listen_for_appends
from skald.core.store import NOTIFY_CHANNEL
from tests.conftest import fresh_store_url

pytestmark = pytest.mark.postgres


def test_a_burst_is_heard_whole_and_at_once(tmp_path: Path) -> None:
    url = fresh_store_url("postgresql", tmp_path)
    heard: list[tuple[str, int, float]] = []
    stop, ready = threading.Event(), threading.Event()
    listener = threading.Thread(
        target=listen_for_appends,
        args=(url, lambda stream, version: heard.append((stream, version, time.monotonic())),
              stop, ready),
        kwargs={"gather": 0.5},
        daemon=True,
    )  # fmt: skip
    listener.start()
    try:
        assert ready.wait(10)
        with psycopg.connect(libpq_url(url), autocommit=True) as conn:
            for version in range(1, 51):  # fifty appends, each its own transaction
                conn.execute("SELECT pg_notify(%s, %s)", (NOTIFY_CHANNEL, f"game:{version}"))
                time.sleep(0.005)  # spread over ~0.25 s, within one gathering pause
        deadline = time.monotonic() + 10
        while len(heard) < 50 and time.monotonic() < deadline:
            time.sleep(0.01)
    finally:
        stop.set()
        listener.join(timeout=5)
    assert [(stream, version) for stream, version, _ in heard] == [
        ("game", v) for v in range(1, 51)
    ]
    # One wake-up for the first, one for all the rest gathered meanwhile (heard one by
    # one they would spread over the quarter second they were sent in).
    after_first = [moment for _, _, moment in heard[1:]]
    assert max(after_first) - min(after_first) < 0.05
