"""What each public event tells a viewer about the hidden Beast's path (for
`paths`): one small function per event type, each a question to the
engine about the public state with one path filled in.

- a face-down movement card: every step `mechanics.destinations` allows;
- trails: exactly the trails the engine would place (`paths.Paths.trailed`);
- a reveal: the path is shown, the deduction starts again;
- a failed search: not there; a zone told (divine): in that zone;
- a card of the Beast's with a habitat prerequisite: on that habitat;
- a summon placed by the Beast's card: within two steps, inside the card's zone;
- the Beast's own transform: the locations the engine would transform from there;
- a decision of the Beast's that is nothing but an effect's end (`rule` "bare": a skip, or
  an effect with nothing to do): where the engine offers a skip there (a "then" or "if"
  card's effect may be skipped only when it has nothing to act on: no target in reach, no
  step, no summon place) or the effect does nothing (a transform with nothing to
  transform).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from skald.core.beast.commands import Do, Skip
from skald.core.beast.data import card_index, side_of
from skald.core.beast.effects import effect_commands
from skald.core.beast.mechanics import within_bound
from skald.core.beast.state import BEAST, BeastState, Frame
from skald.core.beast.supply import transformable
from skald.events.beast import (
    BeastMoved,
    BeastRevealed,
    CardPlayed,
    EffectProgressed,
    LocationsTransformed,
    Searched,
    SummonPlaced,
    TrailsPlaced,
    ZoneDisclosed,
)
from skald.projections.beast.knowledge.timeline import Entry, Paths, overlay


def _laid(paths: Paths, entry: Entry) -> None:
    # the timeline is only kept for viewers the Beast's cards are hidden from
    assert entry.before is not None
    paths.laid_card(entry.before)


def _trails(paths: Paths, entry: Entry) -> None:
    paths.trailed(entry)


def _revealed(paths: Paths, entry: Entry) -> None:
    shown = entry.event.cards
    match = next((n for n in paths.nodes if n.active == shown), None)
    zones = match.zones if match else (paths.nodes[0].zones if paths.nodes else ())
    paths.reset(entry.event.location, zones)


def _searched(paths: Paths, entry: Entry) -> None:
    where = entry.event.location
    if not entry.event.found and entry.before is not None and entry.before.hidden:
        paths.keep(lambda n: n.location != where)


def _zone(paths: Paths, entry: Entry) -> None:
    assert entry.before is not None
    board, told = entry.before.board, entry.event.zones
    paths.keep(lambda n: tuple(board.zone_names[z] for z in board.zones_of(n.location)) == told)


def _played(paths: Paths, entry: Entry) -> None:
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


def _summoned(paths: Paths, entry: Entry) -> None:
    before, where = entry.before, entry.event.location
    assert before is not None
    if not _beast_card(before):
        return

    def reaches(node: Any) -> bool:
        state = overlay(before, node)
        near = state.board.within(node.location, 2)
        return where in within_bound(state, state.frames[-1], near)

    paths.keep(reaches)


def _transformed(paths: Paths, entry: Entry) -> None:
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
        return any(_transformed_from(state, state.frames[-1], r) == event.locations for r in ranges)

    if ranges:
        paths.keep(matches)


def _transformed_from(state: BeastState, frame: Frame, reach: int) -> tuple[str, ...]:
    """What the Beast's transform of range `reach` changes from where it is (the engine's
    `effects._no_choice`)."""
    where = state.beast.location
    near = (where,) if reach == 0 else state.board.nearby(where)
    return transformable(state, within_bound(state, frame, near))


def _bare(paths: Paths, entry: Entry) -> None:
    before, event = entry.before, entry.event
    assert before is not None
    if entry.rule != "bare" or not event.done or not _beast_card(before) or not before.hidden:
        return
    frame = before.frames[-1]
    if frame.current < 0:
        paths.keep(lambda node: _nothing_but_progress(overlay(before, node), event.index))


def _nothing_but_progress(state: BeastState, index: int) -> bool:
    """Whether the Beast's decision here may be only the end of effect `index`: a skip the
    engine offers (on a "then" or "if" card only when the effect has nothing to act on), or
    the effect done with nothing to do. Of the effects done without a choice, only a
    transform's outcome depends on where the Beast is (the others' on public facts)."""
    frame = state.frames[-1]
    commands = effect_commands(state)
    if Skip() in commands and frame.pending[:1] == (index,):
        return True
    effect = frame.effects[index]
    if Do() not in commands:
        return False
    return effect.op != "transform" or not _transformed_from(state, frame, effect.range)


CLUES: dict[type, Callable[[Paths, Entry], None]] = {
    BeastMoved: _laid,
    TrailsPlaced: _trails,
    BeastRevealed: _revealed,
    Searched: _searched,
    ZoneDisclosed: _zone,
    CardPlayed: _played,
    SummonPlaced: _summoned,
    LocationsTransformed: _transformed,
    EffectProgressed: _bare,
}
