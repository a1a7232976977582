"""The engine's state around a game's own state, and the fold that maintains it.

`fold` is the engine-level reducer: it applies meta-events (creation, decision markers,
undo, redo, the end) itself and hands every other event to the game's `evolve`. Undo keeps
snapshots: each `MoveMade` pushes the state before the decision; a barrier event (a draw, a
roll, anything that revealed information or consumed randomness) clears the stack, so undo
stops there. Redo re-applies an undone decision while nothing else has happened since.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

import msgspec

from core.rules import Rules
from events.common import (
    DecisionRedone,
    DecisionUndone,
    EntropyAdded,
    GameCreated,
    GameFinished,
    MoveMade,
    Outcome,
)
from events.envelope import GENESIS, Envelope
from events.secret import Secret, canonical


class UndoEntry(msgspec.Struct, frozen=True):
    """One undoable decision: who made it, the state before it, and (once undone) after it."""

    seat: int
    before: Any
    after: Any = None


class GameState(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the engine knows about a game at one seq."""

    id: str
    game: str
    players: tuple[str, ...]
    options: tuple[tuple[str, str], ...]
    seed: Secret[str]
    rules: Any
    version: int = 0
    last_hash: str = GENESIS
    undo: tuple[UndoEntry, ...] = ()
    redo: tuple[UndoEntry, ...] = ()
    outcome: Outcome | None = None
    entropy: tuple[tuple[int, str], ...] = ()

    def option(self, name: str, default: str) -> str:
        """A table option by name."""
        return dict(self.options).get(name, default)

    @property
    def awaiting_entropy(self) -> frozenset[int]:
        """Seats that still owe entropy before the first draw (table option entropy=seats)."""
        if self.option("entropy", "off") != "seats":
            return frozenset()
        return frozenset(range(len(self.players))) - {seat for seat, _ in self.entropy}

    def seed_bytes(self) -> bytes:
        """The key of every random draw: the secret seed, mixed with the seats' entropy."""
        return effective_seed(self.seed.get(), self.entropy)


def effective_seed(seed: str, entropy: tuple[tuple[int, str], ...]) -> bytes:
    """The seed alone, or HMAC-SHA256(seed, canonical(sorted contributions)) with entropy."""
    if not entropy:
        return seed.encode()
    return hmac.new(seed.encode(), canonical(sorted(entropy)), hashlib.sha256).digest()


def fold(rules: Rules, state: GameState | None, envelope: Envelope[Any]) -> GameState:
    """Apply one stored event to the engine state."""
    event = envelope.event
    if isinstance(event, GameCreated):
        state = GameState(id=envelope.stream, game=event.game, players=event.players,
                          options=event.options, seed=event.seed, rules=rules.initial(event))
    elif state is None:
        raise ValueError(f"seq {envelope.seq}: a stream must start with skald.game_created")
    else:
        state = _apply(rules, state, event)
    return msgspec.structs.replace(state, version=envelope.seq, last_hash=envelope.hash)


def _apply(rules: Rules, state: GameState, event: Any) -> GameState:
    replace = msgspec.structs.replace
    match event:
        case MoveMade(seat=seat):
            return replace(state, undo=(*state.undo, UndoEntry(seat, state.rules)), redo=())
        case DecisionUndone():
            top = state.undo[-1]
            return replace(state, rules=top.before, undo=state.undo[:-1],
                           redo=(*state.redo, UndoEntry(top.seat, top.before, state.rules)))
        case DecisionRedone():
            top = state.redo[-1]
            return replace(state, rules=top.after, redo=state.redo[:-1],
                           undo=(*state.undo, UndoEntry(top.seat, top.before)))
        case EntropyAdded(seat=seat, entropy=entropy):
            return replace(state, entropy=(*state.entropy, (seat, entropy)), undo=(), redo=())
        case GameFinished(outcome=outcome):
            return replace(state, outcome=outcome, undo=(), redo=())
        case _:
            next_rules = rules.evolve(state.rules, event)
            undo = () if getattr(event, "barrier", False) else state.undo
            return replace(state, rules=next_rules, undo=undo)
