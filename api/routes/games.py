"""Games: create (with the seats' tokens), list, summary, and what the caller sees of one:
its view at a seq, its log, its legal moves.

Handlers are async and make one thread-pool hop (`api.offload`) for their store and engine
work; the summary, the view and the legal moves, read at every decision, go through
`on_table` (no hop on a SQLite store whose writers' queue is free). A game's routes have
one dependency, `PublicDep` (the summary: what anyone may know), `ReadDep` or `SeatDep`
(the caller and the services, past `deps.readable`; no hop for a caller this process
already knows); creating and listing games have `check_token`. `api.direct`
answers the summary and the legal moves without FastAPI's request handling, calling
these endpoints; it refuses (at start-up) a signature it does not handle."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query

from skald.api.deps import (
    OPTIONAL_TOKEN,
    TOKEN,
    Call,
    GameId,
    PublicDep,
    ReadDep,
    SeatDep,
    Services,
    ServicesDep,
    VariationName,
    check_token,
    sealed_for,
)
from skald.api.looking import AsViewer, looking_as
from skald.api.offload import offload, on_table
from skald.api.responses import MsgspecJSON, errors, page
from skald.api.schemas import (
    MAX_SEQ,
    CreatedGame,
    GamePage,
    GameSummary,
    LegalOut,
    LogOut,
    NewGame,
    PossibleOut,
    TableViewOut,
)
from skald.core.errors import NotFound
from skald.core.seats import check_player_names
from skald.core.tournament.seclusion import may_be_sealed, withheld
from skald.events.viewer import SPECTATOR
from skald.projections.table import GameListing, Table

router = APIRouter(prefix="/games", tags=["games"])
AtSeq = Annotated[
    int | None, Query(ge=1, le=MAX_SEQ, description="Replay: as it was right after this seq.")
]


CHECK_TOKEN = [Depends(check_token)]


@router.post(
    "",
    status_code=201,
    response_model=CreatedGame,
    responses=errors(404, 422),
    dependencies=CHECK_TOKEN,
)
async def create_game(body: NewGame, services: ServicesDep) -> MsgspecJSON:
    """Create a game. The response holds each seat's token and the referee's, shown once."""
    return await offload(_create, body, services)


def _create(body: NewGame, services: Services) -> MsgspecJSON:
    table = services.table
    check_player_names(body.players)  # the CLI's rule: 422 illegal_move
    game_id = table.create(
        body.game,
        body.players,
        seed=body.seed,
        options=body.options,
        deal=body.deal,
        reproducible=body.reproducible,
    )
    summary = table.summary(game_id)
    issued = services.tokens.issue(game_id, len(summary.players))
    seats = [
        {"seat": seat, "name": name, "token": token}
        for seat, (name, token) in enumerate(zip(summary.players, issued.seats, strict=True))
    ]
    return MsgspecJSON(
        {
            "id": game_id,
            "game": summary.game,
            "seq": summary.seq,
            "seats": seats,
            "referee_token": issued.referee,
        },
        status_code=201,
    )


@router.get("", response_model=GamePage, responses=errors(422), dependencies=CHECK_TOKEN)
async def list_games(
    services: ServicesDep,
    game: Annotated[str | None, Query(max_length=64, description="Only this game.")] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=MAX_SEQ)] = 0,
    state: Annotated[
        Literal["finished", "to-act"] | None,
        Query(description="Only the games over (finished) or with a seat to act (to-act)."),
    ] = None,
    tournaments: Annotated[
        bool, Query(description="false: leave out the tables of tournaments.")
    ] = True,
) -> MsgspecJSON:
    """Games, newest first, a page at a time; `offset`, `limit` and `next_offset` count
    the games that pass the filters."""
    found = await offload(services.table.games, game, limit + 1, offset, state, tournaments)
    if any(may_be_sealed(listed.id) for listed in found):
        return page(await offload(_withheld_where_sealed, services, found), limit, offset)
    return page(found, limit, offset)


def _withheld_where_sealed(
    services: Services, found: list[GameListing]
) -> list[GameListing | dict[str, Any]]:
    """The listings with the seq of every sealed table withheld (nobody listing is at it)."""
    return [
        withheld(listed) if sealed_for(services, listed.id, SPECTATOR, None) else listed
        for listed in found
    ]


@router.get("/{game_id}", response_model=GameSummary, responses=errors(404, 422))
async def game_summary(game_id: GameId, call: PublicDep) -> MsgspecJSON:
    """What anyone may know about a game: players, seq, whose turn, the outcome. A table
    of a duplicate round not yet over tells anyone but its seats and its referee only its
    players and whether it is over (`sealed`: seq, whose turn and outcome withheld)."""
    summary = await on_table(call.table, call.table.summary, call.game_id)
    caller = call.caller
    if may_be_sealed(call.game_id) and await offload(
        sealed_for, call.services, call.game_id, caller.viewer, caller.seat
    ):
        return MsgspecJSON(withheld(summary))
    return MsgspecJSON(summary)


@router.get(
    "/{game_id}/view",
    response_model=TableViewOut,
    responses=errors(401, 403, 404, 422),
    openapi_extra=OPTIONAL_TOKEN,
)
async def view(
    game_id: GameId, call: ReadDep, at: AtSeq = None, who: AsViewer = None
) -> MsgspecJSON:
    """The game as the caller sees it: a seat, the referee, or (no token) a spectator;
    after the game under reveal=end everything, as in the log, the board and the audit.
    `as`: look as a spectator, or (the referee) as any seat."""

    def shown() -> Any:
        viewer = looking_as(call.table, call.caller, who)
        return call.table.show_revealed(call.game_id, viewer, at)

    return MsgspecJSON(await on_table(call.table, shown))


@router.get(
    "/{game_id}/log",
    response_model=LogOut,
    responses=errors(401, 403, 404, 422),
    openapi_extra=OPTIONAL_TOKEN,
)
async def log(
    game_id: GameId,
    call: ReadDep,
    from_seq: Annotated[int, Query(alias="from", ge=1, le=MAX_SEQ, description="First seq.")] = 1,
    at: AtSeq = None,
    variation: VariationName = None,
) -> MsgspecJSON:
    """The events from `from` to `at` (default: the latest), redacted for the caller; of
    one of the game's variations with `variation=v2` (its own seqs, 1 its start), 404
    when the caller may read no variation so named (as `board.svg` and `table`)."""
    return await offload(_log, call, from_seq, at, variation)


def _log(call: Call, from_seq: int, at: int | None, variation: str | None) -> MsgspecJSON:
    caller, table = call.caller, call.table
    if variation is not None:
        envelopes = table.histories().variation_log(
            caller.game_id, caller.viewer, int(variation[1:])
        )
        if at is not None and at > len(envelopes):
            raise NotFound(
                f"variation {variation} of this game has no seq {at} "
                f"(its seqs are 1 to {len(envelopes)})"
            )
        events = envelopes[from_seq - 1 : at]
        return MsgspecJSON(
            {
                "id": caller.game_id,
                "viewer": caller.viewer.name,
                "variation": variation,
                "events": events,
            }
        )
    if at is not None and at > table.turn(caller.game_id).seq:
        raise NotFound(f"game {caller.game_id} has no seq {at} yet")
    events = table.log(caller.game_id, caller.viewer, from_seq, at)
    return MsgspecJSON({"id": caller.game_id, "viewer": caller.viewer.name, "events": events})


@router.get(
    "/{game_id}/legal",
    response_model=LegalOut,
    responses=errors(401, 403, 404, 422),
    openapi_extra=TOKEN,
)
async def legal(game_id: GameId, call: SeatDep) -> MsgspecJSON:
    """The caller's legal moves in the game's notation; needs a seat's token."""
    return await on_table(call.table, _legal, call)


