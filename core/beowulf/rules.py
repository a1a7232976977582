"""Beowulf: The Movie Board Game, registered as `beowulf`: the `Rules` implementation.

This module only wires the parts together: setup (`acts`), checks (`decide`), the reducer
(`evolve`), enumeration (`legal`), notation (`notation`) and the final ranking (rulebook
"Final Scoring": most saga points; tie broken by the most diamonds on unused figures —
the figures still in front of the player after Act III, returned Drakkars included —
then a shared victory).

Table option `refill`: `ask` (default; the English "may": each seat below two tiles
chooses `refill` or `keep` at the start of Acts II and III) or `always` (refill
automatically, as the Hungarian edition's "must").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from core.beowulf.acts import open_game
from core.beowulf.commands import Command
from core.beowulf.decide import decide
from core.beowulf.evolve import evolve
from core.beowulf.figures import supply_diamonds
from core.beowulf.legal import legal_commands
from core.beowulf.notation import format_command, parse_command
from core.beowulf.state import BeowulfState, new_state
from core.errors import IllegalMove
from core.rng import Rng
from core.rules import BaseRules, register
from events.beowulf import EVENT_TYPES
from events.common import GameCreated, Outcome

REFILL_POLICIES = ("ask", "always")


@register("beowulf")
class BeowulfRules(BaseRules):
    """The rules of Beowulf for 2-4 players."""

    name: ClassVar[str] = "beowulf"
    # 2: tile plays out of a hand carry revealed=True (undo barriers).
    version: ClassVar[str] = "2"
    title: ClassVar[str] = "Beowulf: The Movie Board Game"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    event_types: ClassVar[tuple[type, ...]] = EVENT_TYPES

    def initial(self, created: GameCreated) -> BeowulfState:
        """Before Act I: supplies and saga points, no board yet; reads option `refill`."""
        refill = dict(created.options).get("refill", "ask")
        if refill not in REFILL_POLICIES:
            raise IllegalMove(f"option refill={refill!r}: must be one of "
                              f"{', '.join(REFILL_POLICIES)}")
        return new_state(len(created.players), auto_refill=refill == "always")

    def start(self, state: Any, rng: Rng) -> tuple[Any, ...]:
        """Shuffle the Act I pile and deal two tiles to each seat."""
        return open_game(state, rng)

    def decide(self, state: Any, seat: int, command: Any, rng: Rng) -> tuple[Any, ...]:
        """Validate a command; its events or IllegalMove."""
        return decide(state, seat, command, rng)

    def evolve(self, state: Any, event: Any) -> BeowulfState:
        """Apply one event."""
        return evolve(state, event)

    def legal(self, state: Any, seat: int) -> Iterable[Command]:
        """Every legal command of `seat`."""
        return legal_commands(state, seat)

    def to_act(self, state: Any) -> frozenset[int]:
        """The seat whose decision it is."""
        if state.phase == "refill":
            return frozenset(state.refills[:1])
        return frozenset({state.turn}) if state.phase == "play" else frozenset()

    def outcome(self, state: Any) -> Outcome | None:
        """After Act III: ranking by saga points, then diamonds of unused figures."""
        if state.phase != "over":
            return None
        return final_outcome(state)

    def parse(self, text: str) -> Command:
        """A command from its notation."""
        return parse_command(text)

    def format(self, command: Any) -> str:
        """The notation of a command."""
        return format_command(command)


def final_outcome(state: BeowulfState) -> Outcome:
    """Groups of tied seats, best first; ties on points and diamonds share a place."""
    tiebreaks = tuple(supply_diamonds(supply) for supply in state.supply)
    keys = sorted({(state.points[s], tiebreaks[s]) for s in range(state.seats)}, reverse=True)
    ranking = tuple(tuple(s for s in range(state.seats)
                          if (state.points[s], tiebreaks[s]) == key) for key in keys)
    return Outcome(termination="completed", ranking=ranking, scores=state.points,
                   tiebreaks=tiebreaks)
