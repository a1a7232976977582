"""A new user's review of the CLI: ports, imports that fail, options, output folders,
empty variations. Each failure is one line with the README's exit code, and nothing is
written: no store file, no stream, no output file."""

from __future__ import annotations

import socket
import sqlite3
from pathlib import Path

import pytest

from tests.cli_support import one_line, skald


def _streams(db: Path) -> list[tuple[str, int]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT id, version FROM streams ORDER BY id").fetchall()


@pytest.fixture
def store(tmp_path: Path) -> tuple[str, str]:
    """A store holding one Beowulf game (Ann, Bob) and its id."""
    db = f"sqlite:///{tmp_path / 'main.db'}"
    code, out, err = skald("new", "beowulf", "--players", "Ann,Bob", "--db", db)
    assert code == 0, err
    return db, out.strip()


# -- serve --------------------------------------------------------------------------------


@pytest.mark.parametrize("port", ["0", "65536", "99999", "-1"])
def test_serve_refuses_a_port_out_of_range(tmp_path: Path, port: str) -> None:
    code, _out, err = skald("serve", "--port", port, "--db", str(tmp_path / "s.db"))
    assert code == 2, err  # typer's usage error (99999 used to listen on 34463)
    assert "--port" in err
    assert list(tmp_path.iterdir()) == []


def test_serve_on_a_port_in_use_is_one_line_and_creates_nothing(tmp_path: Path) -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        code, out, err = skald("serve", "--port", str(port), "--db", str(tmp_path / "s.db"))
    assert code == 1, err
    assert out == ""
    assert one_line(err) == f"error: cannot listen on 127.0.0.1:{port}: address already in use"
    assert list(tmp_path.iterdir()) == []  # no store, no lock file, no key file


# -- imports that fail or store nothing ---------------------------------------------------


def test_failed_tournament_imports_create_no_store(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'main.db'}"
    code, tournament, err = skald(
        "tournament", "new", "beowulf", "--players", "A,B,C,D", "--rounds", "1", "--db", db
    )
    assert code == 0, err
    code, export, err = skald("tournament", "export", tournament.strip(), "--db", db)
    assert code == 0, err
    lines = export.splitlines(keepends=True)
    doctored = tmp_path / "bad.jsonl"
    assert '"rounds":1' in lines[0]
    doctored.write_text(export.replace('"rounds":1', '"rounds":2', 1), encoding="utf-8")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("", encoding="utf-8")
    for file, exit_code in ((doctored, 4), (empty, 3)):
        fresh = tmp_path / f"fresh-{file.stem}.db"
        code, out, err = skald("tournament", "import", str(file), "--db", f"sqlite:///{fresh}")
        assert code == exit_code, err
        assert out == ""
        one_line(err)
        assert not fresh.exists()
        assert not Path(f"{fresh}-lock").exists()
    good = tmp_path / "good.jsonl"
    good.write_text(export, encoding="utf-8")
    fresh = tmp_path / "fresh-good.db"
    code, out, err = skald("tournament", "import", str(good), "--db", f"sqlite:///{fresh}")
    assert code == 0, err
    assert out.strip() == tournament.strip()
    events = [line for line in lines if '"event"' in line and '"prev_hash"' in line]  # no end
    assert _streams(fresh) == [(tournament.strip(), len(events))]


def test_failed_game_imports_create_no_store(store: tuple[str, str], tmp_path: Path) -> None:
    db, game_id = store
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n  \n", encoding="utf-8")
    redacted = tmp_path / "ex.Ann.jsonl"
    code, text, err = skald("export", game_id, "--as", "Ann", "--format", "jsonl", "--db", db)
    assert code == 0, err
    redacted.write_text(text, encoding="utf-8")
    illegal = tmp_path / "illegal.txt"
    illegal.write_text("# game: beowulf\n# players: Ann, Bob\nfly to the moon\n", "utf-8")

    fresh = tmp_path / "fresh3.db"
    code, out, err = skald("import", str(empty), "--db", f"sqlite:///{fresh}")
    assert code == 3
    assert one_line(err).startswith("error: the file is empty; skald import reads a referee log")
    assert "'# game: ...' header" in err
    assert "skald export" in err
    assert not fresh.exists()

    fresh = tmp_path / "fresh4.db"
    code, out, err = skald("import", str(redacted), "--db", f"sqlite:///{fresh}")
    assert code == 0, err
    assert out.startswith(f"verified {game_id} (a redacted copy, not stored)")
    assert not fresh.exists()  # verified only: nothing to store, no store made

    fresh = tmp_path / "fresh5.db"
    code, out, err = skald("import", str(illegal), "--db", f"sqlite:///{fresh}")
    assert code in (3, 4), err
    assert "nothing was imported" in one_line(err)
    assert not fresh.exists()
    assert not [path.name for path in tmp_path.iterdir() if path.name.startswith("fresh")]


def test_an_import_that_stores_creates_the_store(store: tuple[str, str], tmp_path: Path) -> None:
    db, game_id = store
    code, text, err = skald("log", game_id, "--as", "referee", "--json", "--db", db)
    assert code == 0, err
    log = tmp_path / "referee.jsonl"
    log.write_text(text, encoding="utf-8")
    fresh = tmp_path / "fresh.db"
    code, out, err = skald("import", str(log), "--db", f"sqlite:///{fresh}")
    assert code == 0, err
    assert out.strip() == f"imported {game_id}: 5 of 5 events accepted"
    assert _streams(fresh) == [(game_id, 5)]
    # again, into the store that now exists: refused, and nothing changes
    code, out, err = skald("import", str(log), "--db", f"sqlite:///{fresh}")
    assert code == 10
    assert "already in the store" in one_line(err)
    assert _streams(fresh) == [(game_id, 5)]


def test_import_help_tells_both_behaviours() -> None:
    code, out, _ = skald("import", "--help")
    assert code == 0
    text = " ".join(out.split())
    assert "one cut short is refused (exit 3)" in text
    assert "one with an anomaly is refused naming its seq and rule (exit 4)" in text
    assert "all or nothing" in text


# -- options ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["undo"], "error: --option 'undo': expected KEY=VALUE (undo=anyone, say)"),
        (["=off"], "error: --option '=off': expected KEY=VALUE (undo=anyone, say)"),
        (
            ["undo=off", "undo=anyone"],
            "error: --option 'undo' is given twice (undo=off, undo=anyone): give it once",
        ),
    ],
)
def test_a_bad_option_is_a_usage_error(tmp_path: Path, options: list[str], message: str) -> None:
    fresh = tmp_path / "fresh.db"
    given = [word for option in options for word in ("--option", option)]
    for command in (["new", "beowulf"], ["tournament", "new", "beowulf", "--rounds", "1"]):
        code, out, err = skald(
            *command, "--players", "Ann,Bob", *given, "--db", f"sqlite:///{fresh}"
        )
        assert code == 2, err
        assert out == ""
        assert one_line(err) == message
        assert not fresh.exists()


