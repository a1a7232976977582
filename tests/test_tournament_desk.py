"""Whole tournaments through the desk: bots play real games, results are taken in checked,
an export replays to the same standings (ratings included), a doctored game is held and
overturned, duplicate rounds keep their deal sealed; the CLI writes nothing on bad input."""

from __future__ import annotations

import random

import msgspec
import pytest
from typer.testing import CliRunner

from skald.cli.main import app
from skald.core.engine import Engine
from skald.core.errors import Forbidden, IllegalMove, InvalidOption, NotFound
from skald.core.store import EventStore
from skald.core.tournament.desk import Tournaments
from skald.events.viewer import REFEREE, SPECTATOR
from skald.projections.bots.autoplay import play_out, random_bot
from skald.projections.table import Table
from skald.projections.tournament.export import export_jsonl
from skald.projections.tournament.standings import standings
from tests.conftest import engine_of
from tests.forgery import copy_games, flip_the_winner

PLAYERS = ["Ann", "Bob", "Cid", "Dag", "Eir"]


@pytest.fixture
def desk(store: EventStore) -> tuple[Tournaments, Table]:
    table = Table(Engine(store))
    return Tournaments(store, table), table


def _play(desk: Tournaments, table: Table, tournament: str, seed: int = 0) -> None:
    for number, (_, _, game) in enumerate(desk.open_games(tournament)):
        play_out(table, game, random_bot, random.Random(seed + number))
    desk.collect(tournament)


def test_a_swiss_event_replays_from_its_export(
    desk: tuple[Tournaments, Table], tmp_path: object
) -> None:
    tournaments, table = desk
    tid = tournaments.create("toy", PLAYERS, rounds=3, table_size=3, seed="s")
    for number in range(3):
        paired = tournaments.pair(tid)
        assert sorted(p for t in paired.tables for p in t.seats) == sorted(PLAYERS)
        assert [len(t.seats) for t in paired.tables] == [3, 2]
        with pytest.raises(IllegalMove, match="not over"):
            tournaments.pair(tid)
        _play(tournaments, table, tid, seed=10 * number)
        taken = tournaments.state(tid).rounds[-1].tables
        assert all(t.result is not None and t.result.chain == "ok" for t in taken)
        assert all(t.verdict == "clean" for t in taken)  # reveal=end: audited at once
    live = standings(tournaments.state(tid))
    assert live.round == 3
    assert sum(row.games for row in live.standings) == 3 * 5
    assert tournaments.verify(tid).ok
    # replay the export into another store: the same standings, ratings included
    other = EventStore("sqlite://")
    copy_games(tournaments.store, other, tid)  # its results are only what its games say
    replayed = Tournaments(other, Table(Engine(other)))
    assert replayed.import_jsonl(export_jsonl(tournaments.envelopes(tid))) == tid
    assert msgspec.json.encode(standings(replayed.state(tid))) == msgspec.json.encode(live)
    assert replayed.verify(tid).ok
    with pytest.raises(IllegalMove, match="all 3 rounds"):
        tournaments.pair(tid)


def test_a_changed_export_is_refused(desk: tuple[Tournaments, Table]) -> None:
    tournaments, _table = desk
    tid = tournaments.create("toy", PLAYERS, rounds=1, table_size=3)
    tournaments.pair(tid)
    text = export_jsonl(tournaments.envelopes(tid)).replace('"Ann"', '"Ann2"', 1)
    other = EventStore("sqlite://")
    with pytest.raises(IllegalMove, match="does not verify at seq 1"):
        Tournaments(other, Table(Engine(other))).import_jsonl(text)
    assert other.version(tid) == 0


