"""Hidden values inside events, their commitments, and the one generic redaction.

An event declares a hidden value by wrapping it in `Secret`, with its audience: the seats
entitled to see it (empty: nobody but the referee). Its commitment is
`sha256(DOMAIN || salt || canonical bytes of the value)`, so a viewer outside the audience
gets the commitment alone and can check it once the value and salt are revealed.
`redact(obj, viewer)` walks any Struct/tuple/frozenset/dict and seals every Secret the
viewer may not see; it serves every game and every payload that leaves the engine.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any, Generic, TypeVar

import msgspec

from skald.events.viewer import Viewer

T = TypeVar("T")
DOMAIN = b"skald/commitment/v1\x00"


def canonical(value: Any) -> bytes:
    """Deterministic JSON bytes of a value: the form commitments and hashes are taken over."""
    return msgspec.json.encode(value, order="deterministic")


def commitment_of(value: Any, salt: str) -> str:
    """The hex commitment binding `value` under `salt` (hex)."""
    return hashlib.sha256(DOMAIN + bytes.fromhex(salt) + canonical(value)).hexdigest()


class Secret(msgspec.Struct, Generic[T], frozen=True, kw_only=True):
    """A hidden value: known to its audience (and the referee), a commitment to everyone else."""

    audience: frozenset[int]
    commitment: str
    value: T | None = None
    salt: str | None = None

    @property
    def known(self) -> bool:
        """True when this copy still carries its value (it was not redacted)."""
        return self.salt is not None

    def sealed(self) -> Secret[T]:
        """This secret with its value and salt removed."""
        return Secret(audience=self.audience, commitment=self.commitment)

    def verifies(self) -> bool:
        """True when the carried value and salt match the commitment."""
        if self.salt is None:
            return False
        try:
            return commitment_of(self.value, self.salt) == self.commitment
        except (ValueError, TypeError):  # a salt that is not hex, a value that cannot encode
            return False

    def get(self) -> T:
        """The value; raises if this copy was redacted (a bug: reducers see full events)."""
        if self.salt is None:
            raise ValueError("secret value is not available to this viewer")
        return self.value  # type: ignore[return-value]


def seal(value: T, audience: frozenset[int] | set[int], salt: str) -> Secret[T]:
    """Wrap `value` as a Secret for `audience`, committed under `salt` (hex)."""
    return Secret(
        audience=frozenset(audience),
        commitment=commitment_of(value, salt),
        value=value,
        salt=salt,
    )


def redact(obj: Any, viewer: Viewer) -> Any:
    """Return `obj` with every Secret outside `viewer`'s entitlement sealed."""
    if isinstance(obj, Secret):
        return obj if viewer.sees(obj.audience) else obj.sealed()
    if isinstance(obj, msgspec.Struct):
        changes = {}
        for name in obj.__struct_fields__:
            value = getattr(obj, name)
            redacted = redact(value, viewer)
            if redacted is not value:
                changes[name] = redacted
        return msgspec.structs.replace(obj, **changes) if changes else obj
    if isinstance(obj, tuple | list | frozenset):
        items = [redact(item, viewer) for item in obj]
        if all(new is old for new, old in zip(items, obj, strict=True)):
            return obj
        return type(obj)(items)
    if isinstance(obj, dict):
        return {key: redact(value, viewer) for key, value in obj.items()}
    return obj


def secrets_in(obj: Any) -> Iterator[Secret[Any]]:
    """Every Secret inside `obj`, depth first."""
    if isinstance(obj, Secret):
        yield obj
    elif isinstance(obj, msgspec.Struct):
        for name in obj.__struct_fields__:
            yield from secrets_in(getattr(obj, name))
    elif isinstance(obj, tuple | list | frozenset):
        for item in obj:
            yield from secrets_in(item)
    elif isinstance(obj, dict):
        for value in obj.values():
            yield from secrets_in(value)
