"""Bot levels: `random` and `greedy`, picked by name, each seeing only its own seat's view.

The greedy levels exist so that autoplay reaches every ending: with random bots every Beast
game ends by days passed, and Hägar games stall below the real 7-piece feast.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from skald.cli.main import app
from skald.core.beast.legal import to_act
from skald.events.viewer import seat_viewer
from skald.projections.beast.view import beast_view, perturb_hidden
from skald.projections.bots.autoplay import BOTS, autoplay, bot_named, greedy_bot, random_bot
from skald.projections.table import Table
from tests.conftest import engine_of

runner = CliRunner()


def test_levels_are_picked_by_name() -> None:
    assert {"random": random_bot, "greedy": greedy_bot} == BOTS
    assert bot_named("greedy") is greedy_bot
    with pytest.raises(ValueError, match="no bot level 'clever'"):
        bot_named("clever")


def test_greedy_beast_at_three_players_reaches_two_endings(table: Table) -> None:
    endings = Counter()
    for k in range(8):
        result = autoplay(table, "beast", 3, seed=f"bots/{k}", bot_seed=k, bot=greedy_bot)
        assert result.outcome is not None
        endings[result.outcome.termination] += 1
    assert len(endings) >= 2, endings
    assert endings["days_passed"] < 8


def test_greedy_hagar_reaches_the_real_feast(table: Table) -> None:
    for players in (2, 4):
        result = autoplay(table, "hagar", players, seed=f"bots/{players}", bot=greedy_bot)
        assert result.outcome is not None
        assert result.outcome.termination == "feast"


def test_greedy_beowulf_beats_random_at_the_table(table: Table) -> None:
    wins = 0
    for k in range(4):
        game = autoplay(table, "beowulf", 2, seed=f"bots/{k}", bot_seed=k, bot=_seat_zero_greedy)
        assert game.outcome is not None
        wins += 0 in game.outcome.winners
    assert wins >= 3


def _seat_zero_greedy(view: object, legal: list[str], rnd: random.Random) -> str:
    seat = getattr(view, "to_act", (0,))
    return greedy_bot(view, legal, rnd) if seat[:1] == (0,) else random_bot(view, legal, rnd)


def test_a_greedy_hunter_chooses_the_same_whatever_the_beast_hides(table: Table) -> None:
    """The hunters' greedy choice reads their view only, so where the hidden Beast really
    is (its location and face-down path) cannot change it."""
    game_id = table.create("beast", ("Ann", "Bob", "Cid"), seed="bots/hidden", reproducible=True)
    rnd = random.Random(3)
    checked = 0
    for _ in range(400):
        turn = table.turn(game_id)
        if turn.outcome is not None:
            break
        seat = turn.to_act[0]
        legal = table.legal(game_id, seat)
        state = engine_of(table).load(game_id).rules
        if seat != 0 and state.active:
            viewer = seat_viewer(seat)
            other = perturb_hidden(state, viewer, random.Random(checked))
            if other.beast.location != state.beast.location:
                assert to_act(other) == to_act(state)
                choice = greedy_bot(beast_view(state, viewer), legal, random.Random(checked))
                again = greedy_bot(beast_view(other, viewer), legal, random.Random(checked))
                assert again == choice
                checked += 1
        own = table.show(game_id, table.viewer(game_id, str(seat))).state
        table.move(game_id, seat, greedy_bot(own, legal, rnd))
    assert checked > 20


def test_cli_autoplay_takes_a_bot_level(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/bots.db"
    result = runner.invoke(
        app,
        [
            "autoplay",
            "hagar",
            "--players",
            "2",
            "--bots",
            "greedy",
            "--seed",
            "c",
            "--json",
            "--db",
            db,
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout.splitlines()[0])["outcome"]["termination"] == "feast"
    refused = runner.invoke(
        app, ["autoplay", "hagar", "--players", "2", "--bots", "clever", "--db", db]
    )
    assert refused.exit_code == 2
