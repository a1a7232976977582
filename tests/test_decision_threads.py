"""PostgreSQL decisions run in a small pool per worker (api/offload.py): two threads per
core in all, shared among `skald serve`'s workers, never fewer than two; the help of
`skald serve` names the settings it reads."""

from __future__ import annotations

import os
import sys

from skald.api.offload import default_decision_threads
from tests.processes import run as run_process


def test_two_threads_per_core_shared_among_workers() -> None:
    cores = len(os.sched_getaffinity(0))
    assert default_decision_threads() == 2 * cores
    assert default_decision_threads(workers=cores) == 2
    assert default_decision_threads(workers=2 * cores) == 2
    assert default_decision_threads(workers=1000) == 2  # never fewer than two


def test_serve_help_names_its_settings() -> None:
    out = run_process(
        [sys.executable, "-m", "skald.cli.main", "serve", "--help"],
        capture_output=True, text=True, check=True, env={**os.environ, "COLUMNS": "200"},
    ).stdout  # fmt: skip
    for name in ("SKALD_DB", "SKALD_CACHE_GAMES", "SKALD_DECISION_THREADS", "SKALD_LIVE_POLL"):
        assert name in out
