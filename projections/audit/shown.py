"""When the others learned a hidden value: the first later event that shows it in the clear
to everyone (a Beowulf tile played from a hand, a Beast card played face up), read from the
log as a spectator sees it, so a value counts as shown only where the table saw it.

Only values named by text (tile ids, card names) are followed: a number (a Hägar loot id)
cannot be told apart from a count in another event, so those are left out rather than
guessed.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from typing import Any

import msgspec

from skald.events.envelope import Envelope
from skald.events.secret import redact
from skald.events.viewer import SPECTATOR

SEALED_KEYS = ("commitment", "audience", "salt")


def _texts(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in SEALED_KEYS:
                yield from _texts(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _texts(item)


class Shown:
    """Where each text value first appears in the clear, by seq."""

    def __init__(self, envelopes: Sequence[Envelope[Any]]) -> None:
        self._seqs: dict[str, list[int]] = {}
        for envelope in envelopes:
            public = msgspec.to_builtins(redact(envelope.event, SPECTATOR))
            for text in set(_texts(public)):
                self._seqs.setdefault(text, []).append(envelope.seq)

    def after(self, text: str, seq: int) -> int | None:
        """The first seq after `seq` that shows `text` to everyone, or None."""
        seqs = self._seqs.get(text, [])
        index = bisect.bisect_right(seqs, seq)
        return seqs[index] if index < len(seqs) else None


def parts(value: Any) -> list[str]:
    """The text values a hidden value is made of (a tile id, the tiles of a hand)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | tuple) and all(isinstance(item, str) for item in value):
        return list(value)
    return []
