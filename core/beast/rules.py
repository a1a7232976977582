"""Beast rules for the engine: setup, decide (the only place rules are checked), evolve.

Table options: `contract` (great-cleansing, northern-settlements, blood-moon,
drowned-harvest; default by player count as the rulebook recommends), `beast` (a Beast
name), `hunters` (comma-separated names), `setup=first` (the rulebook's first game:
the recommended characters unless `beast`/`hunters` say otherwise, and the listed
starting cards by seat order instead of the first draft). Seat 0 plays the Beast; with 2
players seat 1 controls two hunters, with 3 one hunter each, with 4 three hunters.

Secrecy: the Beast's steps and draft picks are published as hidden notation (MoveMade
carries a Secret), as are the hunters' picks, trap plays and trap placements. Views cut
the state per viewer (projections/beast.py); the log is redacted generically. When the
game ends with movement cards still face down, they are shown (BeastRevealed game_end).

Decisions where the rulebook is silent (module docstrings of board/effects/flow list the
local ones): each active movement card leaves at most one trail; the hunters win by
reinforcements when the night after the contract's last day falls; the Beast's reaction
window opens only when it holds a talent or reaction ability, the hunters' only when a
living hunter holds an item (public counts), so asking never leaks; the hunters asked
answer one at a time in turn order, and the first reaction played closes the window (a
reaction is never itself answered). Contracts may leave pieces off the map at setup
(`leave_off` in contracts.toml). Played, flee-discarded and dead hunters' items, and
talents, go face down beside their deck (a set trap's item once it triggers; the face-up
rows at night); an empty deck is shuffled from them when a card is taken from it or the
row is refilled, labelled `beast/reshuffle/DECK/N` from the shuffle counter in state.
Every component supply is limited as core/beast/supply.py says (trails 30, grudge value
30, wound tokens six 3s and six 1s, habitat tokens 27, upgrade tokens 18, watchtowers 6,
ancient powers 3) and traps to 3 per zone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from core.beast.commands import Draft, Flee, Play, SetTrap, StepTo, format_command, parse
from core.beast.data import (
    FACE_DOWN,
    beast_mat,
    cards,
    characters,
    contracts,
    hunter_mat,
    kind_of,
)
from core.beast.effects import run_effect
from core.beast.evolve import evolve
from core.beast.flow import acting_hand, is_trap_item, options, run_phase, settle, to_act
from core.beast.state import BEAST, BeastState
from core.beast.tx import Tx
from core.errors import IllegalMove
from core.rng import Rng
from core.rules import BaseRules, register
from events.beast import EVENT_TYPES, DeckShuffled, GameSetUp, RowDealt
from events.common import GameCreated, Outcome
from events.secret import Secret, seal

HUNTER_SEATS = {2: (1, 1), 3: (1, 2), 4: (1, 2, 3)}


@register("beast")
class BeastRules(BaseRules):
    """Beast: one Beast against a team of hunters, with hidden movement."""

    name: ClassVar[str] = "beast"
    # 2: trails name sorted locations, not card indices; a triggered trap no index; a card
    # played or discarded face up from a hidden hand is an undo barrier.
    version: ClassVar[str] = "2"
    title: ClassVar[str] = "Beast"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    event_types: ClassVar[tuple[type, ...]] = EVENT_TYPES

    def initial(self, created: GameCreated) -> BeastState:
        """The state before setup."""
        return BeastState(players=len(created.players), options=created.options)

    def start(self, state: BeastState, rng: Rng) -> tuple[Any, ...]:
        """Contract, characters, item and talent decks and rows."""
        tx = Tx(state, rng)
        tx.emit(setup_event(state))
        for deck, group in (("item", cards().item), ("talent", cards().talent)):
            order = tx.shuffle([card.name for card in group])
            tx.emit(DeckShuffled(deck=deck, order=tx.seal(order, frozenset())),
                    RowDealt(deck=deck, cards=order[:3]))
        settle(tx)
        return tuple(tx.events)

    def decide(self, state: BeastState, seat: int, command: Any, rng: Rng) -> tuple[Any, ...]:
        """Validate against the enumerated legal commands, then derive the events."""
        allowed = options(state, seat)
        if command not in allowed:
            raise IllegalMove(_why(state, seat, command, allowed))
        tx = Tx(state, rng)
        if state.frames and not state.window:
            run_effect(tx, command)
        else:
            run_phase(tx, seat, command)
        settle(tx)
        return tuple(tx.events)

    def evolve(self, state: BeastState, event: Any) -> BeastState:
        """Apply one event."""
        return evolve(state, event)

    def legal(self, state: BeastState, seat: int) -> Iterable[Any]:
        """Every legal command (hunters' never depend on the Beast's hidden state)."""
        return options(state, seat)

    def to_act(self, state: BeastState) -> frozenset[int]:
        """Who may decide now."""
        return to_act(state)

    def outcome(self, state: BeastState) -> Outcome | None:
        """The winning side once the game is over."""
        if not state.winner:
            return None
        hunters = tuple(sorted(state.hunter_seats))
        beast = (state.beast.seat,)
        ranking = (beast, hunters) if state.winner == "beast" else (hunters, beast)
        scores = tuple(state.stat("settler_kills") if seat == state.beast.seat
                       else state.stat("beast_wounds") for seat in range(state.players))
        return Outcome(termination=state.reason, ranking=ranking, scores=scores)

    def parse(self, text: str) -> Any:
        """A command from its notation."""
        return parse(text)

    def format(self, command: Any) -> str:
        """The notation of a command."""
        return format_command(command)

    def hide_move(self, state: BeastState, seat: int, command: Any, rng: Rng
                  ) -> Secret[str] | None:
        """Hidden steps, draft picks and traps keep their notation secret."""
        audience: frozenset[int] | None = None
        if isinstance(command, StepTo) and acting_hand(state) == BEAST:
            audience = frozenset({state.beast.seat})
        elif isinstance(command, Draft):
            audience = frozenset({seat}) if seat == state.beast.seat else state.hunter_seats
        elif isinstance(command, SetTrap) or (isinstance(command, Play)
                                              and is_trap_item(command.card)):
            audience = state.hunter_seats
        elif isinstance(command, Flee) and kind_of(command.card) in FACE_DOWN:
            fleeing = acting_hand(state)
            audience = state.team(fleeing if fleeing is not None else BEAST)
        if audience is None:
            return None
        return seal(format_command(command), audience, rng.salt(f"beast/move/{state.nonce}"))


def setup_event(state: BeastState) -> GameSetUp:
    """The setup chosen by the table options (IllegalMove names a bad option)."""
    chosen = dict(state.options)
    first = chosen.get("setup", "") == "first"
    large = state.players == 4
    default = characters().first_time["large" if large else "small"]
    contract = chosen.get("contract", "northern-settlements" if large else "great-cleansing")
    if contract not in contracts():
        raise IllegalMove(f"option contract={contract!r}: known contracts are "
                          f"{', '.join(contracts())}")
    beast = chosen.get("beast", default.beast)
    hunters = tuple(h.strip() for h in chosen.get("hunters", ",".join(default.hunters)).split(","))
    seats = HUNTER_SEATS[state.players]
    try:
        beast_mat(beast)
        for hunter in hunters:
            hunter_mat(hunter)
    except KeyError as missing:
        raise IllegalMove(f"option beast/hunters: unknown character {missing}") from None
    if len(hunters) != len(seats) or len(set(hunters)) != len(hunters):
        raise IllegalMove(f"option hunters={','.join(hunters)}: {state.players} players need "
                          f"{len(seats)} different hunters")
    return GameSetUp(contract=contract, beast=beast, hunters=hunters[:len(seats)],
                     controllers=seats, first_time=first)


def _why(state: BeastState, seat: int, command: Any, allowed: list[Any]) -> str:
    text = format_command(command)
    hand = acting_hand(state)
    who = state.hands[hand].character if hand is not None else f"seat {seat}"
    where = f"day {state.day}, {state.phase}"
    if state.window:
        where += f", reaction window ({state.window})"
    elif state.frames:
        frame = state.frames[-1]
        # A trap item is played face down: its name must not reach the Beast's seat here.
        shown = "trap" if is_trap_item(frame.card) else frame.card
        where += f", resolving {shown or frame.slot}"
    if not allowed:
        return f"{text!r}: seat {seat} has nothing to decide now ({where})"
    listed = ", ".join(format_command(c) for c in allowed[:12])
    more = f" and {len(allowed) - 12} more" if len(allowed) > 12 else ""
    return f"{text!r} is not legal for {who} ({where}); legal: {listed}{more}"
