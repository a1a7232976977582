"""A table of a duplicate round replayed by a ruling: a fresh deal, never the round's, and
how it is scored (core/tournament/disputes.py `_replay`, projections/tournament/standings.py).

Its seats have played the round's deal, and once the round is over every table's play
opens, so the replay deals something new. Its result counts in the standings like any
table's (points, tie-breaks, ratings); the duplicate seat comparison compares the tables
that played the round's deal only, and lists the replay in `apart`, compared with nothing.
(The review's attack on the old behaviour, against a real server, is in
tests/test_hostile_seat_attacks.py.)"""

from __future__ import annotations

import random

import pytest

from skald.core.engine import Engine
from skald.core.store import EventStore
from skald.core.tournament.desk import Tournaments
from skald.core.tournament.standing import seat_points
from skald.core.tournament.state import fold
from skald.events.common import Outcome
from skald.events.tournament import (
    DisputeOpened,
    DisputeSettled,
    ResultRecorded,
    RoundPaired,
    SeatedTable,
    TournamentCreated,
)
from skald.events.viewer import REFEREE
from skald.projections.bots.autoplay import play_out, random_bot
from skald.projections.table import Table
from skald.projections.tournament.standings import standings

PLAYERS = ["Ann", "Bob", "Cid", "Dag", "Eir", "Fay"]


@pytest.fixture
def desk(store: EventStore) -> tuple[Tournaments, Table]:
    table = Table(Engine(store))
    return Tournaments(store, table), table


def test_a_replay_deals_fresh_counts_in_the_standings_and_is_compared_with_nothing(
    desk: tuple[Tournaments, Table],
) -> None:
    tournaments, table = desk
    tid = tournaments.create("toy", PLAYERS, rounds=1, format="duplicate", table_size=2)
    paired = tournaments.pair(tid)
    for k, seated in enumerate(paired.tables):
        play_out(table, seated.game, random_bot, random.Random(k))
    tournaments.collect(tid)
    third = paired.tables[2]
    tournaments.dispute(tid, third.game, third.seats[0], "a misdeal")
    ruling = tournaments.settle(tid, third.game, "replayed", "deal it again")
    assert ruling.replay is not None
    assert ruling.deal == f"{paired.deal}/table-3/replay-1"
    play_out(table, ruling.replay, random_bot, random.Random(9))
    tournaments.collect(tid)

    round_seed = table.audit(paired.tables[0].game, REFEREE).seed
    assert table.audit(third.game, REFEREE).seed == round_seed  # the table's first game
    assert table.audit(ruling.replay, REFEREE).seed not in (None, round_seed)

    state = tournaments.state(tid)
    assert state.rounds[0].complete
    current = standings(state)
    # the replay's result counts for its players like any table's
    outcome = table.summary(ruling.replay).outcome
    assert outcome is not None
    earned = seat_points(state.config.points, outcome, 2)
    rows = {row.player: row for row in current.standings}
    for seat, player in enumerate(third.seats):
        assert rows[player].games == 1
        assert rows[player].points == pytest.approx(float(earned[seat]))
    # the comparison holds the tables that played the round's deal, and only those
    compared = {r.table for c in current.duplicate for r in c.results}
    assert compared == {1, 2}
    for comparison in current.duplicate:
        assert sum(r.delta for r in comparison.results) == pytest.approx(0)
    [apart] = current.apart
    assert (apart.round, apart.table, apart.game, apart.deal) == (1, 3, ruling.replay, ruling.deal)
    assert apart.players == third.seats
    assert "compared with no other table" in apart.why


def test_a_second_replay_deals_fresh_again(desk: tuple[Tournaments, Table]) -> None:
    tournaments, table = desk
    tid = tournaments.create("toy", PLAYERS[:4], rounds=1, format="duplicate", table_size=2)
    paired = tournaments.pair(tid)
    for k, seated in enumerate(paired.tables):
        play_out(table, seated.game, random_bot, random.Random(k))
    tournaments.collect(tid)
    game, seats = paired.tables[0].game, paired.tables[0].seats
    deals = []
    for number in (1, 2):
        tournaments.dispute(tid, game, seats[1], "again")
        ruling = tournaments.settle(tid, game, "replayed", "deal it again")
        assert ruling.replay is not None
        play_out(table, ruling.replay, random_bot, random.Random(10 + number))
        tournaments.collect(tid)
        deals.append((ruling.deal, table.audit(ruling.replay, REFEREE).seed))
        game = ruling.replay
    round_seed = table.audit(paired.tables[0].game, REFEREE).seed
    assert len({deal for deal, _ in deals}) == len({seed for _, seed in deals}) == 2
    assert round_seed not in {seed for _, seed in deals}
    assert [a.table for a in standings(tournaments.state(tid)).apart] == [1]


def test_a_replay_recorded_before_fresh_deals_stays_in_the_comparison() -> None:
    """A stream written when a replay dealt the round's deal again (its ruling names no
    deal) is scored as it was played: the replay is compared with its round's tables."""
    seats = (("Ann", "Bob"), ("Cid", "Dag"))
    tables = tuple(SeatedTable(table=k, game=f"T.r1.t{k}", seats=s) for k, s in enumerate(seats, 1))

    def result(table: int, game: str, scores: tuple[int, int]) -> ResultRecorded:
        ranking = ((0,), (1,)) if scores[0] > scores[1] else ((1,), (0,))
        outcome = Outcome(termination="completed", ranking=ranking, scores=scores)
        return ResultRecorded(
            round=1, table=table, game=game, outcome=outcome, chain="ok", head="h"
        )

    events = [
        TournamentCreated(
            name="old", game="toy", format="duplicate", rounds=1, table_size=2, players=PLAYERS[:4]
        ),
        RoundPaired(round=1, tables=tables, deal="T/round-1"),
        result(1, "T.r1.t1", (5, 3)),
        result(2, "T.r1.t2", (2, 4)),
        DisputeOpened(round=1, table=2, game="T.r1.t2", player="Cid", reason="misdeal"),
        DisputeSettled(
            round=1, table=2, game="T.r1.t2", ruling="replayed", reason="r", replay="T.r1.t2.r1"
        ),
        result(2, "T.r1.t2.r1", (7, 1)),
    ]
    current = standings(fold("T", events))
    assert current.apart == ()
    assert {r.table for c in current.duplicate for r in c.results} == {1, 2}
    seat0 = next(c for c in current.duplicate if c.seat == 0)
    assert {r.player: r.delta for r in seat0.results} == {"Ann": -1.0, "Cid": 1.0}
