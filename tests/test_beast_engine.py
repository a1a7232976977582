"""Beast through the engine and the table: hidden steps can be taken back by the Beast
before anything is revealed; logs and views per viewer; the CLI-facing notation."""

from __future__ import annotations

import pytest

from skald.core.engine import Engine
from skald.core.errors import Forbidden, IllegalMove, InvalidNotation
from skald.core.rules import get_rules
from skald.core.store import EventStore
from skald.events.beast import BeastMoved
from skald.events.common import DecisionUndone, MoveMade
from skald.projections.table import Table
from tests.conftest import engine_of


@pytest.fixture
def table() -> Table:
    return Table(Engine(EventStore("sqlite://")))


def test_the_beast_may_undo_a_hidden_step_but_not_once_trails_were_checked(table: Table) -> None:
    game = table.create("beast", ["Ann", "Bob", "Cid"], seed="undo")
    table.move(game, 0, "step N")
    with pytest.raises(Forbidden):
        table.undo(game, 1)  # not Bob's decision
    table.undo(game, 0)
    state = engine_of(table).load(game).rules
    assert state.active == ()
    assert state.beast.location == "C3"
    table.redo(game, 0)
    assert engine_of(table).load(game).rules.beast.location == "C2"
    table.move(game, 0, "step E")  # ends the move: trail check
    with pytest.raises(IllegalMove, match="nothing to undo"):
        table.undo(game, 0)
    bob = table.viewer(game, "Bob")
    log = table.log(game, bob)
    assert any(isinstance(env.event, DecisionUndone) for env in log)
    for env in log:
        if isinstance(env.event, BeastMoved):
            assert not env.event.card.known
        if isinstance(env.event, MoveMade) and env.event.seat == 0:
            assert env.event.move is None
            assert not env.event.hidden_move.known
    shown = table.render(table.show(game, bob))
    assert "2 active movement cards" in shown
    assert "actual D2" not in shown
    assert "Fangrir (Ann) at hidden location" in shown
    assert "actual D2" in table.render(table.show(game, table.viewer(game, "Ann")))


def test_everyone_sees_everything_once_the_game_is_over(table: Table) -> None:
    from skald.projections.bots.autoplay import autoplay

    result = autoplay(table, "beast", 2, seed="over")
    assert result.outcome is not None
    bob = table.viewer(result.id, "Bob")
    assert all(
        env.event.card.known
        for env in table.log(result.id, bob)
        if isinstance(env.event, BeastMoved)
    )
    assert table.verify(result.id).ok


def test_bad_notation_names_the_word_and_the_choices() -> None:
    rules = get_rules("beast")
    with pytest.raises(InvalidNotation, match=r"direction N, E, S, W or X .* not 'Q'"):
        rules.parse("step Q")
    with pytest.raises(InvalidNotation, match="'choose N'"):
        rules.parse("choose two")
    with pytest.raises(InvalidNotation, match=r"unknown command 'fly' at word 1 .*search"):
        rules.parse("fly north")
