"""Beowulf, second rules pass (issue 15): follow-ups on the last space and the choice of
the copy when a hand holds one face from two acts, each quoting the rulebook.

Act II board (5 x 6, printed Throats C2, E3, B4), one space left (F5):

    +1  +1  +2  +3  +4  +5
    -1  -2  ##  -2  -3  -4
    +1  +2  +3  +4  ##  -5
    +2  ##  +2  +3  +3  +1
    +1c +2  -1  +2  b:D  .
"""

from __future__ import annotations

import msgspec
import pytest

from skald.core.errors import IllegalMove, InvalidOption
from skald.events.beowulf import AbilityOffered, ActEnded, TilePlaced, TilesSwapped, TurnBegan
from tests.beowulf_support import Game, board_state

ONE_LEFT = """
+1 +1 +2 +3 +4 +5
-1 -2 ## -2 -3 -4
+1 +2 +3 +4 ## -5
+2 ## +2 +3 +3 +1
+1c +2 -1 +2 b:D .
"""


def _one_left(hand: str, **changes: object) -> Game:
    state = board_state(ONE_LEFT, act=2, hands={0: [hand]}, **changes)
    return Game(state=msgspec.structs.replace(state, drawn=True))


def test_a_golden_statue_on_the_last_space_still_swaps_then_the_act_ends() -> None:
    """Rulebook "Golden Statue": "After a player has placed a tile with the special Golden
    Statue ability on the board, they may immediately swap the positions of any two other
    tiles already on the board." The board stays full, so the act ends after the swap."""
    game = _one_left("0s")
    events = game.move("play 0s F5")
    assert AbilityOffered(seat=0, ability="golden_statue", source="F5") in events
    assert not any(isinstance(e, ActEnded) for e in events)
    assert "swap A1 F4" in game.legal()
    events = game.move("swap A1 F4")
    assert TilesSwapped(seat=0, first="A1", second="F4") in events
    ended = [e for e in events if isinstance(e, ActEnded)]
    assert ended
    assert ended[0].act == 2
    assert ended[0].reason == "the last space was filled"


def test_a_temptation_on_the_last_space_ends_the_act_at_once_by_default() -> None:
    """Rulebook "End of an Act": "Players keep playing until the last space on the board is
    filled. When that happens, the act ends immediately". Removing the Courage would
    empty a space again: with `last_space=forfeit` (the default) the removal is lost."""
    game = _one_left("+2t")
    events = game.move("play +2t F5")
    assert not any(isinstance(e, AbilityOffered) for e in events)
    assert any(isinstance(e, ActEnded) for e in events)


def test_with_last_space_offer_the_removal_reopens_the_act() -> None:
    """Rulebook "Temptation": "they may choose a Courage tile already in play and remove
    it from the game". With `last_space=offer` the removal is offered; made, it empties a
    space and the act goes on until the board is full again."""
    game = _one_left("+3t", last_removal=True)
    events = game.move("play +3t F5")
    assert AbilityOffered(seat=0, ability="temptation", source="F5") in events
    events = game.move("remove A5")
    assert not any(isinstance(e, ActEnded) for e in events)
    assert TurnBegan(seat=1) in events
    assert game.state.tiles[4 * 6] is None


def test_the_option_is_declared_and_checked() -> None:
    game = Game(options={"last_space": "offer"})
    assert game.state.last_removal
    with pytest.raises(InvalidOption, match="last_space"):
        Game(options={"last_space": "sometimes"})


def test_a_face_from_two_acts_names_its_back() -> None:
    """Rulebook "Turn Sequence": "they choose a tile from their hand and play it"; "Beginning
    Acts II and III": "the backs of the tiles in all players' hands are open information
    ... if a player has tiles from an earlier act in their hand during a later act, the
    other players will be able to tell." Which copy is played is the player's choice."""
    empty = "\n".join([".  .  .  .  .  ."] * 5)
    state = board_state(empty, act=2, drawn=True)
    game = Game(state=msgspec.structs.replace(state, hands=(("I01", "II01"), ())))
    plays = [m for m in game.legal() if m.endswith(" A1")]
    assert plays == ["play +1@1 A1", "play +1@2 A1"]
    with pytest.raises(IllegalMove, match="name the back"):
        game.move("play +1 A1")
    events = game.move("play +1@2 A1")
    assert TilePlaced(seat=0, tile="II01", at="A1", revealed=True) in events
    assert game.state.hands[0] == ("I01",)
