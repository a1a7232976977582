"""The service's workers keep the garbage collector's full pauses off the request path
(api/collector.py): built by `app_from_env`, a worker has frozen its start-up objects and
raised the young generation's threshold; the test process itself keeps the defaults."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.processes import run as run_process

SCRIPT = """
import gc, sys
before = gc.get_threshold()
from skald.api.main import app_from_env
app_from_env()
print(before[0], gc.get_threshold()[0], gc.get_freeze_count())
"""


def test_a_worker_app_settles_the_collector(tmp_path: Path) -> None:
    env = {"SKALD_DB": f"sqlite:///{tmp_path}/gc.db", "PATH": "/usr/bin:/bin"}
    out = run_process(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, check=True,
        cwd=tmp_path,
    ).stdout.split()  # fmt: skip
    default, served, frozen = map(int, out)
    assert default == 700
    assert served == 10_000
    assert frozen > 10_000  # the modules, the app and its models are no longer walked


def test_building_an_app_elsewhere_leaves_the_collector_alone(tmp_path: Path) -> None:
    import gc

    from skald.api.main import create_app

    threshold, frozen = gc.get_threshold(), gc.get_freeze_count()
    create_app(f"sqlite:///{tmp_path}/plain.db")
    assert gc.get_threshold() == threshold
    assert gc.get_freeze_count() == frozen
