"""A tournament whose stored stream was edited with sqlite3 is refused by every read that
shows it or builds on it, over the CLI (exit 9, one line naming the seq, nothing on
stdout) and HTTP (500 `corrupt_record`), and nothing is written: the summary, pairing a
round, taking results in, and every other write. Only `verify` answers, naming the seq.
(Standings and exports: tests/test_tournament_presenting.py.)"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from skald.api.main import create_app
from skald.core.engine import Engine
from skald.core.store import EventStore
from skald.core.tournament.access import issue_one
from skald.core.tournament.desk import Tournaments
from skald.projections.bots.autoplay import play_out, random_bot
from skald.projections.table import Table
from tests.cli_support import one_line, skald
from tests.forgery import tamper_first_result


class Stored:
    """One tournament in two SQLite files: intact, and with a result's payload edited."""

    def __init__(self, tmp_path: Path, stage: str) -> None:
        self.intact, self.broken = tmp_path / "intact.db", tmp_path / "broken.db"
        store = EventStore(self.url(self.intact))
        try:
            table = Table(Engine(store))
            desk = Tournaments(store, table)
            players = ["Ann", "Bob", "Cid", "Dag"]
            self.tid = desk.create("toy", players, rounds=3, table_size=2, seed="s")
            self.organiser = issue_one(store, self.tid, None)
            self.ann = issue_one(store, self.tid, 0)
            for number in range(2 if stage == "collectable" else 1):
                desk.pair(self.tid)
                for k, (_, _, game) in enumerate(desk.open_games(self.tid)):
                    play_out(table, game, random_bot, random.Random(10 * number + k))
                if number == 0:  # round 2, when played, is left for `result` to take in
                    desk.collect(self.tid)
            first = desk.state(self.tid).rounds[0].tables[0]
            self.game, self.seated = first.game, first.seats[0]
        finally:
            store.dispose()
        self.broken.write_bytes(self.intact.read_bytes())
        self.seq = tamper_first_result(self.broken, self.tid)

    @staticmethod
    def url(path: Path) -> str:
        return f"sqlite:///{path}"

    def rows(self, path: Path) -> dict[str, int]:
        """Every table's row count: the whole store, not just this stream."""
        with sqlite3.connect(path) as conn:
            names = [
                n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            ]
            counts = {n: conn.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0] for n in names}
        conn.close()
        return counts


def _cli_writes(stored: Stored, stage: str) -> list[list[str]]:
    tid = stored.tid
    if stage == "pairable":
        return [["pair", tid], ["register", tid, "Eve"], ["withdraw", tid, "Dag"]]
    return [
        ["result", tid],
        ["autoplay", tid],
        ["dispute", "open", tid, stored.game, "--by", stored.seated, "--reason", "x"],
    ]


@pytest.mark.parametrize("stage", ["pairable", "collectable"])
def test_the_cli_refuses_a_tampered_stream_and_writes_nothing(tmp_path: Path, stage: str) -> None:
    stored = Stored(tmp_path, stage)
    tid, seq = stored.tid, stored.seq
    code, _, err = skald("tournament", "verify", tid, "--db", stored.url(stored.broken))
    assert code == 1
    assert f"TAMPERED at seq {seq}" in err
    for command in _cli_writes(stored, stage):
        before = stored.rows(stored.broken)
        code, out, err = skald("tournament", *command, "--db", stored.url(stored.broken))
        assert code == 9, (command, out, err)
        assert out == ""
        line = one_line(err)
        assert line.startswith(f"error: tournament {tid} is TAMPERED at seq {seq}: hash mismatch")
        assert f"skald tournament verify {tid}" in line
        assert stored.rows(stored.broken) == before, command
    # the same commands on the intact copy do their work (so "nothing written" means it)
    for command in _cli_writes(stored, stage)[:1]:
        before = stored.rows(stored.intact)
        code, out, err = skald("tournament", *command, "--db", stored.url(stored.intact))
        assert code == 0, (command, out, err)
        assert out
        assert stored.rows(stored.intact)["events"] > before["events"]


def _http_calls(stored: Stored) -> list[tuple[str, str, str, dict[str, object] | None]]:
    """(method, path, token, body): every route about the tournament but verify."""
    base, boss, ann = f"/tournaments/{stored.tid}", stored.organiser, stored.ann
    return [
        ("GET", base, "", None),
        ("GET", f"{base}/me", ann, None),
        ("GET", f"{base}/standings", "", None),
        ("GET", f"{base}/export", "", None),
        ("POST", f"{base}/pair", boss, None),
        ("POST", f"{base}/results", boss, None),
        ("POST", f"{base}/results", ann, None),
        ("POST", f"{base}/autoplay", boss, None),
        ("POST", f"{base}/players", boss, {"player": "Eve"}),
        ("POST", f"{base}/withdraw", boss, {"player": "Dag", "reason": "ill"}),
        ("POST", f"{base}/tables/mine", ann, None),
        ("POST", f"{base}/disputes", ann, {"game": stored.game, "reason": "x"}),
        (
            "POST",
            f"{base}/disputes/{stored.game}/settle",
            boss,
            {"ruling": "stands", "reason": "x"},
        ),
    ]


def _call(
    client: TestClient, method: str, path: str, token: str, body: dict[str, object] | None
) -> tuple[int, dict[str, object]]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = client.request(method, path, headers=headers, json=body)
    try:
        return answer.status_code, answer.json()
    except ValueError:
        return answer.status_code, {"text": answer.text}


@pytest.mark.parametrize("stage", ["pairable", "collectable"])
def test_http_refuses_a_tampered_stream_and_writes_nothing(tmp_path: Path, stage: str) -> None:
    stored = Stored(tmp_path, stage)
    tid, seq = stored.tid, stored.seq
    with TestClient(create_app(stored.url(stored.broken))) as client:
        before = stored.rows(stored.broken)  # the app's start stores its signing key
        checked = client.get(f"/tournaments/{tid}/verify")
        assert checked.status_code == 200
        assert checked.json()["bad_seq"] == seq
        assert (
            client.get(
                f"/tournaments/{tid}/verify", headers={"Authorization": "Bearer x"}
            ).status_code
            == 401
        )
        for method, path, token, body in _http_calls(stored):
            status, answer = _call(client, method, path, token, body)
            assert status == 500, (method, path, answer)
            assert answer["error"] == "corrupt_record"
            message = str(answer["message"])
            assert f"tournament {tid} is TAMPERED at seq {seq}: hash mismatch" in message
            assert stored.rows(stored.broken) == before, (method, path)
    with TestClient(create_app(stored.url(stored.intact))) as client:
        before = stored.rows(stored.intact)
        assert client.get(f"/tournaments/{tid}").status_code == 200
        write = "/pair" if stage == "pairable" else "/results"
        status, answer = _call(client, "POST", f"/tournaments/{tid}{write}", stored.organiser, None)
        assert status in (200, 201), answer
        assert stored.rows(stored.intact)["events"] > before["events"]
