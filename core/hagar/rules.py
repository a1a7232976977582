"""Hägar ruft zum Beutefest for 2-6 players, as a `Rules` implementation.

This module only wires the template's modules together: `setup` (table options, the
opening), `decide`, `evolve`, `legal` (commands and who acts), `commands` (notation) and
`scoring` (the Loot Feast, the outcome); `decide` hands what follows a move to `voyage`.

Decisions where the rulebook is silent (see also the other modules' docstrings):
- each Viking chooses his home harbour at the start (`start SPACE`); home harbours take
  any number of ships (six ships start in two of them);
- one fate card per throw with any lightning, drawn before a move on land; a throw with
  two lightning bolts leaves no points to walk afterwards;
- roadside loot reached exactly "may be taken along": the Viking chooses (`take` or
  `leave`); a camp chest he may rob is taken automatically; `walk SPACE` names only the
  end, so where one way stops early (his own harbour, a crossroads) and another uses the
  whole throw, the move goes the whole way (rules version 4; legal.py);
- a ship's arrival home brings its cargo (at most three pieces, four after an ambush)
  into the safe home; a piece its Viking still carries (his ship was full) is loaded onto
  the emptied ship for the next voyage; the Viking is then cured of any arrows, which are
  shuffled back into the fate deck;
- a ship sailing alone to another harbour passes a crossroads like open sea (the
  announcement is the decision of a Viking who reaches it); a storm stops it;
- the rune sticks (reconstructed, core/hagar/sticks.toml) can throw every throw the
  rulebook shows: 3 points / 7 waves, 2 and 3 waves at the crossroads, 0-2 points on one
  stick; waves 2-8 (mean 5), a lightning on 7 throws in 16;
- the feast (scoring.py): called with 7 pieces home (`feast`), or by anyone once no
  piece can still come home (`feast_no_loot`), or forced by the optional round limit;
- the storm: the remaining waves expire and the ship drifts the thrown waves once more,
  passing storms and crossroads and entering no harbour; a loaded ship first loses one
  piece of its owner's choice;
- at a crossroads any enterable neighbour may be announced; the crossroads throw counts
  waves at sea, points on land; at sea it ignores lightning (as every throw at sea), on
  land a lightning bolt draws a fate card first, as the rulebook says of every throw on
  land (a dragon then ends the crossing: the Viking is on his ship); a Viking who meets
  another on a crossroads may ambush him first (only harbours and cities are safe), then
  announces;
- when no move is possible after a throw, the turn passes;
- the feast is called at the start of the caller's turn, instead of throwing: "If a
  Viking has brought 7 loot pieces home, he may call the Loot Feast" does not say when,
  and his arrival home ends his move, so the others play one more turn first;
- a Viking on foot who reaches the harbour where his ship lies boards it, loot or not,
  and his surplus points expire ("when a ship is loaded from land");
- `force` hands one piece per ambush, as `rob` takes one ("he can force his loot on the
  other");
- Odin ends the move: onto the ship is boarding it, into a city is "to make loot" (surplus
  expires either way); a dragon leaves the other stick's points to walk on when the ship
  lies in a harbour ("Points from the second rune stick may afterwards only be counted if
  the Viking is then not on the high seas").

Secrecy: pieces on a collector's card lie face down (a Byzantine chest too, once taken),
and their places on it are the holder's: `jettison SLOT` and `force SEAT SLOT` are
published as hidden notation for the mover (the storm rule, "the player hands over any
one loot piece, which is removed from the game", shows the table that a piece went, not
which); the events name the Viking, never the slot (events/hagar.py). Which field of the
card a piece leaves is the table's: an ambush at sea draws among the victim's ship's
cargo and the pieces in his hands ("he draws them face down"), and everyone sees which
of the two lost one; from rules version 5 `LootRobbed` says so (`from_cargo`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from skald.core.hagar import legal, scoring, setup
from skald.core.hagar.board import board
from skald.core.hagar.commands import Command, Force, Jettison, format_command, parse
from skald.core.hagar.decide import decide
from skald.core.hagar.evolve import evolve
from skald.core.hagar.state import HagarState
from skald.core.rng import Rng
from skald.core.rules import BaseRules, register
from skald.events.base import Event
from skald.events.common import GameCreated, Outcome
from skald.events.hagar import EVENT_TYPES
from skald.events.secret import Secret, seal


@register("hagar")
class HagarRules(BaseRules[HagarState, Command]):
    """Hägar ruft zum Beutefest."""

    name: ClassVar[str] = "hagar"
    # 2: jettison/rob/force no longer publish the slot; jettison and force notation hidden.
    # 3: the fallback feast waits until no loot can come home; the ship brings at most its
    # cargo home; roadside loot is taken or left by choice; new rune-stick faces; a lone
    # ship passes crossroads.
    # 4: a walk that can reach its end with the whole throw goes the whole way (roadside
    # loot on the Viking's own harbour or a crossroads can be taken).
    # 5: a robbery says which field of the victim's card lost the piece (`from_cargo`), as
    # the counts on the card show the table. Version 4 games go on under version 4: the
    # same events but that field (`HagarState.rules_version`).
    version: ClassVar[str] = "5"
    older_versions: ClassVar[tuple[str, ...]] = ("4",)
    title: ClassVar[str] = "Hägar ruft zum Beutefest"
    option_names: ClassVar[tuple[str, ...]] = ("feast_at", "max_rounds", "uncertainties")
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 6
    event_types: ClassVar[tuple[type, ...]] = EVENT_TYPES

    def initial(self, created: GameCreated) -> HagarState:
        """Before anyone chose a home harbour; reads the table options."""
        return setup.initial(created)

    def start(self, state: HagarState, rng: Rng) -> tuple[Event, ...]:
        """Loot shuffled face down onto the cities by their counts; the fate deck shuffled."""
        return setup.opening(state, rng)

    def decide(self, state: HagarState, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
        """Validate a command; its events or IllegalMove."""
        return decide(state, seat, command, rng)

    def evolve(self, state: HagarState, event: Event) -> HagarState:
        """Apply one event."""
        return evolve(state, event)

    def legal(self, state: HagarState, seat: int) -> Iterable[Command]:
        """Every command `seat` may make now (the feast first whenever it may be called)."""
        return legal.legal_commands(state, seat)

    def to_act(self, state: HagarState) -> frozenset[int]:
        """The Viking whose turn it is."""
        return legal.to_act(state)

    def outcome(self, state: HagarState) -> Outcome | None:
        """The feast's ranking once it is scored."""
        return scoring.outcome(state)

    def parse(self, text: str) -> Command:
        """A command from its notation."""
        return parse(text)

    def format(self, command: Command) -> str:
        """The notation of a command."""
        return format_command(command)

    def chapter(self, state: HagarState) -> int:
        """The rounds played."""
        return state.rounds

    def places(self, state: HagarState) -> frozenset[str]:
        """The board's space ids (`paris`)."""
        return frozenset(board().spaces)

    def hide_move(
        self, state: HagarState, seat: int, command: Command, rng: Rng
    ) -> Secret[str] | None:
        """A slot on one's own collector's card is the mover's secret."""
        if isinstance(command, Jettison | Force):
            return seal(format_command(command), frozenset({seat}), rng.salt(f"move/{state.tick}"))
        return None
