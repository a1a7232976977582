"""Beowulf hidden information that the generic checks do not see: tile ids of copies.

Copies of one face and act (the two Act I `+1` tiles, ids I01 and I02) are the same tile
at the table, but their ids differ and a played tile's id is public. The copy played must
therefore be chosen blind to ids (first in hand), or the id shown would reveal something
about the rest of the hand.
"""

from __future__ import annotations

import msgspec
import pytest

from skald.core.beowulf.data import tile
from skald.events.beowulf import TilePlaced
from tests.beowulf_support import Game, board_state

EMPTY = "\n".join([".  .  .  .  .  ."] * 5)


@pytest.mark.parametrize(
    ("hand", "move"),
    [
        (("I02", "I01"), "play +1 A1"),
        (("I01", "I02"), "play +1 A1"),
        (("I02", "II01"), "play +1@1 A1"),
        (("II01", "I02"), "play +1@1 A1"),
    ],
)
def test_the_copy_played_is_the_first_in_hand_not_the_lowest_id(
    hand: tuple[str, ...], move: str
) -> None:
    # Brown holds two +1 tiles (drawn in the order given) and plays a +1 on A1.
    # With "lowest id first", playing I02 would tell everyone brown has no I01 left.
    # Copies from two acts differ by their public backs: the player names the back.
    assert tile("I01").face == tile("I02").face == tile("II01").face == "+1"
    start = board_state(EMPTY)
    start = msgspec.structs.replace(start, hands=(hand, ()))
    game = Game(state=start)
    placed = next(e for e in game.move(move) if isinstance(e, TilePlaced))
    assert placed.tile == next(t for t in hand if tile(t).act == 1)
    assert game.state.hands[0] == tuple(t for t in hand if t != placed.tile)
