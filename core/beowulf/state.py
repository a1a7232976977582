"""The rules state of a Beowulf game (rulebook "Setup", "Play", "Beginning Acts II and III").

The state holds everything, hidden parts included (hands, the pile's order): it is the
referee's truth. What a viewer may see is cut out by `projections.beowulf.view`; the initial
state is built by `setup`.
Phases: `setup` (before the first act), `refill` (seats below two tiles choose, in turn
order from the act's first player, whether to refill), `play`, `between` (an act just
ended; the next one begins in the same decision), `over` (after Act III).
"""

from __future__ import annotations

from typing import TypeVar

import msgspec

from skald.core.beowulf.board import Geometry
from skald.core.beowulf.data import KINDS, tile, tile_face

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
    last_removal: bool = False


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
    """Every free square, in board order (`is_free` of each, in one pass)."""
    figures, printed = state.figures, state.printed
    return tuple(
        [
            sq
            for sq, tile_id in enumerate(state.tiles)
            if tile_id is None and figures[sq] is None and sq not in printed
        ]
    )


def has_free_square(state: BeowulfState) -> bool:
    """True when some square is free (`free_squares` is not empty), found by the first."""
    figures, printed = state.figures, state.printed
    for sq, tile_id in enumerate(state.tiles):
        if tile_id is None and figures[sq] is None and sq not in printed:
            return True
    return False


def squares_with(state: BeowulfState, ability: str) -> tuple[int, ...]:
    """Squares holding a tile with `ability`."""
    return tuple(
        [
            sq
            for sq, tile_id in enumerate(state.tiles)
            if tile_id is not None and tile(tile_id).ability == ability
        ]
    )


def hand_tile(state: BeowulfState, seat: int, face: str) -> str | None:
    """The id of the tile `seat` plays for `face` (`+3`, or `+3@2` naming the back): the
    copy of that act, first in hand; None when there is none, or when the hand holds the
    face from two acts and `face` does not say which (the backs are public: the player
    chooses, see `faces_in_hand`).

    Among copies of one face and act the choice must not depend on their ids: the id of a
    played tile is public, and picking the lowest id would tell the table, whenever a
    higher id is played, that the seat holds no other copy. Hand order (the order the
    tiles were dealt and drawn) is blind to which copy is which, so the id shown reveals
    nothing the face does not.
    """
    printed, _, back = face.partition("@")
    matches = [t for t in state.hands[seat] if tile_face(t) == printed]
    if back:
        matches = [t for t in matches if tile(t).act == int(back)]
    if len({tile(t).act for t in matches}) > 1:
        return None
    return matches[0] if matches else None


def faces_in_hand(state: BeowulfState, seat: int) -> list[str]:
    """The faces a seat may name, sorted: `+3`, or `+3@1` and `+3@2` when the hand holds
    that face from two acts (rulebook: "they choose a tile from their hand"; the backs
    are open information, so which copy is played matters)."""
    acts: dict[str, set[int]] = {}
    for t in state.hands[seat]:
        acts.setdefault(tile_face(t), set()).add(tile(t).act)
    return sorted(
        face if len(backs) == 1 else f"{face}@{act}"
        for face, backs in acts.items()
        for act in sorted(backs)
    )


def has_figures(state: BeowulfState, seat: int) -> bool:
    """True when the seat has a figure in front of it."""
    return any(state.supply[seat])


def kind_count(state: BeowulfState, seat: int, kind: str) -> int:
    """How many figures of `kind` the seat has in its supply."""
    return state.supply[seat][KINDS.index(kind)]


def replace_at(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """A tuple with one item replaced."""
    return (*items[:index], value, *items[index + 1 :])
