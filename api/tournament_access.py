"""Who is calling about a tournament, as `Annotated` dependencies for its routes.

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

The games a round creates keep tokens of their own, and nobody is given a game's referee
token: a referee reads every hand, and an organiser may sit at a table too (a club's
organiser often plays), so the organiser's token never opens a game's hidden values; the
desk attaches each result's audit itself, which is what a ruling needs. A seated
player asks `POST .../tables/mine` with its tournament token for a seat token of the game
at its table in the latest round: a fresh token each call (tokens are kept as hashes, so
none is shown twice; the earlier ones stay valid), which acts only for that seat.

`identify` reads the caller from its token, and the tournament through the desk's
chain check (`Tournaments.state`): on a stream that fails it, every route answers 500
`corrupt_record` naming the seq, and nothing is shown or written. Each route about one
tournament (`api.routes.tournaments`) takes exactly one of `CallerDep` (anyone),
`MemberDep`, `OrganiserDep` or `PlayerDep`, except `GET .../verify`, which must answer on
a broken stream: it takes `CheckerDep` (anyone; a presented token must still be this
tournament's), which reads the stream header and the tokens only.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from fastapi import Depends, Path, Request

from skald.api.deps import Services, ServicesDep, presented_token
from skald.api.offload import offload
from skald.core.errors import Forbidden, Unauthorized
from skald.core.seats import check_game_id
from skald.core.tournament.desk import Tournaments

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


class TournamentCaller(msgspec.Struct, frozen=True):
    """Who calls about one tournament: its organiser, one of its players, or anyone."""

    tournament: str
    organiser: bool = False
    player: str | None = None


def tournament_desk(services: Services) -> Tournaments:
    """The tournaments service (`create_app` sets it)."""
    desk = services.tournaments
    assert desk is not None, "create_app sets the tournaments service"
    return desk


def identify(services: Services, tournament: str, request: Request) -> TournamentCaller:
    """The caller from its token: NotFound first for an unknown tournament, then
    `stream.BrokenChain` (500) for a stream that fails its check, 401 for a token that is
    not one of its own."""
    check_game_id(tournament)
    state = tournament_desk(services).state(tournament)
    token = presented_token(request)
    if token is None:
        return TournamentCaller(tournament)
    grant = services.tokens.grant(tournament, token)
    if grant is None:
        raise Unauthorized(f"that token is not one of tournament {tournament}")
    if grant.seat is None:
        return TournamentCaller(tournament, organiser=True)
    return TournamentCaller(tournament, player=state.players[grant.seat])


def checker(services: Services, tournament: str, request: Request) -> str:
    """The tournament id for `verify`, without reading its stream: NotFound for an
    unknown tournament, 401 for a token that is not one of its own."""
    check_game_id(tournament)
    tournament_desk(services).header(tournament)
    token = presented_token(request)
    if token is not None and services.tokens.grant(tournament, token) is None:
        raise Unauthorized(f"that token is not one of tournament {tournament}")
    return tournament


async def get_checker(services: ServicesDep, tournament_id: TournamentId, request: Request) -> str:
    """Anyone about to check the stream (a presented token must be this tournament's)."""
    return await offload(checker, services, tournament_id, request)


CheckerDep = Annotated[str, Depends(get_checker)]


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
