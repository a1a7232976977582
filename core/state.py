"""The engine's state around a game's own state, and the fold that maintains it.

`fold` is the engine-level reducer: it applies meta-events (creation, decision markers,
undo, redo, the end) itself and hands every other event to the game's `evolve`. Undo keeps
snapshots: each `MoveMade` pushes the state before the decision; a barrier event (a draw, a
roll, anything that revealed information or consumed randomness) clears the stack, so undo
stops there. Redo re-applies an undone decision while nothing else has happened since.
"""

from __future__ import annotations

from typing import Any

import msgspec

from core.rules import Rules
from events.common import (
    DecisionRedone,
    DecisionUndone,
    GameCreated,
    GameFinished,
    MoveMade,
    Outcome,
)
from events.envelope import GENESIS, Envelope
from events.secret import Secret


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

    def option(self, name: str, default: str) -> str:
        """A table option by name."""
        return dict(self.options).get(name, default)


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
        case GameFinished(outcome=outcome):
            return replace(state, outcome=outcome, undo=(), redo=())
        case _:
            next_rules = rules.evolve(state.rules, event)
            undo = () if getattr(event, "barrier", False) else state.undo
            return replace(state, rules=next_rules, undo=undo)
