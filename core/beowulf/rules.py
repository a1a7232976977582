"""Beowulf: The Movie Board Game, registered as `beowulf`: the `Rules` wiring.

This module only wires the template's modules together: `setup` (initial state, Act I),
`decide`, `evolve`, `legal` (commands and who acts), `commands` (notation) and `scoring`
(rulebook "Final Scoring").

Table option `refill`: `ask` (default; the English "may": each seat below two tiles
chooses `refill` or `keep` at the start of Acts II and III) or `always` (refill
automatically, as the Hungarian edition's "must").

Table option `last_space` (the rulebook is silent): when a Temptation or Courage tile
fills the last space, its removal would empty a space again while "the act ends
immediately"; `forfeit` (default: the act ends, the removal is lost) or `offer` (the
removal is offered; if made, the act goes on until the board is full again). A Golden
Statue on the last space always offers its swap: the board stays full, and the act ends
right after the swap (or the skip).

Second rules pass (version 3): the Act I mix holds the tiles both editions' scoring
examples need (four, in the Hungarian example five, plain -1, two +5, two +3); a hand
holding one face from two acts names the back it plays (`play +3@1 C3`).

Third rules pass (still version 3: nothing legal or any move's effect changed): every
rule of both editions was checked against the code; no deviation was found. Readings
where the rulebook is silent, or where two of its sentences meet, now also named in the
README (tests/test_beowulf_third_pass.py, test_beowulf_turns.py):
- the pass sentence ("a player has no tile in hand and no figure in front of them ...
  they pass their turn") against "they must choose one of the following two options":
  such a seat draws while the pile lasts (only a declined refill leaves a hand empty
  while it does) and passes once it is exhausted; a seat that cannot play what it holds
  (a Good Counsel with no own figure beside an empty space) passes, and an act also ends
  when no seat can do anything but pass (see `legal`);
- printed Throats are part of the Act II board: not spaces (nothing is placed on them;
  the act ends when every other space is filled) and not tiles (a Golden Statue neither
  counts them as "two other tiles already on the board" nor swaps them);
- saga points are not bounded by what a player holds: a total may go below zero;
- "unused figures" (Hungarian "megmaradt bábuin", remaining figures) are those in front
  of a player after Act III; each Drakkar has come back by then, so the ranking is the
  one the never-placed Beowulf, Thanes and Castles give (see `scoring`);
- a refill is whole (up to two tiles, as many as the pile holds) or declined, asked in
  turn order from the act's first player (see `setup`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from skald.core.beowulf import legal, scoring, setup
from skald.core.beowulf.commands import Command, format_command, parse_command
from skald.core.beowulf.decide import decide
from skald.core.beowulf.evolve import evolve
from skald.core.beowulf.state import BeowulfState, geometry
from skald.core.rng import Rng
from skald.core.rules import BaseRules, register
from skald.events.base import Event
from skald.events.beowulf import EVENT_TYPES
from skald.events.common import GameCreated, Outcome


@register("beowulf")
class BeowulfRules(BaseRules[BeowulfState, Command]):
    """The rules of Beowulf for 2-4 players."""

    name: ClassVar[str] = "beowulf"
    # 2: tile plays out of a hand carry revealed=True (undo barriers).
    # 3: Act I mix for the rulebook examples; last-space follow-ups; the back is chosen.
    version: ClassVar[str] = "3"
    title: ClassVar[str] = "Beowulf: The Movie Board Game"
    option_names: ClassVar[tuple[str, ...]] = ("refill", "last_space")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    event_types: ClassVar[tuple[type, ...]] = EVENT_TYPES

    def initial(self, created: GameCreated) -> BeowulfState:
        """Before Act I: supplies and saga points, no board yet; reads option `refill`."""
        return setup.initial(created)

    def start(self, state: BeowulfState, rng: Rng) -> tuple[Event, ...]:
        """Shuffle the Act I pile and deal two tiles to each seat."""
        return setup.opening(state, rng)

    def decide(
        self, state: BeowulfState, seat: int, command: Command, rng: Rng
    ) -> tuple[Event, ...]:
        """Validate a command; its events or IllegalMove."""
        return decide(state, seat, command, rng)

    def evolve(self, state: BeowulfState, event: Event) -> BeowulfState:
        """Apply one event."""
        return evolve(state, event)

    def legal(self, state: BeowulfState, seat: int) -> Iterable[Command]:
        """Every legal command of `seat`."""
        return legal.legal_commands(state, seat)

    def to_act(self, state: BeowulfState) -> frozenset[int]:
        """The seat whose decision it is."""
        return legal.to_act(state)

    def outcome(self, state: BeowulfState) -> Outcome | None:
        """After Act III: ranking by saga points, then diamonds of unused figures."""
        return scoring.outcome(state)

    def parse(self, text: str) -> Command:
        """A command from its notation."""
        return parse_command(text)

    def format(self, command: Command) -> str:
        """The notation of a command."""
        return format_command(command)

    def chapter(self, state: BeowulfState) -> int:
        """The act (0 before Act I)."""
        return state.act

    def places(self, state: BeowulfState) -> frozenset[str]:
        """The cells of the board of the act (`C3`)."""
        grid = geometry(state)
        return frozenset(grid.name(index) for index in range(grid.size))
