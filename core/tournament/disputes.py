"""Disputes and rulings: a seated player's dispute of a recorded result, and the
referee's ruling on a disputed or held result (it stands, is adjusted to a new ranking,
or is replayed: a new game at the same table, in a duplicate round on a fresh deal of its
own), each checked into its event. Nothing here writes: the desk
(core/tournament/desk.py) appends.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from skald.core.errors import Forbidden, IllegalMove, InvalidOption, NotFound
from skald.core.tournament.games import GameDesk
from skald.core.tournament.rounds import new_game
from skald.core.tournament.state import RoundState, TableState, TournamentState
from skald.events.common import Outcome
from skald.events.tournament import RULINGS, DisputeOpened, DisputeSettled


def opened(state: TournamentState, game: str, player: str, reason: str) -> DisputeOpened:
    """`player`'s dispute of the result recorded for `game`, or the first problem with
    it (Forbidden when the player did not sit at the game's table)."""
    paired, table = _table(state, game)
    if player not in table.seats:
        raise Forbidden(f"{player!r} did not play {game}; only its seats may dispute it")
    if table.result is None:
        raise IllegalMove(f"{game} has no recorded result to dispute")
    if table.dispute is not None:
        raise IllegalMove(f"{game} is disputed already")
    return DisputeOpened(
        round=paired.round,
        table=table.table,
        game=game,
        player=player,
        reason=_reason(reason),
    )


def settled(
    state: TournamentState,
    games: GameDesk,
    game: str,
    ruling: str,
    reason: str,
    ranking: Sequence[Sequence[str]] | None,
) -> DisputeSettled:
    """The referee's ruling on `game`'s disputed or held result, or the first problem
    with it; a replay's game is created through `games`."""
    paired, table = _table(state, game)
    if ruling not in RULINGS:
        raise InvalidOption(f"ruling {ruling!r}: must be one of {', '.join(RULINGS)}")
    if table.dispute is None and not table.held:
        raise IllegalMove(f"{game} has no open dispute and no held result to rule on")
    outcome = replay = deal = None
    if ruling == "adjusted":
        outcome = _adjusted(table, ranking)
    elif ranking:
        raise InvalidOption("a ranking is given only with the ruling 'adjusted'")
    if ruling == "replayed":
        replay, deal = _replay(games, state, paired, table)
    return DisputeSettled(
        round=paired.round,
        table=table.table,
        game=game,
        ruling=ruling,  # type: ignore[arg-type]  # checked against RULINGS above
        reason=_reason(reason),
        outcome=outcome,
        replay=replay,
        deal=deal,
    )


def _replay(
    games: GameDesk, state: TournamentState, paired: RoundState, table: TableState
) -> tuple[str, str | None]:
    """A new game for the table, and in a duplicate round the fresh deal it plays. Not
    the round's deal: the table's seats have played it (and after the round every
    table's play opens), so dealt again it would hold no secret from them."""
    number = len(table.replaced) + 1
    deal = deal_seed = None
    if paired.deal is not None:
        deal = f"{paired.deal}/table-{table.table}/replay-{number}"
        deal_seed = secrets.token_hex(32)
    game = new_game(
        games,
        state,
        paired.round,
        table.table,
        table.seats,
        deal,
        deal_seed,
        suffix=f".replay{number}",
    )
    return game, deal


def _table(state: TournamentState, game: str) -> tuple[RoundState, TableState]:
    found = state.table_of(game)
    if found is None:
        raise NotFound(f"game {game!r} is not at a table of tournament {state.id}")
    return found


def _reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise IllegalMove("give a reason")
    return reason


def _adjusted(table: TableState, ranking: Sequence[Sequence[str]] | None) -> Outcome:
    if not ranking:
        raise InvalidOption("an adjusted result needs the new ranking, e.g. 'Bob>Ann=Cid'")
    named = [name for group in ranking for name in group]
    if sorted(named) != sorted(table.seats):
        raise InvalidOption(f"the ranking must name each of {', '.join(table.seats)} exactly once")
    seats = tuple(tuple(sorted(table.seats.index(n) for n in group)) for group in ranking)
    before = table.result.outcome if table.result is not None else None
    return Outcome(
        termination="adjusted",
        ranking=seats,
        scores=before.scores if before else (0,) * len(table.seats),
        tiebreaks=before.tiebreaks if before else (),
    )
