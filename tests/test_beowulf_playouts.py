"""Random Beowulf games to the end, and views that show each viewer only its share."""

from __future__ import annotations

import time

import msgspec
import pytest

from core.beowulf.data import tile
from core.beowulf.rules import BeowulfRules
from core.beowulf.state import BeowulfState
from events.beowulf import ActEnded, FigureScored, TreasureCashed
from events.viewer import REFEREE, SPECTATOR, seat_viewer
from projections.beowulf import render, view
from projections.registry import views_for
from tests.beowulf_support import Game, random_playout

RULES = BeowulfRules()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_finish_three_acts(players: int) -> None:
    started = time.perf_counter()
    game = random_playout(players, seed=f"playout/{players}", bot_seed=players)
    assert time.perf_counter() - started < 2.0
    outcome = RULES.outcome(game.state)
    assert outcome is not None and outcome.termination == "completed"
    assert [e.act for e in game.events if isinstance(e, ActEnded)] == [1, 2, 3]
    assert sorted(s for group in outcome.ranking for s in group) == list(range(players))
    gained = [50] * players
    for event in game.events:
        if isinstance(event, FigureScored | TreasureCashed):
            gained[event.seat] += event.points
    assert tuple(gained) == game.state.points == outcome.scores
    assert game.state.supply == ((0, 0, 0, 4),) * players or all(
        s[3] == 4 for s in game.state.supply)


@pytest.mark.parametrize("refill", ["ask", "always"])
def test_playouts_with_both_refill_policies(refill: str) -> None:
    for seed in range(5):
        game = random_playout(2, seed=f"refill/{seed}", bot_seed=seed, options={"refill": refill})
        assert RULES.outcome(game.state) is not None


def states_of(game: Game, seed: str) -> list[BeowulfState]:
    replay = Game(players=game.state.seats, seed=seed)
    states = []
    for event in game.events[len(replay.events):]:
        replay.apply([event])
        states.append(replay.state)
    return states


def shuffle_hidden(state: BeowulfState, seat: int) -> BeowulfState:
    """Change what `seat` may not see: the pile order and other hands (same backs)."""
    pile = list(reversed(state.pile))
    hands = [list(h) for h in state.hands]
    for other in range(state.seats):
        if other == seat:
            continue
        for i, held in enumerate(hands[other]):
            swap = next((j for j, t in enumerate(pile) if tile(t).act == tile(held).act), None)
            if swap is not None:
                hands[other][i], pile[swap] = pile[swap], held
    return msgspec.structs.replace(state, pile=tuple(pile),
                                   hands=tuple(tuple(h) for h in hands))


def test_seat_views_do_not_depend_on_hidden_information() -> None:
    game = random_playout(3, seed="views", bot_seed=7)
    for state in states_of(game, "views")[::7]:
        for seat in range(3):
            changed = shuffle_hidden(state, seat)
            assert view(changed, seat_viewer(seat)) == view(state, seat_viewer(seat))
        assert view(shuffle_hidden(state, -1), SPECTATOR) == view(state, SPECTATOR)


def test_what_each_viewer_sees() -> None:
    game = Game(players=3, seed="sees")
    own = view(game.state, seat_viewer(1))
    assert own.seats[1].hand is not None and own.seats[0].hand is None
    assert own.seats[0].hand_backs == (1, 1) and own.pile is None
    spectator = view(game.state, SPECTATOR)
    assert all(s.hand is None for s in spectator.seats)
    referee = view(game.state, REFEREE)
    assert all(s.hand is not None for s in referee.seats)
    assert referee.pile == tuple(tile(t).face for t in game.state.pile)


def test_render_shows_board_legend_hand_and_scores() -> None:
    game = Game(players=2, seed="render")
    game.move("place beowulf C2")
    views = views_for("beowulf")
    text = views.render(views.view(game.state, seat_viewer(0)))
    assert "    A    B    C" in text and "bW" in text and "legend" in text
    assert "brown" in text and "50 saga points" in text
    assert render(view(game.state, SPECTATOR)).count("2 tiles") == 2
