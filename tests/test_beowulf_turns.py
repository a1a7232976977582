"""Beowulf turn rules: draw-then-play, exhausted pile, pass, act ends, refills, ranking."""

from __future__ import annotations

import msgspec
import pytest

from skald.core.beowulf.data import act_tiles
from skald.core.beowulf.rules import BeowulfRules
from skald.core.beowulf.scoring import final_outcome
from skald.core.errors import IllegalMove
from skald.events.beowulf import (
    ActBegan,
    ActEnded,
    FigureScored,
    PileShuffled,
    TileDrawn,
    TilesDealt,
    TurnPassed,
)
from tests.beowulf_support import Game, board_state, cell, hand_faces

RULES = BeowulfRules()
FULL = "0#  " * 6


def nearly_full(first_row: str, rows: int = 5) -> str:
    """A board of Throat fillers with `first_row` on top and E5 / F5 free."""
    return "\n".join([first_row] + [FULL] * (rows - 2) + ["0#  0#  0#  0#  .  ."])


def test_opening_hands_pile_and_first_turn() -> None:
    game = Game(players=3)
    assert [len(h) for h in game.state.hands] == [2, 2, 2]
    assert len(game.state.pile) == len(act_tiles(1)) - 6
    assert RULES.to_act(game.state) == frozenset({0})
    legal = game.legal()
    assert "draw" in legal
    assert "place beowulf A1" in legal
    assert not any(m.startswith("play") for m in legal)
    shuffled = next(e for e in game.events if isinstance(e, PileShuffled))
    assert shuffled.barrier
    assert shuffled.order.audience == frozenset()
    deals = [e for e in game.events if isinstance(e, TilesDealt)]
    assert [d.tiles.audience for d in deals] == [frozenset({s}) for s in range(3)]


def test_a_player_who_drew_must_play_a_tile() -> None:
    game = Game(players=2)
    (drawn,) = game.move("draw")
    assert isinstance(drawn, TileDrawn)
    assert drawn.barrier
    assert drawn.tile.audience == frozenset({0})
    assert len(game.state.hands[0]) == 3
    with pytest.raises(IllegalMove, match="a tile must be played, not a figure"):
        game.move("place thane A1")
    with pytest.raises(IllegalMove, match="already drawn"):
        game.move("draw")
    assert all(m.startswith(("play", "cash", "counsel")) for m in game.legal())
    game.move(next(m for m in game.legal() if m.startswith("play")))
    assert game.state.turn == 1
    assert len(game.state.hands[0]) == 2


def test_tiles_are_not_played_without_a_draw_while_the_pile_lasts() -> None:
    game = Game(players=2)
    face = hand_faces(game.state, 0)[0]
    with pytest.raises(IllegalMove, match="draw a tile first"):
        game.move(f"play {face} A1")


def test_exhausted_pile_plays_from_hand_without_drawing() -> None:
    game = Game(state=board_state(nearly_full(FULL), hands={0: ["+3"]}))
    with pytest.raises(IllegalMove, match="pile is exhausted"):
        game.move("draw")
    assert "play +3 E5" in game.legal()


def test_a_seat_without_tiles_or_figures_draws_while_the_pile_lasts() -> None:
    # "On a player's turn, they must choose one of the following two options: ... Draw a
    #  tile and play a tile. The player first draws a tile at random from the draw pile and
    #  adds it to their hand. Then they choose a tile from their hand and play it."
    # The pass sentence ("no tile in hand and no figure in front of them ... they pass
    # their turn") is the case where neither option exists: the pile is exhausted too.
    #      A   B   C   D   E   F
    #  1  0#  0#  0#  0#  0#  0#      brown: empty hand, no figure; the pile holds 3 tiles
    #  2..4  (Throat fillers)
    #  5  0#  0#  0#  0#   .   .
    empty = ((0, 0, 0, 0), (1, 2, 3, 4))
    game = Game(
        state=board_state(nearly_full(FULL), supply=empty, hands={1: ["+3"]}, pile=act_tiles(1)[:3])
    )
    assert game.legal() == ["draw"]
    with pytest.raises(IllegalMove, match="only allowed when nothing else"):
        game.move("pass")
    (drawn,) = game.move("draw")
    assert isinstance(drawn, TileDrawn)
    assert len(game.state.hands[0]) == 1
    assert game.legal() == ["play +1 E5", "play +1 F5"]
    game.move("play +1 E5")
    assert cell(game.state, "E5") == "+1"
    assert game.state.turn == 1


