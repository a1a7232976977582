"""Who signed an imported tournament's head: `tournament import` and `tournament verify`
(CLI and HTTP) say whether it was this store's key, another store's (its fingerprint) or
nobody (an unsigned head, which anyone could have re-hashed); a tournament made in the
store says so."""

from __future__ import annotations

import random
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from skald.api.main import create_app
from skald.cli.main import app
from skald.core.engine import Engine
from skald.core.signing import fingerprint, open_signer
from skald.core.store import EventStore
from skald.core.tournament.desk import Tournaments
from skald.projections.bots.autoplay import play_out, random_bot
from skald.projections.table import Table
from skald.projections.tournament.export import export_jsonl
from tests.forgery import copy_games


def _finished(store: EventStore) -> str:
    table = Table(Engine(store))
    desk = Tournaments(store, table)
    tid = desk.create("toy", ["Ann", "Bob"], rounds=1, table_size=2, seed="signer")
    desk.pair(tid)
    for number, (_, _, game) in enumerate(desk.open_games(tid)):
        play_out(table, game, random_bot, random.Random(number))
    desk.collect(tid)
    return tid


def test_the_signer_of_a_tournament_head_is_kept_and_told(tmp_path: Path) -> None:
    source = EventStore(f"sqlite:///{tmp_path}/source.db")
    source_key = open_signer(source, tmp_path / "source.key")
    tid = _finished(source)
    envelopes = Tournaments(source, Table(Engine(source))).envelopes(tid)
    assert Tournaments(source, Table(Engine(source))).head_signer(tid).kind == "created_here"
    records = {
        "another_store": export_jsonl(envelopes, source_key),
        "unsigned": export_jsonl(envelopes),
    }
    for kind, text in records.items():
        target = EventStore("sqlite://")
        copy_games(source, target, tid)
        desk = Tournaments(target, Table(Engine(target)))
        desk.import_jsonl(text)
        signer = desk.head_signer(tid)
        assert signer.kind == kind
        if kind == "another_store":
            assert signer.key == source_key.public_key
            assert f"another store's key ({fingerprint(source_key.public_key)}…)" in signer.words
        else:
            assert "unsigned" in signer.words
        target.dispose()
    # The same key, another store (a copy of the first one's key): this store's key.
    twin = EventStore(f"sqlite:///{tmp_path}/twin.db")
    copy_games(source, twin, tid)
    twin.record_signing_key(source_key.public_key)
    desk = Tournaments(twin, Table(Engine(twin)))
    desk.import_jsonl(records["another_store"])
    assert desk.head_signer(tid).kind == "this_store"
    twin.dispose()


def test_cli_and_http_say_who_signed_the_head(tmp_path: Path) -> None:
    source = EventStore(f"sqlite:///{tmp_path}/source.db")
    source_key = open_signer(source, tmp_path / "source.key")
    tid = _finished(source)
    text = export_jsonl(Tournaments(source, Table(Engine(source))).envelopes(tid), source_key)
    (tmp_path / "t.jsonl").write_text(text)
    target = f"sqlite:///{tmp_path}/cli.db"
    games = EventStore(target)
    copy_games(source, games, tid)
    games.dispose()
    runner = CliRunner()
    imported = runner.invoke(
        app, ["tournament", "import", str(tmp_path / "t.jsonl"), "--db", target]
    )
    assert imported.exit_code == 0, imported.output
    assert imported.stdout.strip() == tid
    shown = f"another store's key ({fingerprint(source_key.public_key)}…)"
    assert shown in imported.stderr
    verified = runner.invoke(app, ["tournament", "verify", tid, "--db", target])
    assert verified.exit_code == 0
    assert shown in verified.stdout
    made_here = runner.invoke(
        app, ["tournament", "verify", tid, "--db", f"sqlite:///{tmp_path}/source.db"]
    )
    assert "created in this store" in made_here.stdout

    url = f"sqlite:///{tmp_path}/http.db"
    games = EventStore(url)
    copy_games(source, games, tid)
    games.dispose()
    with TestClient(create_app(url)) as client:
        answer = client.post(
            "/tournaments/import",
            json={"jsonl": export_jsonl(Tournaments(source, Table(Engine(source))).envelopes(tid))},
        )
        assert answer.status_code == 201, answer.text
        assert answer.json()["head_signer"]["kind"] == "unsigned"
        report = client.get(f"/tournaments/{tid}/verify").json()
        assert report["ok"]
        assert report["head_signer"]["kind"] == "unsigned"
        assert "anyone could have re-hashed it" in report["head_signer"]["words"]
