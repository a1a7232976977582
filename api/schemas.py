"""Request bodies and the documented shape of every response.

Requests are pydantic models (FastAPI validates them; a malformed body is a 422).
Responses are built from the engine's msgspec Structs and encoded by msgspec
(`api.responses.MsgspecJSON`); the pydantic models here only describe them for the
OpenAPI document, field for field, so the document matches the bytes sent.
Game-specific parts (an event's fields, a view's state) are open objects: their shape
belongs to each game.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from skald.core.store import MAX_SEQ as MAX_SEQ  # re-exported for the routes

# Each name's shape is checked here (a 422 `malformed`); the whole rule of core.seats
# (all digits, reserved, duplicates...) by the route, as the CLI does (422 `illegal_move`).
PlayerName = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[^\x00-\x1f\x7f-\x9f]+$")]
OptionText = Annotated[str, Field(max_length=200, pattern=r"^[^\x00-\x1f\x7f-\x9f]*$")]
# Strict: JSON `true` or `"5"` is not a seq.
Seq = Annotated[StrictInt, Field(ge=0, le=MAX_SEQ)]

TOKEN = "q4Zb1vZ2m0yCwJ8l9yq0U9kq9b3Zp1WnX8cTt5bVx0E"
SECRET_EXAMPLE: dict[str, Any] = {
    "audience": [1],
    "commitment": "9f2c…e41a",
    "value": None,
    "salt": None,
}
ENVELOPE_EXAMPLE: dict[str, Any] = {
    "stream": "3f9a1c2b7d4e5f60",
    "seq": 5,
    "recorded_at": "2025-01-01T12:00:00Z",
    "actor": "0",
    "event": {"type": "skald.move_made", "seat": 0, "move": "bet 2", "hidden_move": None},
    "prev_hash": "ab12…",
    "hash": "cd34…",
}

RECEIPT_EXAMPLE: dict[str, Any] = {
    "stream": "3f9a1c2b7d4e5f60",
    "seq": 5,
    "head": "cd34…",
    "public_key": "5b1e…",
    "signature": "77aa…",
}


class Example(BaseModel):
    """Base: examples live in the model's JSON schema."""

    model_config = ConfigDict(extra="forbid")


class NewGame(Example):
    """A game to create: the game's name, players in seat order, optional seed and options."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"game": "beowulf", "players": ["Ann", "Bob"]},
                {
                    "game": "beowulf",
                    "players": ["Ann", "Bob", "Cid"],
                    "seed": "club night 7",
                    "options": {"undo": "anyone"},
                },
                {
                    "game": "beowulf",
                    "players": ["Ann", "Bob"],
                    "seed": "table 4",
                    "reproducible": True,
                },
            ]
        },
    )

    game: str = Field(min_length=1, max_length=64, description="A known game's name.")
    players: list[PlayerName] = Field(
        min_length=1, max_length=16, description="Player names in seat order (seat 0 first)."
    )
    seed: OptionText | None = Field(
        None,
        description=(
            "Your own seed, mixed with the service's 256-bit key (the draws stay unpredictable, "
            "to you too); revealed after the game."
        ),
    )
    reproducible: bool = Field(
        False,
        description=(
            "Draw from the seed alone (and the deal), to replay a physical deal or reproduce a "
            "game; the game then says its seed was chosen and claims no fairness against you."
        ),
    )
    deal: OptionText | None = Field(
        None,
        description=(
            "With a seed: games with one seed and one deal name draw alike (a duplicate round); "
            "implies reproducible. Default: the game id, so no two games share draws."
        ),
    )
    options: dict[OptionText, OptionText] = Field(
        default_factory=dict,
        max_length=32,
        description="Table options: undo=author|anyone|off, reveal=end|referee, game options.",
    )


class SeatSigning(BaseModel):
    """A decision signed by the seat's own Ed25519 key (docs/howto/http.md, "Signing your
    decisions"): all lowercase hex."""

    model_config = ConfigDict(extra="forbid")

    digest: str = Field(
        pattern=r"^[0-9a-f]{128}$", description="sha512 of NONCE + newline + the move's text."
    )
    signature: str = Field(
        pattern=r"^[0-9a-f]{128}$", description="Ed25519 over the decision message."
    )
    nonce: str = Field(
        pattern=r"^[0-9a-f]{32,128}$", description="Fresh random hex, one per decision."
    )
    key: str = Field(
        "",
        pattern=r"^([0-9a-f]{64})?$",
        description="The seat's public key: on its first signed decision only (registers it).",
    )