def test_pass_only_without_tiles_figures_or_pile() -> None:
    # "In the unlikely event that a player has no tile in hand and no figure in front of
    #  them when it is their turn, they pass their turn." (pile exhausted: no draw either)
    empty = ((0, 0, 0, 0), (1, 2, 3, 4))
    game = Game(state=board_state(nearly_full(FULL), supply=empty, hands={1: ["+3"]}))
    assert game.legal() == ["pass"]
    with pytest.raises(IllegalMove, match="pile is exhausted"):
        game.move("draw")
    events = game.move("pass")
    assert isinstance(events[0], TurnPassed)
    assert game.state.turn == 1
    with pytest.raises(IllegalMove, match="only allowed when nothing else"):
        game.move("pass")


def test_act_ends_when_the_last_space_fills() -> None:
    #  1  b:D  b:T  +3  0#  0#  0#     brown fills F5 with a Drakkar; green fills nothing
    #  ...                 (E5 already holds green's +1)
    picture = nearly_full("b:D  b:T  +3  0#  0#  0#").replace(".  .", "+1  .")
    supply = ((1, 1, 3, 3), (1, 2, 3, 4))
    game = Game(state=board_state(picture, supply=supply, hands={0: ["-1", "+2"], 1: ["+4"]}))
    events = game.move("place drakkar F5")
    scored = [e for e in events if isinstance(e, FigureScored)]
    assert [(e.at, e.kind, e.points) for e in scored] == [
        ("A1", "drakkar", 3),
        ("B1", "thane", 9),
        ("F5", "drakkar", 1),
    ]
    ended = next(e for e in events if isinstance(e, ActEnded))
    began = next(e for e in events if isinstance(e, ActBegan))
    assert ended.reason == "the last space was filled"
    assert (began.act, began.first, began.refills) == (2, 1, (1,))
    state = game.state
    assert state.act == 2
    assert state.points == (63, 50)
    assert state.supply[0] == (1, 1, 3, 4)  # Drakkars back, the Thane is gone
    assert all(t is None for t in state.tiles)
    assert len(state.printed) == 3
    assert hand_faces(state, 0) == ["+2", "-1"]  # hands are kept across acts
    assert len(state.pile) == len(act_tiles(2))


def test_next_act_starts_with_the_player_after_the_one_who_ended_it() -> None:
    picture = nearly_full(FULL).replace(".  .", "+1  .")
    game = Game(
        state=board_state(
            picture, seats=3, turn=2, hands={0: ["+1", "+2"], 1: ["+3", "+4"], 2: ["-1", "-2"]}
        )
    )
    game.move("place drakkar F5")
    assert game.state.act == 2
    assert game.state.phase == "play"
    assert RULES.to_act(game.state) == frozenset({0})


def refill_game(options: dict[str, str] | None = None) -> Game:
    picture = nearly_full(FULL).replace(".  .", "+1  .")
    start = board_state(picture, seats=3, hands={0: ["+2", "-1"], 1: ["+3"], 2: []})
    if options:
        start = msgspec.structs.replace(start, auto_refill=True)
    game = Game(players=3, state=start)
    game.move("place drakkar F5")
    return game


