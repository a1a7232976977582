"""The history streams of a game: their ids, kinds, decoders, appends and chain checks.

A game `G` has one notes stream `G~notes` (kind `skald.notes`) and variation streams
`G~vN` (kind `skald.variation`). Variations are numbered per author, so nobody can count
the variations it may not see from the numbers of its own (`author_numbers`): with
P players, seat s's are v(s+1), v(s+1+(P+1)), v(s+1+2(P+1)), ..., the referee's v(P+1),
v(2(P+1)), ...; the k-th variation by an author is the same number in every game of that size, a
number already taken (a variation stored before this numbering, numbered in opening
order) is skipped. Both
are hash-chained exactly like games (`events/envelope.py`): `hash = sha256(prev ||
canonical public bytes)`, public bytes taken over commitments, so any viewer's redacted
copy verifies.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Collection, Iterator, Sequence
from datetime import datetime
from typing import Any, Union

import msgspec

from skald.core.codec import to_record
from skald.core.errors import NotFound
from skald.core.rules import get_rules
from skald.core.store import EventStore, StoredRecord
from skald.events.common import CommonEvent
from skald.events.envelope import GENESIS, Envelope, chain_hash, seal_envelope
from skald.events.history import NotesEvent, VariationStarted
from skald.events.secret import secrets_in

NOTES_KIND = "skald.notes"
VARIATION_KIND = "skald.variation"
_VARIATION_ID = re.compile(r"(?P<game>.+)~v(?P<number>[1-9][0-9]*)")


def notes_id(game_id: str) -> str:
    """The notes stream of a game."""
    return f"{game_id}~notes"


def variation_id(game_id: str, number: int) -> str:
    """The id of a game's `number`-th variation."""
    return f"{game_id}~v{number}"


def author_numbers(author: int, players: int, taken: Collection[int]) -> Iterator[int]:
    """The numbers of `author`'s variations in turn (the referee: -1), skipping `taken`
    (numbers of variations stored before this numbering): seat s's are s+1, s+1+(P+1),
    ..., the referee's P+1, 2(P+1), ... Nothing but the author's own variations decides
    which of them is next."""
    stride = players + 1
    number = players + 1 if author < 0 else author + 1
    while True:
        if number not in taken:
            yield number
        number += stride


def number_author(number: int, players: int) -> int:
    """The author whose numbers `author_numbers` counts `number` among (the referee: -1):
    who opened a variation that the notes stream does not record, told by its number
    alone, so that deciding who may see it reads nothing of it."""
    seat = (number - 1) % (players + 1)
    return -1 if seat == players else seat


def variation_number(stream: str) -> int | None:
    """The number of a variation id, or None when `stream` is not one."""
    match = _VARIATION_ID.fullmatch(stream)
    return int(match["number"]) if match else None


def variation_name(stream: str) -> str:
    """A variation as a person names it (`v2`: its number in its game), never its stream
    id; a stream that is not a variation's, as it is."""
    number = variation_number(stream)
    return f"v{number}" if number is not None else stream


def no_variation(stream: str) -> NotFound:
    """What asking for a variation one may not read says: the same words whether it does
    not exist or belongs to another side (nobody counts the others' variations)."""
    return NotFound(f"this game has no variation {variation_name(stream)} that you may read")


def variation_game(stream: str) -> str | None:
    """The game a variation id belongs to, or None when `stream` is not one."""
    match = _VARIATION_ID.fullmatch(stream)
    return match["game"] if match else None


@functools.cache
def notes_decoder() -> msgspec.json.Decoder[Any]:
    """The decoder of a notes stream's events."""
    return msgspec.json.Decoder(NotesEvent)


@functools.cache
def variation_decoder(game: str) -> msgspec.json.Decoder[Any]:
    """The decoder of a variation's events: its start, then the game's own events."""
    members: tuple[Any, ...] = (
        VariationStarted,
        *CommonEvent.__args__,
        *get_rules(game).event_types,
    )
    return msgspec.json.Decoder(Union[members])  # noqa: UP007


@functools.cache
def envelope_decoder(kind: str, game: str) -> msgspec.json.Decoder[Any]:
    """The decoder of a history stream's envelopes as exports write them."""
    if kind == NOTES_KIND:
        return msgspec.json.Decoder(Envelope[NotesEvent])
    members: tuple[Any, ...] = (
        VariationStarted,
        *CommonEvent.__args__,
        *get_rules(game).event_types,
    )
    union: Any = Union[members]  # noqa: UP007
    return msgspec.json.Decoder(Envelope[union])


def decode(record: StoredRecord, decoder: msgspec.json.Decoder[Any]) -> Envelope[Any]:
    """An envelope from a stored row."""
    return Envelope(
        stream=record.stream,
        seq=record.seq,
        recorded_at=record.recorded_at,
        actor=record.actor,
        event=decoder.decode(record.payload),
        prev_hash=record.prev_hash,
        hash=record.hash,
    )


def append(
    store: EventStore,
    stream: str,
    head: tuple[int, str],
    events: Sequence[tuple[Any, str]],
    now: datetime,
    kind: str,
    title: str = "",
) -> list[Envelope[Any]]:
    """Seal `events` (each with its actor) after `head` (seq, hash) and append them in one
    transaction; a stale head raises VersionConflict and writes nothing."""
    version, prev_hash = head
    sealed = []
    for event, actor in events:
        envelope = seal_envelope(stream, version + 1, now, actor, event, prev_hash)
        sealed.append(envelope)
        version, prev_hash = envelope.seq, envelope.hash
    store.append(stream, [to_record(env) for env in sealed], head[0], kind=kind, title=title)
    return sealed


def chain_problem(envelopes: Sequence[Envelope[Any]]) -> tuple[int, str] | None:
    """The first bad seq of a (possibly redacted) copy of a stream and why, or None.

    Sealed hidden values are fine (the hash is over commitments); a value that is there
    must match its commitment."""
    prev_hash = GENESIS
    for expected, envelope in enumerate(envelopes, start=1):
        if envelope.seq != expected:
            return expected, f"expected seq {expected}, found {envelope.seq}"
        if envelope.prev_hash != prev_hash:
            return expected, "prev_hash does not match the previous event's hash"
        recomputed = chain_hash(
            prev_hash,
            envelope.stream,
            envelope.seq,
            envelope.recorded_at,
            envelope.actor,
            envelope.event,
        )
        if recomputed != envelope.hash:
            return expected, "hash mismatch: the event or its envelope was changed"
        for secret in secrets_in(envelope.event):
            if secret.known and not secret.verifies():
                return (
                    expected,
                    f"a hidden value does not match its commitment {secret.commitment[:12]}…",
                )
        prev_hash = envelope.hash
    return None


def head_of(envelopes: Sequence[Envelope[Any]]) -> tuple[int, str]:
    """The (seq, hash) after the last of `envelopes`."""
    return (envelopes[-1].seq, envelopes[-1].hash) if envelopes else (0, GENESIS)
