"""The rulebook's scoring examples (both editions) reached through legal play from the
reconstructed Act I tile mix, then scored (issue 15).

A deal is replayed the way a physical one would be: the Act I pile comes out in a chosen
order (the deal stacked, everything else as the rules do it) and every move is one the
rules list as legal. The example's position is reached mid-act (the board still has
empty squares, so the act has not ended and nothing has been paid): the test then calls
`score_figures`, the function the act's end (`close_act`) scores the figures with, on the
placed tiles, figures and printed Throats. What the act's end does besides (turning
betrayed tiles, paying the points, clearing the board) is not played here.

The Hungarian edition's "Példa: I. felvonás" is the same position with the same terms
and results as the English example (A -2, B 11, C 20, D 27, E 8, F -20, G 36; only the
colours differ: black, blue, gray; the text in shared/rules drops the minus signs), so
the English test covers it; its own scoring example, "KIÉRTÉKELÉSI PÉLDA", has its own
test.

English "Full Scoring Example" (brown, green, gray; letters are the rulebook's figures):

        A         B         C         D         E         F
    1  A b:D     B g:D     +1$3      -1        -1        .
    2  C b:W     +6        0#        0h        .         +5
    3  +4        +3        -6        +1        -1        D g:T
    4  -4        E b:D     F y:C     +2        .         -2
    5  -1        +3        0g        G y:T     .         +5

Hungarian "KIÉRTÉKELÉSI PÉLDA" (green, brown, gray, blue):

        A         B         C         D         E         F
    1  g:T       -1        +4        .         .         .
    2  +1        .         .         .         .         -1
    3  -1        .         0#        b:D       .         .
    4  .         -1        .         .         .         y:D
    5  .         .         l:C       -1        .         .
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from skald.core.beowulf.board import Geometry
from skald.core.beowulf.data import act_tiles, tile
from skald.core.beowulf.scoring import board_tiles, score_figures
from skald.core.beowulf.state import BeowulfState
from skald.core.rng import Rng
from skald.events.common import GameCreated
from skald.events.secret import seal
from tests.beowulf_support import RULES

T = TypeVar("T")
COLOURS = ("brown", "green", "gray", "blue")


class DealtRng(Rng):
    """Chance as the rules draw it, except that the Act I pile comes out in `order`."""

    def __init__(self, order: Sequence[str]) -> None:
        super().__init__(b"rulebook-example")
        self.order = tuple(order)

    def shuffle(self, label: str, items: Sequence[T]) -> tuple[T, ...]:
        if label == "act1/pile":
            assert sorted(self.order) == sorted(items)  # type: ignore[type-var]
            return self.order  # type: ignore[return-value]
        return super().shuffle(label, items)


def _ids(faces: Sequence[str], taken: set[str]) -> list[str]:
    """Act I tile ids for `faces`, each copy once (KeyError: the mix cannot build it)."""
    ids = []
    for face in faces:
        tile_id = next(t for t in act_tiles(1) if tile(t).face == face and t not in taken)
        taken.add(tile_id)
        ids.append(tile_id)
    return ids


def play_example(
    players: int,
    figures: dict[int, list[tuple[str, str]]],
    tiles: list[tuple[str, str]],
    fillers: list[str],
    counsel: tuple[int, str, str] | None = None,
) -> BeowulfState:
    """Reach a position through legal play: seats in turn place their next figure, else
    draw and play the next tile (the Good Counsel by `counsel`'s seat, moving its figure).
    Fillers are the dealt hands, never played; the draws are the example's tiles."""
    taken: set[str] = set()
    hands = _ids(fillers, taken)
    plan: list[tuple[int, str]] = []  # (seat, move) in turn order
    left = {seat: list(placed) for seat, placed in figures.items()}
    queue = list(tiles)
    seat = 0
    while any(left.values()) or queue:
        if left.get(seat):
            kind, at = left[seat].pop(0)
            plan.append((seat, f"place {kind} {at}"))
        elif queue:
            # the Good Counsel goes to the seat whose figure it moves, as soon as it draws
            owner = counsel[0] if counsel else -1
            index = (
                next(i for i, (face, _) in enumerate(queue) if (face == "0g") == (seat == owner))
                if seat != owner or any(face == "0g" for face, _ in queue)
                else 0
            )
            face, at = queue.pop(index)
            if counsel is not None and face == "0g":
                move = f"counsel 0g {counsel[1]} {counsel[2]}"
            else:
                move = f"play {face} {at}"
            plan.append((seat, "draw"))
            plan.append((seat, move))
        seat = (seat + 1) % players
    drawn = _ids(
        [move.split()[1] for _, move in plan if move.startswith(("play", "counsel"))], taken
    )
    rest = [t for t in act_tiles(1) if t not in taken]
    rng = DealtRng([*hands, *drawn, *rest])
    created = GameCreated(
        game="beowulf",
        players=COLOURS[:players],
        options=(),
        seed=seal("example", frozenset(), "00" * 16),
    )
    state = RULES.initial(created)
    for event in RULES.start(state, rng):
        state = RULES.evolve(state, event)
    for who, move in plan:
        assert RULES.to_act(state) == frozenset({who})
        legal = [RULES.format(c) for c in RULES.legal(state, who)]
        assert move in legal, (who, move)
        for event in RULES.decide(state, who, RULES.parse(move), rng):
            state = RULES.evolve(state, event)
    return state


def scores(state: BeowulfState) -> dict[str, tuple[str, str, int]]:
    """Square -> (owner, kind, points) of each figure, from `score_figures` on the
    position as it stands (mid-act: the act's end is not played)."""
    geometry = Geometry(state.rows, state.cols)
    figures = {sq: f for sq, f in enumerate(state.figures) if f is not None}
    scored = score_figures(
        geometry, board_tiles(state), {sq: f.kind for sq, f in figures.items()}, state.printed
    )
    return {geometry.name(s.at): (COLOURS[figures[s.at].seat], s.kind, s.points) for s in scored}


def test_the_english_full_scoring_example_is_reached_and_scores_as_printed() -> None:
    """Rulebook "Full Scoring Example at the End of an Act": Figure A -2, B 11, C 20,
    D 27, E 8, F -20, G 36."""
    state = play_example(
        3,
        figures={
            0: [("drakkar", "A1"), ("beowulf", "A2"), ("drakkar", "B4")],
            1: [("drakkar", "B1"), ("thane", "F3")],
            2: [("castle", "C4"), ("thane", "C5")],
        },
        tiles=[
            ("+1$3", "C1"),
            ("-1", "D1"),
            ("-1", "E1"),
            ("+6", "B2"),
            ("0#", "C2"),
            ("0h", "D2"),
            ("+5", "F2"),
            ("+4", "A3"),
            ("+3", "B3"),
            ("-6", "C3"),
            ("+1", "D3"),
            ("-1", "E3"),
            ("-4", "A4"),
            ("+2", "D4"),
            ("-2", "F4"),
            ("-1", "A5"),
            ("+3", "B5"),
            ("+5", "F5"),
            ("0g", "C5"),
        ],
        fillers=["-3", "+2b", "-2d", "+2t", "+1c", "0#"],
        counsel=(2, "C5", "D5"),  # "moves it to an adjacent empty space; then ... the tile"
    )
    assert state.act == 1
    assert scores(state) == {
        "A1": ("brown", "drakkar", -2),
        "B1": ("green", "drakkar", 11),
        "A2": ("brown", "beowulf", 20),
        "F3": ("green", "thane", 27),
        "B4": ("brown", "drakkar", 8),
        "C4": ("gray", "castle", -20),
        "D5": ("gray", "thane", 36),
    }


def test_the_hungarian_scoring_example_is_reached_and_scores_as_printed() -> None:
    """Hungarian edition, "KIÉRTÉKELÉSI PÉLDA": the Thane 9 ("4 + 1 - 1 - 1 ... x 3"),
    Drakkar A -1 (the Throat cuts its row), Drakkar B -2, the Castle -2 (the Throat cuts
    its column)."""
    state = play_example(
        4,
        figures={1: [("thane", "A1")], 0: [("drakkar", "D3")], 2: [("drakkar", "F4")],
                 3: [("castle", "C5")]},
        tiles=[
            ("-1", "B1"), ("+4", "C1"), ("+1", "A2"), ("-1", "F2"),
            ("-1", "A3"), ("0#", "C3"), ("-1", "B4"), ("-1", "D5"),
        ],
        fillers=["+2", "+2", "+3", "+3", "+5", "+5", "+6", "-2"],
    )  # fmt: skip
    assert scores(state) == {
        "A1": ("green", "thane", 9),
        "D3": ("brown", "drakkar", -1),
        "F4": ("gray", "drakkar", -2),
        "C5": ("blue", "castle", -2),
    }
