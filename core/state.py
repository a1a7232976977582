"""The engine's state around a game's own state, and the fold that maintains it.

`fold` is the engine-level reducer: it applies meta-events (creation, decision markers,
undo, redo, the end) itself and hands every other event to the game's `evolve`. Undo keeps
snapshots: each `MoveMade` pushes the state before the decision; a barrier event (a draw, a
roll, anything that revealed information or consumed randomness) clears the stack, so undo
stops there. Redo re-applies an undone decision while nothing else has happened since.

Reducers trust their input, so a stored event that the state before it cannot take (a tile
not in the hand, an unknown id, an index out of range: the log was edited) is met here,
the one place every replay and the audit fold through, and becomes `CorruptRecord` naming
its seq, never a reducer's traceback.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import msgspec

from skald.core.errors import CorruptRecord
from skald.core.rng import Rng
from skald.core.rules import Rules
from skald.core.secrecy import game_rng, legacy_rng
from skald.events.common import (
    DecisionRedone,
    DecisionUndone,
    EntropyAdded,
    EntropyCommitted,
    GameCreated,
    GameFinished,
    MoveMade,
    Outcome,
)
from skald.events.envelope import GENESIS, Envelope
from skald.events.secret import Secret


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
    key: Secret[Any]
    rules: Any
    scheme: int = 1
    rules_version: str = ""
    """The rules version the game was started under (its `skald.game_created`)."""
    version: int = 0
    last_hash: str = GENESIS
    undo: tuple[UndoEntry, ...] = ()
    redo: tuple[UndoEntry, ...] = ()
    outcome: Outcome | None = None
    entropy_commitments: tuple[tuple[int, str], ...] = ()
    entropy: tuple[tuple[int, str], ...] = ()
    seat_keys: tuple[tuple[int, str], ...] = ()
    """Each seat's own public key (hex), from its first signed decision on
    (core/identity.py)."""

    def option(self, name: str, default: str) -> str:
        """A table option by name."""
        for key, value in self.options:
            if key == name:
                return value
        return default

    @property
    def awaiting_entropy(self) -> frozenset[int]:
        """Seats that still owe entropy before the first draw (table option entropy=seats):
        first every seat's commitment, then every seat's reveal (scheme 1: the text only)."""
        if self.option("entropy", "off") != "seats":
            return frozenset()
        seats = frozenset(range(len(self.players)))
        committed = {seat for seat, _ in self.entropy_commitments}
        if self.scheme >= 2 and committed != seats:
            return seats - committed
        return seats - {seat for seat, _ in self.entropy}

    def rng(self, scope: int) -> Rng:
        """The chance source for the decision (or opening) logged at seq `scope`."""
        if self.scheme >= 2:
            return game_rng(self.key.get(), self.id, self.entropy, scope)
        return legacy_rng(self.key.get(), self.entropy)


def fold(rules: Rules, state: GameState | None, envelope: Envelope[Any]) -> GameState:
    """Apply one stored event to the engine state."""
    return fold_event(rules, state, envelope.stream, envelope.seq, envelope.hash, envelope.event)


# What a reducer raises on input its state cannot take (a tile not in the hand, an unknown
# id, an index out of range, a field of the wrong kind): reducers trust their input, so in
# a stored log these mean the record does not fit the events before it. A bug of another
# kind (say a RecursionError or a MemoryError) is not caught here.
REDUCER_ERRORS = (
    ValueError,
    KeyError,
    IndexError,
    TypeError,
    AttributeError,
    AssertionError,
    StopIteration,  # `next(...)` over what the state holds, finding nothing
)


def fold_event(
    rules: Rules, state: GameState | None, stream: str, seq: int, digest: str, event: Any
) -> GameState:
    """`fold` without an envelope: replay needs only the event, its seq and chain hash.

    CorruptRecord naming `seq` when the event cannot apply to the state before it (a
    stored event altered, or the events before it altered and re-hashed)."""
    try:
        return _fold_event(rules, state, stream, seq, digest, event)
    except REDUCER_ERRORS as error:
        # The error's own text is left out: it may quote a hidden value of the state, and
        # this message reaches every caller (HTTP 500 corrupt_record, CLI exit 9).
        raise CorruptRecord(
            seq,
            f"the stored {_tag(event)} does not fit the game the events before it make "
            f"(its reducer refused it: {type(error).__name__}): the log was altered at or "
            f"before this seq",
        ) from error


@contextmanager
def presenting(seq: int) -> Iterator[None]:
    """Around code that presents a state folded from stored events (a seat's view, its
    legal moves, a board): what it raises on a value the game does not have becomes
    CorruptRecord naming `seq`. Every reducer took the log, so a forger re-hashed it around
    a value no honest game holds (a loot piece or habitat that does not exist); the audit
    names the seq it was put at."""
    try:
        yield
    except REDUCER_ERRORS as error:
        raise CorruptRecord(
            seq,
            f"the state at this seq holds a value the game does not have ({type(error).__name__}"
            " while presenting it): the log was altered at or before it; skald audit names where",
        ) from error


def _tag(event: Any) -> str:
    """An event's stored tag, for messages (whatever the object is)."""
    config = getattr(type(event), "__struct_config__", None)
    tag = getattr(config, "tag", None)
    return tag if isinstance(tag, str) else type(event).__name__


