"""Tournament request bodies and the documented shape of every tournament response.

As in `api.schemas`: requests are pydantic models (unknown fields refused; a malformed
body is a 422); responses are encoded by msgspec, and the `*Out` models here only describe
them for the OpenAPI document.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from skald.api.schemas import OptionText, PlayerName
from skald.core.tournament.registration import MAX_ROUNDS
from skald.events.tournament import TIEBREAKS

GameName = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[^\x00-\x1f\x7f-\x9f]+$")]
Reason = Annotated[str, Field(min_length=1, max_length=2000)]


# -- requests ---------------------------------------------------------------------------------


class Body(BaseModel):
    """Base of the request bodies: unknown fields are refused."""

    model_config = ConfigDict(extra="forbid")


TiebreakName = Literal["game", "score", "share", "opponents", "h2h"]


def _all_tiebreaks() -> list[TiebreakName]:
    return ["game", "score", "share", "opponents", "h2h"]


class NewTournament(Body):
    """A tournament to create (the CLI's `tournament new`)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "game": "beowulf",
                    "players": ["Ann", "Bob", "Cid", "Dag", "Eir"],
                    "rounds": 3,
                    "table_size": 3,
                }
            ]
        },
    )
    game: GameName = Field(description="A known game's name.")
    players: list[PlayerName] = Field(min_length=1, max_length=512)
    rounds: int = Field(ge=1, le=MAX_ROUNDS)
    format: Literal["swiss", "round-robin", "duplicate"] = "swiss"
    table_size: int | None = Field(None, ge=1, le=16, description="Default 4 (within the game).")
    seed: OptionText | None = Field(None, description="Orders pairings; never fixes a deal.")
    options: dict[OptionText, OptionText] = Field(default_factory=dict, max_length=32)
    points: list[int] = Field([6, 4, 2, 0], min_length=2, max_length=16)
    bye_points: int | None = Field(None, ge=0, le=1000, description="Default: mean of points.")
    tiebreaks: list[TiebreakName] = Field(default_factory=_all_tiebreaks, max_length=len(TIEBREAKS))
    final_table: int = Field(0, ge=0, le=16, description="Seats at a final table (0: none).")
    name: OptionText | None = None


class ImportIn(Body):
    """A `tournament export --format jsonl` to store (checked first)."""

    jsonl: str = Field(min_length=1, max_length=1_000_000)


class PlayerIn(Body):
    """A late player to register."""

    player: PlayerName


class WithdrawIn(Body):
    """A player to withdraw, and why."""

    player: PlayerName
    reason: str = Field("", max_length=2000)


class AutoplayIn(Body):
    """Bots for every seat of the round's open games."""

    bots: Literal["random", "greedy"] = "random"
    bot_seed: int = Field(0, ge=0, le=2**31)
    take_seats: bool = False
    """The organiser agrees that bots take seats people have played in (else 409
    needs_confirmation names them and nothing is played)."""


class DisputeIn(Body):
    """The caller (a player seated there) disputes a game's recorded result."""

    game: GameName
    reason: Reason


class SettleIn(Body):
    """The organiser's ruling: the result stands, is adjusted (to `ranking`: groups of
    player names, best first) or the table replays."""

    ruling: Literal["stands", "adjusted", "replayed"]
    reason: Reason
    ranking: list[list[PlayerName]] | None = Field(None, max_length=16)


# -- documented responses ---------------------------------------------------------------------


class Out(BaseModel):
    """Base of the documented responses."""


class TokenOut(Out):
    """A player's token of the tournament, shown once."""

    seat: int
    name: str
    token: str


class HeadSignerOut(Out):
    """Who signed a tournament's head."""

    kind: Literal["created_here", "this_store", "another_store", "unsigned"]
    key: str = Field(description="The public key of an imported signed head (else empty).")
    words: str = Field(description="The same in plain words.")


class CreatedOut(Out):
    """A new tournament: the organiser's token and each player's, shown once (an imported
    one: also who signed its head)."""

    id: str
    name: str
    game: str
    organiser_token: str
    players: list[TokenOut]
    head_signer: HeadSignerOut | None = None


class TournamentItem(Out):
    """One tournament of a listing."""

    id: str
    name: str
    seq: int
    created_at: datetime


class TournamentPage(Out):
    """A page of tournaments, newest first."""

    items: list[TournamentItem]
    limit: int
    offset: int
    next_offset: int | None


class TableOut(Out):
    """One table of a round as anyone may know it."""

    table: int
    game: str
    seats: list[str]
    status: str
    outcome: dict[str, Any] | None
    verdict: str
    disputed_by: str | None
    replaced: list[str]


class RoundOut(Out):
    """One paired round."""

    round: int
    tables: list[TableOut]
    byes: list[str]
    duplicate: bool
    final: bool
    complete: bool


class SummaryOut(Out):
    """What anyone may know about a tournament."""

    id: str
    name: str
    game: str
    format: str
    rounds: int
    table_size: int
    points: list[int]
    bye_points: int
    tiebreaks: list[str]
    final_table: int
    options: dict[str, str]
    players: list[str]
    withdrawn: list[str]
    seq: int
    paired: list[RoundOut]


class PairedTableOut(Out):
    """A new table: its game and the players in seat order (no referee token: see
    `api.tournament_access`)."""

    table: int
    game: str
    seats: list[str]


class PairedOut(Out):
    """The round just paired."""

    round: int
    tables: list[PairedTableOut]
    byes: list[str]
    duplicate: bool
    final: bool


class MyTableOut(Out):
    """The caller's table in the latest round and a fresh seat token of its game."""

    round: int
    table: int
    game: str
    seat: int
    token: str


class PlayedOut(Out):
    """One game the bots played."""

    round: int
    table: int
    game: str
    events: int
    outcome: dict[str, Any] | None


class AutoplayOut(Out):
    """The games the bots played."""

    games: list[PlayedOut]


class WaitingOut(Out):
    """A duplicate round's finished table whose result waits for the round's other tables."""

    round: int
    table: int
    game: str
    playing: list[int]
    message: str


class ResultsOut(Out):
    """The results and verdicts taken in, and the finished tables still waiting."""

    events: list[dict[str, Any]]
    waiting: list[WaitingOut]


class EventOut(Out):
    """One event appended to the tournament's stream."""

    event: dict[str, Any]


class SettledOut(Out):
    """The ruling (a replay's new game is in `event.replay`; its seats ask
    `POST .../tables/mine` for their tokens)."""

    event: dict[str, Any]


class StandingsOut(Out):
    """`{"round", "standings": [{"rank","player","points","tiebreaks","games","rating",
    "byes","withdrawn"}]}`, and `duplicate` seat comparisons for duplicate rounds, with
    `apart` the tables left out of them (`{"round","table","game","deal","players","why"}`:
    a replay a ruling ordered plays a fresh deal no other table played)."""

    round: int
    standings: list[dict[str, Any]]
    duplicate: list[dict[str, Any]] = []
    apart: list[dict[str, Any]] = []


class VerifyOut(Out):
    """The tournament stream's chain check."""

    ok: bool
    checked: int
    head: str
    bad_seq: int | None
    reason: str | None
    head_signer: HeadSignerOut | None = None


class MeOut(Out):
    """Who the presented token is in this tournament."""

    tournament: str
    role: Literal["organiser", "player", "spectator"]
    player: str | None
