"""Hägar ruft zum Beutefest for 2-6 players, as a `Rules` implementation.

Rulebook "Preparations for the Journey" and "Departure" (setup) live here; the rest is
spread over the modules named in `core.hagar`. Table options: `feast_at` (pieces home to
call the feast, default 7), `max_rounds` (default 0: off; once reached, the feast is the
only move), `uncertainties` (`throw`, the default: ties at the feast and between equally
near cities for Odin are settled by the rune sticks, recorded as events; `choose`: the
Viking names Odin's city and feast ties are shared).

Decisions where the rulebook is silent (see also the other modules' docstrings):
- each Viking chooses his home harbour at the start (`start SPACE`); home harbours take
  any number of ships (six ships start in two of them);
- one fate card per throw with any lightning, drawn before a move on land; a throw with
  two lightning bolts leaves no points to walk afterwards;
- a Viking takes roadside loot (and a camp chest) he reaches exactly, automatically;
- a ship's arrival home brings its cargo and what its Viking carries into the safe home;
  the Viking is then cured of any arrows, which are shuffled back into the fate deck;
- the storm: the remaining waves expire and the ship drifts the thrown waves once more,
  passing storms and crossroads and entering no harbour; a loaded ship first loses one
  piece of its owner's choice;
- at a crossroads any enterable neighbour may be announced; the crossroads throw counts
  waves at sea, points on land; at sea it ignores lightning (as every throw at sea), on
  land a lightning bolt draws a fate card first, as the rulebook says of every throw on
  land (a dragon then ends the crossing: the Viking is on his ship); a Viking who meets
  another on a crossroads may ambush him first (only harbours and cities are safe), then
  announces;
- when no move is possible after a throw, the turn passes.

Secrecy: pieces on a collector's card lie face down (a Byzantine chest too, once taken),
and their places on it are the holder's: `jettison SLOT` and `force SEAT SLOT` are
published as hidden notation for the mover (the storm rule, "the player hands over any
one loot piece, which is removed from the game", shows the table that a piece went, not
which); the events name the Viking, never the slot (events/hagar.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

import msgspec

from core.errors import IllegalMove
from core.hagar import choices
from core.hagar.components import BOARD, CARDS, CHESTS, PIECES
from core.hagar.decide import decide
from core.hagar.evolve import evolve
from core.hagar.feast import feast_reason, round_limit
from core.hagar.notation import (
    Command,
    Feast,
    Force,
    Jettison,
    Start,
    Throw,
    format_command,
    parse,
)
from core.hagar.state import HagarState, Options, Viking
from core.rng import Rng
from core.rules import BaseRules, register
from events.common import GameCreated, Outcome
from events.hagar import EVENT_TYPES, FateShuffled, LootDealt
from events.secret import Secret, seal


def options_from(pairs: tuple[tuple[str, str], ...]) -> Options:
    """The Hägar table options; IllegalMove names a bad value."""
    given = dict(pairs)
    try:
        options = Options(feast_at=int(given.get("feast_at", "7")),
                          max_rounds=int(given.get("max_rounds", "0")))
    except ValueError as error:
        raise IllegalMove(f"hagar options feast_at and max_rounds are numbers: {error}") from None
    uncertainties = given.get("uncertainties", "throw")
    if uncertainties not in ("throw", "choose"):
        raise IllegalMove(f"hagar option uncertainties={uncertainties!r}: use throw or choose")
    if options.feast_at < 1 or options.max_rounds < 0:
        raise IllegalMove("hagar options: feast_at >= 1 and max_rounds >= 0")
    return msgspec.structs.replace(options, uncertainties=uncertainties)


@register("hagar")
class HagarRules(BaseRules):
    """Hägar ruft zum Beutefest."""

    name: ClassVar[str] = "hagar"
    # 2: jettison/rob/force no longer publish the slot; jettison and force notation hidden.
    version: ClassVar[str] = "2"
    title: ClassVar[str] = "Hägar ruft zum Beutefest"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    event_types: ClassVar[tuple[type, ...]] = EVENT_TYPES

    def initial(self, created: GameCreated) -> HagarState:
        players = len(created.players)
        return HagarState(players=players, options=options_from(created.options),
                          vikings=(Viking(),) * players,
                          stacks=tuple(() for _ in BOARD.cities), camp=CHESTS)

    def start(self, state: HagarState, rng: Rng) -> tuple[Any, ...]:
        """Loot shuffled face down onto the cities by their counts; the fate deck shuffled."""
        loose = rng.shuffle("setup/loot", [p.id for p in PIECES if p.id not in CHESTS])
        stacks, taken = [], 0
        for city in BOARD.cities:
            count = BOARD.spaces[city].loot
            stacks.append((city, tuple(loose[taken:taken + count])))
            taken += count
        deck = rng.shuffle("setup/fate", range(len(CARDS)))
        return (LootDealt(stacks=seal(tuple(stacks), frozenset(), rng.salt("setup/loot"))),
                FateShuffled(deck=seal(tuple(deck), frozenset(), rng.salt("setup/fate"))))

    def decide(self, state: HagarState, seat: int, command: Any, rng: Rng) -> tuple[Any, ...]:
        return decide(state, seat, command, rng)

    def evolve(self, state: HagarState, event: Any) -> HagarState:
        return evolve(state, event)

    def legal(self, state: HagarState, seat: int) -> Iterable[Command]:
        """Every command `seat` may make now (the feast first whenever it may be called)."""
        if seat != state.turn or state.phase in ("over", "moved"):
            return []
        match state.phase:
            case "setup":
                return [Start(home) for home in BOARD.homes]
            case "throw":
                feast = [Feast()] if state.crossing is None and feast_reason(state, seat) else []
                limited = round_limit(state) and state.crossing is None
                return feast if limited else [*feast, Throw()]
            case "move":
                return choices.move_choices(state, seat)
            case "arrow":
                return choices.shoot_choices(state, seat)
            case "odin":
                return choices.odin_choices(state, seat)
            case "storm":
                return choices.jettison_choices(state, seat)
            case "announce":
                return choices.announce_choices(state, seat)
            case "ambush":
                return choices.ambush_choices(state, seat)
        return []

    def to_act(self, state: HagarState) -> frozenset[int]:
        return frozenset() if state.phase == "over" else frozenset({state.turn})

    def outcome(self, state: HagarState) -> Outcome | None:
        result = state.result
        if result is None:
            return None
        return Outcome(termination="feast", ranking=result.ranking, scores=result.scores,
                       tiebreaks=result.tiebreaks)

    def parse(self, text: str) -> Command:
        return parse(text)

    def format(self, command: Any) -> str:
        return format_command(command)

    def hide_move(self, state: HagarState, seat: int, command: Any, rng: Rng
                  ) -> Secret[str] | None:
        """A slot on one's own collector's card is the mover's secret."""
        if isinstance(command, Jettison | Force):
            return seal(format_command(command), frozenset({seat}),
                        rng.salt(f"move/{state.tick}"))
        return None
