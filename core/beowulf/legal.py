"""Who acts, what a seat could do now, and every legal command (rulebook "Turn Sequence",
"Good Counsel", "Special Abilities", "Beginning Acts II and III").

The predicates (`may_draw`, `may_play_tile`, ...) are shared by `decide` (checks) and
`legal_commands` (enumeration) so they cannot drift apart. Tiles sharing a face are one
command. Between acts `refill` is listed before `keep`, so a bot taking the first legal
command refills, as the design asks bots to do by default.

Drawing needs only a tile in the pile, not one in hand: "Turn Sequence" says a player
*must* choose one of the two options, and "Draw a tile and play a tile" first adds the
drawn tile to the hand, then plays a tile from it. The pass sentence ("a player has no
tile in hand and no figure in front of them ... they pass their turn") is read as the
case where neither choice exists: it calls it "unlikely" because hands only shrink once
the pile is exhausted ("they simply do not draw a new tile before playing a tile from
their hand"). So a seat with no tile and no figure draws and plays while the pile lasts,
and passes once it is exhausted. A seat that drew (or, with the pile exhausted, holds)
only Good Counsel tiles it cannot use has nothing legal either, so it passes too. Pass is
legal exactly when nothing else is; the act ends when no seat could do anything else
("no player has tiles in hand and figures in front of them" with the pile exhausted).
"""

from __future__ import annotations

from msgspec.structs import replace

from skald.core.beowulf.commands import (
    CashTreasure,
    Command,
    Counsel,
    Draw,
    Keep,
    Pass,
    PlaceFigure,
    PlayTile,
    Refill,
    Remove,
    Skip,
    Swap,
)
from skald.core.beowulf.data import KINDS, tile, tile_face
from skald.core.beowulf.state import (
    BeowulfState,
    faces_in_hand,
    free_squares,
    geometry,
    has_figures,
    has_free_square,
    is_free,
    kind_count,
    squares_with,
)

REMOVES = {"temptation": "courage", "courage": "temptation"}
"""The tile a Temptation / Courage may remove from the board."""


def to_act(state: BeowulfState) -> frozenset[int]:
    """The seat whose decision it is (between acts: the next seat to choose a refill)."""
    if state.phase == "refill":
        return frozenset(state.refills[:1])
    return frozenset({state.turn}) if state.phase == "play" else frozenset()


def counsel_moves(state: BeowulfState, seat: int) -> tuple[tuple[int, int], ...]:
    """(from, to) pairs: an own figure and an orthogonally adjacent empty space."""
    board = geometry(state)
    return tuple(
        (square, target)
        for square, figure in enumerate(state.figures)
        if figure is not None and figure.seat == seat
        for target in board.neighbours(square)
        if is_free(state, target)
    )


def tile_playable(state: BeowulfState, seat: int, tile_id: str) -> bool:
    """True when the tile can be played now: Good Counsel needs a movable own figure, a
    Treasure can always be cashed, Drunkenness goes on a free square or replaces a Beer
    tile on the board, any other tile needs a free square."""
    ability = tile(tile_id).ability
    if ability == "good_counsel":
        return bool(counsel_moves(state, seat))
    if ability == "drunkenness" and squares_with(state, "beer"):
        return True
    return ability == "treasure" or has_free_square(state)


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
    if may_draw(state, seat) or (may_place_figure(state, seat) and has_free_square(state)):
        return True
    return may_play_tile(state) and any(tile_playable(state, seat, t) for t in state.hands[seat])


def could_act(state: BeowulfState, seat: int) -> bool:
    """True when the seat, at the start of a turn, would have anything but a pass."""
    return has_action(replace(state, drawn=False, pending=None), seat)


def legal_commands(state: BeowulfState, seat: int) -> list[Command]:
    """Every command `seat` may make now, in a stable order."""
    if state.phase == "refill":
        return [Refill(), Keep()] if state.refills and state.refills[0] == seat else []
    if state.phase != "play" or seat != state.turn:
        return []
    if state.pending is not None:
        return _follow_ups(state)
    commands: list[Command] = []
    square_names = geometry(state).names()
    names = [square_names[sq] for sq in free_squares(state)]
    if may_place_figure(state, seat):
        commands += [
            PlaceFigure(kind, name)
            for kind in KINDS
            if kind_count(state, seat, kind)
            for name in names
        ]
    if may_draw(state, seat):
        commands.append(Draw())
    if may_play_tile(state):
        commands += _tile_plays(state, seat, names)
    return commands or [Pass()]


def _tile_plays(state: BeowulfState, seat: int, names: list[str]) -> list[Command]:
    board = geometry(state)
    commands: list[Command] = []
    for face in dict.fromkeys(faces_in_hand(state, seat)):
        printed = face.partition("@")[0]
        ability = next(tile(t).ability for t in state.hands[seat] if tile_face(t) == printed)
        if ability == "good_counsel":
            commands += [
                Counsel(face, board.name(src), board.name(dst))
                for src, dst in counsel_moves(state, seat)
            ]
            continue
        commands += [PlayTile(face, name) for name in names]
        if ability == "drunkenness":
            commands += [PlayTile(face, board.name(sq)) for sq in squares_with(state, "beer")]
        if ability == "treasure":
            commands.append(CashTreasure(face))
    return commands


def _follow_ups(state: BeowulfState) -> list[Command]:
    board = geometry(state)
    commands: list[Command] = []
    if state.pending == "golden_statue":
        others = [
            sq for sq, t in enumerate(state.tiles) if t is not None and sq != state.pending_source
        ]
        commands += [
            Swap(board.name(a), board.name(b))
            for i, a in enumerate(others)
            for b in others[i + 1 :]
        ]
    elif state.pending in REMOVES:
        commands += [Remove(board.name(sq)) for sq in squares_with(state, REMOVES[state.pending])]
    return [*commands, Skip()]