def _fold_event(
    rules: Rules, state: GameState | None, stream: str, seq: int, digest: str, event: Any
) -> GameState:
    if isinstance(event, GameCreated):
        state = created_state(rules, stream, event)
        return msgspec.structs.replace(state, version=seq, last_hash=digest)
    if state is None:
        raise CorruptRecord(seq, "a stream must start with skald.game_created")
    engine_event = _ENGINE_EVENTS.get(type(event))
    if engine_event is not None:
        changes = engine_event(state, event)
        signed = getattr(event, "signed", None)
        if signed is not None and signed.key:  # the seat registers its own key
            changes["seat_keys"] = (*state.seat_keys, (event.seat, signed.key))
    else:  # the game's own event
        changes = {"rules": rules.evolve(state.rules, event)}
        if getattr(event, "barrier", False):
            changes["undo"] = ()
    return msgspec.structs.replace(state, version=seq, last_hash=digest, **changes)


def created_state(rules: Rules, game_id: str, created: GameCreated) -> GameState:
    """The engine state right after `created`, before any opening event."""
    key = created.key if created.key is not None else created.seed
    if key is None:
        raise CorruptRecord(1, "skald.game_created carries neither a key nor a seed")
    return GameState(
        id=game_id,
        game=created.game,
        players=created.players,
        options=created.options,
        key=key,
        scheme=created.scheme,
        rules_version=created.rules_version,
        rules=rules.initial(created),
    )


# -- the engine's own events: each gives the fields it changes ----------------------------

Changes = dict[str, Any]


def _move_made(state: GameState, event: MoveMade) -> Changes:
    return {"undo": (*state.undo, UndoEntry(event.seat, state.rules)), "redo": ()}


def _decision_undone(state: GameState, _event: DecisionUndone) -> Changes:
    top = state.undo[-1]
    return {
        "rules": top.before,
        "undo": state.undo[:-1],
        "redo": (*state.redo, UndoEntry(top.seat, top.before, state.rules)),
    }


def _decision_redone(state: GameState, _event: DecisionRedone) -> Changes:
    top = state.redo[-1]
    return {
        "rules": top.after,
        "redo": state.redo[:-1],
        "undo": (*state.undo, UndoEntry(top.seat, top.before)),
    }


def _entropy_committed(state: GameState, event: EntropyCommitted) -> Changes:
    commitments = (*state.entropy_commitments, (event.seat, event.commitment))
    return {"entropy_commitments": commitments, "undo": (), "redo": ()}


def _entropy_added(state: GameState, event: EntropyAdded) -> Changes:
    return {"entropy": (*state.entropy, (event.seat, event.entropy)), "undo": (), "redo": ()}


def _game_finished(_state: GameState, event: GameFinished) -> Changes:
    return {"outcome": event.outcome, "undo": (), "redo": ()}


_ENGINE_EVENTS: dict[type, Callable[[GameState, Any], Changes]] = {
    MoveMade: _move_made,
    DecisionUndone: _decision_undone,
    DecisionRedone: _decision_redone,
    EntropyCommitted: _entropy_committed,
    EntropyAdded: _entropy_added,
    GameFinished: _game_finished,
}
