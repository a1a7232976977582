"""Tournaments over HTTP: everything `skald tournament` does, with the tournament's tokens.

Who may do what (a token is `Authorization: Bearer TOKEN`, or `?token=`):
- `POST /tournaments` answers, once, the organiser's token and each player's (seat N is
  the N-th player of the list; a late player's token comes with its registration). The
  organiser's token is the tournament's referee token.
- Reading (summary, standings, export, verify) is public: the stream holds no secret.
- Pairing, autoplay, registering, withdrawing and settling disputes need the organiser's
  token; taking results in, the organiser's or a player's; opening a dispute, the token
  of a player seated at that game (the player is the token's, never a name in the body).
- A token that is not one of this tournament's is a 401 on every route (as on a game's);
  a valid token that may not do this is a 403.

The games a round creates keep tokens of their own. `POST .../pair` answers the
organiser each new game's referee token (not in a duplicate round: its deal stays sealed
from every token until the round is over; the desk attaches the audits itself). A seated
player asks `POST .../tables/mine` with its tournament token for a seat token of the game
at its table in the latest round: a fresh token each call (tokens are kept as hashes, so
none is shown twice; the earlier ones stay valid), which acts only for that seat.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec
from fastapi import APIRouter, Depends, Path, Query, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from skald.api.deps import Services, ServicesDep, presented_token
from skald.api.offload import offload
from skald.api.responses import MsgspecJSON, errors, page
from skald.api.schemas import OptionText, PlayerName
from skald.core.errors import Forbidden, InvalidOption, Unauthorized
from skald.core.seats import check_game_id
from skald.core.tournament.access import issue_one
from skald.core.tournament.desk import MAX_ROUNDS, Tournaments
from skald.events.tournament import RULINGS, TIEBREAKS
from skald.projections.autoplay import BOTS, bot_named
from skald.projections.standings import (
    export_csv,
    export_html,
    export_jsonl,
    export_md,
    play_round,
    standings,
    summary,
)

router = APIRouter(prefix="/tournaments", tags=["tournaments"])

TournamentId = Annotated[
    str,
    Path(
        min_length=1,
        max_length=64,
        pattern=r"^[^\x00-\x1f\x7f-\x9f]+$",
        description="The tournament id.",
        examples=["9c1f2a7b3d4e5f60"],
    ),
]
GameName = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[^\x00-\x1f\x7f-\x9f]+$")]
Reason = Annotated[str, Field(min_length=1, max_length=2000)]
MEDIA = {"jsonl": "application/jsonl", "csv": "text/csv", "md": "text/markdown"}
PUBLIC: dict[str, Any] = {"security": [{}]}  # a token is optional on public reads


# -- who is calling -------------------------------------------------------------------------


class TournamentCaller(msgspec.Struct, frozen=True):
    """Who calls about one tournament: its organiser, one of its players, or anyone."""

    tournament: str
    organiser: bool = False
    player: str | None = None


def _desk(services: Services) -> Tournaments:
    desk = services.tournaments
    assert desk is not None, "create_app sets the tournaments service"
    return desk


def identify(services: Services, tournament: str, request: Request) -> TournamentCaller:
    """The caller from its token: NotFound first for an unknown tournament, 401 for a
    token that is not one of its own."""
    check_game_id(tournament)
    state = _desk(services).state(tournament)
    token = presented_token(request)
    if token is None:
        return TournamentCaller(tournament)
    grant = services.tokens.grant(tournament, token)
    if grant is None:
        raise Unauthorized(f"that token is not one of tournament {tournament}")
    if grant.seat is None:
        return TournamentCaller(tournament, organiser=True)
    return TournamentCaller(tournament, player=state.players[grant.seat])


async def get_caller(
    services: ServicesDep, tournament_id: TournamentId, request: Request
) -> TournamentCaller:
    """Anyone (a presented token must be this tournament's)."""
    return await offload(identify, services, tournament_id, request)


CallerDep = Annotated[TournamentCaller, Depends(get_caller)]


async def get_organiser(caller: CallerDep) -> TournamentCaller:
    """The organiser: 401 without a token, 403 with a player's."""
    if caller.organiser:
        return caller
    if caller.player is not None:
        raise Forbidden("this needs the organiser's token, not a player's")
    raise Unauthorized("this needs the organiser's token: Authorization: Bearer TOKEN")


async def get_member(caller: CallerDep) -> TournamentCaller:
    """The organiser or a player: 401 without a token."""
    if caller.organiser or caller.player is not None:
        return caller
    raise Unauthorized("this needs the organiser's or a player's token")


async def get_player(caller: CallerDep) -> TournamentCaller:
    """A player: 401 without a token, 403 with the organiser's."""
    if caller.player is not None:
        return caller
    if caller.organiser:
        raise Forbidden("this needs a player's token; the organiser's does not act for one")
    raise Unauthorized("this needs a player's token: Authorization: Bearer TOKEN")


OrganiserDep = Annotated[TournamentCaller, Depends(get_organiser)]
MemberDep = Annotated[TournamentCaller, Depends(get_member)]
PlayerDep = Annotated[TournamentCaller, Depends(get_player)]


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


class CreatedOut(Out):
    """A new tournament: the organiser's token and each player's, shown once."""

    id: str
    name: str
    game: str
    organiser_token: str
    players: list[TokenOut]


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
    """A new table: its game, the players in seat order, and (organiser only) the game's
    referee token, null in a duplicate round."""

    table: int
    game: str
    seats: list[str]
    referee_token: str | None


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


class EventsOut(Out):
    """Events appended to the tournament's stream (each with its `type`)."""

    events: list[dict[str, Any]]


class EventOut(Out):
    """One event appended to the tournament's stream."""

    event: dict[str, Any]


class SettledOut(Out):
    """The ruling, and for a replay (not in a duplicate round) the new game's referee
    token, for the organiser."""

    event: dict[str, Any]
    referee_token: str | None


class StandingsOut(Out):
    """`{"round", "standings": [{"rank","player","points","tiebreaks","games","rating",
    "byes","withdrawn"}]}`, and `duplicate` seat comparisons for duplicate rounds."""

    round: int
    standings: list[dict[str, Any]]
    duplicate: list[dict[str, Any]] = []


class VerifyOut(Out):
    """The tournament stream's chain check."""

    ok: bool
    checked: int
    head: str
    bad_seq: int | None
    reason: str | None


# -- routes -----------------------------------------------------------------------------------


@router.post("", status_code=201, response_model=CreatedOut, responses=errors(401, 404, 409, 422))
async def create_tournament(body: NewTournament, services: ServicesDep) -> MsgspecJSON:
    """Create a tournament (the games are created as rounds are paired). The answer holds
    the organiser's token and each player's, shown once."""
    return await offload(_create, body, services)


def _create(body: NewTournament, services: Services) -> MsgspecJSON:
    desk = _desk(services)
    tournament = desk.create(
        body.game,
        body.players,
        body.rounds,
        format=body.format,
        table_size=body.table_size,
        seed=body.seed,
        options=body.options,
        points=body.points,
        bye_points=body.bye_points,
        tiebreaks=body.tiebreaks,
        final_table=body.final_table,
        name=body.name,
    )
    return MsgspecJSON(_issued(services, tournament), status_code=201)


def _issued(services: Services, tournament: str) -> dict[str, Any]:
    state = _desk(services).state(tournament)
    issued = services.tokens.issue(tournament, len(state.players))
    return {
        "id": tournament,
        "name": state.config.name,
        "game": state.config.game,
        "organiser_token": issued.referee,
        "players": [
            {"seat": seat, "name": name, "token": token}
            for seat, (name, token) in enumerate(zip(state.players, issued.seats, strict=True))
        ],
    }


@router.post("/import", status_code=201, response_model=CreatedOut, responses=errors(401, 409, 422))
async def import_tournament(body: ImportIn, services: ServicesDep) -> MsgspecJSON:
    """Store a tournament from its jsonl export (chain checked, id new here); answers new
    tokens for its organiser and players, as a creation does."""

    def work() -> MsgspecJSON:
        tournament = _desk(services).import_jsonl(body.jsonl)
        return MsgspecJSON(_issued(services, tournament), status_code=201)

    return await offload(work)


@router.get("", response_model=TournamentPage, responses=errors(401, 422))
async def list_tournaments(
    services: ServicesDep,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> MsgspecJSON:
    """Tournaments, newest first, a page at a time."""
    found = await offload(_desk(services).listing, limit + 1, offset)
    items = [
        {"id": i.id, "name": i.title, "seq": i.version, "created_at": i.created_at} for i in found
    ]
    return page(items, limit, offset)


@router.get(
    "/{tournament_id}",
    response_model=SummaryOut,
    responses=errors(401, 404, 422),
    openapi_extra=PUBLIC,
)
async def tournament_summary(caller: CallerDep, services: ServicesDep) -> MsgspecJSON:
    """The set-up, players, and every round's tables with their status."""
    state = await offload(_desk(services).state, caller.tournament)
    return MsgspecJSON(summary(state))


class MeOut(Out):
    """Who the presented token is in this tournament."""

    tournament: str
    role: Literal["organiser", "player", "spectator"]
    player: str | None


@router.get(
    "/{tournament_id}/me",
    response_model=MeOut,
    responses=errors(401, 404, 422),
    openapi_extra=PUBLIC,
)
async def whoami(caller: CallerDep) -> MsgspecJSON:
    """Who the caller's token is here: the organiser, a player (named), or a spectator
    (no token); a page holding a player's token uses it to offer that player's seats."""
    role = "organiser" if caller.organiser else "player" if caller.player else "spectator"
    return MsgspecJSON({"tournament": caller.tournament, "role": role, "player": caller.player})


@router.post(
    "/{tournament_id}/players",
    status_code=201,
    response_model=TokenOut,
    responses=errors(401, 403, 404, 409, 422),
)
async def register(body: PlayerIn, caller: OrganiserDep, services: ServicesDep) -> MsgspecJSON:
    """Register a late player (organiser); answers its token, once."""

    def work() -> MsgspecJSON:
        desk = _desk(services)
        event = desk.register(caller.tournament, body.player)
        seat = desk.state(caller.tournament).players.index(event.player)
        token = issue_one(desk.store, caller.tournament, seat)
        return MsgspecJSON({"seat": seat, "name": event.player, "token": token}, status_code=201)

    return await offload(work)


@router.post(
    "/{tournament_id}/withdraw",
    response_model=EventOut,
    responses=errors(401, 403, 404, 409, 422),
)
async def withdraw(body: WithdrawIn, caller: OrganiserDep, services: ServicesDep) -> MsgspecJSON:
    """Withdraw a player (organiser): not paired any more; past results stay."""
    event = await offload(_desk(services).withdraw, caller.tournament, body.player, body.reason)
    return MsgspecJSON({"event": event})


@router.post(
    "/{tournament_id}/pair",
    status_code=201,
    response_model=PairedOut,
    responses=errors(401, 403, 404, 409, 422),
)
async def pair(caller: OrganiserDep, services: ServicesDep) -> MsgspecJSON:
    """Pair the next round and create its games (organiser). Each table comes with its
    game's referee token, except in a duplicate round."""

    def work() -> MsgspecJSON:
        desk = _desk(services)
        paired = desk.pair(caller.tournament)
        duplicate = paired.deal is not None
        tables = [
            {
                "table": t.table,
                "game": t.game,
                "seats": t.seats,
                "referee_token": None if duplicate else issue_one(desk.store, t.game, None),
            }
            for t in paired.tables
        ]
        body = {
            "round": paired.round,
            "tables": tables,
            "byes": paired.byes,
            "duplicate": duplicate,
            "final": paired.final,
        }
        return MsgspecJSON(body, status_code=201)

    return await offload(work)


@router.post(
    "/{tournament_id}/tables/mine",
    status_code=201,
    response_model=MyTableOut,
    responses=errors(401, 403, 404, 422),
)
async def my_table(
    caller: PlayerDep,
    services: ServicesDep,
    round_number: Annotated[
        int | None, Query(alias="round", ge=1, le=MAX_ROUNDS + 1, description="Default: latest.")
    ] = None,
) -> MsgspecJSON:
    """The caller's table in the latest round (or `round`: a replayed table of an earlier
    one), with a fresh seat token of its game now at that table (a player's token; 404 on
    a bye). The game token acts for that seat only."""

    def work() -> MsgspecJSON:
        desk = _desk(services)
        assert caller.player is not None
        found = desk.seat_of(caller.tournament, caller.player, round_number)
        round_number_, table, game, seat = found
        token = issue_one(desk.store, game, seat)
        body = {"round": round_number_, "table": table, "game": game, "seat": seat, "token": token}
        return MsgspecJSON(body, status_code=201)

    return await offload(work)


@router.post(
    "/{tournament_id}/autoplay",
    response_model=AutoplayOut,
    responses=errors(401, 403, 404, 409, 422),
)
async def autoplay(
    caller: OrganiserDep, services: ServicesDep, body: AutoplayIn | None = None
) -> MsgspecJSON:
    """Bots play the current round's open games (organiser), each bot seeing only its own
    seat's view. Results are taken in by `POST .../results`."""
    given = body or AutoplayIn(bots="random", bot_seed=0)
    if given.bots not in BOTS:  # the schema lists the levels; this guards a drift
        raise InvalidOption(f"bots {given.bots!r}: one of {', '.join(BOTS)}")
    played = await offload(
        play_round,
        _desk(services),
        services.table,
        caller.tournament,
        bot_named(given.bots),
        given.bot_seed,
    )
    return MsgspecJSON({"games": played})


@router.post(
    "/{tournament_id}/results",
    response_model=EventsOut,
    responses=errors(401, 404, 409, 422),
)
async def results(caller: MemberDep, services: ServicesDep) -> MsgspecJSON:
    """Take in the finished games' results (chain verified; audit verdict once revealed);
    the organiser or any player may ask."""
    taken = await offload(_desk(services).collect, caller.tournament)
    return MsgspecJSON({"events": taken})


@router.get(
    "/{tournament_id}/standings",
    response_model=StandingsOut,
    responses=errors(401, 404, 422),
    openapi_extra=PUBLIC,
)
async def get_standings(
    caller: CallerDep,
    services: ServicesDep,
    round_number: Annotated[
        int | None, Query(alias="round", ge=0, le=MAX_ROUNDS + 1, description="After this round.")
    ] = None,
) -> MsgspecJSON:
    """Standings (rank, points, tie-breaks, games, rating with its uncertainty) now or
    after `round`."""
    state = await offload(_desk(services).state, caller.tournament)
    return MsgspecJSON(await offload(standings, state, round_number))


@router.get(
    "/{tournament_id}/export",
    responses={
        **errors(401, 404, 422),
        200: {
            "content": {
                "application/jsonl": {},
                "text/csv": {},
                "text/markdown": {},
                "text/html": {},
            },
            "description": "jsonl: the stream (for import); csv, md, html: the standings.",
        },
    },
    openapi_extra=PUBLIC,
)
async def export(
    caller: CallerDep,
    services: ServicesDep,
    format: Annotated[Literal["jsonl", "csv", "md", "html"], Query()] = "jsonl",
) -> Response:
    """The tournament's stream (jsonl) or its standings (csv, md, html)."""

    def work() -> str:
        desk = _desk(services)
        if format == "jsonl":
            return export_jsonl(desk.envelopes(caller.tournament))
        state = desk.state(caller.tournament)
        current = standings(state)
        if format == "csv":
            return export_csv(current)
        if format == "md":
            return export_md(state, current)
        return export_html(state, current)

    text = await offload(work)
    if format == "html":
        return HTMLResponse(text)
    return PlainTextResponse(text, media_type=MEDIA[format])


@router.get(
    "/{tournament_id}/verify",
    response_model=VerifyOut,
    responses=errors(401, 404, 422),
    openapi_extra=PUBLIC,
)
async def verify(caller: CallerDep, services: ServicesDep) -> MsgspecJSON:
    """Check the tournament's hash chain; names the first bad seq."""
    report = await offload(_desk(services).verify, caller.tournament)
    return MsgspecJSON(
        {
            "ok": report.ok,
            "checked": report.checked,
            "head": report.head,
            "bad_seq": report.bad_seq,
            "reason": report.reason,
        }
    )


@router.post(
    "/{tournament_id}/disputes",
    status_code=201,
    response_model=EventOut,
    responses=errors(401, 403, 404, 409, 422),
)
async def open_dispute(body: DisputeIn, caller: PlayerDep, services: ServicesDep) -> MsgspecJSON:
    """The caller, a player seated at the game, disputes its recorded result."""
    assert caller.player is not None
    event = await offload(
        _desk(services).dispute, caller.tournament, body.game, caller.player, body.reason
    )
    return MsgspecJSON({"event": event}, status_code=201)


@router.post(
    "/{tournament_id}/disputes/{game}/settle",
    response_model=SettledOut,
    responses=errors(401, 403, 404, 409, 422),
)
async def settle(
    body: SettleIn,
    caller: OrganiserDep,
    services: ServicesDep,
    game: Annotated[str, Path(min_length=1, max_length=64, description="The game ruled on.")],
) -> MsgspecJSON:
    """The organiser rules on a disputed or held result; a replay creates a new game."""
    if body.ruling not in RULINGS:  # the schema lists them; this guards a drift
        raise InvalidOption(f"ruling {body.ruling!r}")

    def work() -> MsgspecJSON:
        desk = _desk(services)
        event = desk.settle(caller.tournament, game, body.ruling, body.reason, body.ranking)
        token = None
        if event.replay is not None and not _duplicate(desk, caller.tournament, event.round):
            token = issue_one(desk.store, event.replay, None)
        return MsgspecJSON({"event": event, "referee_token": token})

    return await offload(work)


def _duplicate(desk: Tournaments, tournament: str, round_number: int) -> bool:
    return any(r.deal is not None for r in desk.state(tournament).rounds if r.round == round_number)
