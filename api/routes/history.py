"""Annotated histories over HTTP, under the game and with the same tokens: add an
annotation (a seat's token, or the referee's), open a variation, export for the caller,
and read the annotations and variations as JSON (what the table page shows).

A spectator (no token) may export and read but not write; every payload is projected for
the caller by the Table's `histories()` facade, as on the CLI.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from skald.api.deps import OPTIONAL_TOKEN, TOKEN, GameId, ReadDep
from skald.api.offload import offload
from skald.api.responses import MsgspecJSON, errors
from skald.core.history.streams import notes_id
from skald.events.history import VariationStarted
from skald.projections.export.listing import annotation_items, author_name, short_stream
from skald.projections.export.model import Bundle
from skald.projections.narrative import Narrator

router = APIRouter(prefix="/games/{game_id}", tags=["history"])
MEDIA = {"jsonl": "application/jsonl", "text": "text/plain", "md": "text/markdown"}


def _seq_text(value: object) -> object:
    """A seq given as a JSON number is taken as its text (`5` is `"5"`)."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


class AnnotationIn(BaseModel):
    """An annotation: where, and any of a comment, a glyph and markup."""

    model_config = ConfigDict(extra="forbid")
    at: Annotated[str, BeforeValidator(_seq_text)] = Field(
        min_length=1, max_length=40, description='12 (or "12"), or v2@5 in variation 2.'
    )
    comment: str | None = Field(None, max_length=4000)
    glyph: str | None = Field(None, max_length=12, description="! ? !! ?? !? ?! unclear good:N")
    marks: list[str] = Field(default_factory=list, max_length=50, description="'circle C3 red'")
    audience: Literal["public", "seat", "referee"] | None = Field(
        None,
        description="Who may read it: public (the default), seat (the author's seat or "
        "team) or referee. In a variation that only its side sees: seat by default "
        "(referee for the referee's notes), and public is refused.",
    )


class VariationIn(BaseModel):
    """A variation: where it branches, its moves, a name and the seed of fresh draws."""

    model_config = ConfigDict(extra="forbid")
    start: Annotated[str, BeforeValidator(_seq_text)] = Field(
        alias="from", min_length=1, max_length=40, description='12 (or "12"), or v2@5.'
    )
    moves: list[str] = Field(
        min_length=1, max_length=500, description="At least one: a variation is its moves."
    )
    name: str = Field("", max_length=64)
    seed: str | None = Field(None, min_length=1, max_length=128)


@router.post(
    "/annotations", status_code=201, responses=errors(401, 403, 404, 422), openapi_extra=TOKEN
)
async def annotate(game_id: GameId, body: AnnotationIn, call: ReadDep) -> MsgspecJSON:
    """Annotate a seq of the game or of a variation; answers the annotation as the
    caller is given it: its envelope in the caller's copy of the notes stream (`seq` and
    hashes of that copy). A note for the referee alone written by a seat, which its
    author may not read back, is answered sealed with `seq` 0 and no hashes."""
    envelope = await offload(
        call.table.histories().annotate,
        call.game_id,
        call.caller.viewer,
        body.at,
        body.comment,
        body.glyph,
        body.marks,
        body.audience,
    )
    call.feed.publish(notes_id(call.game_id))  # its live channels re-read their notes
    return MsgspecJSON(envelope, status_code=201)


@router.post(
    "/variations", status_code=201, responses=errors(401, 403, 404, 422), openapi_extra=TOKEN
)
async def variation(game_id: GameId, body: VariationIn, call: ReadDep) -> MsgspecJSON:
    """Open a variation and play its moves through the rules; answers its id."""
    stream = await offload(
        call.table.histories().variation,
        call.game_id,
        call.caller.viewer,
        body.start,
        body.moves,
        body.name,
        body.seed,
    )
    call.feed.publish(notes_id(call.game_id))
    return MsgspecJSON({"id": stream}, status_code=201)


@router.get(
    "/export",
    responses={
        **errors(401, 403, 404, 422),
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
    game_id: GameId,
    call: ReadDep,
    format: Annotated[Literal["jsonl", "text", "md", "html"], Query()] = "text",
    variations: bool = True,
    comments: bool = True,
) -> Response:
    """The game's annotated history as the caller may see it."""
    text = await offload(
        call.table.histories().export,
        call.game_id,
        call.caller.viewer,
        format,
        comments,
        variations,
    )
    if format == "html":
        return HTMLResponse(text)
    return PlainTextResponse(text, media_type=MEDIA[format])


@router.get("/annotations", responses=errors(401, 403, 404, 422), openapi_extra=OPTIONAL_TOKEN)
async def list_annotations(game_id: GameId, call: ReadDep) -> MsgspecJSON:
    """The game's annotations the caller may read, oldest first: `seq` its place in the
    caller's copy of the notes stream, `at` the anchor (`12`, or `v2@5`), `stream` `game`
    or `v2`, `move` the anchored seq. A note the caller may not read is not listed, and
    nothing (no seq, no gap) tells that it exists."""
    bundle = await offload(call.table.histories().bundle, call.game_id, call.caller.viewer)
    items = annotation_items(bundle.notes, bundle.id, bundle.players)
    return MsgspecJSON({"id": call.game_id, "viewer": bundle.viewer, "annotations": items})


@router.get("/variations", responses=errors(401, 403, 404, 422), openapi_extra=OPTIONAL_TOKEN)
async def list_variations(game_id: GameId, call: ReadDep) -> MsgspecJSON:
    """The variations the caller may see, each with its start (`parent`: `game` or `vN`,
    `at`), author, name, `hypothetical`, last seq, and its moves as readable lines
    (seq 1 is the start; its moves are seqs 2 on)."""
    bundle = await offload(call.table.histories().bundle, call.game_id, call.caller.viewer)
    listed = []
    for envelopes in bundle.variations:
        start = envelopes[0].event
        assert isinstance(start, VariationStarted)
        listed.append(
            {
                "id": short_stream(envelopes[0].stream, bundle.id),
                "stream": envelopes[0].stream,
                "name": start.name,
                "parent": short_stream(start.parent, bundle.id),
                "at": start.at,
                "author": author_name(start.author, bundle.players),
                "hypothetical": start.hypothetical,
                "seq": envelopes[-1].seq,
                "lines": [
                    {
                        "seq": env.seq,
                        "actor": author_name(int(env.actor), bundle.players)
                        if env.actor.isdigit()
                        else env.actor,
                        "text": text,
                    }
                    for env, text in zip(
                        envelopes[1:], _told(bundle, start, envelopes[1:]), strict=False
                    )
                ],
            }
        )
    return MsgspecJSON({"id": call.game_id, "viewer": bundle.viewer, "variations": listed})


def _told(bundle: Bundle, start: VariationStarted, envelopes: Any) -> list[str]:
    """A variation's sentences, told after the game's events up to its start."""
    narrator = Narrator(bundle.game, bundle.players)
    narrator.prime(env for env in bundle.game_events if env.seq <= start.at)
    return narrator.tell(envelopes)
