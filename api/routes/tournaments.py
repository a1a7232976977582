"""Tournaments over HTTP: everything `skald tournament` does, with the tournament's tokens.

Who may do what, and which tokens a route answers: `api.tournament_access`. The bodies
and the documented responses: `api.tournament_schemas`. Every route about one tournament
reads it through the desk's chain check, so a stored stream that fails it gets 500
`corrupt_record` naming the seq, with nothing shown or written; `GET .../verify` alone
answers on it, saying where it breaks.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from fastapi import APIRouter, Path, Query
from fastapi.responses import HTMLResponse, PlainTextResponse, Response

from skald.api.deps import Services, ServicesDep
from skald.api.offload import offload
from skald.api.responses import MsgspecJSON, errors, page
from skald.api.schemas import ErrorOut
from skald.api.tournament_access import (
    CallerDep,
    CheckerDep,
    MemberDep,
    OrganiserDep,
    PlayerDep,
    tournament_desk,
)
from skald.api.tournament_schemas import (
    AutoplayIn,
    AutoplayOut,
    CreatedOut,
    DisputeIn,
    EventOut,
    ImportIn,
    MeOut,
    MyTableOut,
    NewTournament,
    PairedOut,
    PlayerIn,
    ResultsOut,
    SettledOut,
    SettleIn,
    StandingsOut,
    SummaryOut,
    TokenOut,
    TournamentPage,
    VerifyOut,
    WithdrawIn,
)
from skald.core.errors import InvalidOption
from skald.core.tournament.access import issue_one
from skald.core.tournament.registration import MAX_ROUNDS
from skald.core.tournament.state import fold
from skald.events.tournament import RULINGS
from skald.projections.bots.autoplay import BOTS, bot_named
from skald.projections.tournament.export import export_csv, export_html, export_jsonl, export_md
from skald.projections.tournament.standings import play_round, standings, summary

router = APIRouter(prefix="/tournaments", tags=["tournaments"])

MEDIA = {"jsonl": "application/jsonl", "csv": "text/csv", "md": "text/markdown"}
PUBLIC: dict[str, Any] = {"security": [{}]}  # a token is optional on public reads
BROKEN: dict[int | str, dict[str, Any]] = {
    500: {
        "model": ErrorOut,
        "description": "`corrupt_record`: the tournament's stored stream fails its chain "
        "check (the message names the seq and why; see `GET .../verify`). Nothing is "
        "shown and nothing is written.",
    }
}


@router.post("", status_code=201, response_model=CreatedOut, responses=errors(401, 404, 409, 422))
async def create_tournament(body: NewTournament, services: ServicesDep) -> MsgspecJSON:
    """Create a tournament (the games are created as rounds are paired). The answer holds
    the organiser's token and each player's, shown once."""
    return await offload(_create, body, services)


def _create(body: NewTournament, services: Services) -> MsgspecJSON:
    desk = tournament_desk(services)
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
    state = tournament_desk(services).state(tournament)
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
        desk = tournament_desk(services)
        tournament = desk.import_jsonl(body.jsonl)
        answer = {**_issued(services, tournament), "head_signer": desk.head_signer(tournament)}
        return MsgspecJSON(answer, status_code=201)

    return await offload(work)


@router.get("", response_model=TournamentPage, responses=errors(401, 422))
async def list_tournaments(
    services: ServicesDep,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> MsgspecJSON:
    """Tournaments, newest first, a page at a time."""
    found = await offload(tournament_desk(services).listing, limit + 1, offset)
    items = [
        {"id": i.id, "name": i.title, "seq": i.version, "created_at": i.created_at} for i in found
    ]
    return page(items, limit, offset)


@router.get(
    "/{tournament_id}",
    response_model=SummaryOut,
    responses={**errors(401, 404, 422), **BROKEN},
    openapi_extra=PUBLIC,
)
async def tournament_summary(caller: CallerDep, services: ServicesDep) -> MsgspecJSON:
    """The set-up, players, and every round's tables with their status."""
    state = await offload(tournament_desk(services).state, caller.tournament)
    return MsgspecJSON(summary(state))


@router.get(
    "/{tournament_id}/me",
    response_model=MeOut,
    responses={**errors(401, 404, 422), **BROKEN},
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
    responses={**errors(401, 403, 404, 409, 422), **BROKEN},
)
async def register(body: PlayerIn, caller: OrganiserDep, services: ServicesDep) -> MsgspecJSON:
    """Register a late player (organiser); answers its token, once."""

    def work() -> MsgspecJSON:
        desk = tournament_desk(services)
        event = desk.register(caller.tournament, body.player)
        seat = desk.state(caller.tournament).players.index(event.player)
        token = issue_one(desk.store, caller.tournament, seat)
        return MsgspecJSON({"seat": seat, "name": event.player, "token": token}, status_code=201)

    return await offload(work)


@router.post(
    "/{tournament_id}/withdraw",
    response_model=EventOut,
    responses={**errors(401, 403, 404, 409, 422), **BROKEN},
)
async def withdraw(body: WithdrawIn, caller: OrganiserDep, services: ServicesDep) -> MsgspecJSON:
    """Withdraw a player (organiser): not paired any more; past results stay."""
    event = await offload(
        tournament_desk(services).withdraw, caller.tournament, body.player, body.reason
    )
    return MsgspecJSON({"event": event})


