"""Every legal command of a seat (rulebook "Turn Sequence", "Special Abilities").

Built from the same predicates `decide` checks (`options`). Tiles sharing a face are one
command. Between acts `refill` is listed before `keep`, so a bot taking the first legal
command refills, as the design asks bots to do by default.
"""

from __future__ import annotations

from core.beowulf.commands import (
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
from core.beowulf.decide import REMOVES
from core.beowulf.figures import KINDS
from core.beowulf.options import (
    counsel_moves,
    may_draw,
    may_place_figure,
    may_play_tile,
)
from core.beowulf.state import BeowulfState, free_squares, geometry, kind_count, squares_with
from core.beowulf.tiles import tile


def legal_commands(state: BeowulfState, seat: int) -> list[Command]:
    """Every command `seat` may make now, in a stable order."""
    if state.phase == "refill":
        return [Refill(), Keep()] if state.refills and state.refills[0] == seat else []
    if state.phase != "play" or seat != state.turn:
        return []
    if state.pending is not None:
        return _follow_ups(state)
    commands: list[Command] = []
    names = [geometry(state).name(sq) for sq in free_squares(state)]
    if may_place_figure(state, seat):
        commands += [PlaceFigure(kind, name) for kind in KINDS
                     if kind_count(state, seat, kind) for name in names]
    if may_draw(state, seat):
        commands.append(Draw())
    if may_play_tile(state):
        commands += _tile_plays(state, seat, names)
    return commands or [Pass()]


def _tile_plays(state: BeowulfState, seat: int, names: list[str]) -> list[Command]:
    board = geometry(state)
    commands: list[Command] = []
    for face in sorted({tile(t).face for t in state.hands[seat]}):
        ability = next(tile(t).ability for t in state.hands[seat] if tile(t).face == face)
        if ability == "good_counsel":
            commands += [Counsel(face, board.name(src), board.name(dst))
                         for src, dst in counsel_moves(state, seat)]
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
        others = [sq for sq, t in enumerate(state.tiles)
                  if t is not None and sq != state.pending_source]
        commands += [Swap(board.name(a), board.name(b))
                     for i, a in enumerate(others) for b in others[i + 1:]]
    elif state.pending in REMOVES:
        commands += [Remove(board.name(sq)) for sq in squares_with(state, REMOVES[state.pending])]
    return [*commands, Skip()]
