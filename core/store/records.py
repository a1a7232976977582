"""The rows a store hands out (StoredRecord, FoldRow, StoredSnapshot, StreamInfo), and how
stored values become them: every moment as the same aware UTC value whatever the backend,
and a stored value that cannot be read as a CorruptRecord naming it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec

from skald.core.errors import CorruptRecord, NotFound


class StoredRecord(msgspec.Struct, frozen=True, kw_only=True):
    """One row of a stream as the store keeps it."""

    stream: str
    seq: int
    recorded_at: datetime
    actor: str
    kind: str
    payload: str
    prev_hash: str
    hash: str


class FoldRow(msgspec.Struct, frozen=True, array_like=True):
    """What replay needs of one stored record: its seq, payload and chain hash."""

    seq: int
    payload: str
    hash: str


class StoredSnapshot(msgspec.Struct, frozen=True, kw_only=True):
    """A folded state as stored: at `seq`, whose chain hash was `hash`."""

    seq: int
    hash: str
    state: bytes


class StreamInfo(msgspec.Struct, frozen=True, kw_only=True):
    """A stream's header row."""

    id: str
    kind: str
    version: int
    created_at: datetime
    title: str = ""


def no_such(stream: str) -> NotFound:
    """What asking for a stream the store does not hold says, in the words of what was
    asked for: a game, or a game's variation or notes (never a stream id)."""
    game, tilde, part = stream.partition("~")
    if tilde and part == "notes":
        return NotFound(f"there are no notes of game {game!r}")
    if tilde and part[:1] == "v" and part[1:].isdigit():
        return NotFound(f"there is no variation {part} of game {game!r}")
    return NotFound(f"there is no game {stream!r}")


def utc(moment: datetime) -> datetime:
    """`moment` as an aware UTC value (a naive one is taken as UTC)."""
    # Every backend hands back the same aware UTC value, so canonical bytes (and hashes)
    # do not depend on where the event was stored.
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def header(
    stream: str, kind: Any, version: Any, created_at: Any, title: Any, moment: Any
) -> StreamInfo:
    """A stream's header row as a StreamInfo; CorruptRecord (seq 1, the header's seq in
    chain verification) naming the column a stored value of which cannot be read."""
    check_version(stream, version)
    if not isinstance(kind, str):
        raise CorruptRecord(1, f"the stream header of {stream}: its kind {kind!r} is not text")
    if title is not None and not isinstance(title, str):
        raise CorruptRecord(1, f"the stream header of {stream}: its title {title!r} is not text")
    try:
        created = moment(created_at)
    except (ValueError, TypeError, OverflowError):
        raise CorruptRecord(
            1, f"the stream header of {stream}: its created_at {created_at!r} is not a time"
        ) from None
    return StreamInfo(id=stream, kind=kind, version=version, created_at=created, title=title or "")


def check_version(stream: str, version: Any) -> None:
    """CorruptRecord (seq 1) unless a stream header's stored version is a whole number."""
    if type(version) is not int:
        raise CorruptRecord(
            1, f"the stream header of {stream}: its version {version!r} is not a whole number"
        )


def bad_recorded_at(rows: Sequence[Any], moment: Any) -> CorruptRecord:
    """The first row (seq, recorded_at, ...) whose recorded_at cannot be read, as the error
    to raise (looked for only once converting the rows failed)."""
    for row in rows:
        try:
            moment(row[1])
        except (ValueError, TypeError, OverflowError):
            return CorruptRecord(row[0], f"its recorded_at {row[1]!r} is not a time")
    return CorruptRecord(rows[0][0] if rows else 1, "a stored value cannot be read")
