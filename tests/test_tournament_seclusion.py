"""The one access decision for a duplicate round's games (core/tournament/seclusion.py),
in process on the toy game: sealed while any game of the round plays, to everyone but
its seats and referee; open once all have finished, and not sealed again by a replay
(which plays a fresh deal and is never sealed itself); sealed while its round is being
paired; its results taken in only once the round is over; never for a
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
from skald.projections.bots.autoplay import play_out, random_bot
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


def test_a_duplicate_round_s_results_wait_until_the_round_is_over(
    desk: tuple[Tournaments, Table],
) -> None:
    """The tournament's stream is public: a finished table's scores, recorded while another
    table still plays the same deal, would tell that table what it holds (review finding:
    the summary, standings and export showed table 1's 65 to 135). Results are taken in
    once every table of the round has finished."""
    tournaments, table = desk
    tid = tournaments.create("toy", PLAYERS, rounds=1, format="duplicate", table_size=2)
    first, second = (t.game for t in tournaments.pair(tid).tables)
    play_out(table, first, random_bot, random.Random(1))
    assert tournaments.collect(tid) == []
    assert all(t.result is None for t in tournaments.state(tid).rounds[0].tables)
    [waiting] = tournaments.take_in(tid).waiting
    assert (waiting.round, waiting.table, waiting.game, waiting.playing) == (1, 1, first, (2,))
    assert waiting.words() == (
        "round 1, table 1 has finished; a duplicate round's results are taken in together, "
        "once table 2 has finished too"
    )
    play_out(table, second, random_bot, random.Random(2))
    recorded = tournaments.collect(tid)
    assert tournaments.take_in(tid).waiting == []
    assert sorted(event.game for event in recorded) == sorted((first, second))
    assert all(event.verdict for event in recorded)  # the audits are revealed with them


def test_a_game_of_a_round_being_paired_is_sealed(desk: tuple[Tournaments, Table]) -> None:
    """`pair` creates a round's games before it records the round (review finding: a
    spectator's live channel let in during that gap followed the table after the seal). A
    duplicate tournament's game of the round being paired is sealed meanwhile; of a later
    round, or of a Swiss tournament, it is a lookalike and is not."""
    tournaments, table = desk
    tid = tournaments.create("toy", PLAYERS, rounds=2, format="duplicate", table_size=2)
    pairing = table.create("toy", PLAYERS[:2], game_id=f"{tid}.r1.t1")
    assert not _readable(tournaments, table, pairing, None)
    assert _readable(tournaments, table, pairing, 0)
    later = table.create("toy", PLAYERS[:2], game_id=f"{tid}.r2.t1")
    assert _readable(tournaments, table, later, None)
    swiss = tournaments.create("toy", PLAYERS, rounds=1, table_size=2)
    lookalike = table.create("toy", PLAYERS[:2], game_id=f"{swiss}.r1.t1")
    assert _readable(tournaments, table, lookalike, None)


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
