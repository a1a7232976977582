"""What presents a tournament's record (standings, every export, over the CLI and HTTP):
a stored stream that fails its chain check is refused, naming the seq and pointing to
`skald tournament verify`; md and csv exports escape what players and organisers typed;
a round that was not paired is refused naming those that were; a held result says so."""

from __future__ import annotations

import random
from pathlib import Path

import msgspec
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from skald.api.main import create_app
from skald.cli.main import app
from skald.core.engine import Engine
from skald.core.errors import CorruptRecord, IllegalMove, InvalidOption
from skald.core.store import EventStore
from skald.core.tournament.desk import Tournaments
from skald.core.tournament.stream import BrokenChain
from skald.events.viewer import REFEREE
from skald.projections.bots.autoplay import play_out, random_bot
from skald.projections.table import Table
from skald.projections.tournament.export import csv_cell, export_csv, export_md
from skald.projections.tournament.standings import standings
from tests.conftest import engine_of
from tests.forgery import flip_the_winner, tamper_first_result

FORMATS = ("jsonl", "csv", "md", "html")


def _finished(url: str, players: list[str], rounds: int = 2, **options: object) -> str:
    """A tournament of the toy game, every round played and taken in."""
    store = EventStore(url)
    try:
        table = Table(Engine(store))
        desk = Tournaments(store, table)
        tid = desk.create("toy", players, rounds=rounds, seed="s", **options)  # type: ignore[arg-type]
        for number in range(rounds):
            desk.pair(tid)
            for k, (_, _, game) in enumerate(desk.open_games(tid)):
                play_out(table, game, random_bot, random.Random(10 * number + k))
            desk.collect(tid)
        return tid
    finally:
        store.dispose()


@pytest.fixture
def two_stores(tmp_path: Path) -> tuple[str, str, str, int]:
    """(intact url, tampered url, tournament id, the tampered seq): one tournament, copied."""
    intact, broken = tmp_path / "intact.db", tmp_path / "broken.db"
    tid = _finished(f"sqlite:///{intact}", ["Ann", "Bob", "Cid"], table_size=3)
    broken.write_bytes(intact.read_bytes())
    seq = tamper_first_result(broken, tid)
    return f"sqlite:///{intact}", f"sqlite:///{broken}", tid, seq


def test_the_cli_refuses_to_present_a_tampered_stream(
    two_stores: tuple[str, str, str, int],
) -> None:
    intact, broken, tid, seq = two_stores
    runner = CliRunner()
    checked = runner.invoke(app, ["tournament", "verify", tid, "--db", broken])
    assert checked.exit_code == 1
    assert f"TAMPERED at seq {seq}: hash mismatch" in checked.stderr
    commands = [["standings", tid], ["standings", tid, "--json"]]
    commands += [["export", tid, "--format", fmt] for fmt in FORMATS]
    for command in commands:
        refused = runner.invoke(app, ["tournament", *command, "--db", broken])
        assert refused.exit_code == 9, (command, refused.output)
        assert refused.stdout == ""
        [line] = refused.stderr.splitlines()
        assert line.startswith(f"error: tournament {tid} is TAMPERED at seq {seq}: hash mismatch")
        assert f"skald tournament verify {tid}" in line
        shown = runner.invoke(app, ["tournament", *command, "--db", intact])
        assert shown.exit_code == 0, (command, shown.output)
        assert "Ann" in shown.stdout


def test_http_refuses_to_present_a_tampered_stream(two_stores: tuple[str, str, str, int]) -> None:
    intact, broken, tid, seq = two_stores
    with TestClient(create_app(broken)) as client:
        assert client.get(f"/tournaments/{tid}/verify").json()["bad_seq"] == seq
        answers = [client.get(f"/tournaments/{tid}/standings")]
        answers.append(client.get(f"/tournaments/{tid}/standings", params={"round": 1}))
        answers += [
            client.get(f"/tournaments/{tid}/export", params={"format": fmt}) for fmt in FORMATS
        ]
        for answer in answers:
            assert answer.status_code == 500, answer.text
            body = answer.json()
            assert body["error"] == "corrupt_record"
            assert f"TAMPERED at seq {seq}: hash mismatch" in body["message"]
            assert "skald tournament verify" in body["message"]
    with TestClient(create_app(intact)) as client:
        assert client.get(f"/tournaments/{tid}/standings").status_code == 200
        for fmt in FORMATS:
            answer = client.get(f"/tournaments/{tid}/export", params={"format": fmt})
            assert answer.status_code == 200
            assert "Ann" in answer.text


