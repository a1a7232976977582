"""Hägar table options and undo: the round limit forces the feast; a plain decision can be
taken back, a throw cannot; six greedy Vikings feast within a bounded number of rounds.
(Random playouts, replay, undo/redo and non-interference are the conformance suite's,
tests/test_conformance.py.)"""

from __future__ import annotations

import pytest

from skald.core.engine import Engine
from skald.core.errors import IllegalMove
from skald.core.store import EventStore
from tests.hagar_endgame import greedy_game
from tests.test_hagar_support import RULES, random_playout


def test_round_limit_option_forces_the_feast() -> None:
    game = random_playout(4, seed="limit", bot_seed=1, max_rounds="3")
    outcome = RULES.outcome(game.state)
    assert outcome is not None
    assert game.state.rounds <= 3


def test_undo_takes_back_a_plain_decision_but_not_a_throw() -> None:
    engine = Engine(EventStore("sqlite://"))
    game_id = engine.create("hagar", ["astrid", "bjorn"], seed="undo").id
    engine.execute(game_id, 0, "start fjord-west")
    engine.undo(game_id, 0)
    assert engine.load(game_id).rules.vikings[0].at == ""
    engine.execute(game_id, 0, "start fjord-east")
    engine.execute(game_id, 1, "start fjord-east")
    engine.execute(game_id, 0, "throw")
    with pytest.raises(IllegalMove, match="nothing to undo"):
        engine.undo(game_id, 0)


# Issue 24: six greedy Vikings played on for thousands of moves after the last piece came
# home (the bots never went for the camp's chests, and a full ship kept away from home
# once nothing was left to plunder). Measured with `python -m tests.hagar_endgame 50`:
# 50 six-player greedy games end within 88 rounds, at most one round after the last
# piece came home (before: up to 755 rounds, 700 of them after).
GREEDY_ROUND_BOUND = 100


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_six_greedy_vikings_feast_within_the_round_bound(seed: int) -> None:
    ending = greedy_game(6, seed)
    assert ending.rounds <= GREEDY_ROUND_BOUND
    assert ending.rounds_after_last_home <= 2


@pytest.mark.slow
def test_ten_more_six_player_greedy_games_feast_within_the_round_bound() -> None:
    endings = [greedy_game(6, seed) for seed in range(3, 13)]
    assert max(e.rounds for e in endings) <= GREEDY_ROUND_BOUND
    assert max(e.rounds_after_last_home for e in endings) <= 2
