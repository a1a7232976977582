"""Random Beowulf games to the end keep the act and score accounting, under both refill
policies; each viewer's share of the view (the conformance suite checks that views
ignore what is hidden)."""

from __future__ import annotations

import pytest

from skald.core.beowulf.data import tile, tile_face
from skald.core.beowulf.printed import faces_words
from skald.core.beowulf.rules import BeowulfRules
from skald.events.beowulf import ActEnded, FigureScored, TreasureCashed
from skald.events.viewer import REFEREE, SPECTATOR, seat_viewer
from skald.projections.beowulf.view import render, view
from skald.projections.registry import views_for
from tests.beowulf_support import Game, random_playout

RULES = BeowulfRules()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_score_three_acts(players: int) -> None:
    game = random_playout(players, seed=f"playout/{players}", bot_seed=players)
    outcome = RULES.outcome(game.state)
    assert outcome is not None
    assert outcome.termination == "completed"
    assert [e.act for e in game.events if isinstance(e, ActEnded)] == [1, 2, 3]
    assert sorted(s for group in outcome.ranking for s in group) == list(range(players))
    gained = [50] * players
    for event in game.events:
        if isinstance(event, FigureScored | TreasureCashed):
            gained[event.seat] += event.points
    assert tuple(gained) == game.state.points == outcome.scores
    assert game.state.supply == ((0, 0, 0, 4),) * players or all(
        s[3] == 4 for s in game.state.supply
    )


@pytest.mark.parametrize("refill", ["ask", "always"])
def test_playouts_with_both_refill_policies(refill: str) -> None:
    for seed in range(5):
        game = random_playout(2, seed=f"refill/{seed}", bot_seed=seed, options={"refill": refill})
        assert RULES.outcome(game.state) is not None


def test_what_each_viewer_sees() -> None:
    game = Game(players=3, seed="sees")
    own = view(game.state, seat_viewer(1))
    assert own.seats[1].hand is not None
    assert own.seats[0].hand is None
    assert own.seats[0].hand_backs == (1, 1)
    assert own.pile is None
    spectator = view(game.state, SPECTATOR)
    assert all(s.hand is None for s in spectator.seats)
    referee = view(game.state, REFEREE)
    assert all(s.hand is not None for s in referee.seats)
    assert referee.pile == tuple(tile(t).face for t in game.state.pile)


def test_render_shows_board_legend_hand_and_scores() -> None:
    game = Game(players=2, seed="render")
    game.move("place beowulf C2")
    views = views_for("beowulf")
    players = ("Ann", "Bob")
    text = views.render(views.view(game.state, seat_viewer(0)), players)
    assert "    A    B    C" in text
    assert "bW" in text
    assert "legend: figures b=brown (Ann) g=green (Bob)" in text
    assert "green (Bob) to play" in text
    assert "50 saga points" in text
    own = faces_words([tile_face(t) for t in game.state.hands[0]])
    assert (
        "  brown (Ann)   50 saga points  supply Beowulf 0, Thanes 2, Castles 3, Drakkars 4"
        f"  hand {own} (backs I, I)" in text
    )
    assert render(view(game.state, SPECTATOR), players).count("2 tiles") == 2
