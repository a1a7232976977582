"""msgspec-encoded JSON responses, and the error responses each route documents."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from fastapi.responses import Response

from skald.api.schemas import ErrorOut


class MsgspecJSON(Response):
    """A JSON response encoded by msgspec (Structs, datetimes and frozensets included)."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return msgspec.json.encode(content)


def page(found: Sequence[Any], limit: int, offset: int) -> MsgspecJSON:
    """One page of a listing read with `limit + 1` rows from `offset`: the first `limit`
    items, and where the next page starts when there is one (else null)."""
    next_offset = offset + limit if len(found) > limit else None
    return MsgspecJSON(
        {"items": found[:limit], "limit": limit, "offset": offset, "next_offset": next_offset}
    )


_ERROR_TEXT = {
    401: "No valid token for this game where one is needed (a seat's, or the referee's).",
    403: "The token is valid but may not do this (not this seat's turn, the referee "
    "acting as a seat, the table's undo policy), or the game is a table of a duplicate "
    "round still in play, read only by its own seats and referee.",
    404: "Unknown game, or a seq the game has not reached.",
    409: "The game moved on since `expected_seq`; `current_seq` says where it is. "
    "Nothing was appended.",
    422: "Malformed request, invalid notation, or a move the rules do not allow "
    "(the message gives the rule's reason). Nothing was appended.",
}


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The `responses=` entries documenting these error statuses with the error model."""
    return {code: {"model": ErrorOut, "description": _ERROR_TEXT[code]} for code in codes}
