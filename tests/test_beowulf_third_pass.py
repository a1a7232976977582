"""Beowulf, third rules pass: readings where the rulebook is silent, pinned through legal
play (no state set by hand). The pass found no deviation from the rulebook; these tests
keep the readings the README notes name.

Act II (5 x 6) has three printed Throats, C2, E3 and B4 (reconstructed positions):

        A    B    C    D    E    F
    1   .    .    .    .    .    .
    2   .    .    ##   .    .    .
    3   .    .    .    .    ##   .
    4   .    ##   .    .    .    .
    5   .    .    .    .    .    .
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

import pytest

from skald.core.beowulf.data import act_tiles, tile
from skald.core.beowulf.state import BeowulfState
from skald.core.errors import IllegalMove
from skald.core.rng import Rng
from skald.events.base import Event
from skald.events.beowulf import AbilityOffered, FigureScored, TurnBegan
from skald.events.common import GameCreated
from skald.events.secret import seal
from tests.beowulf_support import RULES, random_playout

T = TypeVar("T")
PRINTED = ("C2", "E3", "B4")


class StackedRng(Rng):
    """Chance as the rules draw it, except that the Act II pile starts with `top`."""

    def __init__(self, top: Sequence[str]) -> None:
        super().__init__(b"third-pass")
        self.top = tuple(top)

    def shuffle(self, label: str, items: Sequence[T]) -> tuple[T, ...]:
        order = super().shuffle(label, items)
        if label != "act2/pile":
            return order
        rest = [item for item in order if item not in self.top]
        return (*self.top, *rest)  # type: ignore[return-value]


class Played:
    """A two-player game driven only by commands the rules list as legal."""

    def __init__(self, top: Sequence[str]) -> None:
        self.rng = StackedRng(top)
        created = GameCreated(
            game="beowulf",
            players=("Ann", "Bob"),
            options=(),
            seed=seal("third-pass", frozenset(), "00" * 16),
        )
        self.state: BeowulfState = RULES.initial(created)
        self.apply(RULES.start(self.state, self.rng))

    def apply(self, events: Sequence[Event]) -> None:
        for event in events:
            self.state = RULES.evolve(self.state, event)

    def seat(self) -> int:
        (seat,) = RULES.to_act(self.state)
        return seat

    def legal(self) -> list[str]:
        return [RULES.format(c) for c in RULES.legal(self.state, self.seat())]

    def move(self, text: str) -> tuple[Event, ...]:
        assert text in self.legal(), (text, self.legal()[:8])
        events = RULES.decide(self.state, self.seat(), RULES.parse(text), self.rng)
        self.apply(events)
        return events

    def to_act_two(self) -> None:
        """Act I by random legal moves; between acts every short hand keeps (`keep`)."""
        rnd = random.Random(3)
        while self.state.act == 1:
            self.move(rnd.choice(self.legal()))
        while self.state.phase == "refill":
            self.move("keep")
        assert (self.state.act, self.state.phase) == (2, "play")


def _ids(*faces: str) -> list[str]:
    """The Act II tile ids of `faces` (faces no Act I tile has, so no back is named)."""
    return [next(t for t in act_tiles(2) if tile(t).face == face) for face in faces]


def test_printed_throats_are_not_spaces() -> None:
    """Rulebook "Turn Sequence": "The player places a figure on a free space on the
    board"; "Throat": "There are three Throat tiles pre-printed on the Act II board. They
    work the same way as Throat tiles that are placed on the game board by players." A
    square holding a Throat, printed or placed, is not free: nothing goes on it."""
    game = Played(_ids("-5"))
    game.to_act_two()
    for square in PRINTED:
        assert not any(m.endswith(f" {square}") for m in game.legal())
        with pytest.raises(IllegalMove, match=f"{square} is not a free space"):
            RULES.decide(game.state, game.seat(), RULES.parse(f"place drakkar {square}"), game.rng)
    game.move("draw")
    assert not any(m.endswith(f" {square}") for m in game.legal() for square in PRINTED)


def test_a_golden_statue_does_not_count_or_swap_printed_throats() -> None:
    """Rulebook "Golden Statue": "they may immediately swap the positions of any two other
    tiles already on the board. Figures, however, cannot be moved this way." A printed
    Throat is part of the board, not a tile on it: with one placed tile and the three
    printed Throats there are not two other tiles, so no swap is offered."""
    game = Played(_ids("-5", "0s"))
    game.to_act_two()
    game.move("draw")
    game.move("play -5 A1")
    game.move("draw")
    events = game.move("play 0s F5")
    assert not any(isinstance(e, AbilityOffered) for e in events)
    assert isinstance(events[-1], TurnBegan)


def test_a_golden_statue_swaps_only_placed_tiles() -> None:
    """Rulebook "Golden Statue" (as above): with two placed tiles the swap is offered, and
    it is between those two only; a printed Throat is refused as a swap partner."""
    game = Played(_ids("-5", "+3b", "0s"))
    game.to_act_two()
    game.move("draw")
    game.move("play -5 A1")
    game.move("draw")
    game.move("play +3b B1")
    game.move("draw")
    events = game.move("play 0s F5")
    assert any(isinstance(e, AbilityOffered) for e in events)
    assert game.legal() == ["swap A1 B1", "skip"]
    with pytest.raises(IllegalMove, match="C2 holds no other tile to swap"):
        RULES.decide(game.state, game.seat(), RULES.parse("swap A1 C2"), game.rng)


def test_saga_points_may_go_below_zero() -> None:
    """Rulebook "End of an Act": "The figure's owner scores a number of saga points equal
    to the result, taking saga points from the central pile (or returning saga points to
    the pile if the figure's total is negative)". It does not stop at what a player holds:
    a total below zero stays, and ranks below every higher one."""
    games = [random_playout(2, seed=f"neg/{seed}", bot_seed=seed) for seed in range(3)]
    below = [g for g in games if min(g.state.points) < 0]
    assert below, "no seeded playout went below zero: pick other seeds"
    for game in below:
        seat = min(range(2), key=lambda s: game.state.points[s])
        paid = 50 + sum(
            e.points for e in game.events if isinstance(e, FigureScored) and e.seat == seat
        )
        outcome = RULES.outcome(game.state)
        assert outcome is not None
        assert outcome.scores[seat] < 0
        assert outcome.ranking[-1] == (seat,)
        assert paid <= game.state.points[seat]  # Treasures are the only other income
