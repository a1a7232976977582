"""The audit as a person reads it in a terminal (found by a review): no Markdown escapes
where nothing needs them (`Ann \\(the Beast\\)`), and its events table credits what the
game did to the game, as the log does (`| 13 | Ann | No trail appeared.` said otherwise)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli_support import skald


def test_the_audit_reads_as_the_log(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'audit.db'}"
    code, out, err = skald(
        "autoplay", "beast", "--players", "3", "--seed", "words", "--json", "--db", db
    )
    assert code == 0, err
    game_id = json.loads(out.splitlines()[0])["id"]
    code, text, err = skald("audit", game_id, "--db", db)
    assert code in (0, 1), err
    assert "Players: Ann (the Beast), Bob (hunter), Cid (hunter)" in text
    assert "\\(" not in text
    rows = [line.split(" | ") for line in text.splitlines() if line.startswith("| ")]
    by = {row[1] for row in rows[2:] if len(row) > 2}
    assert "the game" in by, by
    for row in rows:
        if len(row) > 2 and row[2].startswith(("No trail appeared", "The action deck was")):
            assert row[1] == "the game", row
