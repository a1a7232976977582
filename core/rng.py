"""All chance, derived from the secret per-game seed.

Every draw is keyed by a stable label (`"act1/pile"`, `"roll/17"`): the byte stream for a
label is `HMAC-SHA256(seed, label || "#" || block)`. Integers come from it by rejection
sampling (no modulo bias); shuffles are Fisher–Yates over those integers. The counters
that make labels unique live in game state, so undo never changes luck, and an auditor
with the revealed seed recomputes every outcome from its label alone.
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


def salt(seed: bytes, label: str) -> str:
    """A 16-byte hex salt for the commitment labelled `label`; secret while the seed is."""
    return hmac.new(seed, f"salt/{label}".encode(), hashlib.sha256).hexdigest()[:32]


class Rng:
    """The game's chance source handed to `decide`: seed plus the functions above."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed

    def draw(self, label: str, n: int) -> int:
        """A uniform integer in [0, n)."""
        return draw(self.seed, label, n)

    def shuffle(self, label: str, items: Sequence[T]) -> tuple[T, ...]:
        """A uniform permutation of `items`."""
        return shuffle(self.seed, label, items)

    def salt(self, label: str) -> str:
        """The salt for one commitment."""
        return salt(self.seed, label)