class Authored(BaseModel):
    """Who made a decision and the seat's signature, beside any decision."""

    signed: SeatSigning | None = Field(
        None, description="The seat's own signature; required once the seat registered a key."
    )
    bot: str | None = Field(
        None,
        min_length=1,
        max_length=40,
        description="Sent by a bot the seat's player runs: its name. The record says the "
        "decision is that bot's (it may then be unsigned).",
    )


class MoveRequest(Example, Authored):
    """One decision in the game's notation, and the seq the caller last saw."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"move": "bet 2", "expected_seq": 4}]}
    )

    move: str = Field(min_length=1, max_length=500, description="The move, in notation.")
    expected_seq: Seq | None = Field(
        None, description="Fail with 409 unless the game is at this seq (recommended)."
    )


class TableAction(Example, Authored):
    """Undo or redo, guarded by the seq the caller last saw."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"expected_seq": 6}]})

    expected_seq: Seq | None = Field(
        None, description="Fail with 409 unless the game is at this seq."
    )


class SeatToken(BaseModel):
    """A seat's bearer token, shown once."""

    seat: int
    name: str
    token: str


class CreatedGame(BaseModel):
    """A new game and its tokens; the tokens are never shown again."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "3f9a1c2b7d4e5f60",
                    "game": "beowulf",
                    "seq": 4,
                    "seats": [
                        {"seat": 0, "name": "Ann", "token": TOKEN},
                        {"seat": 1, "name": "Bob", "token": TOKEN[::-1]},
                    ],
                    "referee_token": TOKEN.upper(),
                }
            ]
        }
    )

    id: str
    game: str
    seq: int
    seats: list[SeatToken]
    referee_token: str


class OutcomeOut(BaseModel):
    """How a game ended: ranking is groups of tied seats, best first."""

    termination: str
    ranking: list[list[int]]
    scores: list[int]
    tiebreaks: list[int]


class GameSummary(BaseModel):
    """What anyone may know about a game."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "3f9a1c2b7d4e5f60",
                    "game": "beowulf",
                    "players": ["Ann", "Bob"],
                    "seq": 7,
                    "created_at": "2025-01-01T12:00:00Z",
                    "to_act": [1],
                    "outcome": None,
                }
            ]
        }
    )

    id: str
    game: str
    players: list[str]
    seq: int | None = Field(description="The game's last seq; null when `sealed`.")
    created_at: datetime
    to_act: list[int]
    outcome: OutcomeOut | None
    partial: str = Field(
        "",
        description="For a partial copy (imported with --partial from a record cut short), "
        "that it is one, in plain words: nobody is to act and every move is refused.",
    )
    sealed: bool = Field(
        False,
        description="A table of a duplicate round not yet over, asked for by someone not at "
        "it: its seq, whose turn it is and its outcome are withheld (null, empty, null), "
        "since they would tell the round's other tables what was played from their deal.",
    )
    finished: bool | None = Field(
        None, description="When `sealed`: whether the game is over (otherwise null)."
    )


class GameListItem(BaseModel):
    """One line of the game list."""

    id: str
    game: str
    title: str = Field(description="The players, comma-separated.")
    seq: int | None = Field(description="The game's last seq; null when `sealed`.")
    created_at: datetime
    sealed: bool = Field(
        False,
        description="A table of a duplicate round not yet over: its seq is withheld (null).",
    )


