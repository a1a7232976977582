"""Tournament records people use: a 9-player, 3-round Swiss of the toy game (tables of 3,
seeded bots) has a crosstable (player × round: table, opponents, place, points) whose
Markdown is a golden file (fixtures/tournament/crosstable_swiss9.md; `SKALD_REGEN_GOLDEN=1`
rewrites it), which also stands in the HTML export; the CSV parses with `csv` into one
number per numeric column; and each table's game export carries the tournament's Event,
Round and Table tags."""

from __future__ import annotations

import csv
import io
import os
import random
from datetime import UTC, datetime
from pathlib import Path

import pytest

from skald.core.engine import Engine
from skald.core.store import EventStore
from skald.core.tournament.desk import Tournaments
from skald.core.tournament.state import TournamentState
from skald.events.viewer import REFEREE
from skald.projections.bots.autoplay import play_out, random_bot
from skald.projections.table import Table
from skald.projections.tournament.crosstable import crosstable, crosstable_md
from skald.projections.tournament.export import export_csv, export_html, export_md
from skald.projections.tournament.standings import standings

GOLDEN = Path(__file__).parent.parent / "fixtures" / "tournament" / "crosstable_swiss9.md"
PLAYERS = ["Ann", "Bob", "Cid", "Dag", "Eir", "Fro", "Gun", "Hel", "Ivo"]
MOMENT = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def swiss() -> tuple[Table, TournamentState]:
    store = EventStore("sqlite://")
    rnd = random.Random(9)  # the games' keys, so every run deals the same
    table = Table(
        Engine(store, clock=lambda: MOMENT, random_hex=lambda size: rnd.randbytes(size).hex())
    )
    desk = Tournaments(store, table, clock=lambda: MOMENT)
    tid = desk.create(
        "toy",
        PLAYERS,
        rounds=3,
        table_size=3,
        seed="swiss9",
        name="Club night",
        tournament_id="club",
    )
    for number in range(3):
        desk.pair(tid)
        for k, (_, _, game) in enumerate(desk.open_games(tid)):
            play_out(table, game, random_bot, random.Random(10 * number + k))
        desk.collect(tid)
    return table, desk.state(tid)


def order(state: TournamentState) -> list[tuple[int, str, float]]:
    return [(row.rank, row.player, row.points) for row in standings(state).standings]


def test_the_crosstable_of_a_9_player_3_round_swiss_is_the_golden_one(
    swiss: tuple[Table, TournamentState],
) -> None:
    _, state = swiss
    cross = crosstable(state, order(state))
    assert cross.rounds == (1, 2, 3)
    for row in cross.rows:
        assert len(row.cells) == 3
        for cell in row.cells:  # everyone played every round, at a table of three
            assert cell.table is not None
            assert len(cell.opponents) == 2
            assert cell.place in (1, 2, 3)
        assert sum(c.points or 0 for c in row.cells) == pytest.approx(row.points)
    text = "\n".join(crosstable_md(cross)) + "\n"
    if os.environ.get("SKALD_REGEN_GOLDEN"):
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8")
    assert text.strip() in export_md(state, standings(state))
    page = export_html(state, standings(state))
    assert '<table class="crosstable">' in page
    assert "<h2>Round 3</h2>" in page
    assert " 1st, " in page  # each table's placings


def test_the_csv_parses_into_numbers(swiss: tuple[Table, TournamentState]) -> None:
    _, state = swiss
    rows = list(csv.DictReader(io.StringIO(export_csv(standings(state), state))))
    assert [row["player"] for row in rows] == [p for _, p, _ in order(state)]
    numeric = [
        name for name in rows[0] if name not in ("player",) and not name.endswith("_opponents")
    ]
    assert {"rating_mu", "rating_sigma", "points", "r1_place", "r3_points"} <= set(numeric)
    for row in rows:
        for name in numeric:
            float(row[name])  # one number per column
        assert float(row["rating_sigma"]) > 0
        assert sum(float(row[f"r{r}_points"]) for r in (1, 2, 3)) == pytest.approx(
            float(row["points"])
        )


def test_a_tournament_game_carries_its_event_round_and_table(
    swiss: tuple[Table, TournamentState],
) -> None:
    table, state = swiss
    paired = state.rounds[1]
    game = paired.tables[2].game
    for format in ("text", "md"):
        exported = table.histories().export(game, REFEREE, format)
        assert (
            '[Event "Club night"]' if format == "text" else "| Event | Club night |"
        ) in exported
        assert ('[Round "2"]' if format == "text" else "| Round | 2 |") in exported
        assert ('[Table "3"]' if format == "text" else "| Table | 3 |") in exported
