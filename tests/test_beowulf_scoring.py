"""Beowulf scoring: the rulebook examples as positions, Throat parts, Betrayal, Horns."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from skald.core.beowulf.board import Geometry
from skald.core.beowulf.position import InvalidPosition, render_score, score_position
from skald.core.beowulf.scoring import BoardTile, betrayed, score_figures
from skald.core.errors import InvalidNotation

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "beowulf"
BOARD = Geometry(5, 6)


def load(name: str) -> dict[str, object]:
    return json.loads((FIXTURES / name).read_text())


def test_hungarian_four_figure_example() -> None:
    #      A    B    C    D    E    F
    #  1  gT   -1   +4    .    .    .      Thane: 4 + 1 - 1 - 1 = 3, x3 = 9
    #  2  +1    .    .    .    .   -1
    #  3  -1    .   0#   bD    .    .      Drakkar A: the Throat cuts its row: -1 (D5)
    #  4   .   -1    .    .    .   yD      Drakkar B: -1 in its row, -1 in its column
    #  5   .    .   lC   -1    .    .      Castle: -1 in its row; the Throat cuts off +4
    report = score_position(load("hungarian_example.json"))
    points = {(f.at, f.kind): f.points for f in report.figures}
    assert points == {
        ("A1", "thane"): 9,
        ("D3", "drakkar"): -1,
        ("F4", "drakkar"): -2,
        ("C5", "castle"): -2,
    }
    assert report.totals == {"brown": -1, "green": 9, "gray": -2, "blue": -2}


def test_english_full_seven_figure_example() -> None:
    # Reconstructed from the figures' listed numbers (the picture is not in the text):
    #      A     B     C      D     E     F
    #  1  bD-A  gD-B  +1$3   -1    -1     .
    #  2  bW-C  +6    0#     0h     .    +5     C's row: the Throat hides +5 and the Horn
    #  3  +4    +3    -6     +1    -1    gT-D
    #  4  -4    bD-E  yC-F   +2     .    -2     F's column: the Throat hides the +1 Treasure
    #  5  -1    +3    0g     yT-G   .    +5     G: the Horn in its column makes 3 + 1 diamonds
    # E4, E5 and F1 must stay empty for every figure's sum to hold on a 5x6 board.
    report = score_position(load("english_example.json"))
    expected = {
        "A1": (-2, 1, -2),
        "B1": (11, 1, 11),
        "A2": (5, 4, 20),
        "F3": (9, 3, 27),
        "B4": (8, 1, 8),
        "C4": (-10, 2, -20),
        "D5": (9, 4, 36),
    }
    assert {f.at: (f.sum, f.diamonds, f.points) for f in report.figures} == expected
    assert report.totals == {"brown": 26, "green": 38, "gray": 16}


def test_report_json_shape() -> None:
    report = score_position(load("hungarian_example.json"))
    data = json.loads(msgspec.json.encode(report))
    assert set(data) == {"figures", "totals"}
    assert list(data["figures"][0]) == ["at", "owner", "kind", "sum", "diamonds", "points"]
    assert "totals: brown -1, green +9" in render_score(report)


def test_figure_between_two_throats_sees_only_the_middle_part() -> None:
    # Row 1:  +5  0#  +2  bD  -1  0#  +4   (figure at D1 sees only +2 and -1)
    board = Geometry(1, 7)
    tiles = {
        0: BoardTile(5),
        1: BoardTile(0, "throat"),
        2: BoardTile(2),
        4: BoardTile(-1),
        5: BoardTile(0, "throat"),
        6: BoardTile(4),
    }
    (score,) = score_figures(board, tiles, {3: "drakkar"})
    assert (score.sum, score.diamonds, score.points) == (1, 1, 1)


def test_printed_throats_cut_like_tiles() -> None:
    # Row 1:  +5  ##  bC  +1    (## printed on the board)
    board = Geometry(1, 4)
    tiles = {0: BoardTile(5), 3: BoardTile(1)}
    (score,) = score_figures(board, tiles, {2: "castle"}, printed=frozenset({1}))
    assert score.points == 2


def test_horns_stack_and_respect_parts() -> None:
    #      A    B    C    D
    #  1  0h   bW   0h   +2
    #  2   .   0h    .    .
    #  3   .   0#    .    .
    #  4   .   0h    .    .     (below the Throat: no effect on B1)
    board = Geometry(4, 4)
    tiles = {
        0: BoardTile(0, "royal_dragon_horn"),
        2: BoardTile(0, "royal_dragon_horn"),
        3: BoardTile(2),
        5: BoardTile(0, "royal_dragon_horn"),
        9: BoardTile(0, "throat"),
        13: BoardTile(0, "royal_dragon_horn"),
    }
    (score,) = score_figures(board, tiles, {1: "beowulf"})
    assert (score.sum, score.diamonds, score.points) == (2, 7, 14)


def test_betrayal_zeroes_positive_tiles_in_its_parts_only() -> None:
    #      A    B    C    D    E
    #  1  +3  -1x   +4   0#   +5
    #  2  +2   -2    .    .   gT
    #  3  bT    .    .    .    .
    board = Geometry(3, 5)
    tiles = {
        0: BoardTile(3),
        1: BoardTile(-1, "betrayal"),
        2: BoardTile(4),
        3: BoardTile(0, "throat"),
        4: BoardTile(5),
        5: BoardTile(2),
        6: BoardTile(-2),
    }
    assert betrayed(board, tiles, frozenset()) == frozenset({0, 2})
    scores = {s.at: s for s in score_figures(board, tiles, {10: "thane", 9: "thane"})}
    assert scores[10].sum == 0 + 2  # +3 face down, +2 not in the Betrayal's lines
    assert scores[9].sum == 5  # beyond the Throat: the +5 keeps its value


def test_betrayal_leaves_negative_tiles() -> None:
    board = Geometry(1, 4)
    tiles = {0: BoardTile(-3), 1: BoardTile(0, "betrayal"), 3: BoardTile(2)}
    (score,) = score_figures(board, tiles, {2: "castle"})
    assert score.sum == -3


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"rows": 0}, "rows must be"),
        ({"cols": "6"}, "cols must be"),
        ({"game": "hagar"}, "game must be"),
        ({"tiles": [{"at": "Z9", "value": 1, "ability": None}]}, "tiles[0]: at='Z9'"),
        ({"tiles": [{"at": "A1", "value": 1, "ability": "dragon"}]}, "unknown ability 'dragon'"),
        ({"tiles": [{"at": "A1", "value": 2, "ability": "throat"}]}, "a throat has no value"),
        ({"tiles": [{"at": "A1", "value": 1.5, "ability": None}]}, "value must be a whole"),
        ({"tiles": [{"at": "A1", "value": 1, "colour": "red"}]}, "unknown field colour"),
        ({"figures": [{"at": "A1", "owner": "pink", "kind": "thane"}]}, "owner='pink'"),
        ({"figures": [{"at": "A1", "owner": "brown", "kind": "dragon"}]}, "kind='dragon'"),
        ({"figures": [{"at": "B1", "owner": "brown", "kind": "thane"}]}, "B1 is already taken"),
    ],
)
def test_position_errors_name_the_entry(change: dict[str, object], message: str) -> None:
    data = {
        "game": "beowulf",
        "rows": 5,
        "cols": 6,
        "tiles": [{"at": "B1", "value": 3, "ability": None}],
        "figures": [],
    }
    data.update(change)
    with pytest.raises(InvalidPosition) as error:
        score_position(data)
    assert message in str(error.value)
    assert isinstance(error.value, InvalidNotation)
