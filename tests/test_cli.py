"""The CLI contract of DESIGN.md, driven through Typer's runner on a real SQLite file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from skald.cli.main import app

runner = CliRunner()


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/cli.db"


def skald(db: str, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, [*args, "--db", db])
    return result.exit_code, result.stdout, result.stderr


def new_toy(db: str) -> str:
    code, out, _ = skald(db, "new", "toy", "--players", "Ann,Bob", "--seed", "cli")
    assert code == 0
    return out.strip()


def test_new_prints_the_id_alone(db: str) -> None:
    game_id = new_toy(db)
    assert game_id.isalnum()
    assert len(game_id) == 16


def test_move_show_legal_log_round(db: str) -> None:
    game_id = new_toy(db)
    code, out, _ = skald(db, "legal", game_id, "--as", "Ann")
    assert code == 0
    assert "bet 1" in out.splitlines()
    code, out, _ = skald(db, "move", game_id, "bet 2", "--as", "Ann")
    assert code == 0
    assert "bet 2" in out
    code, out, _ = skald(db, "show", game_id, "--as", "1", "--json")
    shown = json.loads(out)
    assert shown["seq"] == 6
    assert shown["to_act"] == [1]
    assert shown["state"]["bets"] == [2, 0]
    code, out, _ = skald(db, "log", game_id, "--json")
    *lines, end = [json.loads(line) for line in out.splitlines()]
    assert [line["seq"] for line in lines] == list(range(1, 7))
    assert end == {"end": {"seq": 6, "head": lines[-1]["hash"], "version": 6}}
    assert all(
        line["event"]["card"]["value"] is None
        for line in lines
        if line["event"]["type"] == "toy.card_dealt"
    )


def test_show_at_an_earlier_seq(db: str) -> None:
    game_id = new_toy(db)
    skald(db, "move", game_id, "bet 2", "--as", "Ann")
    code, out, _ = skald(db, "show", game_id, "--at", "4", "--json")
    assert code == 0
    assert json.loads(out)["state"]["bets"] == [0, 0]


def test_errors_are_one_line_with_exit_codes(db: str) -> None:
    game_id = new_toy(db)
    cases = [
        (("move", game_id, "bet 9", "--as", "Ann"), 4, "bets are 1 to 5"),
        (("move", game_id, "fly", "--as", "Ann"), 3, "'fly'"),
        (("move", game_id, "bet 1", "--as", "Bob"), 7, "not Bob's turn"),
        (("move", game_id, "bet 1", "--as", "Zed"), 6, "no seat 'Zed'"),
        (("move", game_id, "bet 1", "--as", "Ann", "--expect", "3"), 5, "not 3"),
        (("show", "nosuchgame"), 6, "nosuchgame"),
        (("undo", game_id, "--as", "Ann"), 4, "nothing to undo"),
    ]
    for args, code, text in cases:
        got_code, out, err = skald(db, *args)
        assert (got_code, out) == (code, ""), args
        assert err.startswith("error: "), err
        assert text in err, err
        assert err.count("\n") == 1, err
    code, out, _ = skald(db, "log", game_id, "--json")
    assert len(out.splitlines()) == 4 + 1  # nothing was appended by any failure (+ end)


def test_a_second_undo_at_the_start_says_nothing_is_left_to_undo(db: str) -> None:
    # Ann's bet is undone; nothing was drawn since, there is just nothing earlier.
    game_id = new_toy(db)
    skald(db, "move", game_id, "bet 2", "--as", "Ann")
    assert skald(db, "undo", game_id, "--as", "Ann")[0] == 0
    code, out, err = skald(db, "undo", game_id, "--as", "Ann")
    assert (code, out) == (4, "")
    assert err.startswith("error: nothing left to undo: every decision since"), err
    assert "revealed information" not in err
    assert "redo brings the last one back" in err
    # Redo, then undo works again: the message did not change what is allowed.
    assert skald(db, "redo", game_id, "--as", "Ann")[0] == 0
    assert skald(db, "undo", game_id, "--as", "Ann")[0] == 0


def test_undo_redo_commands(db: str) -> None:
    game_id = new_toy(db)
    skald(db, "move", game_id, "bet 2", "--as", "Ann")
    code, out, _ = skald(db, "undo", game_id, "--as", "Ann")
    assert code == 0
    assert "Ann took back their own last decision." in out
    code, out, _ = skald(db, "redo", game_id, "--as", "0")
    assert code == 0
    assert "Ann made again the decision that was taken back." in out


def test_verify_and_autoplay(db: str) -> None:
    code, out, _ = skald(
        db, "autoplay", "toy", "--players", "3", "--games", "2", "--seed", "x", "--json"
    )
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert len(results) == 2
    assert all(r["outcome"]["termination"] == "completed" for r in results)
    for result in results:
        code, out, _ = skald(db, "verify", result["id"])
        assert code == 0
        assert out.startswith("ok:")


def test_new_rejects_bad_options(db: str) -> None:
    code, _, err = skald(db, "new", "toy", "--players", "A,B", "--option", "undo")
    assert code == 2  # a bad --option is a usage error (README)
    assert "KEY=VALUE" in err
