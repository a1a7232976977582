"""Every special tile, one scenario each, driven through decide/evolve.

Pictures: `.` empty, tile faces (`+3`, `-2d`), figures `b:T` (owner b/g = brown/green,
kind W/T/C/D). The pile is empty unless said, so tiles are played without a draw.
"""

from __future__ import annotations

import pytest

from skald.core.beowulf.rules import BeowulfRules
from skald.core.errors import IllegalMove
from skald.events.beowulf import AbilityOffered, TilesBetrayed, TurnBegan
from tests.beowulf_support import Game, board_state, cell, hand_faces, tile_id

RULES = BeowulfRules()
EMPTY = """
.  .  .  .  .  .
.  .  .  .  .  .
.  .  .  .  .  .
.  .  .  .  .  .
.  .  .  .  .  .
"""


def game_at(picture: str, hands: dict[int, list[str]], **changes: object) -> Game:
    return Game(state=board_state(picture, hands=hands, **changes))


def test_temptation_may_remove_a_courage() -> None:
    #      A    B    C ...
    #  1   .  +1c    .        brown plays +2t on C1, then removes the Courage on B1
    game = game_at(EMPTY.replace(".  .  .", ".  +1c  .", 1), {0: ["+2t"]})
    events = game.move("play +2t C1")
    assert isinstance(events[-1], AbilityOffered)
    assert game.legal() == ["remove B1", "skip"]
    game.move("remove B1")
    assert cell(game.state, "B1") == "."
    assert cell(game.state, "C1") == "+2t"
    assert game.state.turn == 1


def test_temptation_removal_is_optional() -> None:
    game = game_at(EMPTY.replace(".  .  .", ".  +1c  .", 1), {0: ["+2t"]})
    game.move("play +2t C1")
    game.move("skip")
    assert cell(game.state, "B1") == "+1c"
    assert game.state.turn == 1


def test_temptation_without_a_courage_in_play_asks_nothing() -> None:
    game = game_at(EMPTY, {0: ["+2t"]})
    assert isinstance(game.move("play +2t C1")[-1], TurnBegan)


def test_courage_may_remove_a_temptation_but_not_another_tile() -> None:
    #  1   .  +2t   +3        brown plays +1c on A2
    game = game_at(EMPTY.replace(".  .  .", ".  +2t  +3", 1), {0: ["+1c"]})
    game.move("play +1c A2")
    with pytest.raises(IllegalMove, match="C1 holds no Temptation"):
        game.move("remove C1")
    game.move("remove B1")
    assert cell(game.state, "B1") == "."


def test_treasure_is_placed_or_cashed() -> None:
    game = game_at(EMPTY, {0: ["+1$3"], 1: ["+1$3"]})
    assert "cash +1$3" in game.legal()
    game.move("cash +1$3")
    assert game.state.points[0] == 53
    assert hand_faces(game.state, 0) == []
    assert cell(game.state, "A1") == "."
    game.move("play +1$3 A1")
    assert cell(game.state, "A1") == "+1$3"
    assert game.state.points[1] == 50


def test_drunkenness_replaces_a_beer_or_is_placed_as_a_peril() -> None:
    #  1  +2b  +3    .        a Drunkenness may go on the Beer (B1 is not a Beer)
    game = game_at(EMPTY.replace(".  .  .", "+2b  +3  .", 1), {0: ["-2d"], 1: ["-2d"]})
    assert "play -2d A1" in game.legal()
    assert "play -2d B1" not in game.legal()
    with pytest.raises(IllegalMove, match="B1 is not a free space"):
        game.move("play -2d B1")
    game.move("play -2d A1")
    assert cell(game.state, "A1") == "-2d"
    assert tile_id("+2b") not in game.state.tiles  # the Beer went to the box
    game.move("play -2d C1")
    assert cell(game.state, "C1") == "-2d"


FULL = "\n".join(["0#  " * 6] * 5)  # no free space left on the board


def test_drunkenness_on_a_full_board_needs_a_beer_to_replace() -> None:
    # No free space and no Beer on the board: a Drunkenness tile cannot be played, so
    # passing is the one thing left, and it is allowed.
    game = game_at(FULL, {0: ["-2d"]})
    assert game.legal() == ["pass"]
    game.move("pass")
    assert game.state.turn == 1
    # With a Beer on the board it replaces the Beer, and passing is refused.
    game = game_at(FULL.replace("0#", "+2b", 1), {0: ["-2d"]})
    assert game.legal() == ["play -2d A1"]
    with pytest.raises(IllegalMove, match="passing is only allowed when nothing else"):
        game.move("pass")


