"""All chance and every salt, derived from the game's secret key.

Every draw is keyed by a stable label (`"act1/pile"`, `"roll/17"`): the byte stream for a
label is `HMAC-SHA256(draw_root, label || "#" || block)`. Integers come from it by
rejection sampling (no modulo bias); shuffles are Fisher–Yates over those integers. The
counters that make draw labels unique live in game state, so undo never changes luck (draws
are undo barriers anyway), and an auditor with the revealed key recomputes every outcome.

Salts come from a second root and are scoped by the log seq of the decision that seals
them (`HMAC-SHA256(salt_root, "salt/" || scope || "/" || label)`). The log is append-only
and undo is an event, so a seq never repeats: an undone hidden step that is replayed, or a
different step taken at the same game counter, gets a fresh salt, and no salt ever seals
two different values. `core/secrecy.py` says where the two roots come from.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")


def _blocks(seed: bytes, label: str) -> Iterator[bytes]:
    block = 0
    while True:
        yield hmac.new(seed, f"{label}#{block}".encode(), hashlib.sha256).digest()
        block += 1


class _Stream:
    """Unbiased integers from one label's byte stream."""

    def __init__(self, seed: bytes, label: str) -> None:
        self._blocks = _blocks(seed, label)
        self._buffer = b""

    def _take(self, size: int) -> int:
        while len(self._buffer) < size:
            self._buffer += next(self._blocks)
        chunk, self._buffer = self._buffer[:size], self._buffer[size:]
        return int.from_bytes(chunk, "big")

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError(f"cannot draw below {n}")
        space = 1 << 64
        limit = space - space % n
        while True:
            candidate = self._take(8)
            if candidate < limit:
                return candidate % n


def draw(seed: bytes, label: str, n: int) -> int:
    """A uniform integer in [0, n) for `label`."""
    return _Stream(seed, label).below(n)


def shuffle(seed: bytes, label: str, items: Sequence[T]) -> tuple[T, ...]:
    """A Fisher–Yates permutation of `items` for `label`."""
    stream = _Stream(seed, label)
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        j = stream.below(i + 1)
        result[i], result[j] = result[j], result[i]
    return tuple(result)


def salt(root: bytes, label: str) -> str:
    """A 16-byte (128-bit) hex salt for the commitment labelled `label`."""
    return hmac.new(root, f"salt/{label}".encode(), hashlib.sha256).hexdigest()[:32]


class Rng:
    """The chance source handed to `start` and `decide`: draws, shuffles and salts.

    `draws` keys every random outcome; `salts` keys commitments and `scope` (the seq of the
    decision being derived) makes every salt label unique in the log. Without `salts` the
    draw root keys the salts too and labels are unscoped: the scheme of games created
    before secrecy scheme 2 (and of unit tests that only need some chance).
    """

    def __init__(self, draws: bytes, salts: bytes | None = None, scope: int | None = None) -> None:
        self.seed = draws
        self._salts = salts if salts is not None else draws
        self._scope = scope

    def draw(self, label: str, n: int) -> int:
        """A uniform integer in [0, n)."""
        return draw(self.seed, label, n)

    def shuffle(self, label: str, items: Sequence[T]) -> tuple[T, ...]:
        """A uniform permutation of `items`."""
        return shuffle(self.seed, label, items)

    def salt(self, label: str) -> str:
        """The salt for one commitment, never reused for another value in this game."""
        scoped = label if self._scope is None else f"{self._scope}/{label}"
        return salt(self._salts, scoped)