def _legal(call: Call) -> MsgspecJSON:
    seat = call.caller.seat
    assert seat is not None
    return MsgspecJSON(legal_answer(call.table, call.game_id, seat))


def legal_answer(table: Table, game_id: str, seat: int) -> dict[str, object]:
    """A seat's legal moves now, with the seq they hold at and whether it may undo and
    redo (`GET /games/ID/legal`; the table page's read has it too)."""
    legal = table.legal_now(game_id, seat)
    return {
        "seat": seat,
        "seq": legal.seq,
        "moves": legal.moves,
        "undo": legal.undo,
        "redo": legal.redo,
        "head": legal.head,
        "keys": legal.keys,
    }


@router.get(
    "/{game_id}/possible",
    response_model=PossibleOut,
    responses=errors(401, 403, 404, 422),
    openapi_extra=OPTIONAL_TOKEN,
)
async def possible(
    game_id: GameId, call: ReadDep, at: AtSeq = None, who: AsViewer = None
) -> MsgspecJSON:
    """What could be true of everything the caller cannot see, computed from its own log
    only (a seat's, the referee's, or with no token a spectator's), at `at` (default: now):
    the game's own structure, and `text`, the same in the game's words. `as`: as a
    spectator, or (the referee) as any seat: what that seat could have known at `at`."""

    def known() -> Any:
        viewer = looking_as(call.table, call.caller, who)
        return call.table.possible(call.game_id, viewer, at)

    return MsgspecJSON(await on_table(call.table, known))
