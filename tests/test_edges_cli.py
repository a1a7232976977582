"""The CLI's edges (issues 9 and 11): every command on a non-Skald file or a missing path
exits with its documented code and one line, never a traceback; seats, names and ids
follow one rule; control characters are never printed raw."""

from __future__ import annotations

import os
import sqlite3
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from skald.cli.main import app
from tests.conftest import PG_URL, fresh_store_url
from tests.processes import run as run_process

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent

# Every command that opens the store, with arguments that would otherwise be fine.
STORE_COMMANDS = [
    ["new", "toy", "--players", "Ann,Bob"],
    ["show", "g1"],
    ["legal", "g1", "--as", "0"],
    ["move", "g1", "bet 1", "--as", "0"],
    ["undo", "g1", "--as", "0"],
    ["redo", "g1", "--as", "0"],
    ["log", "g1"],
    ["replay", "g1"],
    ["verify", "g1"],
    ["audit", "g1"],
    ["receipt", "g1"],
    ["autoplay", "toy", "--players", "2"],
]


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), repr(result.exception)
    return result.exit_code, result.stdout, result.stderr


def one_line_error(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("error: "), stderr
    assert "Traceback" not in stderr
    return lines[0]


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    junk=st.binary(min_size=1, max_size=4096).filter(
        lambda data: not data.startswith(b"SQLite format 3")
    ),
    command=st.sampled_from(STORE_COMMANDS),
)
def test_any_command_on_a_file_that_is_not_a_database_exits_8(
    tmp_path: Path, junk: bytes, command: list[str]
) -> None:
    path = tmp_path / "junk.db"
    path.write_bytes(junk.ljust(512, b"\xff"))
    code, _, err = run(*command, "--db", f"sqlite:///{path}")
    assert code == 8, err
    assert "not a database" in one_line_error(err)
    assert path.read_bytes() == junk.ljust(512, b"\xff")  # untouched


@pytest.mark.parametrize("command", STORE_COMMANDS)
def test_another_programs_database_is_refused_and_left_alone(
    tmp_path: Path, command: list[str]
) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE invoices (id INTEGER, total REAL)")
    code, _, err = run(*command, "--db", f"sqlite:///{path}")
    assert code == 8
    assert "another program's database" in one_line_error(err)
    with sqlite3.connect(path) as conn:
        names = [row[0] for row in conn.execute("SELECT name FROM sqlite_master")]
    assert names == ["invoices"]


READ_ONLY = {"show", "legal", "log", "replay", "verify", "audit", "receipt"}


@pytest.mark.parametrize("command", STORE_COMMANDS)
def test_a_store_in_a_missing_folder_or_a_directory_exits_8(
    tmp_path: Path, command: list[str]
) -> None:
    """A directory is no store (exit 8). In a missing folder a command that records cannot
    create one (exit 8); one that only reads finds nothing recorded there (exit 6, see
    tests/test_cli_missing_store.py) and creates nothing."""
    code, _, err = run(*command, "--db", f"sqlite:///{tmp_path}")
    assert code == 8, err
    one_line_error(err)
    code, _, err = run(*command, "--db", f"sqlite:///{tmp_path}/missing/folder/x.db")
    assert code == (6 if command[0] in READ_ONLY else 8), err
    one_line_error(err)
    assert not (tmp_path / "missing").exists()


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/cli.db"


def new_toy(db: str) -> str:
    code, out, err = run("new", "toy", "--players", "Ann,Bob", "--seed", "edges", "--db", db)
    assert code == 0, err
    return out.strip()


def test_file_arguments_missing_or_unusable(tmp_path: Path, db: str) -> None:
    game_id = new_toy(db)
    folder = tmp_path / "folder"
    folder.mkdir()
    latin = tmp_path / "latin.txt"
    latin.write_bytes("Bjørn\n".encode("latin-1"))
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\x00\x01\x02{}\n")
    cases = [
        (["score", str(tmp_path / "nope.json")], 6),
        (["score", str(folder)], 8),
        (["import", str(tmp_path / "nope")], 6),
        (["import", str(folder)], 8),
        (["import", str(latin)], 3),
        (["import", str(binary)], 3),
        (["verify", game_id, "--receipt", str(tmp_path / "nope")], 6),
        (["verify", game_id, "--receipt", str(folder)], 8),
        (["audit", game_id, "-o", str(tmp_path / "no" / "such" / "dir.md")], 6),
        (["audit", game_id, "-o", str(folder)], 8),
    ]
    for args, expected in cases:
        extra = [] if args[0] == "score" else ["--db", db]
        code, _, err = run(*args, *extra)
        assert code == expected, (args, err)
        one_line_error(err)


