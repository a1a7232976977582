"""Meta-events every game shares: creation, each decision's marker, undo/redo, the end.

A decision is one `MoveMade` followed by the events the rules derived from it; undo and
redo are events too, never deletions, so the log keeps everything for the audit.
"""

from __future__ import annotations

import msgspec

from skald.events.base import Event
from skald.events.secret import Secret


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


class GameKey(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The secret behind a game's chance and commitments (secrecy scheme 2).

    `key` is 256 bits the service drew; it keys every salt and, mixed with the creator's
    `seed` if one was given, every draw. Only a `reproducible` game draws from the seed
    alone (with the `deal` name, the game id unless games were asked to share a deal), so
    a physical deal can be replayed and a duplicate round can deal every table alike,
    while salts stay unique per game.
    """

    key: str
    seed: str | None = None
    deal: str | None = None
    reproducible: bool = False


class GameCreated(Event, frozen=True, tag="skald.game_created"):
    """A game was set up; its key is committed here and revealed after the game.

    Scheme 1 (games created before secrecy scheme 2) committed the seed itself in `seed`;
    scheme 2 commits a `GameKey` in `key` and says in `seed_chosen` whether the draws were
    fixed by a seed the creator chose (then no fairness against the creator is claimed).
    """

    barrier = True
    game: str
    players: tuple[str, ...]
    seed: Secret[str] | None = None
    options: tuple[tuple[str, str], ...] = ()
    rules_version: str = "1"
    scheme: int = 1
    key: Secret[GameKey] | None = None
    seed_chosen: bool = False


class Author(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """Who made a decision for its seat. `player`: the seat's own player (the default, and
    what a decision with no author recorded means); `bot`: a bot (`name`, its level) that
    `started_by` set in the seat (`the organiser`, or the seat's player); `organiser`: the
    tournament's organiser acting for the seat. Things the rules do (a shuffle, the next
    turn) are the game's and carry no author: their envelope's actor is `system`."""

    kind: str = "player"
    name: str = ""
    started_by: str = ""


class SeatSigned(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A decision signed by its seat's own Ed25519 key (core/identity.py says the message).

    `digest` is sha512 of the nonce and the decision's text, so the signature names the
    move without showing it: the nonce of a hidden move is sealed like the move
    (`sealed_nonce`), of a public one it is public (`nonce`). `key` is set on the seat's
    first signed decision, which registers that key for the seat (signed by itself)."""

    digest: str
    signature: str
    nonce: str = ""
    sealed_nonce: Secret[str] | None = None
    key: str = ""


class MoveMade(Event, frozen=True, tag="skald.move_made"):
    """A seat made a decision; `move` is its notation, hidden in `hidden_move` when secret."""

    seat: int
    move: str | None = None
    hidden_move: Secret[str] | None = None
    by: Author | None = None
    signed: SeatSigned | None = None


class EntropyCommitted(Event, frozen=True, tag="skald.entropy_committed"):
    """A seat committed to its entropy (sha256 of the text) before anyone revealed any."""

    seat: int
    commitment: str
    by: Author | None = None
    signed: SeatSigned | None = None


class EntropyAdded(Event, frozen=True, tag="skald.entropy_added"):
    """A seat revealed its entropy (scheme 2: once every seat had committed); it is mixed
    into the draws before the first one."""

    barrier = True
    seat: int
    entropy: str
    by: Author | None = None
    signed: SeatSigned | None = None


class DecisionUndone(Event, frozen=True, tag="skald.decision_undone"):
    """`seat` took back the last decision (made by `author`)."""

    seat: int
    author: int
    by: Author | None = None
    signed: SeatSigned | None = None


class DecisionRedone(Event, frozen=True, tag="skald.decision_redone"):
    """`seat` re-applied the decision it had undone."""

    seat: int
    by: Author | None = None
    signed: SeatSigned | None = None


class GameFinished(Event, frozen=True, tag="skald.game_finished"):
    """The game reached its end; nothing can be undone past this."""

    barrier = True
    outcome: Outcome


CommonEvent = (
    GameCreated
    | EntropyCommitted
    | EntropyAdded
    | MoveMade
    | DecisionUndone
    | DecisionRedone
    | GameFinished
)
