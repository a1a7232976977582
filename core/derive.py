"""One decision being derived: the events emitted so far, and the state they lead to.

Every game's `decide` (and `start`) builds its events through a `Derivation`: each emitted
event is folded into `state` at once by the game's own reducer, so later steps of the same
decision see its consequences (a reveal before the attack, a plunder before the turn ends,
the last tile placed before the act is scored). Chance goes through the `Rng` under stable
labels: a game passes each label explicitly, or gives a `Labels` function that names the
n-th unnamed label of a kind from the state (for example from a counter in state that undo
never rolls back). The engine scopes every salt to the decision's log seq (`core.rng`), so
a game never has to make salts unique across decisions itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Generic, TypeVar

from skald.core.rng import Rng
from skald.events.base import Event
from skald.events.secret import Secret, seal

S = TypeVar("S")
T = TypeVar("T")

Labels = Callable[[S, str, int], str]
"""Names the `n`-th (from 1) unnamed chance label of `kind` in a decision, given the state."""


class Derivation(Generic[S]):
    """The events of one decision and the state after them."""

    def __init__(
        self, state: S, rng: Rng, evolve: Callable[[S, Event], S], labels: Labels[S] | None = None
    ) -> None:
        self.state = state
        self.rng = rng
        self.events: list[Event] = []
        self._evolve = evolve
        self._labels = labels
        self._numbered = 0

    def emit(self, *events: Event) -> None:
        """Record events and fold each into the state."""
        for event in events:
            self.events.append(event)
            self.state = self._evolve(self.state, event)

    def result(self) -> tuple[Event, ...]:
        """Everything emitted, in order."""
        return tuple(self.events)

    def label(self, kind: str) -> str:
        """The next label of `kind` from the game's `Labels` (each call counts one)."""
        if self._labels is None:
            raise TypeError("this derivation names every chance label explicitly")
        self._numbered += 1
        return self._labels(self.state, kind, self._numbered)

    def seal(self, value: T, audience: Iterable[int], label: str | None = None) -> Secret[T]:
        """`value` as a Secret for `audience`, salted under `label` (default: the next
        `salt` label)."""
        salt = self.rng.salt(label if label is not None else self.label("salt"))
        return seal(value, frozenset(audience), salt)

    def draw(self, n: int, label: str | None = None) -> int:
        """A uniform integer in [0, n) under `label` (default: the next `draw` label)."""
        return self.rng.draw(label if label is not None else self.label("draw"), n)

    def shuffle(self, items: Sequence[T], label: str | None = None) -> tuple[T, ...]:
        """A uniform permutation of `items` under `label` (default: the next `shuffle`
        label)."""
        return self.rng.shuffle(label if label is not None else self.label("shuffle"), items)
