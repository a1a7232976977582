"""Golden files: one annotated game per title in every export format (fixtures/annotated/,
reviewed by eye). Built with a fixed clock and a seeded random source, so any change to
a writer shows up as a diff; `SKALD_REGEN_GOLDEN=1` rewrites them. The importable forms
also import back and re-export to the same bytes."""

from __future__ import annotations

import os
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from skald.core.engine import Engine
from skald.core.store import EventStore
from skald.events.viewer import REFEREE
from skald.projections.table import Table
from tests.history_support import annotated_game

FOLDER = Path(__file__).parent.parent / "fixtures" / "annotated"
SUFFIX = {"jsonl": "jsonl", "text": "txt", "md": "md", "html": "html"}
SETUP = {"beowulf": (11, 30), "beast": (12, 40), "hagar": (13, 30)}


def _table(seed: int) -> Table:
    rnd = random.Random(seed)
    moment = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    return Table(
        Engine(
            EventStore("sqlite://"),
            clock=lambda: moment,
            random_hex=lambda size: rnd.randbytes(size).hex(),
        )
    )


@pytest.fixture(scope="module")
def games() -> dict[str, tuple[Table, str]]:
    built = {}
    for game, (seed, decisions) in SETUP.items():
        table = _table(seed)
        built[game] = (table, annotated_game(table, game, seed, decisions, f"golden-{game}"))
    return built


@pytest.mark.parametrize("format", sorted(SUFFIX))
@pytest.mark.parametrize("game", sorted(SETUP))
def test_golden(games: dict[str, tuple[Table, str]], game: str, format: str) -> None:
    table, game_id = games[game]
    exported = table.histories().export(game_id, REFEREE, format)
    path = FOLDER / f"{game}.{SUFFIX[format]}"
    if os.environ.get("SKALD_REGEN_GOLDEN"):
        FOLDER.mkdir(parents=True, exist_ok=True)
        path.write_text(exported, encoding="utf-8")
    assert exported == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("format", ["jsonl", "text"])
@pytest.mark.parametrize("game", sorted(SETUP))
def test_golden_files_import_and_re_export(game: str, format: str) -> None:
    text = (FOLDER / f"{game}.{SUFFIX[format]}").read_text(encoding="utf-8")
    table = _table(0)
    result = table.histories().import_export(text)
    assert result.stored
    assert table.histories().export(result.id, REFEREE, format) == text
