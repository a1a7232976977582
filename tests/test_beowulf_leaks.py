"""Undo across a reveal in Beowulf (issue 9, item 5), tried as a hostile player would.

The attack: Ann plays `+1` out of her hidden hand, Bob's log shows the tile; Ann undoes,
and Bob's view says her hand is unknown again while he knows it holds a `+1`. DESIGN.md:
"Playing a tile or card out of a hidden hand reveals it: either such a play is a barrier,
or ..." -- here it is a barrier, so the undo is refused and the tile stays on the board.
Placing a figure shows nothing hidden and stays undoable.
"""

from __future__ import annotations

import random

import pytest

from skald.core.beowulf.commands import CashTreasure, Counsel
from skald.core.errors import IllegalMove
from skald.events.beowulf import TilePlaced, TreasureCashed
from skald.projections.table import Table
from tests.beowulf_support import RULES, Game


def test_a_tile_played_from_the_hand_cannot_be_undone(table: Table) -> None:
    game = table.create("beowulf", ["Ann", "Bob"], seed="leak")
    bob = table.viewer(game, "Bob")
    table.move(game, 0, "draw")
    play = next(m for m in table.legal(game, 0) if m.startswith("play"))
    table.move(game, 0, play)
    placed = [env.event for env in table.log(game, bob) if isinstance(env.event, TilePlaced)]
    assert len(placed) == 1
    assert placed[0].barrier
    with pytest.raises(IllegalMove, match="cannot be taken back"):
        table.undo(game, 0)
    seen = table.show(game, bob).state
    assert [(t.at, t.face) for t in seen.tiles] == [(play.split()[2], play.split()[1])]
    assert len(seen.seats[0].hand_backs) == 2  # dealt 2, drew 1, played 1


def test_placing_a_figure_stays_undoable(table: Table) -> None:
    game = table.create("beowulf", ["Ann", "Bob"], seed="leak")
    table.move(game, 0, "place beowulf A1")
    table.undo(game, 0)
    assert table.show(game, table.viewer(game, "Bob")).state.figures == ()
    table.redo(game, 0)
    assert len(table.show(game, table.viewer(game, "Bob")).state.figures) == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_decision_that_takes_a_tile_out_of_a_hand_is_a_barrier(players: int) -> None:
    """Random play: placed, counselled or cashed, a tile leaving a hand ends what undo
    can take back; every other decision that shrinks no hand is left alone."""
    kinds: set[type] = set()
    for seed in range(6):
        game = Game(players=players, seed=f"barrier/{seed}")
        rnd = random.Random(seed)
        while RULES.outcome(game.state) is None:
            (seat,) = RULES.to_act(game.state)
            before = [len(hand) for hand in game.state.hands]
            legal = list(RULES.legal(game.state, seat))
            rare = [c for c in legal if isinstance(c, CashTreasure | Counsel)]
            command = rnd.choice(rare if rare and rnd.random() < 0.5 else legal)
            events = RULES.decide(game.state, seat, command, game.rng)
            game.apply(events)
            after = [len(hand) for hand in game.state.hands]
            if any(a < b for a, b in zip(after, before, strict=True)):
                assert any(getattr(e, "barrier", False) for e in events), events
                kinds |= {type(e) for e in events if isinstance(e, TilePlaced | TreasureCashed)}
                kinds |= {Counsel} if isinstance(command, Counsel) else set()
    assert kinds == {TilePlaced, TreasureCashed, Counsel}
