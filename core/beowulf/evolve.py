"""The reducer: apply one Beowulf event to the state. Pure, total, trusting its input.

Every rule was checked by `decide`; each event is one small change here, made by the
function `_REDUCERS` holds for its type.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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

Reducer = Callable[[BeowulfState, Any], BeowulfState]


def evolve(state: BeowulfState, event: Event) -> BeowulfState:
    """The state after `event` (one this game does not know leaves it unchanged)."""
    reducer = _REDUCERS.get(type(event))
    return state if reducer is None else reducer(state, event)


def _act_began(state: BeowulfState, event: ActBegan) -> BeowulfState:
    return _begin_act(state, event.act, event.first, event.refills)


def _pile_shuffled(state: BeowulfState, event: PileShuffled) -> BeowulfState:
    return replace(state, pile=event.order.get())


def _tiles_dealt(state: BeowulfState, event: TilesDealt) -> BeowulfState:
    dealt = event.tiles.get()
    state = _add_to_hand(state, event.seat, dealt)
    return _refill_done(replace(state, pile=state.pile[len(dealt) :]), event.seat)


def _refill_declined(state: BeowulfState, event: RefillDeclined) -> BeowulfState:
    return _refill_done(state, event.seat)


def _tile_drawn(state: BeowulfState, event: TileDrawn) -> BeowulfState:
    state = _add_to_hand(state, event.seat, (event.tile.get(),))
    return replace(state, pile=state.pile[1:], drawn=True)


def _figure_placed(state: BeowulfState, event: FigurePlaced) -> BeowulfState:
    state = _change_supply(state, event.seat, event.kind, -1)
    return _set_figure(state, event.at, Placed(event.seat, event.kind))


def _tile_placed(state: BeowulfState, event: TilePlaced) -> BeowulfState:
    return _set_tile(_take_from_hand(state, event.seat, event.tile), event.at, event.tile)


def _tile_removed(state: BeowulfState, event: TileRemoved) -> BeowulfState:
    return replace(_set_tile(state, event.at, None), pending=None, pending_source=None)


def _treasure_cashed(state: BeowulfState, event: TreasureCashed) -> BeowulfState:
    return _add_points(_take_from_hand(state, event.seat, event.tile), event.seat, event.points)


def _figure_moved(state: BeowulfState, event: FigureMoved) -> BeowulfState:
    figure = state.figures[_index(state, event.source)]
    return _set_figure(_set_figure(state, event.source, None), event.target, figure)


def _ability_offered(state: BeowulfState, event: AbilityOffered) -> BeowulfState:
    return replace(state, pending=event.ability, pending_source=_index(state, event.source))


def _tiles_swapped(state: BeowulfState, event: TilesSwapped) -> BeowulfState:
    one, two = _index(state, event.first), _index(state, event.second)
    board = replace_at(state.tiles, one, state.tiles[two])
    board = replace_at(board, two, state.tiles[one])
    return replace(state, tiles=board, pending=None, pending_source=None)


def _ability_declined(state: BeowulfState, event: AbilityDeclined) -> BeowulfState:
    return replace(state, pending=None, pending_source=None)


def _unchanged(state: BeowulfState, event: TurnPassed | TilesBetrayed) -> BeowulfState:
    return state


def _turn_began(state: BeowulfState, event: TurnBegan) -> BeowulfState:
    return replace(state, turn=event.seat, drawn=False, pending=None, pending_source=None)


def _figure_scored(state: BeowulfState, event: FigureScored) -> BeowulfState:
    state = _set_figure(_add_points(state, event.seat, event.points), event.at, None)
    if event.kind == "drakkar":
        return _change_supply(state, event.seat, event.kind, 1)
    return state


def _act_ended(state: BeowulfState, event: ActEnded) -> BeowulfState:
    return replace(
        state,
        phase="over" if event.act == 3 else "between",
        pile=(),
        tiles=(None,) * len(state.tiles),
        turn=event.next_seat,
        drawn=False,
        pending=None,
        pending_source=None,
        end_reason=event.reason,
    )


# One reducer per event type (a dict lookup: a match statement tries its cases in turn).
_REDUCERS: dict[type, Reducer] = {
    ActBegan: _act_began,
    PileShuffled: _pile_shuffled,
    TilesDealt: _tiles_dealt,
    RefillDeclined: _refill_declined,
    TileDrawn: _tile_drawn,
    FigurePlaced: _figure_placed,
    TilePlaced: _tile_placed,
    TileRemoved: _tile_removed,
    TreasureCashed: _treasure_cashed,
    FigureMoved: _figure_moved,
    AbilityOffered: _ability_offered,
    TilesSwapped: _tiles_swapped,
    AbilityDeclined: _ability_declined,
    TurnPassed: _unchanged,
    TilesBetrayed: _unchanged,
    TurnBegan: _turn_began,
    FigureScored: _figure_scored,
    ActEnded: _act_ended,
}


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
