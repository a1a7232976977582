"""Acting at the table: a move, undo, redo. Each needs a seat's token, appends through
the engine (compare-and-set on `expected_seq`), and answers 201 with the appended events
as the acting seat sees them. Nothing is appended on any error.

One request per decision: the answer also carries what the seat needs next (whose turn,
the outcome, its legal moves now, its new view), all from the state the append produced.
Each handler is async and makes one thread-pool hop for the engine's work."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import APIRouter

from skald.api.deps import Caller, FeedDep, GameId, SeatDep, TableDep
from skald.api.live import LiveFeed
from skald.api.offload import offload
from skald.api.responses import MsgspecJSON, errors
from skald.api.schemas import AppendedOut, MoveRequest, TableAction
from skald.events.envelope import Envelope
from skald.projections.table import Decision, Table

log = logging.getLogger(__name__)
router = APIRouter(prefix="/games/{game_id}", tags=["moves"])
ERRORS = errors(401, 403, 404, 409, 422)


def appended(
    table: Table, feed: LiveFeed, game_id: str, envelopes: list[Envelope[Any]]
) -> MsgspecJSON:
    """Wake this process's live streams and answer with the new events and a receipt:
    the service's signature on the new chain head, for the seat to keep. The events are
    written by now, so this never answers an error: should signing fail (the key is
    loaded at start-up, so it should not), the answer says so instead of the receipt."""
    return MsgspecJSON(_answer(table, feed, game_id, envelopes), status_code=201)


def _answer(
    table: Table, feed: LiveFeed, game_id: str, envelopes: list[Envelope[Any]]
) -> dict[str, Any]:
    feed.publish(game_id)
    head = envelopes[-1]
    body: dict[str, Any] = {"seq": head.seq, "events": envelopes}
    try:
        body["receipt"] = table.signer.receipt(game_id, head.seq, head.hash)
    except Exception as error:  # the move stands; only its receipt is missing
        log.error("move written but not signed: %s", error)
        body["receipt"] = None
        body["receipt_error"] = (
            f"the move was recorded, but its receipt could not be "
            f"signed ({error}); GET /games/{game_id}/receipt later"
        )
    return body


def decided(table: Table, feed: LiveFeed, game_id: str, decision: Decision) -> MsgspecJSON:
    """`appended`, with what the seat needs next (additive fields)."""
    body = _answer(table, feed, game_id, decision.events)
    body.update(
        to_act=decision.to_act,
        outcome=decision.outcome,
        legal=decision.legal,
        view=decision.view,
    )
    return MsgspecJSON(body, status_code=201)


def _decide(
    table: Table,
    feed: LiveFeed,
    caller: Caller,
    action: str,
    notation: str | None,
    expected_seq: int | None,
) -> MsgspecJSON:
    assert caller.seat is not None
    decision = table.decide(caller.game_id, caller.seat, action, notation, expected_seq)
    return decided(table, feed, caller.game_id, decision)


@router.post("/moves", status_code=201, response_model=AppendedOut, responses=ERRORS)
async def move(
    game_id: GameId, body: MoveRequest, caller: SeatDep, table: TableDep, feed: FeedDep
) -> MsgspecJSON:
    """Play one move for the caller's seat."""
    return await offload(_decide, table, feed, caller, "move", body.move, body.expected_seq)


@router.post("/undo", status_code=201, response_model=AppendedOut, responses=ERRORS)
async def undo(
    game_id: GameId, body: TableAction, caller: SeatDep, table: TableDep, feed: FeedDep
) -> MsgspecJSON:
    """Take back the last decision (the table's undo policy decides who may)."""
    return await offload(_decide, table, feed, caller, "undo", None, body.expected_seq)


@router.post("/redo", status_code=201, response_model=AppendedOut, responses=ERRORS)
async def redo(
    game_id: GameId, body: TableAction, caller: SeatDep, table: TableDep, feed: FeedDep
) -> MsgspecJSON:
    """Re-apply the decision just undone, if nothing happened since."""
    return await offload(_decide, table, feed, caller, "redo", None, body.expected_seq)
