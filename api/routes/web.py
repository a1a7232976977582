"""The table in a browser: the pages and scripts of api/web/, and the reads they need.

`GET /` is the lobby, `GET /play/{game}` a game's table; both are static files from the
package, served with a Content-Security-Policy that allows nothing from elsewhere. The
page keeps a seat's token from its URL fragment (`#token=...`, never in a request line)
and sends it as `Authorization: Bearer`. It reads the JSON API, and three routes here:
`/games/{id}/board.svg` (the board drawn from the caller's view, `projections.boards`),
`/games/{id}/lines` (the log as readable lines), and `/games/{id}/table`: both with a
seat's legal moves in one read (what the page draws after each live update). They take
`at` (replay) and `as` (switch viewer): anyone may look as a spectator, a seat as itself,
the referee as anyone. After the game under reveal=end every viewer sees everything, as
in the log and audit. The board also draws a variation (`variation=v2`, its seq `at`)
for those who may see it (its author's seat, the referee; everyone after the game under
reveal=end), as a seat saw it: a seat's hypothetical variation holds only what was drawn
afresh for it.
`/tournaments/{id}` is a tournament's page (standings, rounds, links to the tables).
"""

from __future__ import annotations

from importlib import resources
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import Response

from skald.api.deps import OPTIONAL_TOKEN, GameId, ReadDep, VariationName
from skald.api.looking import AsViewer, looking_as
from skald.api.responses import MsgspecJSON, errors
from skald.api.routes.games import legal_answer
from skald.api.schemas import MAX_SEQ
from skald.core.codec import event_tag
from skald.core.errors import NotFound
from skald.core.history.streams import no_variation, variation_id
from skald.core.state import presenting
from skald.events.viewer import Viewer
from skald.projections.boards import board_svg
from skald.projections.export.model import SECTION_ENDS
from skald.projections.export.readable import final_position
from skald.projections.registry import views_for
from skald.projections.table import Table

router = APIRouter(tags=["web"])
TYPES = {
    "html": "text/html; charset=utf-8",
    "css": "text/css",
    "js": "text/javascript",
    "svg": "image/svg+xml",
}
FILES = (
    "lobby.html",
    "table.html",
    "tournament.html",
    "app.css",
    "common.js",
    "lobby.js",
    "table.js",
    "notes.js",
    "share.js",
    "controls.js",
    "entropy.js",
    "narrow.js",
    "tournament.js",
    "tweetnacl.min.js",
    "seatkey.js",
    "icon.svg",
)
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-cache",
}
AtSeq = Annotated[int | None, Query(ge=1, le=MAX_SEQ, description="As right after this seq.")]


def _static(name: str) -> Response:
    body = (resources.files("skald.api") / "web" / name).read_bytes()
    return Response(body, media_type=TYPES[name.rsplit(".", 1)[1]], headers=HEADERS)


@router.get("/", include_in_schema=False)
def lobby() -> Response:
    """The lobby: list games, create one, hand out each seat's link."""
    return _static("lobby.html")


@router.get("/play/{game}", include_in_schema=False)
def table_page(game: str) -> Response:
    """A game's table (the page reads the game id from its path)."""
    del game
    return _static("table.html")


@router.get("/tournaments/{tournament}/page", include_in_schema=False)
def tournament_page(tournament: str) -> Response:
    """A tournament's page (the page reads the tournament id from its path)."""
    del tournament
    return _static("tournament.html")


@router.get("/favicon.ico", include_in_schema=False)
def favicon() -> Response:
    """The pages' icon (browsers ask for it here whatever the page says)."""
    return _static("icon.svg")


@router.get("/web/{name}", include_in_schema=False)
def asset(name: str) -> Response:
    """The page's scripts and style sheet."""
    if name not in FILES:
        raise NotFound(f"no web file {name!r}")
    return _static(name)


FromSeq = Annotated[int, Query(alias="from", ge=1, le=MAX_SEQ)]


@router.get(
    "/games/{game_id}/board.svg",
    responses={200: {"content": {"image/svg+xml": {}}}, **errors(401, 403, 404, 422)},
    openapi_extra=OPTIONAL_TOKEN,
)
def board(
    game_id: GameId,
    call: ReadDep,
    at: AtSeq = None,
    who: AsViewer = None,
    variation: VariationName = None,
) -> Response:
    """The board as an SVG drawn from the viewer's view (default: the caller's), of the
    game or of one of its variations (`at`: the variation's seq; default its last)."""
    viewer = looking_as(call.table, call.caller, who)
    svg = board_of(call.table, call.caller.game_id, viewer, at, variation)
    return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


