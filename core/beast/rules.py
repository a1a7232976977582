"""Beast, registered as `beast`: the `Rules` wiring (rulebook: ../shared/rules/beast.en.txt).

This module only wires the template's modules together: `setup` (table options, the
opening), `decide` (checks, events, hidden notation), `evolve`, `legal` (commands and who
acts), `commands` (notation) and `scoring` (the outcome). Beyond the template: `flow`
(the round structure), `effects` (the effect engine), `mechanics` (movement, trails,
reveals, damage) and `supply` (the limited token supplies).

Decisions where the rulebook is silent (module docstrings of mechanics/effects/flow/supply
list the local ones): each active movement card leaves at most one trail; the hunters win
by reinforcements when the night after the contract's last day falls; the Beast's
reaction window opens only when it holds a talent or reaction ability, the hunters' only
when a living hunter holds an item (public counts), so asking never leaks; the hunters
asked answer one at a time in turn order, and the first reaction played closes the window
(a reaction is never itself answered). Played, flee-discarded and dead hunters' items, and
talents, go face down beside their deck (a set trap's item once it triggers; the face-up
rows at night); an empty deck is shuffled from them when a card is taken from it or the
row is refilled, labelled `beast/reshuffle/DECK/N` from the shuffle counter in state.
Every component supply is limited as core/beast/supply.py says (trails 30, grudge value
30, habitat tokens 27, upgrade tokens 18, watchtowers 6, ancient powers 3; wound tokens
are denominations, no limit) and traps to 3 per zone. The rulebook's trap text ("Traps", "Example
Trap") describes only the Fire Trap's wound and no other trap: the reconstructed Spike,
Bear, Net and Pit Traps differ from it only by name (cards.toml says why).

Second rules pass (rules version 3): every attack and trap deals the rulebook's 1 base
damage (cards that hit harder grant an Ancient power first, or attack twice); the player
names the watchtower (`tower LOC`, or declines with `skip`) or the summon (`summon LOC
Wolf2`) that moves when all are on the map; with two players the hunter player drafts
into a pool and assigns it evenly after the draft (`assign CARD @HUNTER`); a zone-bound
card played on the centre is bound to the zone its first step enters; a move is ignored
with `skip` (not on "then" cards or a flee), never stopped before its first step.

Rules version 4: a summon is placed only on its mat's habitat ("all summons have to be
placed on a specific habitat, unless stated otherwise"); the centre, which "counts as all
habitat types except the settlement" for habitat prerequisites, takes none unless
transformed into that habitat.

Third rules pass (rules version 5): the effects of an "if" card (a habitat prerequisite)
cannot be ignored, as those of a "then" card cannot ("You have the option to ignore one or
more effects on the card you played, unless they meet either of the requirements "if", or
"then"."; `skip` is offered there only when the effect has nothing to act on); a card with
the word zone binds every one of its effects to the zone ("the effects on that card are
bound within the zone you are in at the time the card is played"): its steps, attack and
search targets, summon placements, the steps, attacks and abilities of the summons it lets
act (a summon outside the zone only rests) and what it transforms, not only the move that
says zone; a hunter's card that searches and attacks (Hunt) while the Beast is revealed
opens one window for reactions to either (trigger "search attack"), so an attack reaction
(Thick Hide, Vanish) may answer it. Readings left as they were: a summon's attack deals
its 1 damage whatever the Beast's damage upgrade ("Attack for 1 damage"); a trap's habitat
token matches the untransformed centre for forest, swamp and cave (the Beast's location
"counts as all habitat types except the settlement").

Fourth rules pass (rules version 6): the Beast's opening is two movement cards ("The
Beast then gets to move up two steps by playing two movement cards") and every "up to N
steps" movement of the Beast is N cards, No Movement for a step not taken, as the Rush
example plays it (it stops early only when no card can be laid; the hunters count the
cards); every hit places all its wounds ("Every attack deals 1 base damage"; "Wound tokens
come in values of 3 and 1" are denominations, not a cap); a hunter returns "to any
settlement on the map", and when the Beast has transformed every one, to a settlement the
map prints (table option `hunter_return=printed`, the default) or to the Beast starting
location (`hunter_return=centre`), so no night waits for a hunter with no move; Ancient
powers come only from "contract rewards, items, beastly talents and certain upgrades" and
hunters' grudges only from "contract rewards and ... certain action or item cards"
(Bolster, Dark Rituals, Rally, Hollow and Muster re-reconstructed; the loader refuses
other sources). The revealed Beast's location is public in every view.

Rules version 7: a triggered trap is named by its place among its zone's traps in the
order set (`TrapTriggered.among`). Two traps in one zone may look the same to a viewer
(the same card seen, habitats face down), and every view lists the traps in the order
set, so the table sees which one went; the log said only zone, card and habitat, and a
viewer's replay could not tell them apart (issue 23). The place is within the zone, not
in the whole list. Older logs, without it, replay as before (the first trap that matches).

Rules version 8: the night names the action cards left in the hands as they go face up
onto the common discard (`NightReset.discarded`, hand by hand). Every view shows the
discard by name, so the table sees them; the log did not say them, and a viewer's replay
kept them as unseen cards (issue 23). Older logs replay as before.

Secrecy: views cut the state per viewer (projections/beast/view.py); the log is redacted
generically. When the game ends with movement cards still face down, they are shown
(BeastRevealed game_end).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from skald.core.beast import legal, scoring, setup
from skald.core.beast.commands import Command, format_command, parse
from skald.core.beast.decide import decide, hidden_notation
from skald.core.beast.evolve import evolve
from skald.core.beast.state import BeastState
from skald.core.rng import Rng
from skald.core.rules import BaseRules, register
from skald.events.base import Event
from skald.events.beast import EVENT_TYPES
from skald.events.common import GameCreated, Outcome
from skald.events.secret import Secret


@register("beast")
class BeastRules(BaseRules[BeastState, Command]):
    """Beast: one Beast against a team of hunters, with hidden movement."""

    name: ClassVar[str] = "beast"
    # 2: trails name sorted locations, not card indices; a triggered trap no index; a card
    # played or discarded face up from a hidden hand is an undo barrier.
    # 3: every attack and trap deals 1 base damage; the player names the watchtower or
    # summon that moves when all are out; two players assign drafted cards after the
    # draft; zone-bound cards stay in one zone; a move is not stopped before its first step.
    # 4: a summon is placed only on its mat's habitat (no longer on an untransformed centre).
    # 5: an "if" card's effects cannot be ignored; a zone card binds all its effects to the
    # zone; Hunt on the revealed Beast may be answered by an attack reaction.
    # 6: every Beast movement lays its full count of cards (the opening two); every hit
    # places all its wounds; a dead hunter returns to a printed settlement (or the centre)
    # when none is left; re-reconstructed cards give powers and grudges only where the
    # rulebook says they come from.
    # 7: a triggered trap is named by its place among its zone's traps (TrapTriggered.among).
    # 8: the night names the action cards left in the hands (NightReset.discarded).
    version: ClassVar[str] = "8"
    title: ClassVar[str] = "Beast"
    option_names: ClassVar[tuple[str, ...]] = (
        "contract",
        "beast",
        "hunters",
        "setup",
        "hunter_return",
    )
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    event_types: ClassVar[tuple[type, ...]] = EVENT_TYPES

    def initial(self, created: GameCreated) -> BeastState:
        """The state before setup."""
        return setup.initial(created)

    def start(self, state: BeastState, rng: Rng) -> tuple[Event, ...]:
        """Contract, characters, item and talent decks and rows."""
        return setup.opening(state, rng)

    def decide(self, state: BeastState, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
        """Validate against the enumerated legal commands, then derive the events."""
        return decide(state, seat, command, rng)

    def evolve(self, state: BeastState, event: Event) -> BeastState:
        """Apply one event."""
        return evolve(state, event)

    def legal(self, state: BeastState, seat: int) -> Iterable[Command]:
        """Every legal command (hunters' never depend on the Beast's hidden state)."""
        return legal.legal_commands(state, seat)

    def to_act(self, state: BeastState) -> frozenset[int]:
        """Who may decide now."""
        return legal.to_act(state)

    def outcome(self, state: BeastState) -> Outcome | None:
        """The winning side once the game is over."""
        return scoring.outcome(state)

    def parse(self, text: str) -> Command:
        """A command from its notation."""
        return parse(text)

    def format(self, command: Command) -> str:
        """The notation of a command."""
        return format_command(command)

    def chapter(self, state: BeastState) -> int:
        """The day."""
        return state.day

    def places(self, state: BeastState) -> frozenset[str]:
        """The locations of the chosen map (none before the set-up chooses one)."""
        return frozenset(state.board.locations) if state.map else frozenset()

    def team(self, state: BeastState, seat: int) -> frozenset[int]:
        """The hunters share their hands, so they share notes; the Beast is alone."""
        hunters = frozenset(state.hunter_seats)
        return hunters if seat in hunters else frozenset({seat})

    def hide_move(
        self, state: BeastState, seat: int, command: Command, rng: Rng
    ) -> Secret[str] | None:
        """Hidden steps, draft picks and traps keep their notation secret."""
        return hidden_notation(state, seat, command, rng)