class GamePage(BaseModel):
    """A page of games, newest first; `next_offset` is null on the last page."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "items": [
                        {
                            "id": "3f9a1c2b7d4e5f60",
                            "game": "beowulf",
                            "title": "Ann, Bob",
                            "seq": 7,
                            "created_at": "2025-01-01T12:00:00Z",
                        }
                    ],
                    "limit": 50,
                    "offset": 0,
                    "next_offset": None,
                }
            ]
        }
    )

    items: list[GameListItem]
    limit: int
    offset: int
    next_offset: int | None


class PossibleOut(BaseModel):
    """What could be true of everything the caller cannot see after `seq`: `possible` is
    the game's own structure (faces, piece names, counts), `text` the same in words."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "3f9a1c2b7d4e5f60",
                    "game": "toy",
                    "seq": 4,
                    "viewer": "Ann",
                    "possible": {
                        "game": "toy",
                        "viewer": "Ann",
                        "unseen": [1, 2, 3, 4, 5, 6, 8, 9],
                        "hands": [[1, 1]],
                        "deck": 7,
                    },
                    "text": "cards not seen: 1 2 3 4 5 6 8 9; Bob holds 1; deck 7",
                }
            ]
        }
    )

    id: str
    game: str
    seq: int
    viewer: str
    possible: dict[str, Any]
    text: str


class TableViewOut(BaseModel):
    """The game as the caller sees it after `seq`; `state` is the game's own view."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "3f9a1c2b7d4e5f60",
                    "game": "toy",
                    "seq": 4,
                    "viewer": "Ann",
                    "players": ["Ann", "Bob"],
                    "to_act": [0],
                    "outcome": None,
                    "state": {"hand": [7], "hand_sizes": [1, 1], "bets": [0, 0], "deck_size": 7},
                }
            ]
        }
    )

    id: str
    game: str
    seq: int
    viewer: str
    players: list[str]
    to_act: list[int]
    outcome: OutcomeOut | None
    state: Any
    partial: str = Field(
        "", description="For a partial copy, that it is one, in plain words (nobody acts)."
    )


class EnvelopeOut(BaseModel):
    """One logged event. Hidden values the caller may not see are replaced by
    `{"audience", "commitment", "value": null, "salt": null}`."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                ENVELOPE_EXAMPLE,
                {
                    **ENVELOPE_EXAMPLE,
                    "seq": 4,
                    "actor": "system",
                    "event": {"type": "toy.card_dealt", "seat": 1, "card": SECRET_EXAMPLE},
                },
            ]
        }
    )

    stream: str
    seq: int
    recorded_at: datetime
    actor: str = Field(description="The acting seat's index, or `system`.")
    event: dict[str, Any] = Field(description="The event; `type` is its stable tag.")
    prev_hash: str
    hash: str


class LogOut(BaseModel):
    """A range of the log as the caller sees it."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"id": "3f9a1c2b7d4e5f60", "viewer": "Ann", "events": [ENVELOPE_EXAMPLE]}]
        }
    )

    id: str
    viewer: str
    variation: str | None = Field(
        default=None, description="The variation read (`variation=v2`); absent for the game."
    )
    events: list[EnvelopeOut]


class TakeBackOut(BaseModel):
    """Whether the caller may undo (or redo) now; if not, the refusal it would get."""

    allowed: bool
    reason: str | None = None


class LegalOut(BaseModel):
    """The caller's legal moves now (empty when it is not the caller's turn), and whether it
    may undo or redo now (a page enables its buttons by these, and says why not)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "seat": 0,
                    "seq": 4,
                    "moves": ["bet 1", "bet 2", "draw"],
                    "undo": {"allowed": False, "reason": "nothing to undo: …"},
                    "redo": {"allowed": False, "reason": "nothing to redo: …"},
                }
            ]
        }
    )

    seat: int
    seq: int
    moves: list[str]
    undo: TakeBackOut
    redo: TakeBackOut
    head: str = Field("", description="The chain hash at `seq`: what a signed decision names.")
    keys: list[tuple[int, str]] = Field(
        default_factory=list, description="[seat, public key] of each seat that registered one."
    )