def board_of(
    table: Table, game_id: str, viewer: Viewer, at: int | None, variation: str | None
) -> str:
    """The board's SVG as `viewer` sees it at `at`, of the game or of a variation."""
    if variation is not None:
        return _variation_board(table, game_id, viewer, int(variation[1:]), at)
    shown = table.show_revealed(game_id, viewer, at)
    with presenting(shown.seq):
        return board_svg(shown.game, shown.state, shown.players)


def _variation_board(
    table: Table, game_id: str, viewer: Viewer, number: int, at: int | None
) -> str:
    """A variation's board as `viewer` sees it; NotFound unless the viewer sees it (the
    same rule as the exports': its author's team, the referee, or everyone once revealed).
    The Histories facade has no public state reader yet, so this reads its HistoryStore."""
    histories = table.histories()
    store = histories._store
    state = store.game(game_id)
    effective = histories._effective(state, viewer)
    stream = variation_id(game_id, number)
    if store.visible_variation(game_id, number, effective) is None:  # missing or another's
        raise no_variation(stream)
    shown = store.state_at(game_id, stream, at)
    with presenting(shown.version):
        return board_svg(
            state.game, views_for(state.game).view(shown.rules, effective), state.players
        )


@router.get(
    "/games/{game_id}/lines", responses=errors(401, 403, 404, 422), openapi_extra=OPTIONAL_TOKEN
)
def lines(
    game_id: GameId,
    call: ReadDep,
    from_seq: FromSeq = 1,
    at: AtSeq = None,
    who: AsViewer = None,
) -> MsgspecJSON:
    """The log as one readable line per event, redacted for the viewer; a line that ends
    an act, a day or a feast carries `final`, the seq of its final position."""
    viewer = looking_as(call.table, call.caller, who)
    described = lines_of(call.table, call.caller.game_id, viewer, from_seq, at)
    return MsgspecJSON({"id": call.caller.game_id, "viewer": viewer.name, "lines": described})


def lines_of(
    table: Table, game_id: str, viewer: Viewer, from_seq: int, at: int | None
) -> list[dict[str, object]]:
    """The log's lines from `from_seq` up to `at` (default: the last) as `viewer` reads it."""
    summary = table.summary(game_id)
    if at is not None and at > summary.seq:
        raise NotFound(f"game {game_id} has no seq {at} yet")
    narrated = table.narrated(game_id, viewer, from_seq, at)
    envelopes = [told.envelope for told in narrated]
    described: list[dict[str, object]] = []
    for told in narrated:
        line: dict[str, object] = {
            "seq": told.envelope.seq,
            "actor": told.actor,
            "text": told.sentence,
        }
        if event_tag(told.envelope.event) in SECTION_ENDS:  # where its final position shows
            line["final"] = final_position(envelopes, told.envelope.seq)
        described.append(line)
    return described


def legal_in_words(table: Table, game_id: str, seat: int) -> dict[str, object]:
    """`legal_answer`, with `words`: each move whose notation names a thing by its code
    (Beowulf's `0#`), in the game's words (`play Throat C2`), for the move's button."""
    answer = legal_answer(table, game_id, seat)
    answer["words"] = table.moves_in_words(game_id, answer["moves"])  # type: ignore[arg-type]
    return answer


@router.get(
    "/games/{game_id}/table", responses=errors(401, 403, 404, 422), openapi_extra=OPTIONAL_TOKEN
)
def shown(
    game_id: GameId,
    call: ReadDep,
    at: AtSeq = None,
    who: AsViewer = None,
    variation: VariationName = None,
    board: Annotated[bool, Query(description="Include the board (as board.svg).")] = True,
    from_seq: Annotated[
        int | None,
        Query(alias="from", ge=1, le=MAX_SEQ, description="Include the log's lines from this seq."),
    ] = None,
    upto: Annotated[
        int | None, Query(ge=1, le=MAX_SEQ, description="The lines' last seq (default: the last).")
    ] = None,
    legal: Annotated[bool, Query(description="Include a seat's legal moves (as /legal).")] = False,
) -> MsgspecJSON:
    """What the table page draws after a change, in one read: the board at `at` (as
    `board.svg`), the log's lines from `from` up to `upto` (as `lines`), and for a seat
    asking for them its legal moves now with undo and redo (as `legal`); each null when
    not asked for (legal: also for a caller without a seat)."""
    caller, table = call.caller, call.table
    viewer = looking_as(table, caller, who)
    seat = caller.seat
    return MsgspecJSON(
        {
            "id": caller.game_id,
            "viewer": viewer.name,
            "board": board_of(table, caller.game_id, viewer, at, variation) if board else None,
            "lines": None
            if from_seq is None
            else lines_of(table, caller.game_id, viewer, from_seq, upto),
            "legal": legal_in_words(table, caller.game_id, seat)
            if legal and seat is not None
            else None,
        }
    )