def test_an_anomalous_game_is_held_then_overturned_and_the_standings_follow(
    desk: tuple[Tournaments, Table],
) -> None:
    tournaments, table = desk
    tid = tournaments.create("toy", ["Ann", "Bob"], rounds=1, table_size=2)
    game = tournaments.pair(tid).tables[0].game
    play_out(table, game, random_bot, random.Random(1))
    # the forger rewrites the outcome so the other player wins, and re-hashes the chain
    honest = flip_the_winner(engine_of(table).store, table.log(game, REFEREE))
    engine_of(table)._cache.clear()  # type: ignore[attr-defined]
    [result] = tournaments.collect(tid)
    state = tournaments.state(tid)
    assert state.rounds[0].tables[0].held  # the audit found the anomaly: counts nothing
    assert all(row.points == 0 for row in standings(state).standings)
    seats = state.rounds[0].tables[0].seats
    with pytest.raises(Forbidden):
        tournaments.dispute(tid, game, "Zed", "not mine")
    tournaments.dispute(tid, game, seats[0], "the log was changed")
    honest_winner = seats[honest.ranking[0][0]]
    loser = next(p for p in seats if p != honest_winner)
    with pytest.raises(InvalidOption):
        tournaments.settle(tid, game, "adjusted", "audit", [[honest_winner]])
    tournaments.settle(
        tid, game, "adjusted", "the audit shows the honest end", [[honest_winner], [loser]]
    )
    rows = {row.player: row.points for row in standings(tournaments.state(tid)).standings}
    assert rows == {honest_winner: 6, loser: 0}
    assert result.verdict == "anomalies"


def test_a_replayed_table_plays_a_new_game(desk: tuple[Tournaments, Table]) -> None:
    tournaments, table = desk
    tid = tournaments.create("toy", ["Ann", "Bob"], rounds=1, table_size=2)
    game = tournaments.pair(tid).tables[0].game
    play_out(table, game, random_bot, random.Random(2))
    tournaments.collect(tid)
    tournaments.dispute(tid, game, "Ann", "a misdeal")
    ruling = tournaments.settle(tid, game, "replayed", "misdeal confirmed")
    assert ruling.replay
    assert ruling.replay != game
    assert not tournaments.state(tid).rounds[0].complete
    _play(tournaments, table, tid)
    assert tournaments.state(tid).rounds[0].tables[0].game == ruling.replay
    assert sum(r.points for r in standings(tournaments.state(tid)).standings) == 6


def test_a_duplicate_round_deals_alike_and_stays_sealed_until_all_finish(
    desk: tuple[Tournaments, Table],
) -> None:
    tournaments, table = desk
    tid = tournaments.create("toy", PLAYERS[:4], rounds=1, format="duplicate", table_size=2)
    first, second = tournaments.pair(tid).tables
    play_out(table, first.game, random_bot, random.Random(3))
    with pytest.raises(Forbidden):  # the finished table's deal stays sealed
        table.audit(first.game, SPECTATOR)
    # no result is taken in while the other table plays: the stream is public, and a score
    # tells the other table about the deal they share
    assert tournaments.collect(tid) == []
    play_out(table, second.game, random_bot, random.Random(4))
    events = tournaments.collect(tid)
    assert {e.game: e.verdict for e in events} == {first.game: "clean", second.game: "clean"}
    audits = [table.audit(t.game, REFEREE) for t in (first, second)]
    assert audits[0].seed == audits[1].seed
    assert audits[0].seed is not None
    comparison = standings(tournaments.state(tid)).duplicate
    assert [c.seat for c in comparison] == [0, 1]
    assert all(sum(r.delta for r in c.results) == pytest.approx(0) for c in comparison)


def test_cli_runs_an_event_and_writes_nothing_on_bad_input(tmp_path: object) -> None:
    runner = CliRunner()
    db = ["--db", f"sqlite:///{tmp_path}/t.db"]
    bad = [
        (["beowulf", "--players", "Ann,Bob", "--rounds", "2", "--format", "knockout"], 2),
        (["beowulf", "--players", "Ann,Ann", "--rounds", "2"], 4),
        (["beowulf", "--players", "Ann,Bob", "--rounds", "2", "--table-size", "7"], 2),
        (["nogame", "--players", "Ann,Bob", "--rounds", "2"], 6),
        (["beowulf", "--players", "Ann,Bob", "--rounds", "2", "--option", "zz=1"], 2),
        (["beowulf", "--players", "Ann,Bob", "--rounds", "2", "--tiebreaks", "luck"], 2),
    ]
    for args, code in bad:
        result = runner.invoke(app, ["tournament", "new", *args, *db])
        assert result.exit_code == code, result.output
        assert result.output.startswith("error: ")
        assert result.output.count("\n") == 1
    store = EventStore(f"sqlite:///{tmp_path}/t.db")
    assert store.list_streams() == []
    store.dispose()
    made = runner.invoke(
        app, ["tournament", "new", "toy", "--players", "Ann,Bob,Cid", "--rounds", "1", *db]
    )
    tid = made.stdout.strip()
    assert made.exit_code == 0
    assert len(made.stdout.splitlines()) == 1
    paired = runner.invoke(app, ["tournament", "pair", tid, *db])
    lines = [msgspec.json.decode(line) for line in paired.stdout.splitlines()]
    assert [sorted(line) for line in lines] == [["game", "round", "seats", "table"]]
    assert runner.invoke(app, ["tournament", "autoplay", tid, *db]).exit_code == 0
    assert runner.invoke(app, ["tournament", "result", tid, *db]).exit_code == 0
    shown = msgspec.json.decode(
        runner.invoke(app, ["tournament", "standings", tid, "--json", *db]).stdout
    )
    assert shown["round"] == 1
    assert sorted(shown["standings"][0]) == sorted(
        ["rank", "player", "points", "tiebreaks", "games", "rating", "byes", "withdrawn"]
    )
    assert sum(row["points"] for row in shown["standings"]) == 6 + 3 + 0
    missing = runner.invoke(app, ["tournament", "standings", "nope", *db])
    assert missing.exit_code == 6
    for fmt in ("csv", "md", "html"):
        out = runner.invoke(app, ["tournament", "export", tid, "--format", fmt, *db])
        assert out.exit_code == 0
        assert "Ann" in out.stdout


