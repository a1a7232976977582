"""Table options: an unknown option or a bad value is refused at creation, the same way from
the engine, the CLI (exit 2) and the API (422 invalid_option), and nothing is stored."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from skald.api.main import create_app
from skald.cli.main import app
from skald.core.engine import Engine
from skald.core.errors import InvalidOption
from skald.core.store import EventStore

BAD = [
    ("beast", {"setup": "zzz"}, "setup='zzz'"),
    ("beast", {"zzz": "1"}, "unknown option 'zzz'"),
    ("beowulf", {"refill": "sometimes"}, "refill="),
    ("hagar", {"feast_at": "many"}, "feast_at"),
    ("beowulf", {"undo": "never"}, "undo="),
    # With entropy=seats the opening waits, but a bad option is still refused at once.
    ("beast", {"entropy": "seats", "contract": "no-such"}, "contract="),
]


@pytest.mark.parametrize(("game", "options", "named"), BAD)
def test_the_engine_refuses_bad_options_and_stores_nothing(
    game: str, options: dict[str, str], named: str
) -> None:
    engine = Engine(EventStore("sqlite://"))
    with pytest.raises(InvalidOption, match=named.replace("(", r"\(")):
        engine.create(game, ["Ann", "Bob", "Cid"], options=options)
    assert engine.store.list_streams() == []


def test_the_cli_and_the_api_refuse_them_alike(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        [
            "new",
            "beast",
            "--players",
            "Ann,Bob",
            "--option",
            "setup=zzz",
            "--db",
            f"sqlite:///{tmp_path}/c.db",
        ],
    )
    assert result.exit_code == 2
    assert "setup='zzz'" in result.stderr
    with TestClient(create_app(f"sqlite:///{tmp_path}/a.db")) as client:
        answer = client.post(
            "/games", json={"game": "beast", "players": ["Ann", "Bob"], "options": {"setup": "zzz"}}
        )
        assert answer.status_code == 422
        assert answer.json()["error"] == "invalid_option"
        assert client.get("/games").json()["items"] == []


def test_known_options_still_work() -> None:
    engine = Engine(EventStore("sqlite://"))
    state = engine.create("beast", ["Ann", "Bob"], options={"setup": "first", "undo": "anyone"})
    assert state.option("setup", "") == "first"
