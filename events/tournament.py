"""The events of a tournament stream: its set-up, players, rounds, results and disputes.

A tournament is a stream of its own (store kind `tournament`), hash-chained like a game.
It holds no secret: every game's deal stays inside that game's own key, so the whole
stream can be exported and checked by anyone. Results copy the game's outcome and say how
the game was checked (its chain, and once revealed its audit verdict), so standings and
ratings are recomputed from this stream alone.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from skald.events.base import Event
from skald.events.common import Outcome

Format = Literal["swiss", "round-robin", "duplicate"]
Ruling = Literal["stands", "adjusted", "replayed"]
FORMATS: tuple[str, ...] = ("swiss", "round-robin", "duplicate")
RULINGS: tuple[str, ...] = ("stands", "adjusted", "replayed")
TIEBREAKS: tuple[str, ...] = ("game", "score", "share", "opponents", "h2h")
"""Tie-break names: the game's own tie-break (`Outcome.tiebreaks`), score, share of the
table's total score, opponents' points (Buchholz-like), head to head."""


class SeatedTable(msgspec.Struct, frozen=True, kw_only=True):
    """One table of a round: its number, the game played there, the players in seat order."""

    table: int
    game: str
    seats: tuple[str, ...]


class TournamentCreated(Event, frozen=True, tag="tournament.created"):
    """A tournament was set up: the game, the format and how results are scored."""

    name: str
    game: str
    format: Format
    rounds: int
    table_size: int
    players: tuple[str, ...]
    options: tuple[tuple[str, str], ...] = ()
    points: tuple[int, ...] = (6, 4, 2, 0)
    bye_points: int = 3
    tiebreaks: tuple[str, ...] = TIEBREAKS
    final_table: int = 0
    seed: str | None = None


class PlayerRegistered(Event, frozen=True, tag="tournament.player_registered"):
    """A player joined (paired from the next round on)."""

    player: str


class PlayerWithdrawn(Event, frozen=True, tag="tournament.player_withdrawn"):
    """A player left: not paired any more; past results stay."""

    player: str
    reason: str = ""


class RoundPaired(Event, frozen=True, tag="tournament.round_paired"):
    """A round's tables, each linked to its game, and the players who sit out with a bye.

    `deal` names the shared deal of a duplicate round (its seed lives only in the games'
    keys); `final` marks the final table for the top of the standings.
    """

    round: int
    tables: tuple[SeatedTable, ...]
    byes: tuple[str, ...] = ()
    deal: str | None = None
    final: bool = False


class ResultRecorded(Event, frozen=True, tag="tournament.result_recorded"):
    """A finished game's outcome taken in, with how it was checked.

    `chain` is "ok" or the reason its chain failed; `head` the game's last hash; `verdict`
    the audit's (`clean`, `anomalies`, `unverifiable`), or "" while the game is not revealed.
    A result whose chain failed or whose audit found anomalies is held: it counts only once
    the referee rules on it.
    """

    round: int
    table: int
    game: str
    outcome: Outcome
    chain: str
    head: str
    verdict: str = ""


class AuditAttached(Event, frozen=True, tag="tournament.audit_attached"):
    """A game's audit verdict, attached once the game was revealed (a duplicate round:
    once all its tables finished)."""

    round: int
    table: int
    game: str
    verdict: str


class DisputeOpened(Event, frozen=True, tag="tournament.dispute_opened"):
    """A player seated at the table disputes its result."""

    round: int
    table: int
    game: str
    player: str
    reason: str


class DisputeSettled(Event, frozen=True, tag="tournament.dispute_settled"):
    """The referee ruled: the result stands, is adjusted to `outcome`, or the table replays
    in the new game `replay`.

    `deal` names the fresh deal a replay of a duplicate round plays (its seed lives only in
    the replay's key, as a round's does): never the round's deal, which its seats have
    played. None elsewhere, and in streams recorded before replays had a deal of their own
    (those replays dealt the round's deal again)."""

    round: int
    table: int
    game: str
    ruling: Ruling
    reason: str
    outcome: Outcome | None = None
    replay: str | None = None
    deal: str | None = None


TournamentEvent = (
    TournamentCreated
    | PlayerRegistered
    | PlayerWithdrawn
    | RoundPaired
    | ResultRecorded
    | AuditAttached
    | DisputeOpened
    | DisputeSettled
)
