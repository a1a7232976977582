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
