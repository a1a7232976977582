"""Ctrl-C never hangs autoplay; a failed `new` leaves no store; in-memory stores are
refused; an oversized receipt is not read forever."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.patience import HUNG
from tests.processes import Processes
from tests.processes import run as run_process

SKALD = Path(sys.executable).with_name("skald")


def _skald(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_process(
        [str(SKALD), *args], capture_output=True, text=True, timeout=60, check=False, cwd=cwd
    )


def test_ctrl_c_at_random_moments_always_ends_autoplay(
    tmp_path: Path, processes: Processes
) -> None:
    rng = random.Random(7)
    for attempt in range(8):
        db = tmp_path / f"ck{attempt}.db"
        run = processes.start(
            [str(SKALD), "autoplay", "hagar", "--players", "6", "--games", "5", f"--db={db}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(rng.uniform(0.25, 2.5))  # a random moment: loading, playing or done
        run.send_signal(signal.SIGINT)
        try:  # ended, or hung (a loaded machine may take seconds to unwind and exit)
            _, err = run.communicate(timeout=HUNG)
        except subprocess.TimeoutExpired:
            run.kill()
            run.communicate()
            raise AssertionError(
                f"hung: autoplay did not end within {HUNG:.0f} s of Ctrl-C (try {attempt})"
            ) from None
        if run.returncode == 0:
            continue  # finished before the signal
        assert run.returncode == 130, err
        assert "Traceback" not in err
        assert err.splitlines()[-1] == "interrupted"


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["beowulf", "--players", "A1,B1", "--option", "undo=bogus"], 2),
        (["beowulf", "--players", "A1,B1", "--option", "zzz=1"], 2),
        (["beowulf", "--players", "A1,B1", "--option", "reveal=x"], 2),
        (["nosuch", "--players", "A,B"], 6),
        (["beowulf", "--players", "A1"], 4),
    ],
)
def test_a_failed_new_leaves_no_file(tmp_path: Path, args: list[str], code: int) -> None:
    done = _skald("new", *args, "--db", "opt1.db", cwd=tmp_path)
    assert done.returncode == code, done.stderr
    assert sorted(os.listdir(tmp_path)) == []


def test_a_successful_new_keeps_its_store(tmp_path: Path) -> None:
    done = _skald("new", "beowulf", "--players", "A1,B1", "--db", "ok.db", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "ok.db").is_file()
    shown = _skald("show", done.stdout.strip(), "--db", "ok.db", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr


def test_a_failed_new_keeps_an_existing_store(tmp_path: Path) -> None:
    assert (
        _skald("new", "beowulf", "--players", "A1,B1", "--db", "s.db", cwd=tmp_path).returncode == 0
    )
    before = sorted(os.listdir(tmp_path))
    done = _skald("new", "nosuch", "--players", "A,B", "--db", "s.db", cwd=tmp_path)
    assert done.returncode == 6
    assert sorted(os.listdir(tmp_path)) == before


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///", ":memory:", "sqlite:///:memory:"])
def test_an_in_memory_store_is_refused(tmp_path: Path, url: str) -> None:
    done = _skald("new", "beowulf", "--players", "A1,B1", "--db", url, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "error: an in-memory store keeps nothing after the command: give a SQLite file or a "
        "postgresql:// URL\n"
    )
    assert os.listdir(tmp_path) == []


def test_an_endless_receipt_is_not_a_receipt(tmp_path: Path) -> None:
    made = _skald("new", "beowulf", "--players", "A1,B1", "--db", "s.db", cwd=tmp_path)
    done = _skald(
        "verify", made.stdout.strip(), "--receipt", "/dev/zero", "--db", "s.db", cwd=tmp_path
    )
    assert done.returncode == 3
    assert "64 KiB" in done.stderr
