"""Encoding events for the store and decoding them back, one typed decoder per game."""

from __future__ import annotations

import functools
from typing import Any, Union

import msgspec

from skald.core.errors import CorruptRecord
from skald.core.rules import get_rules
from skald.core.store import StoredRecord
from skald.events.common import CommonEvent
from skald.events.envelope import Envelope


@functools.cache
def _event_union(game: str) -> Any:
    members: tuple[Any, ...] = (*CommonEvent.__args__, *get_rules(game).event_types)
    return Union[members]  # noqa: UP007


@functools.cache
def decoder_for(game: str) -> msgspec.json.Decoder[Any]:
    """The typed decoder for every event a game's stream may hold."""
    return msgspec.json.Decoder(_event_union(game))


@functools.cache
def envelope_decoder_for(game: str) -> msgspec.json.Decoder[Any]:
    """The typed decoder for a game's envelopes, as `skald log --json` writes them."""
    return msgspec.json.Decoder(Envelope[_event_union(game)])  # type: ignore[misc]


def encode_event(event: Any) -> str:
    """The stored JSON text of an event (tag included)."""
    return msgspec.json.encode(event).decode()


def event_tag(event: Any) -> str:
    """The stable tag of an event."""
    return str(type(event).__struct_config__.tag)


def to_record(envelope: Envelope[Any]) -> StoredRecord:
    """The stored row of an envelope (every stream kind: games, notes, tournaments)."""
    return StoredRecord(
        stream=envelope.stream,
        seq=envelope.seq,
        recorded_at=envelope.recorded_at,
        actor=envelope.actor,
        kind=event_tag(envelope.event),
        payload=encode_event(envelope.event),
        prev_hash=envelope.prev_hash,
        hash=envelope.hash,
    )


def decode_record(
    record: StoredRecord, decoder: msgspec.json.Decoder[Any], what: str = "event"
) -> Envelope[Any]:
    """An envelope from its stored row; CorruptRecord names the seq of an undecodable one."""
    try:
        event = decoder.decode(record.payload)
    except msgspec.DecodeError as error:
        raise CorruptRecord(record.seq, f"undecodable {what}: {error}") from None
    return Envelope(
        stream=record.stream,
        seq=record.seq,
        recorded_at=record.recorded_at,
        actor=record.actor,
        event=event,
        prev_hash=record.prev_hash,
        hash=record.hash,
    )
