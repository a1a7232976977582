"""Meta-events every game shares: creation, each decision's marker, undo/redo, the end.

A decision is one `MoveMade` followed by the events the rules derived from it; undo and
redo are events too, never deletions, so the log keeps everything for the audit.
"""

from __future__ import annotations

import msgspec

from events.base import Event
from events.secret import Secret


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    """How a game ended: reason, ranking (groups of tied seats, best first), scores, tiebreaks."""

    termination: str
    ranking: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    tiebreaks: tuple[int, ...] = ()

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats sharing first place."""
        return self.ranking[0] if self.ranking else ()


class GameCreated(Event, frozen=True, tag="skald.game_created"):
    """A game was set up; the seed is committed here and revealed after the game."""

    barrier = True
    game: str
    players: tuple[str, ...]
    seed: Secret[str]
    options: tuple[tuple[str, str], ...] = ()
    rules_version: str = "1"


class MoveMade(Event, frozen=True, tag="skald.move_made"):
    """A seat made a decision; `move` is its notation, hidden in `hidden_move` when secret."""

    seat: int
    move: str | None = None
    hidden_move: Secret[str] | None = None


class EntropyAdded(Event, frozen=True, tag="skald.entropy_added"):
    """A seat mixed its own entropy into the game's seed after seeing the seed commitment."""

    barrier = True
    seat: int
    entropy: str


class DecisionUndone(Event, frozen=True, tag="skald.decision_undone"):
    """`seat` took back the last decision (made by `author`)."""

    seat: int
    author: int


class DecisionRedone(Event, frozen=True, tag="skald.decision_redone"):
    """`seat` re-applied the decision it had undone."""

    seat: int


class GameFinished(Event, frozen=True, tag="skald.game_finished"):
    """The game reached its end; nothing can be undone past this."""

    barrier = True
    outcome: Outcome


CommonEvent = (
    GameCreated | EntropyAdded | MoveMade | DecisionUndone | DecisionRedone | GameFinished
)