# -- output files -------------------------------------------------------------------------


def test_audit_output_in_a_missing_folder_names_the_folder(
    store: tuple[str, str], tmp_path: Path
) -> None:
    db, game_id = store
    target = tmp_path / "nodir" / "a.md"
    code, out, err = skald("audit", game_id, "-o", str(target), "--db", db)
    assert code == 6
    assert out == ""
    assert one_line(err) == f"error: no such folder: {target.parent} (for --output {target})"
    assert not target.parent.exists()


def test_audit_output_onto_a_folder_is_refused(store: tuple[str, str], tmp_path: Path) -> None:
    db, game_id = store
    folder = tmp_path / "reports"
    folder.mkdir()
    code, _out, err = skald("audit", game_id, "-o", str(folder), "--db", db)
    assert code == 8
    assert one_line(err) == f"error: cannot write --output {folder}: it is a folder"
    assert list(folder.iterdir()) == []


def test_audit_output_is_written(store: tuple[str, str], tmp_path: Path) -> None:
    db, game_id = store
    target = tmp_path / "a.md"
    code, _out, err = skald("audit", game_id, "-o", str(target), "--db", db)
    assert code in (0, 1), err  # the verdict of a game in progress
    assert target.read_text(encoding="utf-8").startswith(f"# Audit of the Beowulf game {game_id}")


def test_a_missing_input_folder_is_named(store: tuple[str, str], tmp_path: Path) -> None:
    db, game_id = store
    receipt = tmp_path / "nodir" / "r.json"
    code, _out, err = skald("verify", game_id, "--receipt", str(receipt), "--db", db)
    assert code == 6
    assert one_line(err) == f"error: no such folder: {receipt.parent} (for {receipt})"


# -- variations ---------------------------------------------------------------------------


@pytest.mark.parametrize("how", [["--from", "5"], ["--extend", "v1"]])
def test_a_variation_needs_a_move(store: tuple[str, str], tmp_path: Path, how: list[str]) -> None:
    db, game_id = store
    code, out, err = skald(
        "variation", game_id, "--as", "Ann", "--from", "5", "place beowulf C3", "--db", db
    )
    assert code == 0, err
    before = _streams(tmp_path / "main.db")
    code, out, err = skald("variation", game_id, "--as", "Ann", *how, "--db", db)
    assert code == 2, err
    assert out == ""
    line = one_line(err)
    assert "at least one move" in line
    assert _streams(tmp_path / "main.db") == before
