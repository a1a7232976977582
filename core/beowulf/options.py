"""What a seat could do now (rulebook "Turn Sequence", "Good Counsel", "Special Abilities").

Shared by `decide` (checks) and `legal` (enumeration) so they cannot drift apart.
Drawing needs only a tile in the pile, not one in hand: "Turn Sequence" says a player
*must* choose one of the two options, and "Draw a tile and play a tile" first adds the
drawn tile to the hand, then plays a tile from it. The pass sentence ("a player has no
tile in hand and no figure in front of them ... they pass their turn") is read as the
case where neither option exists: it calls it "unlikely" because hands only shrink once
the pile is exhausted ("they simply do not draw a new tile before playing a tile from
their hand"). So a seat with no tile and no figure draws and plays while the pile lasts,
and passes once it is exhausted. A seat that drew (or, with the pile exhausted, holds)
only Good Counsel tiles it cannot use has nothing legal either, so it passes too. Pass is
legal exactly when nothing else is; the act ends when no seat could do anything else
("no player has tiles in hand and figures in front of them" with the pile exhausted).
"""

from __future__ import annotations

from msgspec.structs import replace

from core.beowulf.state import BeowulfState, free_squares, geometry, has_figures, is_free
from core.beowulf.tiles import tile


def counsel_moves(state: BeowulfState, seat: int) -> tuple[tuple[int, int], ...]:
    """(from, to) pairs: an own figure and an orthogonally adjacent empty space."""
    board = geometry(state)
    return tuple((square, target)
                 for square, figure in enumerate(state.figures)
                 if figure is not None and figure.seat == seat
                 for target in board.neighbours(square) if is_free(state, target))


def tile_playable(state: BeowulfState, seat: int, tile_id: str) -> bool:
    """True when the tile can be played now (Good Counsel needs a movable own figure)."""
    if tile(tile_id).ability == "good_counsel":
        return bool(counsel_moves(state, seat))
    return bool(free_squares(state)) or tile(tile_id).ability in ("treasure", "drunkenness")


def may_draw(state: BeowulfState, seat: int) -> bool:
    """Draw: the turn's first action, while the pile is not exhausted."""
    del seat  # any seat may draw, an empty hand included (see the module docstring)
    return not state.drawn and bool(state.pile)


def may_play_tile(state: BeowulfState) -> bool:
    """A tile is played after a draw, or without one when the pile is exhausted."""
    return state.drawn or not state.pile


def may_place_figure(state: BeowulfState, seat: int) -> bool:
    """Place a figure: not after a draw, and only with a figure in the supply."""
    return not state.drawn and has_figures(state, seat)


def has_action(state: BeowulfState, seat: int) -> bool:
    """True when the seat, on its turn and with no follow-up pending, can do anything but pass."""
    if may_place_figure(state, seat) or may_draw(state, seat):
        return True
    return may_play_tile(state) and any(tile_playable(state, seat, t)
                                        for t in state.hands[seat])


def could_act(state: BeowulfState, seat: int) -> bool:
    """True when the seat, at the start of a turn, would have anything but a pass."""
    return has_action(replace(state, drawn=False, pending=None), seat)