@router.post(
    "/{tournament_id}/pair",
    status_code=201,
    response_model=PairedOut,
    responses={**errors(401, 403, 404, 409, 422), **BROKEN},
)
async def pair(caller: OrganiserDep, services: ServicesDep) -> MsgspecJSON:
    """Pair the next round and create its games (organiser). No table comes with its
    game's referee token: an organiser may also be a player, and a referee reads every
    hand (see `api.tournament_access`); each seat asks `POST .../tables/mine` for its own."""

    def work() -> MsgspecJSON:
        desk = tournament_desk(services)
        paired = desk.pair(caller.tournament)
        duplicate = paired.deal is not None
        tables = [{"table": t.table, "game": t.game, "seats": t.seats} for t in paired.tables]
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
    responses={**errors(401, 403, 404, 422), **BROKEN},
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
        desk = tournament_desk(services)
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
    responses={**errors(401, 403, 404, 409, 422), **BROKEN},
)
async def autoplay(
    caller: OrganiserDep, services: ServicesDep, body: AutoplayIn | None = None
) -> MsgspecJSON:
    """Bots play the current round's open games (organiser), each bot seeing only its own
    seat's view. Where people have played in a game, 409 `needs_confirmation` names the
    tables and seats and nothing is played, unless `take_seats` is true. Results are taken
    in by `POST .../results`."""
    given = body or AutoplayIn(bots="random", bot_seed=0)
    if given.bots not in BOTS:  # the schema lists the levels; this guards a drift
        raise InvalidOption(f"bots {given.bots!r}: one of {', '.join(BOTS)}")
    played = await offload(
        play_round,
        tournament_desk(services),
        services.table,
        caller.tournament,
        bot_named(given.bots),
        given.bot_seed,
        given.take_seats,
    )
    return MsgspecJSON({"games": played})


@router.post(
    "/{tournament_id}/results",
    response_model=ResultsOut,
    responses={**errors(401, 404, 409, 422), **BROKEN},
)
async def results(caller: MemberDep, services: ServicesDep) -> MsgspecJSON:
    """Take in the finished games' results (chain verified; audit verdict once revealed);
    the organiser or any player may ask. A duplicate round's results are taken in together
    once all its tables have finished: `waiting` lists its finished tables meanwhile."""

    def work() -> MsgspecJSON:
        taken = tournament_desk(services).take_in(caller.tournament)
        waiting = [{**msgspec.structs.asdict(w), "message": w.words()} for w in taken.waiting]
        return MsgspecJSON({"events": taken.events, "waiting": waiting})

    return await offload(work)


@router.get(
    "/{tournament_id}/standings",
    response_model=StandingsOut,
    responses={**errors(401, 404, 422), **BROKEN},
    openapi_extra=PUBLIC,
)
async def get_standings(
    caller: CallerDep,
    services: ServicesDep,
    round_number: Annotated[
        int | None,
        Query(alias="round", description="After this round (a paired one). Default: now."),
    ] = None,
) -> MsgspecJSON:
    """Standings (rank, points, tie-breaks, games, rating with its uncertainty) now or
    after `round` (a round not paired: 422 naming those that are). The tournament's chain
    is checked first: a stream that fails it is refused (500 `corrupt_record`, naming the
    seq and the reason)."""

    def work() -> Any:
        state = tournament_desk(services).state(caller.tournament)
        return standings(state, round_number)

    return MsgspecJSON(await offload(work))


@router.get(
    "/{tournament_id}/export",
    responses={
        **errors(401, 404, 422),
        **BROKEN,
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
    """The tournament's stream (jsonl) or its standings (csv, md, html). The tournament's
    chain is checked first: a stream that fails it is refused (500 `corrupt_record`,
    naming the seq and the reason)."""

    def work() -> str:
        envelopes = tournament_desk(services).envelopes(caller.tournament)
        if format == "jsonl":
            return export_jsonl(envelopes, services.table.signer_or_none())
        state = fold(caller.tournament, (env.event for env in envelopes))
        current = standings(state)
        if format == "csv":
            return export_csv(current, state)
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
async def verify(tournament: CheckerDep, services: ServicesDep) -> MsgspecJSON:
    """Check the tournament's hash chain; names the first bad seq (the one route that
    answers on a broken stream)."""
    desk = tournament_desk(services)
    report = await offload(desk.verify, tournament)
    return MsgspecJSON(
        {
            "ok": report.ok,
            "checked": report.checked,
            "head": report.head,
            "bad_seq": report.bad_seq,
            "reason": report.reason,
            "head_signer": await offload(desk.head_signer, tournament),
        }
    )


@router.post(
    "/{tournament_id}/disputes",
    status_code=201,
    response_model=EventOut,
    responses={**errors(401, 403, 404, 409, 422), **BROKEN},
)
async def open_dispute(body: DisputeIn, caller: PlayerDep, services: ServicesDep) -> MsgspecJSON:
    """The caller, a player seated at the game, disputes its recorded result."""
    assert caller.player is not None
    event = await offload(
        tournament_desk(services).dispute, caller.tournament, body.game, caller.player, body.reason
    )
    return MsgspecJSON({"event": event}, status_code=201)


@router.post(
    "/{tournament_id}/disputes/{game}/settle",
    response_model=SettledOut,
    responses={**errors(401, 403, 404, 409, 422), **BROKEN},
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
        desk = tournament_desk(services)
        event = desk.settle(caller.tournament, game, body.ruling, body.reason, body.ranking)
        return MsgspecJSON({"event": event})

    return await offload(work)
