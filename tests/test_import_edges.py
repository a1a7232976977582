"""`skald import` on hostile or broken files: one clean line and an exit code, whole
decisions only, and nothing stored when nothing can be."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from skald.cli.main import app
from skald.core.engine import Engine
from skald.core.errors import IllegalMove, InvalidNotation
from skald.core.importer import import_text, read_jsonl
from skald.core.store import EventStore
from skald.events.viewer import REFEREE
from skald.projections.bots.autoplay import autoplay
from skald.projections.table import Table
from tests.conftest import engine_of
from tests.forgery import jsonl, rehash

RUNNER = CliRunner()


@pytest.fixture(scope="module")
def referee_log() -> str:
    table = Table(Engine(EventStore("sqlite://")))
    result = autoplay(table, "toy", 2, bot_seed=5)
    return jsonl(table.log(result.id, REFEREE))


def run_import(tmp_path: Path, text: str | bytes) -> tuple[int, str]:
    path = tmp_path / "log.jsonl"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    result = RUNNER.invoke(app, ["import", str(path), "--db", f"sqlite:///{tmp_path}/i.db"])
    return result.exit_code, result.stderr


def assert_one_line(stderr: str) -> None:
    assert "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) == 1


def test_a_deeply_nested_line_is_refused_in_one_line(tmp_path: Path) -> None:
    code, stderr = run_import(tmp_path, '{"event": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    assert code == 3
    assert "line 1" in stderr
    assert_one_line(stderr)


def test_a_log_mixing_two_games_is_named_not_crashed(tmp_path: Path, referee_log: str) -> None:
    lines = referee_log.splitlines()
    envelopes = [msgspec.json.decode(line) for line in lines[:-1]]  # the last is its end
    for envelope in envelopes[5:]:
        envelope["stream"] = "another-game"
    text = "\n".join([*(json.dumps(e) for e in envelopes), lines[-1]])
    code, stderr = run_import(tmp_path, text)
    assert code == 4
    assert "a log holds one game" in stderr
    assert_one_line(stderr)
    assert not (tmp_path / "i.db").exists()  # nothing was written, not even a store


def test_a_rechained_log_mixing_stream_ids_stops_at_the_other_game(referee_log: str) -> None:
    table = Table(Engine(EventStore("sqlite://")))
    envelopes = list(read_jsonl(referee_log).envelopes)
    mixed = [
        msgspec.structs.replace(env, stream="other") if env.seq > 6 else env for env in envelopes
    ]
    with pytest.raises(IllegalMove, match="a log holds one game"):
        import_text(engine_of(table), jsonl(rehash(mixed)))
    assert engine_of(table).store.list_streams() == []


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(cut=st.integers(1, 10_000))
def test_every_cut_of_a_log_imports_nothing(referee_log: str, cut: int) -> None:
    """A referee log cut anywhere, at a line or inside one, is refused and stores nothing;
    the whole log imports a game the engine can go on playing."""
    at = cut % (len(referee_log) - 1)  # at least one byte of the end line goes
    engine = Engine(EventStore("sqlite://"))
    with pytest.raises((InvalidNotation, IllegalMove)):
        import_text(engine, referee_log[:at])
    assert engine.store.list_streams() == []
    result = import_text(engine, referee_log)
    assert engine.load(result.id).version == result.accepted


def test_a_binary_file_is_refused_in_one_line(tmp_path: Path) -> None:
    code, stderr = run_import(tmp_path, b"\x00\xff\xfe binary")
    assert code != 0
    assert_one_line(stderr)
