"""Beowulf from the command line, as a new user runs it, on a SQLite file: new, show, legal,
move, undo, score, autoplay, verify after a changed byte. The commands run in-process
through Typer's CliRunner; one smoke test runs the real `skald` process end to end."""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from skald.cli.main import app
from tests.processes import run as run_process

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def run(tmp_path: Path, *args: str, code: int = 0) -> str:
    done = CliRunner().invoke(app, list(args), env={"SKALD_DB": f"sqlite:///{tmp_path}/skald.db"})
    assert done.exit_code == code, (args, done.stdout, done.stderr)
    return done.stdout if code == 0 else done.stderr


def test_the_real_skald_process_creates_shows_and_verifies_a_game(tmp_path: Path) -> None:
    env = {"SKALD_DB": f"sqlite:///{tmp_path}/skald.db", "PATH": "/usr/bin"}

    def skald(*args: str) -> str:
        done = run_process(
            [sys.executable, "-m", "skald.cli.main", *args],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=env,
            check=False,
        )
        assert done.returncode == 0, (args, done.stderr)
        return done.stdout

    game_id = skald("new", "beowulf", "--players", "Ann,Bob").strip()
    assert "hand" in skald("show", game_id, "--as", "Ann", "--json")
    assert skald("verify", game_id).startswith("ok:")


@pytest.fixture
def game(tmp_path: Path) -> str:
    # A fixed deal, so the tile Ann draws (a plain tile) is the same every run.
    return run(
        tmp_path, "new", "beowulf", "--players", "Ann,Bob", "--seed", "cli", "--deal", "cli"
    ).strip()


def test_each_seat_sees_only_its_own_hand(tmp_path: Path, game: str) -> None:
    ann = json.loads(run(tmp_path, "show", game, "--as", "Ann", "--json"))["state"]
    bob = json.loads(run(tmp_path, "show", game, "--as", "Bob", "--json"))["state"]
    assert ann["seats"][0]["hand"]
    assert ann["seats"][1]["hand"] is None
    assert bob["seats"][1]["hand"]
    assert bob["seats"][0]["hand"] is None
    assert ann["seats"][1]["hand_backs"] == [1, 1]
    spectator = json.loads(run(tmp_path, "show", game, "--json"))["state"]
    assert all(seat["hand"] is None for seat in spectator["seats"])
    text = run(tmp_path, "show", game, "--as", "Ann")
    assert "A" in text
    assert "saga" in text


def test_draw_then_play_cannot_be_undone(tmp_path: Path, game: str) -> None:
    assert "draw" in run(tmp_path, "legal", game, "--as", "Ann").splitlines()
    run(tmp_path, "move", game, "draw", "--as", "Ann")
    legal = run(tmp_path, "legal", game, "--as", "Ann").splitlines()
    assert legal
    assert all(move.startswith("play") for move in legal)
    error = run(tmp_path, "move", game, "place beowulf A1", "--as", "Ann", code=4)
    assert error.startswith("error: ")
    assert "place beowulf A1" in error
    run(tmp_path, "move", game, legal[0], "--as", "Ann")
    before = json.loads(run(tmp_path, "show", game, "--json"))["state"]
    # The tile left Ann's hidden hand and everyone saw it: the play cannot be taken back.
    assert "cannot be taken back" in run(tmp_path, "undo", game, "--as", "Ann", code=4)
    after = json.loads(run(tmp_path, "show", game, "--json"))["state"]
    assert after["tiles"] == before["tiles"]
    assert len(after["tiles"]) == 1


def test_score_gives_the_rulebook_numbers(tmp_path: Path) -> None:
    scored = json.loads(
        run(tmp_path, "score", str(FIXTURES / "beowulf/hungarian_example.json"), "--json")
    )
    assert [f["points"] for f in scored["figures"]] == [9, -1, -2, -2]
    assert scored["totals"] == {"green": 9, "brown": -1, "gray": -2, "blue": -2}


def test_autoplay_games_verify_and_a_changed_byte_is_named(tmp_path: Path) -> None:
    lines = run(
        tmp_path, "autoplay", "beowulf", "--players", "4", "--games", "2", "--seed", "t", "--json"
    ).splitlines()
    results = [json.loads(line) for line in lines]
    assert all(r["outcome"]["termination"] == "completed" for r in results)
    for result in results:
        assert run(tmp_path, "verify", result["id"]).startswith("ok:")
    target = results[0]["id"]
    with sqlite3.connect(tmp_path / "skald.db") as db:
        (payload,) = db.execute(
            "SELECT payload FROM events WHERE stream_id=? AND seq=40", (target,)
        ).fetchone()
        index = payload.index('"seat":') + len('"seat":')
        changed = payload[:index] + str((int(payload[index]) + 1) % 4) + payload[index + 1 :]
        db.execute("UPDATE events SET payload=? WHERE stream_id=? AND seq=40", (changed, target))
    assert "seq 40" in run(tmp_path, "verify", target, code=1)
    assert run(tmp_path, "verify", results[1]["id"]).startswith("ok:")


def test_replay_to_a_seq_shows_that_moment(tmp_path: Path, game: str) -> None:
    run(tmp_path, "move", game, "place beowulf A1", "--as", "Ann")
    replay = run(tmp_path, "replay", game, "--to", "7")
    assert "place beowulf A1" in replay
    assert "at seq 7" in replay
    assert "turn_began" not in replay


def test_demo_plays_a_game_and_replays_it_from_the_log(tmp_path: Path) -> None:
    out = run(tmp_path, "demo", "--players", "2", "--seed", "demo-test")
    assert re.search(r"(Ann|Bob)'s (Beowulf|Thane|Heorot Castle|Drakkar) on [A-F]\d scored", out)
    assert "beowulf." not in out
    assert "The game is over (the game was played to its end)" in out
    assert "(completed)" not in out
    assert out.rstrip().endswith("events)")
    assert "verify: chain intact" in out
