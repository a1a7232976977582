"""Checking a Beast command and deriving its events (rulebook "Playing the game",
"Playing Cards", "Reactions"), and which moves keep their notation secret.

A command is legal exactly when `legal.legal_commands` lists it; then a card being
resolved runs through the effect engine (`effects`), anything else through the round
structure (`flow`), and `flow.settle` advances whatever needs no decision. Every chance
label is `beast/KIND/NONCE/N`: the nonce the decision started at (a counter in state that
undo restores, but each salt is scoped to the decision's log seq anyway) and a running
number within the decision.

Secrecy: the Beast's steps and draft picks are published as hidden notation (MoveMade
carries a Secret), as are the hunters' picks, trap plays and trap placements, and a flee
that discards a face-down card.
"""

from __future__ import annotations

from skald.core.beast.commands import (
    Assign,
    Command,
    Draft,
    Flee,
    Play,
    SetTrap,
    StepTo,
    format_command,
)
from skald.core.beast.data import FACE_DOWN, is_trap_item, kind_of
from skald.core.beast.effects import run_effect
from skald.core.beast.evolve import evolve
from skald.core.beast.flow import run_phase, settle
from skald.core.beast.legal import acting_hand, legal_commands
from skald.core.beast.state import BEAST, BeastState, Tx
from skald.core.derive import Derivation
from skald.core.errors import IllegalMove, Seat
from skald.core.rng import Rng
from skald.events.base import Event
from skald.events.secret import Secret, seal


def begin(state: BeastState, rng: Rng) -> Tx:
    """A derivation whose unnamed chance labels count from the state's nonce."""
    start = state.nonce
    return Derivation(
        state, rng, evolve, labels=lambda _state, kind, n: f"beast/{kind}/{start}/{n}"
    )


def decide(state: BeastState, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
    """Validate against the enumerated legal commands, then derive the events."""
    allowed = legal_commands(state, seat)
    if command not in allowed:
        raise _why(state, seat, command, allowed)
    tx = begin(state, rng)
    if state.frames and not state.window:
        run_effect(tx, command)
    else:
        run_phase(tx, seat, command)
    settle(tx)
    return tx.result()


def hidden_notation(state: BeastState, seat: int, command: Command, rng: Rng) -> Secret[str] | None:
    """Hidden steps, draft picks and traps keep their notation secret."""
    audience: frozenset[int] | None = None
    if isinstance(command, StepTo) and acting_hand(state) == BEAST:
        audience = frozenset({state.beast.seat})
    elif isinstance(command, Assign):
        audience = state.hunter_seats
    elif isinstance(command, Draft):
        audience = frozenset({seat}) if seat == state.beast.seat else state.hunter_seats
    elif isinstance(command, SetTrap) or (isinstance(command, Play) and is_trap_item(command.card)):
        audience = state.hunter_seats
    elif isinstance(command, Flee) and kind_of(command.card) in FACE_DOWN:
        fleeing = acting_hand(state)
        audience = state.team(fleeing if fleeing is not None else BEAST)
    if audience is None:
        return None
    return seal(format_command(command), audience, rng.salt(f"beast/move/{state.nonce}"))


def _why(state: BeastState, seat: int, command: Command, allowed: list[Command]) -> IllegalMove:
    text = format_command(command)
    where = _where(state)
    if not allowed:
        return IllegalMove(
            f"{text!r}: ",
            Seat(seat),
            f"{_playing(state, seat)} has nothing to decide now ({where})",
        )
    hand = acting_hand(state)
    who: tuple[str | Seat, ...] = (
        (Seat(state.hands[hand].seat), f" ({state.hands[hand].character})")
        if hand is not None
        else (Seat(seat), _playing(state, seat))
    )
    listed = ", ".join(format_command(c) for c in allowed[:12])
    more = f" and {len(allowed) - 12} more" if len(allowed) > 12 else ""
    return IllegalMove(f"{text!r} is not legal for ", *who, f" ({where}); legal: {listed}{more}")


def _playing(state: BeastState, seat: int) -> str:
    """` (Helga and Assar)`: the characters a seat plays, once they are dealt."""
    names = [hand.character for hand in state.hands if hand.seat == seat]
    if not names:
        return ""
    return f" ({', '.join(names[:-1])} and {names[-1]})" if len(names) > 1 else f" ({names[0]})"


def phase_words(phase: str, day: int) -> str:
    """When in the game a phase is, in words: `the Beast's first move`, `the dawn of day 2`."""
    return {
        "setup": "setting up",
        "start": "the Beast's first move",
        "place": "placing the hunters",
        "draft": "the draft",
        "dawn": f"the dawn of day {day}",
        "day": f"day {day}",
        "night": f"night {day}",
        "upgrade": f"upgrading after night {day}",
        "over": "the game is over",
    }.get(phase, phase)


def _where(state: BeastState) -> str:
    """When in the game, and what is being resolved: `day 2, Helga's flee`."""
    where = phase_words(state.phase, state.day)
    if state.window:
        where += f", while the {state.window.replace('_', ' ')} may be answered by a reaction"
    elif state.frames and state.frames[-1].slot != "start":  # the phase says it
        where += f", resolving {_resolving(state)}"
    return where


def _resolving(state: BeastState) -> str:
    frame = state.frames[-1]
    character = state.hands[frame.hand].character if 0 <= frame.hand < len(state.hands) else ""
    return resolving_words(character, frame.card, frame.slot)


def resolving_words(character: str, card: str, slot: str) -> str:
    """What a card frame resolves, in words: the card's name, `a trap` (a trap item is
    played face down, so its name must not reach the Beast's seat), `Helga's flee (one
    step of movement)`, `Fangrir's first move`."""
    if card == "trap" or is_trap_item(card):
        return "a trap"
    if card:
        return card
    if slot == "flee":
        return f"{character}'s flee (one step of movement)"
    if slot == "start":
        return f"{character}'s first move"
    return f"{character}'s {slot}"
