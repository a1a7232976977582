"""Duplicate rounds stay apart: who may read a game of a duplicate round while it is played.

Every table of a duplicate round plays one deal, so one table's public play tells another
table's seats what is hidden at their own (the tiles an opponent holds, the next draw).
Until every game of the round has finished, a game of it is *sealed*: only its own seats
and its referee may read it; anyone else, the other tables' players included, may know its
players and whether it is over, nothing more: its summary and its line in the game list
withhold its seq, whose turn it is and its outcome (`withheld`), since how far one table's
seq moves at each decision, and who acts next, tell what was played there (a Beowulf
ability tile adds its offer and keeps the same seat to act) from the deal every table of
the round holds. Once every game that plays the round's deal (each table's first game)
has an outcome, the round is open and the game reads as its table options say, like any
other. A replay a ruling orders is not one of those games: it plays a fresh deal of its
own, never the round's (core/tournament/disputes.py `_replay`), so its public play tells
nobody anything about the round's deal. It reads like any game, and a round that has
opened stays open when a replay is ordered (what was readable, and may have been shared,
does not close again).

`require_readable` is the one decision; the HTTP service applies it to every read of a
game but its summary (`api.deps.read_call`). The CLI does not: it opens the store itself,
so whoever runs it holds every game's record and key already (README, duplicate rounds).

Which games are a round's: the desk names them `TOURNAMENT.rN.tK` (a replay
`TOURNAMENT.rN.tK.replayM`). A game id of that shape is looked up in that tournament's
checked stream, and only a table's first game in round N, in a round with a shared deal,
is sealed: a replay, or a game merely named like a tournament's, is not. Two cases are
closed when in doubt: a duplicate tournament's game of the round being paired (`pair`
creates the games, then records the round: in between, the stream does not list them
yet), and the games named like a tournament's own when its stream fails its chain check
(it cannot say which are open). The stream itself holds no result of a sealed round: the
desk takes a duplicate round's results in once the round is over (`Tournaments.collect`).
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from skald.core.errors import CorruptRecord, Forbidden, NotFound
from skald.core.tournament.desk import Tournaments
from skald.core.tournament.games import GameDesk
from skald.events.viewer import Viewer

ROUND_GAME = re.compile(
    r"(?P<tournament>.+)\.r(?P<round>[1-9][0-9]{0,5})\.t[1-9][0-9]{0,5}(?:\.replay[1-9][0-9]{0,5})?"
)
"""The shape of the id the desk gives a round's game (core/tournament/rounds.py `table_game_id`)."""


class SealedRound(msgspec.Struct, frozen=True, kw_only=True):
    """A duplicate round some of whose games are still being played."""

    tournament: str
    round: int
    playing: int  # games of the round without an outcome yet (0: its stream is broken)


def may_be_sealed(game_id: str) -> bool:
    """Whether `game_id` has the shape of a round's game (no I/O: other games never are)."""
    return ROUND_GAME.fullmatch(game_id) is not None


def sealed_round(tournaments: Tournaments, games: GameDesk, game_id: str) -> SealedRound | None:
    """The duplicate round `game_id` belongs to while it is not over, else None."""
    shape = ROUND_GAME.fullmatch(game_id)
    if shape is None:
        return None
    tournament, number = shape["tournament"], int(shape["round"])
    try:
        state = tournaments.state(tournament)
    except NotFound:
        return None
    except CorruptRecord:
        return SealedRound(tournament=tournament, round=number, playing=0)
    paired = next((r for r in state.rounds if r.round == number), None)
    if paired is None:
        # `pair` creates a round's games before it records the round: a game of a round
        # being paired is sealed in a duplicate tournament (closed while in doubt)
        being_paired = number == len(state.rounds) + 1 and state.config.format == "duplicate"
        return SealedRound(tournament=tournament, round=number, playing=1) if being_paired else None
    if paired.deal is None:
        return None
    dealt = [(*table.replaced, table.game)[0] for table in paired.tables]  # not replays
    if game_id not in dealt:
        return None
    playing = sum(1 for game in dealt if games.summary(game).outcome is None)
    return SealedRound(tournament=tournament, round=number, playing=playing) if playing else None


def require_readable(
    tournaments: Tournaments, games: GameDesk, game_id: str, viewer: Viewer, seat: int | None
) -> None:
    """Forbidden unless the caller (its viewer, and its seat of this game if any) may read
    `game_id` beyond its summary (see the module's doc): its seats and its referee always,
    anyone else once its round is over. The refusal names the round, nothing played in it."""
    if seat is not None or viewer.referee or not may_be_sealed(game_id):
        return
    sealed = sealed_round(tournaments, games, game_id)
    if sealed is not None:
        raise Forbidden(refusal(game_id, sealed))


def is_sealed_for(
    tournaments: Tournaments, games: GameDesk, game_id: str, viewer: Viewer, seat: int | None
) -> bool:
    """Whether `require_readable` refuses this caller: what a summary then withholds."""
    if seat is not None or viewer.referee or not may_be_sealed(game_id):
        return False
    return sealed_round(tournaments, games, game_id) is not None


def withheld(summary: msgspec.Struct) -> dict[str, Any]:
    """A game's summary (or its line in the game list) as someone outside a sealed round
    may know it: how far it is (`seq`), whose turn it is and its outcome are withheld,
    since one table's seq steps and turns tell the others what was played from their
    shared deal (a Beowulf ability tile adds its offer and keeps the same seat to act);
    the game and its players stay, `sealed` says so, and `finished` whether it is over
    (where the summary has an outcome)."""
    shown = msgspec.structs.asdict(summary)
    shown.update(seq=None, sealed=True)
    if "outcome" in shown:
        shown.update(finished=shown["outcome"] is not None, outcome=None)
    if "to_act" in shown:
        shown["to_act"] = []
    return shown


def refusal(game_id: str, sealed: SealedRound) -> str:
    """Why a sealed game is not shown (public facts only: the game, its round)."""
    if not sealed.playing:
        return (
            f"game {game_id} is named as a table of tournament {sealed.tournament}, whose "
            "record does not check out: only its seats and its referee may read it"
        )
    return (
        f"game {game_id} is a table of duplicate round {sealed.round} of tournament "
        f"{sealed.tournament}: until every table of the round has finished, only its seats "
        "and its referee may read it; anyone else may know whether it is over, nothing more"
    )