def test_beer_is_an_ordinary_benefit_when_scored() -> None:
    #  1  b:D  +2b  0#  ...      brown fills the last space; the Drakkar scores the Beer: 2
    rows = ["b:D  .  0#  0#  0#  0#"] + ["0#  0#  0#  0#  0#  0#"] * 4
    game = game_at("\n".join(rows), {0: ["+2b"]})
    game.move("play +2b B1")
    assert game.state.points[0] == 52


def test_golden_statue_swaps_two_other_tiles_never_figures() -> None:
    #      A    B    C
    #  1  +3   -2    .        brown plays 0s on C1, swaps A1 and B1
    #  2  b:D   .    .
    picture = """
    +3   -2   .  .  .  .
    b:D  .    .  .  .  .
    .    .    .  .  .  .
    .    .    .  .  .  .
    .    .    .  .  .  .
    """
    game = game_at(picture, {0: ["0s"]})
    game.move("play 0s C1")
    assert game.legal() == ["swap A1 B1", "skip"]
    for bad in ("swap A1 C1", "swap A1 A2"):
        with pytest.raises(IllegalMove, match="no other tile to swap"):
            game.move(bad)
    game.move("swap A1 B1")
    assert (cell(game.state, "A1"), cell(game.state, "B1")) == ("-2", "+3")
    assert cell(game.state, "A2") == "brown:drakkar"
    assert game.state.turn == 1


def test_good_counsel_moves_an_own_figure_and_takes_its_space() -> None:
    #      A    B    C
    #  1  +1  b:T   g:T       brown: counsel 0g B1 B2  -> B1 = 0g, B2 = brown Thane
    #  2  +2    .   +3
    picture = """
    +1  b:T  g:T  .  .  .
    +2  .    +3   .  .  .
    .   .    .    .  .  .
    .   .    .    .  .  .
    .   .    .    .  .  .
    """
    game = game_at(picture, {0: ["0g"]})
    assert [m for m in game.legal() if "0g" in m] == ["counsel 0g B1 B2"]
    with pytest.raises(IllegalMove, match="Good Counsel is played only by moving"):
        game.move("play 0g D4")
    with pytest.raises(IllegalMove, match="none of their figures stands on C1"):
        game.move("counsel 0g C1 D1")
    game.move("counsel 0g B1 B2")
    assert cell(game.state, "B1") == "0g"
    assert cell(game.state, "B2") == "brown:thane"


def test_good_counsel_cannot_be_played_without_a_movable_figure() -> None:
    game = game_at(EMPTY, {0: ["0g"]}, supply=((0, 0, 0, 0), (1, 2, 3, 4)))
    assert game.legal() == ["pass"]


def test_royal_dragon_horn_adds_a_diamond_at_act_end() -> None:
    #      A    B    C ...  (all but F5 filled with 0# / figures; brown fills F5)
    #  1  b:D  0h   +2      Drakkar: (0 + 2) x (1 + 1) = 4
    rows = ["b:D  0h  +2  0#  0#  0#"] + ["0#  0#  0#  0#  0#  0#"] * 3 + ["0#  0#  0#  0#  0#  ."]
    game = game_at("\n".join(rows), {0: ["-1"]})
    events = game.move("play -1 F5")
    scored = [e for e in events if type(e).__name__ == "FigureScored"]
    assert [(e.sum, e.diamonds, e.points) for e in scored] == [(2, 2, 4)]
    assert game.state.points[0] == 54


def test_betrayal_turns_positive_tiles_down_before_scoring() -> None:
    #  1  b:T  +3  -1x  +4  -2  0#     Thane: (0 + 0 - 1 + 0 - 2) x 3 = -9
    rows = ["b:T  +3  -1x  +4  -2  0#"] + ["0#  0#  0#  0#  0#  0#"] * 3 + ["0#  0#  0#  0#  0#  ."]
    game = game_at("\n".join(rows), {0: ["-1"]})
    events = game.move("play -1 F5")
    (down,) = [e for e in events if isinstance(e, TilesBetrayed)]
    assert down.squares == ("B1", "D1")
    assert game.state.points[0] == 50 - 9


def test_throat_tile_splits_row_and_column() -> None:
    #  1  +5  0#  b:D  +1  ...   the Drakkar does not score the +5 beyond the Throat
    rows = ["+5  0#  b:D  +1  0#  0#"] + ["0#  0#  0#  0#  0#  0#"] * 3 + ["0#  0#  0#  0#  0#  ."]
    game = game_at("\n".join(rows), {0: ["-1"]})
    game.move("play -1 F5")
    assert game.state.points[0] == 51
