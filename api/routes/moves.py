"""Acting at the table: a move, undo, redo. Each needs a seat's token, appends through
the engine (compare-and-set on `expected_seq`), and answers 201 with the appended events
as the acting seat sees them. Nothing is appended on any error.

One request per decision: the answer also carries what the seat needs next (whose turn,
the outcome, its legal moves now, its new view), all from the state the append produced.
Each handler has one dependency (`SeatDep`: the seat's caller and the services) and does
the engine's work through `api.offload.on_table`: at once on a SQLite store whose writers'
queue is free, else with one thread-pool hop. `api.direct` answers these three routes
without FastAPI's request handling, calling these endpoints; it refuses (at start-up) a
signature it does not handle."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter

from skald.api.deps import TOKEN, Call, GameId, SeatDep
from skald.api.offload import on_table
from skald.api.responses import MsgspecJSON, errors
from skald.api.schemas import AppendedOut, MoveRequest, TableAction
from skald.core.identity import Signing
from skald.events.common import Author

log = logging.getLogger(__name__)
router = APIRouter(prefix="/games/{game_id}", tags=["moves"])
ERRORS = errors(401, 403, 404, 409, 422)


def authored(call: Call, signed: Any, bot: str | None) -> tuple[Author | None, Signing | None]:
    """The author and signature a decision was sent with (REST body or channel message):
    a bot the seat's player runs, else the player; the seat's own signature, if any."""
    seat = call.caller.seat
    player = call.table.players(call.game_id)[seat] if seat is not None else ""
    by = Author(kind="bot", name=bot, started_by=player) if bot else None
    if signed is None:
        return by, None
    fields = signed if isinstance(signed, dict) else signed.model_dump()
    return by, Signing(**fields)


def _decide(
    call: Call,
    action: str,
    notation: str | None,
    expected_seq: int | None,
    by: Author | None = None,
    signing: Signing | None = None,
) -> MsgspecJSON:
    """Make the decision, wake this process's live streams and answer with the new events,
    a receipt (the service's signature on the new chain head, for the seat to keep) and
    what the seat needs next. The events are written once `decide` returns, so nothing
    after it answers an error: should signing fail (the key is loaded at start-up, so it
    should not), the answer says so instead of the receipt."""
    seat = call.caller.seat
    assert seat is not None
    game_id, table = call.game_id, call.table
    decision = table.decide(game_id, seat, action, notation, expected_seq, by, signing)
    head = decision.events[-1]
    call.feed.publish(game_id, head.seq)
    body: dict[str, Any] = {"seq": head.seq, "events": decision.events}
    try:
        body["receipt"] = table.signer.receipt(game_id, head.seq, head.hash)
    except Exception as error:  # the move stands; only its receipt is missing
        log.error("move written but not signed: %s", error)
        body["receipt"] = None
        body["receipt_error"] = (
            f"the move was recorded, but its receipt could not be "
            f"signed ({error}); GET /games/{game_id}/receipt later"
        )
    body.update(
        to_act=decision.to_act,
        outcome=decision.outcome,
        legal=decision.legal,
        view=decision.view,
        head=decision.head,
        keys=decision.keys,
    )
    return MsgspecJSON(body, status_code=201)


ROUTE: dict[str, Any] = {
    "status_code": 201,
    "response_model": AppendedOut,
    "responses": ERRORS,
    "openapi_extra": TOKEN,
}


@router.post("/moves", **ROUTE)
async def move(game_id: GameId, body: MoveRequest, call: SeatDep) -> MsgspecJSON:
    """Play one move for the caller's seat (signed by the seat's key once it registered one)."""
    by, signing = authored(call, body.signed, body.bot)
    return await on_table(
        call.table, _decide, call, "move", body.move, body.expected_seq, by, signing
    )


@router.post("/undo", **ROUTE)
async def undo(game_id: GameId, body: TableAction, call: SeatDep) -> MsgspecJSON:
    """Take back the last decision (the table's undo policy decides who may)."""
    by, signing = authored(call, body.signed, body.bot)
    return await on_table(call.table, _decide, call, "undo", None, body.expected_seq, by, signing)


@router.post("/redo", **ROUTE)
async def redo(game_id: GameId, body: TableAction, call: SeatDep) -> MsgspecJSON:
    """Re-apply the decision just undone, if nothing happened since."""
    by, signing = authored(call, body.signed, body.bot)
    return await on_table(call.table, _decide, call, "redo", None, body.expected_seq, by, signing)
