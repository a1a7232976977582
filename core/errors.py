"""The error tree. `api/` and `cli/` translate these at the edge; nothing is appended on error."""

from __future__ import annotations

from collections.abc import Callable


class SkaldError(Exception):
    """Root of every error Skald raises on purpose."""


class InvalidNotation(SkaldError):
    """A move's text could not be parsed (bad syntax, not a rule violation)."""


class Seat(int):
    """A seat named in a refusal's text: the rules do not know who sits where, so they
    give the seat and the engine writes the player's name (`IllegalMove.named`)."""


class IllegalMove(SkaldError):
    """A well-formed command the rules do not allow in this position.

    Its text is given in parts: strings, and `Seat`s where it names a seat. The rules do
    not know the players' names; `core.refusal.named` writes each `Seat` as its player's
    name before anyone reads the text (`str()` of a text still unnamed says `seat N`).
    """

    def __init__(self, *parts: str | Seat) -> None:
        self.parts = parts
        super().__init__("".join(_unnamed(part) for part in parts))

    def named(self, name: Callable[[int], str]) -> IllegalMove:
        """The same refusal with every seat written as `name` writes it."""
        if not any(isinstance(part, Seat) for part in self.parts):
            return self
        text = "".join(name(part) if isinstance(part, Seat) else part for part in self.parts)
        return type(self)(text)


def _unnamed(part: str | Seat) -> str:
    return f"seat {int(part)}" if isinstance(part, Seat) else part


class AlreadyStored(SkaldError):
    """A record imported under an id the store already holds; nothing was written (the
    stored game is not replaced: import it into another store, or remove it there first)."""


class VersionConflict(SkaldError):
    """The stream moved on since the caller read it; nothing was written."""

    def __init__(self, message: str, current: int) -> None:
        super().__init__(message)
        self.current = current


class NeedsConfirmation(SkaldError):
    """Asked for something that takes a decision from people (bots taking seats people
    played): nothing was done; asked again with the confirmation, it is done."""


class NotFound(SkaldError):
    """An unknown game, seat or thing."""


class Forbidden(SkaldError):
    """The caller may not do this (not its turn, not its decision to undo, wrong token)."""


class Unauthorized(Forbidden):
    """No valid credentials were presented."""


class InvalidOption(SkaldError):
    """A table or game option that does not exist or has a value it cannot take."""


class StoreError(SkaldError):
    """The database could not be reached or used."""


class WouldWait(StoreError):
    """Raised instead of waiting for a SQLite lock inside `EventStore.never_waiting()`;
    nothing was written (the wait comes before the transaction's first statement)."""


class CorruptRecord(SkaldError):
    """A stored record that cannot be decoded or does not fit its stream: corruption, not a
    rule violation (500 in the API, its own exit code in the CLI)."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(f"seq {seq}: {reason}")
        self.seq = seq
