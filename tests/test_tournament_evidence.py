"""A tournament's results are only what its games say (core/tournament/evidence.py): a
finished tournament's export with the winner of a result swapped and the chain re-hashed
under a new id is refused on import (core and HTTP, no token needed to try), naming the
result, and nothing is written; the store's own stream forged the same way (re-hashed in
place, so its chain holds) is flagged by `tournament verify` at that result's seq. The
untouched tournament verifies and imports (with its games) as before."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import msgspec
import pytest
from fastapi.testclient import TestClient

from skald.api.main import create_app
from skald.core.engine import Engine
from skald.core.errors import IllegalMove
from skald.core.store import EventStore
from skald.core.tournament.desk import Tournaments
from skald.events.tournament import ResultRecorded
from skald.projections.bots.autoplay import play_out, random_bot
from skald.projections.table import Table
from skald.projections.tournament.export import export_jsonl
from tests.cli_support import one_line, skald
from tests.forgery import copy_games, forge, rehash, write_back


def _finished(path: Path) -> tuple[EventStore, Tournaments, str]:
    store = EventStore(f"sqlite:///{path}")
    table = Table(Engine(store))
    desk = Tournaments(store, table)
    tid = desk.create("toy", ["Ann", "Bob", "Cid", "Dag"], rounds=1, table_size=2, seed="e")
    desk.pair(tid)
    for number, (_, _, game) in enumerate(desk.open_games(tid)):
        play_out(table, game, random_bot, random.Random(number))
    assert desk.collect(tid)
    assert desk.verify(tid).ok
    return store, desk, tid


def _swapped(event: Any) -> Any:
    """The result with its ranking reversed (the other seat wins)."""
    ranking = tuple(reversed(event.outcome.ranking))
    return msgspec.structs.replace(
        event, outcome=msgspec.structs.replace(event.outcome, ranking=ranking)
    )


def _first_result(desk: Tournaments, tid: str) -> int:
    return next(e.seq for e in desk.envelopes(tid) if isinstance(e.event, ResultRecorded))


def test_a_re_hashed_export_with_a_swapped_winner_is_refused(tmp_path: Path) -> None:
    store, desk, tid = _finished(tmp_path / "t.db")
    seq = _first_result(desk, tid)
    forged = [
        msgspec.structs.replace(env, stream="forged0000000000")
        for env in forge(desk.envelopes(tid), seq, _swapped)
    ]
    text = export_jsonl(rehash(forged))
    before = [info.id for info in store.list_streams(limit=1000)]
    with pytest.raises(IllegalMove, match=rf"seq {seq}: the result of round 1 table \d"):
        desk.import_jsonl(text)
    assert [info.id for info in store.list_streams(limit=1000)] == before
    with TestClient(create_app(f"sqlite:///{tmp_path / 't.db'}")) as client:
        answer = client.post("/tournaments/import", json={"jsonl": text})
        assert answer.status_code == 422, answer.text
        assert "the game's outcome ranks" in answer.json()["message"]
    # The untouched export imports into a store holding its games.
    other = EventStore("sqlite://")
    copy_games(store, other, tid)
    assert Tournaments(other, Table(Engine(other))).import_jsonl(export_jsonl(desk.envelopes(tid)))
    other.dispose()
    store.dispose()


def test_verify_flags_the_stores_own_stream_re_hashed_with_a_swapped_winner(
    tmp_path: Path,
) -> None:
    store, desk, tid = _finished(tmp_path / "t.db")
    seq = _first_result(desk, tid)
    write_back(store, forge(desk.envelopes(tid), seq, _swapped))
    report = desk.verify(tid)
    assert not report.ok
    assert report.bad_seq == seq
    assert "the game's outcome ranks" in report.reason
    store.dispose()
    code, out, err = skald("tournament", "verify", tid, "--db", f"sqlite:///{tmp_path / 't.db'}")
    assert (code, out) == (1, "")
    assert one_line(err).startswith(f"TAMPERED at seq {seq}: the result of round 1 table")
