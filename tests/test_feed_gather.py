"""Hearing of other processes' appends (core/feed.py): a burst of notifications is taken
in one wake-up after a short gathering pause, and none is lost.

The pause is counted, not timed: the listener pauses on its `stop` event, so the test
hands it one that records each pause and holds it until the whole burst was sent (then
pauses for real, so the last notifications reach its connection). However slowly a
loaded machine sends the burst, it falls inside one pause; heard one by one there would
be a pause per notification."""

from __future__ import annotations

import threading
from pathlib import Path

import psycopg
import pytest

from skald.core.feed import libpq_url, listen_for_appends
from skald.core.store import NOTIFY_CHANNEL
from tests.conftest import fresh_store_url
from tests.patience import HUNG, wait_until

pytestmark = pytest.mark.postgres


class CountedPauses(threading.Event):
    """A stop event whose timed waits (the listener's gathering pauses) are recorded, with
    how many notifications had been handed on before each, and held until `burst_sent`."""

    def __init__(self, heard: list[tuple[str, int]]) -> None:
        super().__init__()
        self.heard = heard
        self.pauses: list[int] = []
        self.burst_sent = threading.Event()

    def wait(self, timeout: float | None = None) -> bool:
        if timeout is not None:
            self.pauses.append(len(self.heard))
            self.burst_sent.wait(HUNG)
        return super().wait(timeout)


def test_a_burst_is_heard_whole_and_at_once(tmp_path: Path) -> None:
    url = fresh_store_url("postgresql", tmp_path)
    heard: list[tuple[str, int]] = []
    stop, ready = CountedPauses(heard), threading.Event()
    listener = threading.Thread(
        target=listen_for_appends,
        args=(url, lambda stream, version: heard.append((stream, version)), stop, ready),
        kwargs={"gather": 1.0},  # after the burst: time for its last ones to arrive
        daemon=True,
    )
    listener.start()
    try:
        assert ready.wait(HUNG)
        with psycopg.connect(libpq_url(url), autocommit=True) as conn:
            for version in range(1, 51):  # fifty appends, each its own transaction
                conn.execute("SELECT pg_notify(%s, %s)", (NOTIFY_CHANNEL, f"game:{version}"))
        stop.burst_sent.set()
        wait_until(lambda: len(heard) == 50, "fifty notifications heard")
    finally:
        stop.set()
        stop.burst_sent.set()
        listener.join(timeout=HUNG)
    assert heard == [("game", v) for v in range(1, 51)]
    # One wake-up: the first notification woke the listener, which paused once (nothing
    # handed on yet) and then took all fifty; heard one by one, each would have paused.
    assert stop.pauses == [0]
