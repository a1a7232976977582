"""Annotated histories over HTTP, under the game and with the same tokens: add an
annotation (a seat's token, or the referee's), open a variation, export for the caller.

A spectator (no token) may export but not write; every payload is projected for the
caller by the Table's `histories()` facade, as on the CLI.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from skald.api.deps import OPTIONAL_TOKEN, CallerDep, TableDep
from skald.api.responses import MsgspecJSON, errors

router = APIRouter(prefix="/games/{game_id}", tags=["history"])
MEDIA = {"jsonl": "application/jsonl", "text": "text/plain", "md": "text/markdown"}


class AnnotationIn(BaseModel):
    """An annotation: where, and any of a comment, a glyph and markup."""

    model_config = ConfigDict(extra="forbid")
    at: str = Field(min_length=1, max_length=40, description="12, or v2@5 in variation 2.")
    comment: str | None = Field(None, max_length=4000)
    glyph: str | None = Field(None, max_length=12, description="! ? !! ?? !? ?! unclear good:N")
    marks: list[str] = Field(default_factory=list, max_length=50, description="'circle C3 red'")
    audience: Literal["public", "seat", "referee"] = "public"


class VariationIn(BaseModel):
    """A variation: where it branches, its moves, a name and the seed of fresh draws."""

    model_config = ConfigDict(extra="forbid")
    start: str = Field(alias="from", min_length=1, max_length=40)
    moves: list[str] = Field(default_factory=list, max_length=500)
    name: str = Field("", max_length=64)
    seed: str | None = Field(None, min_length=1, max_length=128)


@router.post("/annotations", status_code=201, responses=errors(401, 403, 404, 422))
async def annotate(body: AnnotationIn, caller: CallerDep, table: TableDep) -> MsgspecJSON:
    """Annotate a seq of the game or of a variation; answers the annotation as stored
    (for the caller: its own private note is readable to it)."""
    envelope = await run_in_threadpool(
        table.histories().annotate,
        caller.game_id,
        caller.viewer,
        body.at,
        body.comment,
        body.glyph,
        body.marks,
        body.audience,
    )
    return MsgspecJSON(envelope, status_code=201)


@router.post("/variations", status_code=201, responses=errors(401, 403, 404, 422))
async def variation(body: VariationIn, caller: CallerDep, table: TableDep) -> MsgspecJSON:
    """Open a variation and play its moves through the rules; answers its id."""
    stream = await run_in_threadpool(
        table.histories().variation,
        caller.game_id,
        caller.viewer,
        body.start,
        body.moves,
        body.name,
        body.seed,
    )
    return MsgspecJSON({"id": stream}, status_code=201)


@router.get(
    "/export",
    responses={
        **errors(401, 404, 422),
        200: {
            "content": {
                "application/jsonl": {},
                "text/plain": {},
                "text/markdown": {},
                "text/html": {},
            },
            "description": "The export; `format` picks jsonl, text, md or html.",
        },
    },
    openapi_extra=OPTIONAL_TOKEN,
)
async def export(
    caller: CallerDep,
    table: TableDep,
    format: Annotated[Literal["jsonl", "text", "md", "html"], Query()] = "text",
    variations: bool = True,
    comments: bool = True,
) -> Response:
    """The game's annotated history as the caller may see it."""
    text = await run_in_threadpool(
        table.histories().export, caller.game_id, caller.viewer, format, comments, variations
    )
    if format == "html":
        return HTMLResponse(text)
    return PlainTextResponse(text, media_type=MEDIA[format])
