"""Encoding events for the store and decoding them back, one typed decoder per game."""

from __future__ import annotations

import functools
from typing import Any, Union

import msgspec

from core.rules import get_rules
from events.common import CommonEvent
from events.envelope import Envelope


@functools.cache
def decoder_for(game: str) -> msgspec.json.Decoder[Any]:
    """The typed decoder for every event a game's stream may hold."""
    rules = get_rules(game)
    members: tuple[Any, ...] = (*CommonEvent.__args__, *rules.event_types)
    return msgspec.json.Decoder(Union[members])  # noqa: UP007


def encode_event(event: Any) -> str:
    """The stored JSON text of an event (tag included)."""
    return msgspec.json.encode(event).decode()


def event_tag(event: Any) -> str:
    """The stable tag of an event."""
    return str(type(event).__struct_config__.tag)


_envelope_encoder = msgspec.json.Encoder()


def envelope_json(envelope: Envelope[Any]) -> bytes:
    """One envelope as JSON bytes (the caller redacts first)."""
    return _envelope_encoder.encode(envelope)
