"""`skald annotate`, `variation`, `export` and `import` of exports, in-process: what they
print, their exit codes, and that nothing is written on bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from skald.cli.main import app
from skald.core.store import EventStore

RUNNER = CliRunner()


def run(db: str, *args: str) -> tuple[int, str, str]:
    result = RUNNER.invoke(app, [*args, "--db", db])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def game(tmp_path: Path) -> tuple[str, str]:
    db = f"sqlite:///{tmp_path}/skald.db"
    code, out, _ = run(db, "new", "beowulf", "--players", "Ann,Bob", "--seed", "5")
    assert code == 0
    game_id = out.strip()
    assert run(db, "move", game_id, "--as", "Ann", "place beowulf C3")[0] == 0
    return db, game_id


def streams(db: str) -> set[str]:
    store = EventStore(db)
    try:
        return {info.id for info in store.list_streams()}
    finally:
        store.dispose()


def test_annotate_variation_export(game: tuple[str, str]) -> None:
    db, game_id = game
    code, out, _ = run(
        db,
        "annotate",
        game_id,
        "--as",
        "Ann",
        "--at",
        "6",
        "--comment",
        "Centre first",
        "--glyph",
        "!?",
        "--mark",
        "circle C3 green",
        "--mark",
        "arrow C3 D4",
    )
    assert code == 0
    assert "notes seq 1" in out
    code, out, _ = run(
        db,
        "variation",
        game_id,
        "--as",
        "Bob",
        "--from",
        "8",
        "--name",
        "edge",
        "place beowulf A1",
        "Ann: place thane B2",
    )
    assert (code, out.strip()) == (0, f"{game_id}~v2")
    code, out, _ = run(db, "variation", game_id, "--as", "Bob", "--extend", "v2", "place thane B1")
    assert code == 0
    code, text, _ = run(db, "export", game_id, "--as", "Bob", "--format", "text")
    assert code == 0
    assert "{@6 Ann public !? [%circle C3 green] [%arrow C3 D4 red]: Centre first}" in text
    assert '( v2 "edge" from 8 by Bob seed' in text
    assert (
        "  2. Bob: place beowulf A1\n  5. Ann: place thane B2\n  8. Bob: place thane B1\n)" in text
    )
    code, bare, _ = run(
        db, "export", game_id, "--as", "Bob", "--format", "text", "--no-comments", "--no-variations"
    )
    assert "Centre first" not in bare
    assert "( v2" not in bare
    # Ann does not see Bob's variation while the game runs
    assert "( v2" not in run(db, "export", game_id, "--as", "Ann", "--format", "text")[1]


@pytest.mark.parametrize(
    ("args", "exit_code", "message"),
    [
        (["annotate", "--as", "Ann", "--at", "6", "--glyph", "!!!"], 3, "glyph '!!!'"),
        (["annotate", "--as", "Ann", "--at", "6", "--mark", "circle Z99"], 3, "not a place"),
        (["annotate", "--as", "Ann", "--at", "6"], 3, "nothing to annotate"),
        (["annotate", "--as", "Ann", "--at", "99", "--comment", "x"], 6, "no seq 99"),
        (["annotate", "--as", "spectator", "--at", "6", "--comment", "x"], 7, "spectator"),
        (
            ["annotate", "--as", "referee", "--at", "6", "--comment", "x", "--audience", "seat"],
            2,
            "no seat",
        ),
        (["annotate", "--as", "Ann", "--at", "v3@2", "--comment", "x"], 6, "no variation"),
        (["variation", "--as", "Ann", "--from", "8", "place beowulf C3"], 4, ""),
        (["variation", "--as", "Ann", "--from", "8", "fly away"], 3, ""),
        (["variation", "--as", "Ann", "place beowulf C3"], 3, "--from"),
        (["export", "--as", "Ann", "--format", "pdf"], 3, "pdf"),
        (["annotate", "--as", "Ann", "--at", "6", "--comment", "bell\x07"], 3, "U+0007"),
        (["variation", "--as", "Ann", "--from", "8", "Zed: place beowulf C3"], 6, "no seat 'Zed'"),
        (
            ["variation", "--as", "spectator", "--from", "8", "Bob: place beowulf A1"],
            7,
            "cannot open a variation",
        ),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(
    game: tuple[str, str], args: list[str], exit_code: int, message: str
) -> None:
    db, game_id = game
    before = streams(db)
    code, _, err = run(db, args[0], game_id, *args[1:])
    assert code == exit_code, err
    assert err.startswith("error: ")
    assert err.count("\n") == 1
    assert message in err
    assert streams(db) == before


def test_import_of_exports(game: tuple[str, str], tmp_path: Path) -> None:
    db, game_id = game
    run(
        db,
        "annotate",
        game_id,
        "--as",
        "Ann",
        "--at",
        "6",
        "--comment",
        "mine",
        "--audience",
        "seat",
    )
    for viewer in ("referee", "Bob"):
        for format in ("jsonl", "text"):
            code, exported, _ = run(db, "export", game_id, "--as", viewer, "--format", format)
            assert code == 0
            (tmp_path / f"{viewer}.{format}").write_text(exported, encoding="utf-8")
    fresh = f"sqlite:///{tmp_path}/fresh.db"
    # a redacted text export cannot be replayed; a redacted jsonl one verifies, unstored
    code, _, err = run(fresh, "import", str(tmp_path / "Bob.text"))
    assert (code, "redacted" in err) == (3, True)
    code, out, _ = run(fresh, "import", str(tmp_path / "Bob.jsonl"))
    assert code == 0
    assert out.startswith(f"verified {game_id} (a redacted copy, not stored)")
    assert "signed: head at seq 8" in out
    assert streams(fresh) == set()
    # a doctored copy is refused, naming the seq, and nothing is stored
    lines = (tmp_path / "Bob.jsonl").read_text().splitlines()
    lines[6] = lines[6].replace("C3", "C4")
    (tmp_path / "doctored.jsonl").write_text("\n".join(lines) + "\n")
    code, _, err = run(fresh, "import", str(tmp_path / "doctored.jsonl"))
    assert code == 4
    assert f"{game_id}: seq 6: hash mismatch" in err
    assert streams(fresh) == set()
    # the referee's text export imports as a playable game, its private note included
    code, out, _ = run(fresh, "import", str(tmp_path / "referee.text"))
    assert code == 0
    assert (
        out.strip()
        == f"imported {game_id} from the text export: 1 decision, 1 annotation, 0 variations"
    )
    assert (
        run(fresh, "export", game_id, "--as", "referee", "--format", "text")[1]
        == (tmp_path / "referee.text").read_text()
    )
    assert (
        run(fresh, "legal", game_id, "--as", "Bob")[1]
        == run(db, "legal", game_id, "--as", "Bob")[1]
    )
    # importing it again is refused
    code, _, err = run(fresh, "import", str(tmp_path / "referee.jsonl"))
    assert code == 10
    assert "already in the store" in err


@pytest.mark.parametrize("part", ["notes", "v1"])
def test_a_games_own_streams_are_named_with_their_game(game: tuple[str, str], part: str) -> None:
    db, game_id = game
    assert run(db, "annotate", game_id, "--as", "Ann", "--at", "6", "--comment", "n")[0] == 0
    assert (
        run(db, "variation", game_id, "--as", "Ann", "--from", "8", "Bob: place beowulf A1")[0] == 0
    )
    code, _, err = run(db, "export", f"{game_id}~{part}", "--as", "Ann")
    assert code == 6
    assert f"of game {game_id}, not a game: ask for the game" in err
