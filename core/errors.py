"""The error tree. `api/` and `cli/` translate these at the edge; nothing is appended on error."""

from __future__ import annotations


class SkaldError(Exception):
    """Root of every error Skald raises on purpose."""


class InvalidNotation(SkaldError):
    """A move's text could not be parsed (bad syntax, not a rule violation)."""


class IllegalMove(SkaldError):
    """A well-formed command the rules do not allow in this position."""


class AlreadyStored(SkaldError):
    """A record imported under an id the store already holds; nothing was written (the
    stored game is not replaced: import it into another store, or remove it there first)."""


class VersionConflict(SkaldError):
    """The stream moved on since the caller read it; nothing was written."""

    def __init__(self, message: str, current: int) -> None:
        super().__init__(message)
        self.current = current


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
