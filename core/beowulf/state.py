"""The rules state of a Beowulf game (rulebook "Setup", "Play", "Beginning Acts II and III").

The state holds everything, hidden parts included (hands, the pile's order): it is the
referee's truth. What a viewer may see is cut out by `projections.beowulf`; the initial
state is built by `setup`.
Phases: `setup` (before the first act), `refill` (seats below two tiles choose, in turn
order from the act's first player, whether to refill), `play`, `between` (an act just
ended; the next one begins in the same decision), `over` (after Act III).
"""

from __future__ import annotations

from typing import TypeVar

import msgspec

from skald.core.beowulf.board import Geometry
from skald.core.beowulf.data import KINDS, tile

T = TypeVar("T")
STARTING_POINTS = 50
HAND_TARGET = 2


class Placed(msgspec.Struct, frozen=True):
    """A figure on the board."""

    seat: int
    kind: str


class BeowulfState(msgspec.Struct, frozen=True, kw_only=True):
    """Board, supplies, hands, pile, saga points and whose decision it is."""

    seats: int
    act: int = 0
    phase: str = "setup"
    rows: int = 0
    cols: int = 0
    printed: frozenset[int] = frozenset()
    tiles: tuple[str | None, ...] = ()
    figures: tuple[Placed | None, ...] = ()
    pile: tuple[str, ...] = ()
    hands: tuple[tuple[str, ...], ...] = ()
    supply: tuple[tuple[int, ...], ...] = ()
    points: tuple[int, ...] = ()
    turn: int = 0
    drawn: bool = False
    pending: str | None = None
    pending_source: int | None = None
    refills: tuple[int, ...] = ()
    end_reason: str = ""
    auto_refill: bool = False


def geometry(state: BeowulfState) -> Geometry:
    """The current board's grid."""
    return Geometry(state.rows, state.cols)


def is_free(state: BeowulfState, square: int) -> bool:
    """True when a square holds no tile, no figure and no printed Throat."""
    return (
        state.tiles[square] is None
        and state.figures[square] is None
        and square not in state.printed
    )


def free_squares(state: BeowulfState) -> tuple[int, ...]:
    """Every free square, in board order."""
    return tuple(sq for sq in range(len(state.tiles)) if is_free(state, sq))


def squares_with(state: BeowulfState, ability: str) -> tuple[int, ...]:
    """Squares holding a tile with `ability`."""
    return tuple(
        sq
        for sq, tile_id in enumerate(state.tiles)
        if tile_id is not None and tile(tile_id).ability == ability
    )


def hand_tile(state: BeowulfState, seat: int, face: str) -> str | None:
    """The id of the tile `seat` plays for `face`: the earliest-act copy, first in hand.

    Among copies of one face and act the choice must not depend on their ids: the id of a
    played tile is public, and picking the lowest id would tell the table, whenever a
    higher id is played, that the seat holds no other copy. Hand order (the order the
    tiles were dealt and drawn) is blind to which copy is which, so the id shown reveals
    nothing the face does not.
    """
    matches = [t for t in state.hands[seat] if tile(t).face == face]
    return min(matches, key=lambda t: tile(t).act) if matches else None  # first of the earliest act


def has_figures(state: BeowulfState, seat: int) -> bool:
    """True when the seat has a figure in front of it."""
    return any(state.supply[seat])


def kind_count(state: BeowulfState, seat: int, kind: str) -> int:
    """How many figures of `kind` the seat has in its supply."""
    return state.supply[seat][KINDS.index(kind)]


def replace_at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """A tuple with one item replaced."""
    return (*items[:index], value, *items[index + 1 :])
