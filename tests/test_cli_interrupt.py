"""Ctrl-C ends any command with one line, `interrupted`, and exit 130, never a traceback:
while the CLI's modules load too; `autoplay` names the game it left unfinished."""

from __future__ import annotations

import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.patience import HUNG, wait_until
from tests.processes import Processes
from tests.processes import run as run_process

SKALD = Path(sys.executable).with_name("skald")

# Runs the console script's own import, `from skald.cli.main import app`, with a SIGINT
# delivered while a module of the CLI imports typer: Ctrl-C in the middle of start-up.
INTERRUPTED_IMPORT = """
import builtins, os, signal, sys
real = builtins.__import__
def hook(name, *args, **kwargs):
    if name == "typer":
        builtins.__import__ = real
        os.kill(os.getpid(), signal.SIGINT)
    return real(name, *args, **kwargs)
builtins.__import__ = hook
sys.argv = ["skald", "show", "nope", "--db", sys.argv[1]]
from skald.cli.main import app
sys.exit(app())
"""


def test_ctrl_c_while_the_cli_loads_is_one_line(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    done = run_process(
        [sys.executable, "-c", INTERRUPTED_IMPORT, str(db)],
        capture_output=True,
        text=True,
        timeout=HUNG,
        check=False,
    )
    assert done.returncode == 130, done.stderr
    assert done.stderr == "interrupted\n"
    assert done.stdout == ""
    assert not db.exists()


def _unfinished(db: Path) -> list[tuple[str, int]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT s.id, s.version FROM streams s WHERE NOT EXISTS (SELECT 1 FROM events e "
            "WHERE e.stream_id = s.id AND e.kind = 'skald.game_finished')"
        ).fetchall()


def _under_way(db: Path) -> bool:
    """Whether the store has an unfinished game with a move made in it."""
    if not db.exists():
        return False
    try:
        with sqlite3.connect(db, timeout=HUNG) as conn:
            return bool(
                conn.execute(
                    "SELECT 1 FROM events e WHERE e.kind = 'skald.move_made' AND NOT EXISTS"
                    " (SELECT 1 FROM events f WHERE f.stream_id = e.stream_id"
                    " AND f.kind = 'skald.game_finished') LIMIT 1"
                ).fetchall()
            )
    except sqlite3.OperationalError:  # its tables are not made yet
        return False


def test_ctrl_c_during_autoplay_names_the_unfinished_game(
    tmp_path: Path, processes: Processes
) -> None:
    for attempt in range(3):  # Ctrl-C may land between two games: nothing to name then
        db = tmp_path / f"auto{attempt}.db"
        run = processes.start(
            [str(SKALD), "autoplay", "beowulf", "--players=3", "--games=5000", f"--db={db}"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        # Ctrl-C once a game is under way (seen in the store), not after a guessed pause
        # that a loaded machine may spend still loading the CLI.
        wait_until(lambda db=db: _under_way(db), "a game under way")
        run.send_signal(signal.SIGINT)
        _, err = run.communicate(timeout=HUNG)
        assert run.returncode == 130, err
        assert "Traceback" not in err
        lines = err.splitlines()
        assert lines[-1] == "interrupted"
        if len(lines) == 2:
            break
    else:
        raise AssertionError("three interruptions fell between games")
    match = re.fullmatch(r"game ([0-9a-f]{16}) left unfinished at seq (\d+)", lines[0])
    assert match, err
    assert _unfinished(db) == [(match[1], int(match[2]))]