def test_every_read_of_the_desk_is_checked(two_stores: tuple[str, str, str, int]) -> None:
    """`state` and `envelopes` check the chain; `verify` alone reads
    a broken stream, to say where it breaks."""
    intact, broken, tid, seq = two_stores
    for url, ok in ((intact, True), (broken, False)):
        store = EventStore(url)
        try:
            desk = Tournaments(store, Table(Engine(store)))
            reads = (desk.state, desk.envelopes)
            assert desk.verify(tid).ok is ok
            if ok:
                assert len(desk.envelopes(tid)) == desk.state(tid).version
                continue
            assert desk.verify(tid).bad_seq == seq
            for read in reads:
                with pytest.raises(BrokenChain) as raised:
                    read(tid)
                assert raised.value.seq == seq
        finally:
            store.dispose()


def test_md_and_csv_exports_escape_what_was_typed(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/t.db"
    players = ["<b>Cid</b>", "=1+2", "@SUM(A1)", "-2+3", "+cmd", "Ann"]
    tid = _finished(url, players, rounds=1, table_size=3, name="<script>alert(1)</script> *x*")
    store = EventStore(url)
    try:
        state = Tournaments(store, Table(Engine(store))).state(tid)
    finally:
        store.dispose()
    current = standings(state)
    md = export_md(state, current)
    assert "<script>" not in md
    assert "<b>" not in md
    assert "# \\<script\\>alert(1)\\</script\\> \\*x\\*" in md
    assert "\\<b\\>Cid\\</b\\>" in md
    csv = export_csv(current)
    cells = {line.split(",")[1] for line in csv.splitlines()[1:]}
    assert cells == {"<b>Cid</b>", "'=1+2", "'@SUM(A1)", "'-2+3", "'+cmd", "Ann"}
    assert not any(line.split(",")[1].startswith(("=", "+", "-", "@")) for line in csv.splitlines())
    assert [csv_cell(c) for c in ("-3", "0.25", "1e+06", "\tx", "\rx")] == [
        "-3",
        "0.25",
        "1e+06",
        "'\tx",
        "'\rx",
    ]
    # the CLI's terminal table shows names as they are (nothing to guard there)
    runner = CliRunner()
    shown = runner.invoke(app, ["tournament", "standings", tid, "--db", url])
    assert shown.exit_code == 0, shown.output
    assert "\t=1+2\t" in shown.stdout


def test_a_round_not_paired_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/t.db"
    tid = _finished(url, ["Ann", "Bob", "Cid"], rounds=2, table_size=3)
    runner = CliRunner()
    for number in ("7", "3", "0", "-1"):
        refused = runner.invoke(
            app, ["tournament", "standings", tid, "--round", number, "--db", url]
        )
        assert refused.exit_code == 2, (number, refused.output)
        assert refused.stdout == ""
        assert refused.stderr == (
            f"error: round {number}: tournament {tid} has rounds 1 to 2 paired (of 2 rounds)\n"
        )
    for number in ("1", "2"):
        shown = runner.invoke(
            app, ["tournament", "standings", tid, "--round", number, "--json", "--db", url]
        )
        assert msgspec.json.decode(shown.stdout)["round"] == int(number)
    with TestClient(create_app(url)) as client:
        for number in (99, 3, 0, -5):
            answer = client.get(f"/tournaments/{tid}/standings", params={"round": number})
            assert answer.status_code == 422, answer.text
            assert answer.json()["error"] == "invalid_option"
            assert "has rounds 1 to 2 paired" in answer.json()["message"]
        assert client.get(f"/tournaments/{tid}/standings", params={"round": 2}).status_code == 200
    store = EventStore(url)
    try:
        desk = Tournaments(store, Table(Engine(store)))
        fresh = desk.create("toy", ["Ann", "Bob"], rounds=1, table_size=2)
        with pytest.raises(InvalidOption, match="has no round paired yet"):
            standings(desk.state(fresh), 1)
        assert standings(desk.state(fresh)).round == 0
        desk.pair(fresh)
        with pytest.raises(InvalidOption, match=r"has only round 1 paired \(of 1 round\)"):
            standings(desk.state(fresh), 2)
    finally:
        store.dispose()


def test_messages_count_in_words(tmp_path: Path) -> None:
    store = EventStore(f"sqlite:///{tmp_path}/t.db")
    try:
        desk = Tournaments(store, Table(Engine(store)))
        with pytest.raises(IllegalMove, match=r"^1 player cannot fill a table of 2$"):
            desk.create("toy", ["Ann"], rounds=1, table_size=2)
        with pytest.raises(IllegalMove, match=r"^2 players cannot fill a table of 3$"):
            desk.create("toy", ["Ann", "Bob"], rounds=1, format="duplicate", table_size=3)
        with pytest.raises(InvalidOption, match=r"of 2 players has 1 round$"):
            desk.create("toy", ["Ann", "Bob"], rounds=3, format="round-robin", table_size=2)
        tid = desk.create("toy", ["Ann", "Bob"], rounds=1, table_size=2)
        desk.pair(tid)
        with pytest.raises(IllegalMove, match="table 1 has no result that counts yet"):
            desk.pair(tid)
        four = desk.create("toy", ["Ann", "Bob", "Cid", "Dag"], rounds=1, table_size=2)
        desk.pair(four)
        with pytest.raises(IllegalMove, match="tables 1, 2 have no result that counts yet"):
            desk.pair(four)
    finally:
        store.dispose()


def test_cli_help_shows_the_defaults() -> None:
    runner = CliRunner()
    new = " ".join(runner.invoke(app, ["tournament", "new", "--help"]).stdout.split())
    assert "Players per table ." not in new
    assert "default: (4)" in new
    assert "default: (the mean of --points" in new
    shown = " ".join(runner.invoke(app, ["tournament", "standings", "--help"]).stdout.split())
    assert "round ." not in shown
    assert "default: (every round paired so far)" in shown


def test_cli_result_says_when_a_result_is_held(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/t.db"
    store = EventStore(url)
    try:
        table = Table(Engine(store))
        desk = Tournaments(store, table)
        tid = desk.create("toy", ["Ann", "Bob"], rounds=1, table_size=2)
        game = desk.pair(tid).tables[0].game
        play_out(table, game, random_bot, random.Random(1))
        flip_the_winner(engine_of(table).store, table.log(game, REFEREE))
    finally:
        store.dispose()
    runner = CliRunner()
    taken = runner.invoke(app, ["tournament", "result", tid, "--db", url])
    assert taken.exit_code == 0, taken.output
    [line] = [msgspec.json.decode(x) for x in taken.stdout.splitlines()]
    assert line["type"] == "tournament.result_recorded"  # the stored event, as before
    assert line["verdict"] == "anomalies"
    assert line["held"] is True
    assert line["held_because"] == "its game's audit found anomalies"
    [said] = taken.stderr.splitlines()
    assert said.startswith(f"held: round 1 table 1 ({game}) counts nothing until the organiser")
    assert "audit found anomalies" in said
    # a clean result says it is not held, and nothing on stderr
    clean_url = f"sqlite:///{tmp_path}/clean.db"
    made = runner.invoke(
        app,
        ["tournament", "new", "toy", "--players", "Ann,Bob", "--rounds", "1", "--db", clean_url],
    )
    other = made.stdout.strip()
    runner.invoke(app, ["tournament", "pair", other, "--db", clean_url])
    runner.invoke(app, ["tournament", "autoplay", other, "--db", clean_url])
    clean = runner.invoke(app, ["tournament", "result", other, "--db", clean_url])
    [line] = [msgspec.json.decode(x) for x in clean.stdout.splitlines()]
    assert line["held"] is False
    assert "held_because" not in line
    assert clean.stderr == ""


def test_pairing_refuses_a_tampered_stream_and_creates_nothing(tmp_path: Path) -> None:
    """The next round is drawn from the standings: from a forged result it is refused, and
    no game is created."""
    path = tmp_path / "t.db"
    store = EventStore(f"sqlite:///{path}")
    try:
        table = Table(Engine(store))
        desk = Tournaments(store, table)
        tid = desk.create("toy", ["Ann", "Bob", "Cid", "Dag"], rounds=2, table_size=2, seed="s")
        desk.pair(tid)
        for k, (_, _, game) in enumerate(desk.open_games(tid)):
            play_out(table, game, random_bot, random.Random(k))
        desk.collect(tid)
    finally:
        store.dispose()
    seq = tamper_first_result(path, tid)
    store = EventStore(f"sqlite:///{path}")
    try:
        desk = Tournaments(store, Table(Engine(store)))
        streams_before, version_before = len(store.list_streams(limit=1000)), store.version(tid)
        with pytest.raises(CorruptRecord, match=f"TAMPERED at seq {seq}"):
            desk.pair(tid)
        assert len(store.list_streams(limit=1000)) == streams_before
        assert store.version(tid) == version_before
    finally:
        store.dispose()
