"""Hägar table options and undo: the round limit forces the feast; a plain decision can be
taken back, a throw cannot. (Random playouts, replay, undo/redo and non-interference are
the conformance suite's, tests/test_conformance.py.)"""

from __future__ import annotations

import pytest

from skald.core.engine import Engine
from skald.core.errors import IllegalMove
from skald.core.store import EventStore
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
