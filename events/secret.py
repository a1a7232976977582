"""Hidden values inside events, their commitments, and the one generic redaction.

An event declares a hidden value by wrapping it in `Secret`, with its audience: the seats
entitled to see it (empty: nobody but the referee). Its commitment is
`sha256(DOMAIN || salt || canonical bytes of the value)`, so a viewer outside the audience
gets the commitment alone and can check it once the value and salt are revealed.
`redact(obj, viewer)` walks any Struct/tuple/frozenset/dict and seals every Secret the
viewer may not see; it serves every game and every payload that leaves the engine. It
walks only the fields whose declared type can hold a Secret (`secret_fields`, read once
per Struct class), so an event without hidden values costs one lookup.
"""

from __future__ import annotations

import functools
import hashlib
import typing
from collections.abc import Iterator
from typing import Any, Generic, TypeVar

import msgspec
import msgspec.inspect as mi

from skald.events.viewer import Viewer

T = TypeVar("T")
DOMAIN = b"skald/commitment/v1\x00"


_CANONICAL = msgspec.json.Encoder(order="deterministic")  # reused, as msgspec advises


def canonical(value: Any) -> bytes:
    """Deterministic JSON bytes of a value: the form commitments and hashes are taken over."""
    return _CANONICAL.encode(value)


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
        for name in secret_fields(type(obj)):
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
        for name in secret_fields(type(obj)):
            yield from secrets_in(getattr(obj, name))
    elif isinstance(obj, tuple | list | frozenset):
        for item in obj:
            yield from secrets_in(item)
    elif isinstance(obj, dict):
        for value in obj.values():
            yield from secrets_in(value)


# -- which fields can hold a Secret (from the Struct's declared types) -------------------

_NEVER_SECRET = (
    mi.IntType,
    mi.FloatType,
    mi.StrType,
    mi.BoolType,
    mi.NoneType,
    mi.BytesType,
    mi.ByteArrayType,
    mi.DateTimeType,
    mi.DateType,
    mi.TimeType,
    mi.TimeDeltaType,
    mi.UUIDType,
    mi.DecimalType,
    mi.LiteralType,
    mi.EnumType,
)


@functools.cache
def secret_fields(cls: type[msgspec.Struct]) -> tuple[str, ...]:
    """The fields of a Struct class whose declared type can hold a Secret, in order.

    Most events hold none, so `redact` and `secrets_in` skip them without walking a field.
    The reading is conservative: a field typed `Any`, a type variable, an unknown type or a
    Struct class that has subclasses (the value may be one that holds a Secret) counts."""
    try:
        info = mi.type_info(cls)
    except (TypeError, ValueError):  # a type msgspec cannot describe: walk every field
        return tuple(cls.__struct_fields__)
    if not isinstance(info, mi.StructType):
        return tuple(cls.__struct_fields__)
    return tuple(field.name for field in info.fields if _may_hold_secret(field.type, {cls}))


def _may_hold_secret(info: mi.Type, seen: set[type]) -> bool:
    if isinstance(info, _NEVER_SECRET):
        return False
    if isinstance(info, mi.StructType):
        cls = typing.get_origin(info.cls) or info.cls
        if issubclass(cls, Secret) or cls.__subclasses__():
            return True
        if cls in seen:  # a recursive type: its fields are being looked at already
            return False
        return any(_may_hold_secret(field.type, seen | {cls}) for field in info.fields)
    if isinstance(info, mi.UnionType):
        return any(_may_hold_secret(member, seen) for member in info.types)
    if isinstance(info, mi.ListType | mi.VarTupleType | mi.SetType | mi.FrozenSetType):
        return _may_hold_secret(info.item_type, seen)
    if isinstance(info, mi.TupleType):
        return any(_may_hold_secret(item, seen) for item in info.item_types)
    if isinstance(info, mi.DictType):
        return _may_hold_secret(info.key_type, seen) or _may_hold_secret(info.value_type, seen)
    return True  # Any, a type variable, a custom type: look at the value
