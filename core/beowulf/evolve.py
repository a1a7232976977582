"""The reducer: apply one Beowulf event to the state. Pure, total, trusting its input.

Every rule was checked by `decide`; each event is one small change here.
"""

from __future__ import annotations

from msgspec.structs import replace

from skald.core.beowulf.data import KINDS, act_spec
from skald.core.beowulf.state import BeowulfState, Placed, geometry, replace_at
from skald.events.base import Event
from skald.events.beowulf import (
    AbilityDeclined,
    AbilityOffered,
    ActBegan,
    ActEnded,
    FigureMoved,
    FigurePlaced,
    FigureScored,
    PileShuffled,
    RefillDeclined,
    TileDrawn,
    TilePlaced,
    TileRemoved,
    TilesBetrayed,
    TilesDealt,
    TilesSwapped,
    TreasureCashed,
    TurnBegan,
    TurnPassed,
)


def evolve(state: BeowulfState, event: Event) -> BeowulfState:
    """The state after `event`."""
    match event:
        case ActBegan(act=act, first=first, refills=refills):
            return _begin_act(state, act, first, refills)
        case PileShuffled(order=order):
            return replace(state, pile=order.get())
        case TilesDealt(seat=seat, tiles=secret):
            dealt = secret.get()
            state = _add_to_hand(state, seat, dealt)
            return _refill_done(replace(state, pile=state.pile[len(dealt) :]), seat)
        case RefillDeclined(seat=seat):
            return _refill_done(state, seat)
        case TileDrawn(seat=seat, tile=drawn):
            state = _add_to_hand(state, seat, (drawn.get(),))
            return replace(state, pile=state.pile[1:], drawn=True)
        case FigurePlaced(seat=seat, kind=kind, at=at):
            state = _change_supply(state, seat, kind, -1)
            return _set_figure(state, at, Placed(seat, kind))
        case TilePlaced(seat=seat, tile=tile_id, at=at):
            return _set_tile(_take_from_hand(state, seat, tile_id), at, tile_id)
        case TileRemoved(at=at):
            return replace(_set_tile(state, at, None), pending=None, pending_source=None)
        case TreasureCashed(seat=seat, tile=tile_id, points=points):
            return _add_points(_take_from_hand(state, seat, tile_id), seat, points)
        case FigureMoved(source=source, target=target):
            figure = state.figures[_index(state, source)]
            return _set_figure(_set_figure(state, source, None), target, figure)
        case AbilityOffered(ability=ability, source=source):
            return replace(state, pending=ability, pending_source=_index(state, source))
        case TilesSwapped(first=first, second=second):
            one, two = _index(state, first), _index(state, second)
            board = replace_at(state.tiles, one, state.tiles[two])
            board = replace_at(board, two, state.tiles[one])
            return replace(state, tiles=board, pending=None, pending_source=None)
        case AbilityDeclined():
            return replace(state, pending=None, pending_source=None)
        case TurnPassed() | TilesBetrayed():
            return state
        case TurnBegan(seat=seat):
            return replace(state, turn=seat, drawn=False, pending=None, pending_source=None)
        case FigureScored(seat=seat, kind=kind, at=at, points=points):
            state = _set_figure(_add_points(state, seat, points), at, None)
            return _change_supply(state, seat, kind, 1) if kind == "drakkar" else state
        case ActEnded(act=act, reason=reason, next_seat=next_seat):
            return replace(
                state,
                phase="over" if act == 3 else "between",
                pile=(),
                tiles=(None,) * len(state.tiles),
                turn=next_seat,
                drawn=False,
                pending=None,
                pending_source=None,
                end_reason=reason,
            )
    return state


def _begin_act(state: BeowulfState, act: int, first: int, refills: tuple[int, ...]) -> BeowulfState:
    spec = act_spec(act)
    size = spec.rows * spec.cols
    board = geometry(replace(state, rows=spec.rows, cols=spec.cols))
    printed = frozenset(board.index(name) for name in spec.printed_throats)
    return replace(
        state,
        act=act,
        rows=spec.rows,
        cols=spec.cols,
        printed=frozenset(sq for sq in printed if sq is not None),
        tiles=(None,) * size,
        figures=(None,) * size,
        pile=(),
        turn=first,
        drawn=False,
        pending=None,
        pending_source=None,
        refills=refills,
        phase="refill" if refills else "play",
        end_reason="",
    )


def _index(state: BeowulfState, name: str) -> int:
    index = geometry(state).index(name)
    if index is None:  # decide only emits squares of the board
        raise ValueError(f"square {name} is not on the act {state.act} board")
    return index


def _set_tile(state: BeowulfState, at: str, tile_id: str | None) -> BeowulfState:
    return replace(state, tiles=replace_at(state.tiles, _index(state, at), tile_id))


def _set_figure(state: BeowulfState, at: str, figure: Placed | None) -> BeowulfState:
    return replace(state, figures=replace_at(state.figures, _index(state, at), figure))


def _add_to_hand(state: BeowulfState, seat: int, tiles: tuple[str, ...]) -> BeowulfState:
    return replace(state, hands=replace_at(state.hands, seat, state.hands[seat] + tiles))


def _take_from_hand(state: BeowulfState, seat: int, tile_id: str) -> BeowulfState:
    hand = list(state.hands[seat])
    hand.remove(tile_id)
    return replace(state, hands=replace_at(state.hands, seat, tuple(hand)))


def _add_points(state: BeowulfState, seat: int, points: int) -> BeowulfState:
    return replace(state, points=replace_at(state.points, seat, state.points[seat] + points))


def _change_supply(state: BeowulfState, seat: int, kind: str, delta: int) -> BeowulfState:
    counts = list(state.supply[seat])
    counts[KINDS.index(kind)] += delta
    return replace(state, supply=replace_at(state.supply, seat, tuple(counts)))


def _refill_done(state: BeowulfState, seat: int) -> BeowulfState:
    refills = tuple(s for s in state.refills if s != seat)
    phase = "play" if state.phase == "refill" and not refills else state.phase
    return replace(state, refills=refills, phase=phase)
