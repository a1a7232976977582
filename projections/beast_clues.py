"""What each public event tells a viewer about the hidden Beast's path (for
projections.beast_paths): one small function per event type, each a question to the
engine about the public state with one path filled in.

- a face-down movement card: every step `mechanics.destinations` allows;
- trails: exactly the trails the engine would place (`beast_paths.PathFilter.trailed`);
- a reveal: the path is shown, the deduction starts again;
- a failed search: not there; a zone told (divine): in that zone;
- a card of the Beast's with a habitat prerequisite: on that habitat;
- a summon placed by the Beast's card: within two steps, inside the card's zone;
- the Beast's own transform: the locations the engine would transform from there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from skald.core.beast.data import card_index, side_of
from skald.core.beast.mechanics import within_bound
from skald.core.beast.state import BEAST, BeastState
from skald.core.beast.supply import transformable
from skald.events.beast import (
    BeastMoved,
    BeastRevealed,
    CardPlayed,
    LocationsTransformed,
    Searched,
    SummonPlaced,
    TrailsPlaced,
    ZoneDisclosed,
)
from skald.projections.beast_paths import Entry, PathFilter, overlay


def _laid(paths: PathFilter, entry: Entry) -> None:
    # the timeline is only kept for viewers the Beast's cards are hidden from
    assert entry.before is not None
    paths.laid_card(entry.before)


def _trails(paths: PathFilter, entry: Entry) -> None:
    paths.trailed(entry)


def _revealed(paths: PathFilter, entry: Entry) -> None:
    shown = entry.event.cards
    match = next((n for n in paths.nodes if n.active == shown), None)
    zones = match.zones if match else (paths.nodes[0].zones if paths.nodes else ())
    paths.reset(entry.event.location, zones)


def _searched(paths: PathFilter, entry: Entry) -> None:
    where = entry.event.location
    if not entry.event.found and entry.before is not None and entry.before.hidden:
        paths.keep(lambda n: n.location != where)


def _zone(paths: PathFilter, entry: Entry) -> None:
    assert entry.before is not None
    board, told = entry.before.board, entry.event.zones
    paths.keep(lambda n: tuple(board.zone_names[z] for z in board.zones_of(n.location)) == told)


def _played(paths: PathFilter, entry: Entry) -> None:
    event, before = entry.event, entry.before
    assert before is not None
    if (
        event.hand != BEAST
        or event.slot not in ("any", "ability")
        or event.card not in card_index()
    ):
        return
    needs = side_of(event.card, True).needs
    if needs:
        paths.keep(lambda n: before.is_habitat(n.location, needs))


def _beast_card(state: BeastState) -> bool:
    return bool(state.frames) and state.frames[-1].hand == BEAST


def _summoned(paths: PathFilter, entry: Entry) -> None:
    before, where = entry.before, entry.event.location
    assert before is not None
    if not _beast_card(before):
        return

    def reaches(node: Any) -> bool:
        state = overlay(before, node)
        near = state.board.within(node.location, 2)
        return where in within_bound(state, state.frames[-1], near)

    paths.keep(reaches)


def _transformed(paths: PathFilter, entry: Entry) -> None:
    before, event = entry.before, entry.event
    assert before is not None
    if not _beast_card(before) or not before.hidden:
        return
    frame = before.frames[-1]
    if frame.current >= 0 and frame.effects[frame.current].op == "summon":
        return  # a summon's ability transforms the summon's location
    ranges = {
        e.range for i, e in enumerate(frame.effects) if e.op == "transform" and i in frame.pending
    }

    def matches(node: Any) -> bool:
        state = overlay(before, node)
        reach = (node.location,)
        return any(
            transformable(
                state,
                within_bound(
                    state, state.frames[-1], reach if r == 0 else state.board.nearby(node.location)
                ),
            )
            == event.locations
            for r in ranges
        )

    if ranges:
        paths.keep(matches)


CLUES: dict[type, Callable[[PathFilter, Entry], None]] = {
    BeastMoved: _laid,
    TrailsPlaced: _trails,
    BeastRevealed: _revealed,
    Searched: _searched,
    ZoneDisclosed: _zone,
    CardPlayed: _played,
    SummonPlaced: _summoned,
    LocationsTransformed: _transformed,
}
