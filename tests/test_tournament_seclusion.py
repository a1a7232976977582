"""The one access decision for a duplicate round's games (core/tournament/seclusion.py),
in process on the toy game: sealed while any game of the round plays, to everyone but
its seats and referee; open once all have finished, and not sealed again by a replay
(which plays a fresh deal and is never sealed itself); never for a
Swiss round's game or a game merely named like a round's; closed when the tournament's
stream does not check out; and no route but the summary may skip it. (Over HTTP:
tests/test_duplicate_seclusion.py.)"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from fastapi import APIRouter
from fastapi.routing import APIRoute

from skald.api.deps import PUBLIC_PATHS, PublicDep, ReadDep, SeatDep, takes_public_call
from skald.api.routes import audit, events, games, history, moves, web
from skald.core.engine import Engine
from skald.core.errors import Forbidden
from skald.core.store import EventStore
from skald.core.tournament.desk import Tournaments
from skald.core.tournament.seclusion import require_readable, sealed_round
from skald.events.viewer import REFEREE, SPECTATOR, seat_viewer
from skald.projections.autoplay import play_out, random_bot
from skald.projections.table import Table
from tests.forgery import tamper_first_result

PLAYERS = ["Ann", "Bob", "Cid", "Dag"]


@pytest.fixture
def desk(sqlite_store: EventStore) -> tuple[Tournaments, Table]:
    table = Table(Engine(sqlite_store))
    return Tournaments(sqlite_store, table), table


def _readable(tournaments: Tournaments, table: Table, game: str, seat: int | None) -> bool:
    viewer = SPECTATOR if seat is None else seat_viewer(seat, table.players(game)[seat])
    try:
        require_readable(tournaments, table, game, viewer, seat)
    except Forbidden:
        return False
    return True


def test_sealed_while_any_game_of_the_round_plays_and_not_again_for_a_replay(
    desk: tuple[Tournaments, Table],
) -> None:
    tournaments, table = desk
    tid = tournaments.create("toy", PLAYERS, rounds=1, format="duplicate", table_size=2)
    first, second = (t.game for t in tournaments.pair(tid).tables)
    play_out(table, first, random_bot, random.Random(1))
    sealed = sealed_round(tournaments, table, first)
    assert sealed is not None
    assert (sealed.tournament, sealed.round, sealed.playing) == (tid, 1, 1)
    assert not _readable(tournaments, table, first, None)
    assert _readable(tournaments, table, first, 0)
    require_readable(tournaments, table, second, REFEREE, None)  # the referee always
    play_out(table, second, random_bot, random.Random(2))
    assert sealed_round(tournaments, table, first) is None
    assert _readable(tournaments, table, second, None)

    tournaments.collect(tid)
    player = table.players(second)[0]
    tournaments.dispute(tid, second, player, "a tile went missing")
    ruling = tournaments.settle(tid, second, "replayed", "deal it again")
    assert ruling.replay is not None
    # the replay deals afresh: the open round stays open, and the replay is read like any game
    assert sealed_round(tournaments, table, ruling.replay) is None
    for game in (first, second, ruling.replay):
        assert _readable(tournaments, table, game, None), game
    play_out(table, ruling.replay, random_bot, random.Random(3))
    assert all(_readable(tournaments, table, g, None) for g in (first, second, ruling.replay))


def test_a_replay_ordered_while_the_round_plays_leaves_the_round_sealed(
    desk: tuple[Tournaments, Table],
) -> None:
    """A table's game finished and was ruled replayed while another table still plays the
    round's deal: the finished first game stays sealed until that table is done (it holds
    the deal), the replay (a fresh deal) is not sealed."""
    tournaments, table = desk
    tid = tournaments.create("toy", PLAYERS, rounds=1, format="duplicate", table_size=2)
    first, second = (t.game for t in tournaments.pair(tid).tables)
    play_out(table, first, random_bot, random.Random(1))
    tournaments.collect(tid)
    tournaments.dispute(tid, first, table.players(first)[0], "a tile went missing")
    replay = tournaments.settle(tid, first, "replayed", "deal it again").replay
    assert replay is not None
    assert not _readable(tournaments, table, first, None)
    assert not _readable(tournaments, table, second, None)
    assert _readable(tournaments, table, replay, None)
    play_out(table, second, random_bot, random.Random(2))
    assert _readable(tournaments, table, first, None)


def test_never_for_a_swiss_round_or_a_game_named_like_a_round(
    desk: tuple[Tournaments, Table],
) -> None:
    tournaments, table = desk
    tid = tournaments.create("toy", PLAYERS, rounds=1, table_size=2)
    swiss = tournaments.pair(tid).tables[0].game
    assert sealed_round(tournaments, table, swiss) is None
    lookalike = table.create("toy", ["Eir", "Fay"], game_id="nowhere.r1.t1")
    assert sealed_round(tournaments, table, lookalike) is None
    assert _readable(tournaments, table, lookalike, None)


def test_closed_when_the_tournament_does_not_check_out(tmp_path: Path) -> None:
    path = tmp_path / "broken.db"
    store = EventStore(f"sqlite:///{path}")
    try:
        table = Table(Engine(store))
        tournaments = Tournaments(store, table)
        tid = tournaments.create("toy", PLAYERS, rounds=1, format="duplicate", table_size=2)
        games = [t.game for t in tournaments.pair(tid).tables]
        for number, game in enumerate(games):
            play_out(table, game, random_bot, random.Random(number))
        tournaments.collect(tid)
        assert _readable(tournaments, table, games[0], None)
        tamper_first_result(path, tid)
        assert not _readable(tournaments, table, games[0], None)
        assert _readable(tournaments, table, games[0], 1)
    finally:
        store.dispose()


def test_only_the_summary_reads_a_game_past_the_seal() -> None:
    """`create_app` refuses a route that `takes_public_call` finds outside `PUBLIC_PATHS`:
    a new read of a game (say `/possible`) must take `ReadDep` or `SeatDep`."""
    router = APIRouter()

    @router.get("/games/{game_id}/sealed")
    async def sealed(call: ReadDep) -> None: ...

    @router.get("/games/{game_id}/acting")
    async def acting(call: SeatDep) -> None: ...

    @router.get("/games/{game_id}/unsealed")
    async def unsealed(call: PublicDep) -> None: ...

    found = {
        r.path: takes_public_call(r.dependant) for r in router.routes if isinstance(r, APIRoute)
    }
    assert found == {
        "/games/{game_id}/sealed": False,
        "/games/{game_id}/acting": False,
        "/games/{game_id}/unsealed": True,
    }
    served = (moves, games, events, audit, history, web)
    summaries = [
        (sorted(r.methods), r.path)
        for module in served
        for r in module.router.routes
        if isinstance(r, APIRoute) and takes_public_call(r.dependant)
    ]
    assert summaries == [(["GET"], path) for path in PUBLIC_PATHS]
