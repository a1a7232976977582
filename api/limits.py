"""How long, and how many: the bounds one server process puts on its HTTP connections, in
one place (api/edge.py enforces them; a WebSocket's own heartbeat rules live beside them
here, for its connections once upgraded, which these bounds never touch).

- `head_seconds` (5 s): a request head (request line and headers) must arrive whole within
  this many seconds of its first byte; else the answer is a JSON 408 and the connection
  closes.
- `idle_seconds` (5 s): a connection with no request under way (just opened, or between
  keep-alive requests) is closed after this long without a byte.
- `body_seconds` (10 s): a request body must arrive whole within this long of its head
  (bodies are at most 1 MiB, so that is about 100 KiB/s at the worst); a body that
  trickles is answered 408 and cut.
- `max_connections` (1000 per server process, each `--workers` process its own): a
  connection past it is answered a JSON 503 `too_many_connections` (retry: true, after
  `Retry-After`) and closed at once, before anything is read from it.

A request being answered (a move committing, a live stream feeding) is never timed. Each
value can be set in the environment (`SKALD_HTTP_HEAD_SECONDS`, `SKALD_HTTP_IDLE_SECONDS`,
`SKALD_HTTP_BODY_SECONDS`, `SKALD_HTTP_MAX_CONNECTIONS`), read once per process.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass


@dataclass(frozen=True)
class HttpLimits:
    """The bounds on one server process's HTTP connections (see the module docstring)."""

    head_seconds: float = 5.0
    idle_seconds: float = 5.0
    body_seconds: float = 10.0
    max_connections: int = 1000


def _from_env(name: str, default: float) -> float:
    text = os.environ.get(f"SKALD_HTTP_{name}", "").strip()
    value = float(text) if text else default
    if value <= 0:
        raise ValueError(f"SKALD_HTTP_{name} must be above 0, not {text}")
    return value


@functools.cache
def http_limits() -> HttpLimits:
    """This process's limits: the defaults, or the environment's values."""
    defaults = HttpLimits()
    return HttpLimits(
        head_seconds=_from_env("HEAD_SECONDS", defaults.head_seconds),
        idle_seconds=_from_env("IDLE_SECONDS", defaults.idle_seconds),
        body_seconds=_from_env("BODY_SECONDS", defaults.body_seconds),
        max_connections=int(_from_env("MAX_CONNECTIONS", defaults.max_connections)),
    )
