"""`Memo`: answers a process keeps because they never change (a game's kind, who a token
is, a seat's legal moves at one state), bounded by clearing it when full: a rare refill
from the source costs less than tracking which entries are used."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(Generic[K, V]):
    """At most `size` answers by key, shared by threads."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._answers: dict[K, V] = {}
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The answer kept for `key`, or None."""
        return self._answers.get(key)

    def put(self, key: K, value: V) -> None:
        """Keep an answer (emptying the memo first when it is full)."""
        with self._lock:
            if len(self._answers) >= self._size:
                self._answers.clear()
            self._answers[key] = value

    def fetch(self, key: K, compute: Callable[[], V]) -> V:
        """The answer for `key`, computed and kept on a miss."""
        value = self._answers.get(key)
        if value is None:
            value = compute()
            self.put(key, value)
        return value
