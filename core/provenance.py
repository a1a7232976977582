"""Where an imported stream came from: a partial copy's mark, a tournament head's signer.

A stream imported into a store may carry one provenance record, written in the same
transaction as the stream's first events (`EventStore.append(..., provenance=...)`) and
never changed after. Two things are kept:

- `partial`: the game was imported from a record cut short (`skald import --partial`). It
  holds the decisions before the cut (how many the whole record had, when that is known)
  and can never be continued: every move, undo, redo and entropy is refused
  (`PartialCopyRefused`, error code `partial_copy`). Every export of it carries the mark,
  so a re-export never imports as a whole game.
- `head_signer`: the public key that signed an imported tournament's head ("" when the
  head was unsigned; None when the stream was not imported).
"""

from __future__ import annotations

import re

import msgspec

from skald.core.errors import IllegalMove
from skald.core.signing import fingerprint


class PartialCopy(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A game imported from a prefix of its record."""

    decisions: int
    """The decisions the copy holds: the record was cut after this one."""
    seq: int
    """The game's last seq in the copy."""
    of: int | None = None
    """How many decisions the whole record had, when its end said so (None: unknown)."""


class Provenance(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What a store knows of where one imported stream came from."""

    partial: PartialCopy | None = None
    head_signer: str | None = None


class PartialCopyRefused(IllegalMove):
    """A write to a game that is a partial copy (it can never be continued)."""


_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder(Provenance)


def encode(provenance: Provenance) -> str:
    """The stored form of a provenance record."""
    return _ENCODER.encode(provenance).decode()


def decode(text: str | None) -> Provenance:
    """A stored provenance record (none stored: an empty one)."""
    return Provenance() if not text else _DECODER.decode(text)


def partial_words(mark: PartialCopy) -> str:
    """The mark in plain words, as `show`, the audit and every export say it."""
    whole = f" of {mark.of}" if mark.of is not None else " (how many followed is not known)"
    return (
        f"a partial copy: the record was cut after decision {mark.decisions}{whole}; "
        "it can never be continued"
    )


_CUT_AFTER = re.compile(r"cut after decision ([0-9]+)(?: of ([0-9]+))?")


def partial_from_words(text: str) -> PartialCopy | None:
    """The mark `partial_words` wrote (the text export's Partial tag); None if not one.
    Its seq is not in the words: 0 here, the import counts it again."""
    match = _CUT_AFTER.search(text)
    if match is None:
        return None
    whole = int(match[2]) if match[2] else None
    return PartialCopy(decisions=int(match[1]), seq=0, of=whole)


def refuse_partial(game_id: str, mark: PartialCopy) -> PartialCopyRefused:
    """The refusal of a write to a partial copy."""
    return PartialCopyRefused(
        f"game {game_id} is {partial_words(mark)}; nothing was written "
        "(import the whole record to play on)"
    )


def signer_words(head_signer: str | None, store_keys: list[str]) -> str:
    """Who signed a tournament's head, in plain words."""
    if head_signer is None:
        return "created in this store"
    if not head_signer:
        return "imported with an unsigned head (anyone could have re-hashed it)"
    if head_signer in store_keys:
        return f"imported with its head signed by this store's key ({fingerprint(head_signer)}…)"
    return f"imported with its head signed by another store's key ({fingerprint(head_signer)}…)"


def signer_kind(head_signer: str | None, store_keys: list[str]) -> str:
    """`this_store`, `another_store`, `unsigned` (or `created_here`), for JSON answers."""
    if head_signer is None:
        return "created_here"
    if not head_signer:
        return "unsigned"
    return "this_store" if head_signer in store_keys else "another_store"
