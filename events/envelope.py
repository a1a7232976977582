"""The envelope the store keeps around each event, and the hash chain that links them.

`hash = sha256(prev_hash || canonical public bytes)`, where the public bytes are the
envelope with every hidden value sealed to its commitment. Every viewer can therefore
check the chain from its own redacted log, and the commitments bind the secrets.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any, Generic, TypeVar

import msgspec

from skald.events.secret import canonical, redact
from skald.events.viewer import SPECTATOR

E = TypeVar("E")
GENESIS = "0" * 64
SYSTEM = "system"


class Envelope(msgspec.Struct, Generic[E], frozen=True, kw_only=True):
    """One stored event with its place in the stream and in the hash chain."""

    stream: str
    seq: int
    recorded_at: datetime
    actor: str
    event: E
    prev_hash: str
    hash: str


def public_bytes(stream: str, seq: int, recorded_at: datetime, actor: str, event: Any) -> bytes:
    """The canonical bytes of an envelope as everyone may see it."""
    return canonical(
        {
            "stream": stream,
            "seq": seq,
            "recorded_at": recorded_at,
            "actor": actor,
            "event": redact(event, SPECTATOR),
        }
    )


def chain_hash(
    prev_hash: str, stream: str, seq: int, recorded_at: datetime, actor: str, event: Any
) -> str:
    """The hash of one link given the previous one."""
    body = public_bytes(stream, seq, recorded_at, actor, event)
    return hashlib.sha256(bytes.fromhex(prev_hash) + body).hexdigest()


def seal_envelope(
    stream: str, seq: int, recorded_at: datetime, actor: str, event: E, prev_hash: str
) -> Envelope[E]:
    """Build an envelope and compute its hash."""
    return Envelope(
        stream=stream,
        seq=seq,
        recorded_at=recorded_at,
        actor=actor,
        event=event,
        prev_hash=prev_hash,
        hash=chain_hash(prev_hash, stream, seq, recorded_at, actor, event),
    )