def test_a_name_differing_only_in_case_is_one_player(desk: tuple[Tournaments, Table]) -> None:
    """`ann` is Ann: neither a new tournament nor a late registration takes both."""
    tournaments, _table = desk
    with pytest.raises(IllegalMove, match="whatever their case"):
        tournaments.create("toy", ["Ann", "ann", "Bob"], rounds=1, table_size=3)
    tid = tournaments.create("toy", ["Ann", "Bob"], rounds=2, table_size=2)
    before = tournaments.state(tid).players
    with pytest.raises(IllegalMove, match="registered already \\(as 'Ann'\\)"):
        tournaments.register(tid, "ANN")
    assert tournaments.state(tid).players == before


def test_a_round_not_paired_is_named_in_one_clean_sentence(desk: tuple[Tournaments, Table]) -> None:
    tournaments, _table = desk
    tid = tournaments.create("toy", ["Ann", "Bob"], rounds=2, table_size=2)
    with pytest.raises(NotFound) as latest:
        tournaments.seat_of(tid, "Ann")
    assert str(latest.value) == f"tournament {tid} has no round paired"
    with pytest.raises(NotFound) as second:
        tournaments.seat_of(tid, "Ann", 2)
    assert str(second.value) == f"tournament {tid} has no round 2 paired"


def test_a_tournament_name_with_a_control_character_is_refused_shown_escaped(
    desk: tuple[Tournaments, Table],
) -> None:
    """As a player name is: the refusal shows the name with its escapes, never the bytes."""
    tournaments, _table = desk
    with pytest.raises(InvalidOption) as refused:
        tournaments.create("toy", ["Ann", "Bob"], rounds=1, table_size=2, name="Cup\x1b[31m\x07")
    assert "\x1b" not in str(refused.value)
    assert "\x07" not in str(refused.value)
    assert "'Cup\\x1b[31m\\x07'" in str(refused.value)
    assert tournaments.listing(10, 0) == []


def test_cli_says_which_finished_tables_wait_for_their_duplicate_round(tmp_path: object) -> None:
    """`skald tournament result` takes a duplicate round's results in together; a table
    that finished first is named on stderr as waiting, and nothing is printed or written."""
    runner = CliRunner()
    url = f"sqlite:///{tmp_path}/d.db"
    db = ["--db", url]
    options = ["--rounds", "1", "--table-size", "2", "--format", "duplicate", *db]
    made = runner.invoke(
        app, ["tournament", "new", "toy", "--players", "Ann,Bob,Cid,Dag", *options]
    )
    assert made.exit_code == 0, made.output
    tid = made.stdout.strip()
    paired = runner.invoke(app, ["tournament", "pair", tid, *db])
    first = msgspec.json.decode(paired.stdout.splitlines()[0])["game"]
    store = EventStore(url)
    try:
        play_out(Table(Engine(store)), first, random_bot, random.Random(1))
    finally:
        store.dispose()
    taken = runner.invoke(app, ["tournament", "result", tid, *db])
    assert taken.exit_code == 0, taken.output
    assert taken.stdout == ""
    assert taken.stderr == (
        "waiting: round 1, table 1 has finished; a duplicate round's results are taken in "
        "together, once table 2 has finished too\n"
    )
