"""The real `skald` command when its output goes away: a pipe closed early (`| head`) is
not an error (no message, exit 1 as Python advises for BrokenPipeError, never the storage
exit 8), and a full disk names what could not be written, in one line, exit 8."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import Processes
from tests.processes import run as run_process

SKALD = [sys.executable, "-m", "skald.cli.main"]


@pytest.fixture
def game(tmp_path: Path) -> tuple[dict[str, str], str]:
    """A fresh Beowulf game in its own SQLite file: (environment, game id)."""
    env = {**os.environ, "SKALD_DB": f"sqlite:///{tmp_path}/pipes.db"}
    made = run_process(
        [*SKALD, "new", "beowulf", "--players", "Ann,Bob"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return env, made.stdout.strip()


def run_with_closed_stdout(args: list[str], env: dict[str, str]) -> tuple[int, str]:
    """Run `skald` with its stdout a pipe whose reader is gone before it writes a byte."""
    with (
        Processes() as group,
        group.start(
            [*SKALD, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        ) as process,
    ):
        assert process.stdout is not None
        assert process.stderr is not None
        process.stdout.close()  # the only reader: every write now meets EPIPE
        err = process.stderr.read().decode()
        return process.wait(timeout=120), err


@pytest.mark.parametrize(
    "command",
    [["log", "{id}", "--as", "referee"], ["log", "{id}", "--json"], ["verify", "{id}"]],
)
def test_a_closed_pipe_stops_quietly(game: tuple[dict[str, str], str], command: list[str]) -> None:
    env, game_id = game
    code, err = run_with_closed_stdout([arg.format(id=game_id) for arg in command], env)
    assert err == ""  # no "error: cannot use Broken pipe", no "Exception ignored"
    assert code == 1  # Python's advice for EPIPE; not 8, the store is fine


def test_head_cuts_a_long_output_quietly(tmp_path: Path) -> None:
    env = {**os.environ, "SKALD_DB": f"sqlite:///{tmp_path}/demo.db"}
    # a Beast demo prints ~110 KB: more than a pipe and head's read hold, so skald is
    # still writing when head leaves (Beowulf's 42 KB could all be written before it did)
    script = 'set -o pipefail; "$@" demo --game beast --players 2 2>/dev/null | head -2 >/dev/null'
    # pipefail: the pipeline's status is skald's (head exits 0)
    done = run_process(
        ["bash", "-c", script, "bash", *SKALD], env=env, capture_output=True, text=True
    )
    assert done.returncode == 1, done
    with_err = run_process(
        ["bash", "-c", '"$@" demo --players 2 --seed again | head -2', "bash", *SKALD],
        env=env,
        capture_output=True,
        text=True,
    )
    assert len(with_err.stdout.splitlines()) == 2
    assert "error" not in with_err.stderr
    assert "Broken pipe" not in with_err.stderr


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    "command", [["log", "{id}", "--as", "referee"], ["verify", "{id}", "--json"]]
)
def test_a_full_disk_names_the_output(game: tuple[dict[str, str], str], command: list[str]) -> None:
    env, game_id = game
    with Path("/dev/full").open("w") as full:
        done = run_process(
            [*SKALD, *(arg.format(id=game_id) for arg in command)],
            env=env,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
        )
    assert done.returncode == 8
    assert done.stderr == "error: cannot write to standard output: No space left on device\n"


def test_tournament_commands_close_their_stores_and_end_quietly_on_a_closed_pipe(
    tmp_path: Path,
) -> None:
    """The tournament group goes through the CLI's one command wrapper: every store a
    command opened is closed when it ends, and a closed pipe ends it quietly (exit 1)."""
    from skald.cli import app as cli_app
    from tests.cli_support import skald

    db = f"sqlite:///{tmp_path}/t.db"
    new = ["tournament", "new", "beowulf", "--players", "Ann,Bob", "--table-size", "2"]
    code, out, err = skald(*new, "--rounds", "1", "--db", db)
    assert code == 0, err
    assert cli_app._opened == []  # the store `new` opened was closed
    tid = out.strip().splitlines()[-1]
    code, err = run_with_closed_stdout(["tournament", "standings", tid, "--db", db], {**os.environ})
    assert err == ""
    assert code == 1
