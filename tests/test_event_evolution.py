"""Stored events stay valid as event types grow: a field added later with a default
neither changes an old event's bytes nor its hash, and old payloads still decode."""

from __future__ import annotations

from datetime import UTC, datetime

import msgspec

from skald.events.base import Event
from skald.events.envelope import chain_hash
from skald.events.secret import seal


class NotedV1(Event, frozen=True, tag="test.noted"):
    seat: int


class NotedV2(Event, frozen=True, tag="test.noted"):
    seat: int
    remark: str = ""
    hidden: object | None = None


WHEN = datetime(2026, 1, 1, tzinfo=UTC)


def test_an_added_defaulted_field_keeps_old_bytes_and_hashes() -> None:
    old = NotedV1(seat=2)
    stored = msgspec.json.encode(old)
    upgraded = msgspec.json.decode(stored, type=NotedV2)
    assert upgraded == NotedV2(seat=2)
    assert msgspec.json.encode(upgraded) == stored
    assert chain_hash("0" * 64, "s", 1, WHEN, "0", upgraded) == chain_hash(
        "0" * 64, "s", 1, WHEN, "0", old
    )


def test_a_set_field_is_encoded_and_changes_the_hash() -> None:
    plain, remarked = NotedV2(seat=2), NotedV2(seat=2, remark="well played")
    assert b"well played" in msgspec.json.encode(remarked)
    assert chain_hash("0" * 64, "s", 1, WHEN, "0", plain) != chain_hash(
        "0" * 64, "s", 1, WHEN, "0", remarked
    )


def test_secrets_keep_their_shape_when_sealed() -> None:
    secret = seal(3, {0}, "00" * 16)
    assert msgspec.json.decode(msgspec.json.encode(secret.sealed()))["value"] is None
