"""How long a test waits before it calls something hung, in one place.

A test asserts what happened (a server answered, a move landed, five kills were made),
never how fast: on a shared 2-core machine running three suites at once a request that
takes 20 ms when idle has taken several seconds, and a server's start over 30 s. So every
wait for something that will happen (a server's `/health`, a frame, a process's exit, a
row in the store) is bounded only by `HUNG`, a detector of something stuck: a passing
test never waits it out, and an idle machine never comes near it.

Waits for something that must *not* happen (no frame within a moment, no request while
a page idles) are not bounded by this: they wait a fixed moment, and a loaded machine
only makes them prove less, never fail."""

from __future__ import annotations

import time
from collections.abc import Callable

HUNG = 180.0
"""Seconds after which a wait that should end is taken as hung (three minutes)."""


def wait_until(condition: Callable[[], object], what: str, seconds: float = HUNG) -> float:
    """Poll `condition` until it is true; the seconds it took. Fails (as hung) after
    `seconds`, naming `what` was awaited."""
    started = time.monotonic()
    while not condition():
        waited = time.monotonic() - started
        assert waited < seconds, f"hung: {what} not after {waited:.0f} s"
        time.sleep(0.02)
    return time.monotonic() - started