def test_refill_is_a_choice_in_turn_order_from_the_first_player() -> None:
    game = refill_game()
    assert game.state.phase == "refill"
    assert game.state.refills == (1, 2)
    assert RULES.to_act(game.state) == frozenset({1})
    assert game.legal() == ["refill", "keep"]
    with pytest.raises(
        IllegalMove,
        match=r"by seat 2 \(gray, before Act II\): seat 1 chooses whether to refill first",
    ):
        game.move("keep", seat=2)
    (dealt,) = game.move("refill")
    assert isinstance(dealt, TilesDealt)
    assert dealt.count == 1
    assert dealt.barrier
    assert len(game.state.hands[1]) == 2
    game.move("keep")
    assert len(game.state.hands[2]) == 0
    assert game.state.phase == "play"
    assert game.state.turn == 1
    assert len(game.state.pile) == len(act_tiles(2)) - 1


def test_refill_always_option_deals_at_once() -> None:
    game = refill_game({"refill": "always"})
    assert game.state.phase == "play"
    assert [len(h) for h in game.state.hands] == [2, 2, 2]


def test_act_ends_when_nobody_can_play() -> None:
    empty = ((0, 0, 0, 0), (0, 0, 0, 0))
    game = Game(state=board_state(nearly_full(FULL), supply=empty, hands={0: ["+3"]}))
    events = game.move("play +3 E5")
    ended = next(e for e in events if isinstance(e, ActEnded))
    assert ended.reason == "no player could play"
    assert game.state.act == 2


def test_act_goes_on_while_the_pile_lasts_even_if_no_one_holds_tiles_or_figures() -> None:
    # "Players keep playing until the last space on the board is filled." Nobody holds a
    # tile or a figure after brown's play, but the pile still has tiles: green draws.
    empty = ((0, 0, 0, 0), (0, 0, 0, 0))
    game = Game(
        state=board_state(
            nearly_full(FULL), supply=empty, hands={0: ["+3"]}, pile=act_tiles(1)[:2], drawn=True
        )
    )
    events = game.move("play +3 E5")
    assert not any(isinstance(e, ActEnded) for e in events)
    assert game.state.turn == 1
    assert game.legal() == ["draw"]


def act_three(points: tuple[int, ...], supply: tuple[tuple[int, ...], ...]) -> Game:
    rows = ["0#  " * 12] * 4 + ["0#  " * 11 + "."]
    start = board_state(
        "\n".join(rows), act=3, seats=len(points), hands={0: ["+1"]}, points=points, supply=supply
    )
    game = Game(players=len(points), state=start)
    game.move("play +1 L5")
    return game


def test_final_ranking_by_points() -> None:
    game = act_three((60, 70, 65), ((0, 0, 0, 4),) * 3)
    outcome = RULES.outcome(game.state)
    assert outcome is not None
    assert game.state.phase == "over"
    assert outcome.ranking == ((1,), (2,), (0,))
    assert outcome.scores == (60, 70, 65)


def test_tie_broken_by_diamonds_of_unused_figures_then_shared() -> None:
    supply = ((0, 1, 0, 4), (1, 0, 0, 4), (1, 0, 0, 4))
    game = act_three((70, 70, 70), supply)
    outcome = RULES.outcome(game.state)
    assert outcome is not None
    assert outcome.tiebreaks == (7, 8, 8)
    assert outcome.ranking == ((1, 2), (0,))
    assert outcome.winners == (1, 2)
    assert final_outcome(game.state) == outcome


def test_illegal_squares_and_occupied_spaces_are_named() -> None:
    game = Game(players=2)
    with pytest.raises(IllegalMove, match=r"G9 is not on the board of Act I \(5 rows by 6 columns"):
        game.move("place thane G9")
    game.move("place thane A1")
    with pytest.raises(IllegalMove, match="A1 is not a free space"):
        game.move("place thane A1")
    with pytest.raises(IllegalMove, match=r"by seat 0 \(brown, Act I\): it is seat 1's turn"):
        game.move("place thane B1", seat=0)
    assert cell(game.state, "A1") == "brown:thane"
