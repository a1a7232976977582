"""Commands that only read never create a store: given a SQLite path where nothing was
recorded (a mistyped --db or SKALD_DB), they say so in one line (exit 6) and leave no file
behind; commands that record still start a new store there."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_support import one_line, skald

READERS = [
    ["show", "abc"],
    ["legal", "abc", "--as", "Ann"],
    ["log", "abc"],
    ["replay", "abc"],
    ["verify", "abc"],
    ["audit", "abc"],
    ["receipt", "abc"],
    ["export", "abc"],
    ["tournament", "standings", "abc"],
    ["tournament", "export", "abc"],
    ["tournament", "verify", "abc"],
]


@pytest.mark.parametrize("args", READERS, ids=lambda args: " ".join(args[:2]))
def test_a_read_on_a_missing_store_creates_nothing(tmp_path: Path, args: list[str]) -> None:
    missing = tmp_path / "typo.db"
    code, out, err = skald(*args, "--db", f"sqlite:///{missing}")
    assert code == 6, err
    assert out == ""
    assert one_line(err) == (
        f"error: no event store at {missing}: nothing was recorded there (check --db or SKALD_DB)"
    )
    assert list(tmp_path.iterdir()) == []


def test_a_command_that_records_still_starts_a_store(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh.db"
    code, out, _ = skald("new", "beowulf", "--players", "Ann,Bob", "--db", f"sqlite:///{fresh}")
    assert code == 0
    assert fresh.is_file()
    assert skald("show", out.strip(), "--db", f"sqlite:///{fresh}")[0] == 0


def test_a_plain_file_path_names_a_sqlite_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--db games.db` and `SKALD_DB=/srv/skald.db` are SQLite files, as the help says
    ("a SQLite file or postgresql://..."); before, a path without `sqlite:///` crashed."""
    monkeypatch.chdir(tmp_path)
    code, out, err = skald("new", "beowulf", "--players", "Ann,Bob", "--db", "games.db")
    assert code == 0, err
    game = out.strip()
    assert (tmp_path / "games.db").is_file()
    absolute = str(tmp_path / "games.db")
    assert skald("show", game, "--db", absolute)[0] == 0
    monkeypatch.setenv("SKALD_DB", absolute)
    code, out, err = skald("legal", game, "--as", "Ann")
    assert code == 0, err
    assert "place" in out
    # A missing file is still refused by the readers, named as given.
    code, _, err = skald("show", game, "--db", "typo.db")
    assert code == 6
    assert "no event store at typo.db" in one_line(err)
    assert not (tmp_path / "typo.db").exists()


@pytest.mark.parametrize(
    ("db", "message"),
    [
        ("mysql://ann:hunter2@db.example/games", "cannot open the event store at mysql://ann:***@"),
        ("   ", "no event store named: give a SQLite file or a postgresql:// URL"),
    ],
)
def test_an_unusable_store_url_is_one_line_without_its_password(
    tmp_path: Path, db: str, message: str
) -> None:
    code, out, err = skald("new", "beowulf", "--players", "Ann,Bob", "--db", db)
    assert code == 8, err
    assert out == ""
    assert message in one_line(err)
    assert "hunter2" not in err
    assert "Traceback" not in err