class ReceiptOut(BaseModel):
    """The service's Ed25519 signature on a chain head: keep it, and `skald verify ID
    --receipt FILE` later proves the stored log still extends what you were shown."""

    model_config = ConfigDict(json_schema_extra={"examples": [RECEIPT_EXAMPLE]})

    stream: str
    seq: int
    head: str
    public_key: str
    signature: str


class AppendedOut(BaseModel):
    """The events a move, undo or redo appended, as the caller sees them; `seq` is the new
    head, to send as the next `expected_seq`; `receipt` signs that head."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [{"seq": 5, "events": [ENVELOPE_EXAMPLE], "receipt": RECEIPT_EXAMPLE}]
        }
    )

    seq: int
    events: list[EnvelopeOut]
    receipt: ReceiptOut | None = Field(
        description="Null only when the move was recorded "
        "but could not be signed; then "
        "`receipt_error` says why."
    )
    receipt_error: str | None = None
    # What the seat needs next, so that a client makes one request per decision.
    to_act: list[int] | None = Field(
        default=None, description="The seats that may act now (empty once the game is over)."
    )
    outcome: OutcomeOut | None = Field(default=None, description="The outcome once over.")
    legal: list[str] | None = Field(
        default=None, description="The acting seat's legal moves now, in notation."
    )
    view: TableViewOut | None = Field(
        default=None, description="The game as the acting seat now sees it (as GET /view)."
    )
    head: str = Field(
        "", description="The chain hash at `seq`: what the next signed decision names."
    )
    keys: list[tuple[int, str]] = Field(
        default_factory=list, description="[seat, public key] of each seat that registered one."
    )


class ChainOut(BaseModel):
    """The stored chain checked: ok, or the first bad seq and why."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "stream": "3f9a1c2b7d4e5f60",
                    "checked": 42,
                    "ok": True,
                    "bad_seq": None,
                    "reason": "",
                    "head": "cd34…",
                }
            ]
        }
    )

    stream: str
    checked: int
    ok: bool
    bad_seq: int | None
    reason: str
    head: str
    partial: str = Field(
        "",
        description="For a partial copy (imported with --partial), that it is one, in plain "
        "words: the chain verified is the copy's, not the whole game's.",
    )


class AuditOut(BaseModel):
    """The audit report (`?format=json`): verdict, anomalies by seq, every check; its
    parts are documented by `skald audit --format json`."""

    model_config = ConfigDict(
        extra="allow",
        json_schema_extra={
            "examples": [
                {"id": "3f9a1c2b7d4e5f60", "game": "beowulf", "verdict": "clean", "anomalies": []}
            ]
        },
    )

    id: str
    game: str
    verdict: str
    anomalies: list[dict[str, Any]]


class ErrorOut(BaseModel):
    """Every error: a stable code, a readable message naming the input; `current_seq` on
    409; `detail` lists the fields of a malformed request."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "error": "version_conflict",
                    "current_seq": 7,
                    "message": "game 3f9a1c2b7d4e5f60 is at seq 7, not 5; reload and try again",
                },
                {"error": "illegal_move", "message": "bet 9: bets are 1 to 5"},
            ]
        }
    )

    error: str = Field(
        description="invalid_notation, illegal_move, malformed, "
        "version_conflict, not_found, forbidden, unauthorized, "
        "store_unavailable or internal"
    )
    message: str
    current_seq: int | None = None
    detail: list[dict[str, Any]] | None = None


class HealthOut(BaseModel):
    """The process answers."""

    ok: bool


class KeyOut(BaseModel):
    """The store's signing key (receipts, exports' heads and pages' seals)."""

    public_key: str = Field(description="The Ed25519 public key, 64 hex digits.")
    fingerprint: str = Field(
        description="SHA-256 of the key: 8 bytes as four groups of hex, the next 4 as words "
        "(`1a4c 09f3 77be c2d0 otter lamp violin acorn`), to compare aloud."
    )
