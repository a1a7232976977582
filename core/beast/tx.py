"""A decision in progress: events emitted so far and the state they lead to.

`decide` builds its events through a `Tx`: every emitted event is folded at once, so
later steps of the same decision see its consequences (a reveal before the attack, a
trap before the damage). Salts and draws are labelled by the nonce the decision started
at plus a counter, so labels never repeat and undo never changes luck.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from core.beast.evolve import evolve
from core.beast.state import BeastState
from core.rng import Rng
from events.secret import Secret, seal

T = TypeVar("T")


class Tx:
    """Events of one decision and the state after them."""

    def __init__(self, state: BeastState, rng: Rng) -> None:
        self.state = state
        self.rng = rng
        self.events: list[Any] = []
        self._start = state.nonce
        self._counter = 0

    def emit(self, *events: Any) -> None:
        """Record events and fold them into the state."""
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)

    def _label(self, kind: str) -> str:
        self._counter += 1
        return f"beast/{kind}/{self._start}/{self._counter}"

    def seal(self, value: T, audience: frozenset[int]) -> Secret[T]:
        """A fresh Secret for `audience`."""
        return seal(value, audience, self.rng.salt(self._label("salt")))

    def draw(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        return self.rng.draw(self._label("draw"), n)

    def shuffle(self, items: Sequence[T]) -> tuple[T, ...]:
        """A uniform permutation."""
        return self.rng.shuffle(self._label("shuffle"), items)

    def shuffle_as(self, label: str, items: Sequence[T]) -> tuple[T, ...]:
        """A uniform permutation under a label the caller derives from a counter in state."""
        return self.rng.shuffle(label, items)

    @property
    def over(self) -> bool:
        """True once the game has a winner."""
        return bool(self.state.winner)