def test_seats_names_and_ids_follow_one_rule(db: str) -> None:
    game_id = new_toy(db)
    for seat in ("²", "١", "99999999999999999999", "-1", " 1"):
        code, _, err = run("legal", game_id, "--as", seat, "--db", db)
        assert code == 6, (seat, err)
        one_line_error(err)
    for players in ("1,Bob", "Ann,Ann", "referee,Bob", "Ann,", "A" * 65 + ",Bob", "Ann\x07,Bob"):
        code, _, err = run("new", "toy", "--players", players, "--db", db)
        assert code == 4, (players, err)
        assert "\x07" not in one_line_error(err)
    for bad_id in ("a\x00b", "a\x07b", "x" * 65):
        code, _, err = run("show", bad_id, "--db", db)
        assert code == 3
        assert "\x07" not in one_line_error(err)
        assert "\x00" not in err


def test_control_characters_are_never_printed_raw(db: str) -> None:
    game_id = new_toy(db)
    code, out, err = run("move", game_id, "bet \x07\x1b[31m", "--as", "Ann", "--db", db)
    assert code == 3
    assert "\x07" not in err
    assert "\x1b" not in err
    code, out, err = run("show", game_id, "--db", db)
    assert code == 0
    assert not any(ch in out for ch in "\x07\x1b\x00")


def test_seqs_beyond_the_column_range_are_not_found_not_a_crash(tmp_path: Path) -> None:
    urls = [f"sqlite:///{tmp_path}/range.db"]
    if PG_URL:
        urls.append(fresh_store_url("postgresql", tmp_path))
    for url in urls:
        game_id = new_toy(url)
        for args in (
            ["show", game_id, "--at", "99999999999"],
            ["replay", game_id, "--to", "-99999999999"],
        ):
            code, _, err = run(*args, "--db", url)
            assert code in (0, 6), (url, args, err)
            if code:
                one_line_error(err)
        code, out, err = run("log", game_id, "--from", "99999999999", "--db", url)
        assert code == 0, err
        assert out == "", err
        code, out, err = run("log", game_id, "--to", "99999999999", "--db", url)
        assert code == 0, err
        assert out.count("\n") == 4, err


def test_serve_refuses_to_start_without_the_stores_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path}/served.db"
    monkeypatch.setenv("SKALD_SIGNING_KEY", str(tmp_path / "first.key"))
    code, _, err = run("receipt", new_toy(url), "--db", url)
    assert code == 0, err
    monkeypatch.setenv("SKALD_SIGNING_KEY", str(tmp_path / "missing.key"))
    code, _, err = run("serve", "--port", "1", "--db", url)
    assert code == 8
    assert "no key at" in one_line_error(err)
    assert not (tmp_path / "missing.key").exists()


def test_a_real_process_prints_one_line(tmp_path: Path) -> None:
    """The smoke test through a real `skald` process: exit code and stderr as printed."""
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"no database here" * 64)
    done = run_process(
        [sys.executable, "-m", "skald.cli.main", "show", "g1", "--db", f"sqlite:///{junk}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ},
    )
    assert done.returncode == 8
    assert done.stdout == ""
    one_line_error(done.stderr)


@pytest.mark.parametrize("blank", ["", "  "])
def test_an_empty_viewer_name_is_refused_not_taken_for_a_spectator(db: str, blank: str) -> None:
    game_id = new_toy(db)
    before = run("log", game_id, "--as", "referee", "--db", db)[1]
    for args in (["show", game_id], ["log", game_id], ["export", game_id]):
        code, out, err = run(*args, "--as", blank, "--db", db)
        assert code == 2, (args, err)
        assert out == ""
        assert "Invalid value for '--as': empty" in err
    code, _, err = run("move", game_id, "bet 1", "--as", blank, "--db", db)  # a seat's option
    assert code == 6
    assert f"no seat {blank!r}" in one_line_error(err)
    assert run("log", game_id, "--as", "referee", "--db", db)[1] == before  # nothing moved
