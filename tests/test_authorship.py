"""Who made each decision reads right everywhere a person reads the game: the log, the
audit, the readable exports. Bots at the desk ask before they take a seat a person played.
"""

from __future__ import annotations

import random
import secrets

import pytest

from skald.core.engine import Engine
from skald.core.errors import NeedsConfirmation
from skald.core.identity import sign_decision
from skald.core.store import EventStore
from skald.core.tournament.desk import Tournaments
from skald.events.common import Author, MoveMade
from skald.projections.bots.autoplay import greedy_bot, play_out, random_bot
from skald.projections.table import Table
from skald.projections.tournament.standings import play_round

PLAYERS = ["Ann", "Bob", "Cid", "Dag"]


@pytest.fixture
def desk(store: EventStore) -> tuple[Tournaments, Table]:
    table = Table(Engine(store))
    return Tournaments(store, table), table


def _sentences(table: Table, game: str) -> list[str]:
    return [told.sentence for told in table.narrated(game, table.viewer(game, "referee"))]


def test_the_desk_asks_before_bots_take_a_seat_a_person_played(
    desk: tuple[Tournaments, Table],
) -> None:
    tournaments, table = desk
    tid = tournaments.create("beowulf", PLAYERS, rounds=1, table_size=2)
    paired = tournaments.pair(tid)
    first = paired.tables[0]
    seat = table.turn(first.game).to_act[0]
    table.move(first.game, seat, table.legal(first.game, seat)[0])
    before = table.turn(first.game).seq
    with pytest.raises(NeedsConfirmation) as asked:
        play_round(tournaments, table, tid, greedy_bot)
    assert f"table {first.table}: {first.seats[seat]}" in str(asked.value)
    assert table.turn(first.game).seq == before  # nothing was played
    untouched = paired.tables[1]
    assert table.turn(untouched.game).seq == table.turn(untouched.game).seq
    played = play_round(tournaments, table, tid, greedy_bot, take_seats=True)
    assert {p.game for p in played} == {t.game for t in paired.tables}
    said = _sentences(table, first.game)
    player = first.seats[seat]
    assert f"{player} chose “" in said[said.index(next(s for s in said if "chose" in s))]
    assert any(s.startswith("The organiser's greedy bot chose") for s in said)
    audit = table.audit(first.game, table.viewer(first.game, "referee"))
    assert audit.verdict == "clean"
    stint = next(a for a in audit.authors if a.player == player).stints[0]
    assert stint.who == "the organiser's greedy bot"
    assert stint.decision == 2


def test_a_round_nobody_played_is_played_without_a_question(
    desk: tuple[Tournaments, Table],
) -> None:
    tournaments, table = desk
    tid = tournaments.create("beowulf", PLAYERS, rounds=1, table_size=2)
    tournaments.pair(tid)
    assert len(play_round(tournaments, table, tid, random_bot)) == 2


def test_signed_bot_and_chance_decisions_read_right_in_log_audit_and_exports(
    table: Table,
) -> None:
    game = table.create("beowulf", ("Ann", "Bob"), seed="authors", reproducible=True)
    ann = secrets.token_bytes(32)
    for _ in range(6):  # Ann signs her first decisions; Bob plays unsigned
        seat = table.turn(game).to_act[0]
        legal = table.legal_now(game, seat)
        move = legal.moves[0]
        if seat == 0:
            register = 0 not in dict(legal.keys)
            signing = sign_decision(ann, game, 0, legal.seq, legal.head, "move", move, register)
            table.move(game, 0, move, signing=signing)
        else:
            table.move(game, seat, move)
    play_out(table, game, greedy_bot, random.Random(3), started_by="the organiser")
    said = _sentences(table, game)
    assert "Ann chose “" in "\n".join(said)
    assert any(
        s.startswith("The organiser's greedy bot chose") and s.endswith("for Ann.") for s in said
    )
    assert any(s.startswith("the game") or "shuffled" in s for s in said)  # chance: the game's
    audit = table.audit(game, table.viewer(game, "referee"))
    assert audit.verdict == "clean"
    ann_seat = audit.authors[0]
    assert ann_seat.signed >= 1
    assert ann_seat.signed < ann_seat.decisions
    assert ann_seat.stints[0].who == "the organiser's greedy bot"
    markdown = table.histories().export(game, table.viewer(game, "referee"), "md")
    assert "Ann: " in markdown
    assert "signed by the seat's own key" in markdown
    assert "seat was played by the organiser's greedy bot" in markdown
    events = [e.event for e in table.log(game, table.viewer(game, "referee"))]
    bot_moves = [e for e in events if isinstance(e, MoveMade) and e.by is not None]
    assert all(
        e.by == Author(kind="bot", name="greedy", started_by="the organiser") for e in bot_moves
    )
