"""Tournaments over HTTP (TestClient on SQLite and PostgreSQL, and one real `skald serve`):
who may do what with which token, the games' own tokens, nothing written on bad input,
results, standings, exports and disputes as on the CLI; GET /games lists games only."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import msgspec
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from skald.api.main import create_app
from skald.cli.main import app as cli_app
from skald.core.engine import Engine
from skald.core.store import EventStore
from skald.core.tournament.desk import Tournaments
from skald.projections.table import Table
from skald.projections.tournament.standings import standings
from tests.conftest import BACKENDS, _pg_or_skip, fresh_store_url
from tests.forgery import copy_games
from tests.servers import bearer, free_port, running, skald_command

PLAYERS = ["Ann", "Bob", "Cid", "Dag", "Eir"]


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: object) -> str:
    """An empty store; on PostgreSQL a database of this module's own, so that other
    test runs sharing the server's test database cannot add streams mid-test."""
    if request.param == "sqlite":
        return fresh_store_url("sqlite", tmp_path)
    base = sa.engine.make_url(_pg_or_skip())
    own = base.set(database=f"{base.database}_tournament_api")
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        exists = conn.execute(
            sa.text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": own.database}
        ).first()
        if exists is None:
            conn.execute(sa.text(f'CREATE DATABASE "{own.database}"'))
    admin.dispose()
    url = own.render_as_string(hide_password=False)
    engine = sa.create_engine(url)
    existing = sa.MetaData()
    existing.reflect(engine)
    existing.drop_all(engine)
    engine.dispose()
    return url


@pytest.fixture
def client(store_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(store_url)) as test_client:
        yield test_client


def _create(client: TestClient, **fields: Any) -> dict[str, Any]:
    body = {"game": "toy", "players": PLAYERS, "rounds": 2, "table_size": 3, "seed": "s"}
    made = client.post("/tournaments", json={**body, **fields})
    assert made.status_code == 201, made.text
    created: dict[str, Any] = made.json()
    return created


def _seq(client: TestClient, tid: str) -> int:
    seq: int = client.get(f"/tournaments/{tid}").json()["seq"]
    return seq


def test_tokens_decide_who_may_do_what(client: TestClient) -> None:
    created = _create(client)
    tid = created["id"]
    assert [p["name"] for p in created["players"]] == PLAYERS
    assert [p["seat"] for p in created["players"]] == list(range(5))
    tokens = {p["name"]: p["token"] for p in created["players"]}
    organiser = bearer(created["organiser_token"])
    assert len({created["organiser_token"], *tokens.values()}) == 6
    other = _create(client)  # another tournament's organiser
    game = client.post("/games", json={"game": "toy", "players": ["Ann", "Bob"]}).json()

    # reading is public; a token that is not this tournament's is a 401 all the same
    assert client.get(f"/tournaments/{tid}").status_code == 200
    for wrong in (other["organiser_token"], game["referee_token"], "not-a-token"):
        assert client.get(f"/tournaments/{tid}", headers=bearer(wrong)).status_code == 401
        assert client.post(f"/tournaments/{tid}/pair", headers=bearer(wrong)).status_code == 401
    # organiser-only: no token 401, a player's 403; nothing is written
    assert client.post(f"/tournaments/{tid}/pair").status_code == 401
    refused = client.post(f"/tournaments/{tid}/pair", headers=bearer(tokens["Ann"]))
    assert refused.status_code == 403
    assert refused.json()["error"] == "forbidden"
    for path, body in (
        ("players", {"player": "Fay"}),
        ("withdraw", {"player": "Bob"}),
        ("autoplay", {"bots": "random"}),
    ):
        answer = client.post(f"/tournaments/{tid}/{path}", json=body, headers=bearer(tokens["Ann"]))
        assert answer.status_code == 403, path
    assert client.post(f"/tournaments/{tid}/tables/mine", headers=organiser).status_code == 403
    assert _seq(client, tid) == 1

    paired = client.post(f"/tournaments/{tid}/pair", headers=organiser)
    assert paired.status_code == 201, paired.text
    tables = paired.json()["tables"]
    assert sorted(p for t in tables for p in t["seats"]) == sorted(PLAYERS)
    assert paired.json()["duplicate"] is False
    # nobody is handed a game's referee token (an organiser may sit at a table too), and
    # the organiser's token opens no game: it is a 401 there, not a referee's view
    first = tables[0]
    assert all(set(t) == {"table", "game", "seats"} for t in tables)
    as_organiser = client.get(f"/games/{first['game']}/view", headers=organiser)
    assert as_organiser.status_code == 401
    assert client.get(f"/games/{first['game']}/view").json()["viewer"] == "spectator"

    # each player asks for its own seat token of the game at its table
    seat_tokens: dict[str, str] = {}
    for name, token in tokens.items():
        mine = client.post(f"/tournaments/{tid}/tables/mine", headers=bearer(token))
        assert mine.status_code == 201, mine.text
        found = mine.json()
        table = next(t for t in tables if t["table"] == found["table"])
        assert table["seats"][found["seat"]] == name
        assert found["game"] == table["game"]
        seat_tokens[name] = found["token"]
        view = client.get(f"/games/{found['game']}/view", headers=bearer(found["token"]))
        assert view.json()["viewer"] == name  # that seat's view, nobody else's
        # the tournament token is not a game token, and the seat token acts nowhere else
        assert client.get(f"/games/{found['game']}/view", headers=bearer(token)).status_code == 401
        assert client.get(f"/tournaments/{tid}", headers=bearer(found["token"])).status_code == 401
    # a seat token acts for its seat only: the seat to act moves, another is refused
    summary = client.get(f"/games/{first['game']}").json()
    to_act = first["seats"][summary["to_act"][0]]
    idle = next(p for p in first["seats"] if p != to_act)
    legal = client.get(f"/games/{first['game']}/legal", headers=bearer(seat_tokens[to_act]))
    move = legal.json()["moves"][0]
    assert (
        client.post(
            f"/games/{first['game']}/moves",
            json={"move": move},
            headers=bearer(seat_tokens[idle]),
        ).status_code
        == 403
    )
    moved = client.post(
        f"/games/{first['game']}/moves", json={"move": move}, headers=bearer(seat_tokens[to_act])
    )
    assert moved.status_code == 201, moved.text

    # disputes: only after a result, only by a seated player with its own token
    asked = client.post(f"/tournaments/{tid}/autoplay", json={"bots": "greedy"}, headers=organiser)
    assert asked.status_code == 409, asked.text  # a person moved: the desk asks first
    assert asked.json()["error"] == "needs_confirmation"
    played = client.post(
        f"/tournaments/{tid}/autoplay",
        json={"bots": "greedy", "take_seats": True},
        headers=organiser,
    )
    assert played.status_code == 200, played.text
    assert all(g["outcome"] is not None for g in played.json()["games"])
    assert client.post(f"/tournaments/{tid}/results").status_code == 401
    taken = client.post(f"/tournaments/{tid}/results", headers=bearer(tokens["Bob"]))
    assert [e["type"] for e in taken.json()["events"]] == ["tournament.result_recorded"] * 2
    assert all(e["chain"] == "ok" and e["verdict"] == "clean" for e in taken.json()["events"])
    outsider = next(p for p in PLAYERS if p not in first["seats"])
    before = _seq(client, tid)
    body = {"game": first["game"], "reason": "the tile count is off"}
    for headers, status in (
        ({}, 401),
        (organiser, 403),
        (bearer(tokens[outsider]), 403),
        (bearer(other["players"][0]["token"]), 401),
    ):
        assert (
            client.post(f"/tournaments/{tid}/disputes", json=body, headers=headers).status_code
            == status
        )
    assert (
        client.post(
            f"/tournaments/{tid}/disputes",
            json={**body, "reason": ""},
            headers=bearer(tokens[idle]),
        ).status_code
        == 422
    )
    assert _seq(client, tid) == before
    opened = client.post(f"/tournaments/{tid}/disputes", json=body, headers=bearer(tokens[idle]))
    assert opened.status_code == 201, opened.text
    assert opened.json()["event"]["player"] == idle  # the token's player, never a name given
    settle = f"/tournaments/{tid}/disputes/{first['game']}/settle"
    ruling = {
        "ruling": "adjusted",
        "reason": "recount",
        "ranking": [[idle], [p for p in first["seats"] if p != idle]],
    }
    assert client.post(settle, json=ruling, headers=bearer(tokens[idle])).status_code == 403
    assert client.post(settle, json=ruling).status_code == 401
    bad = {**ruling, "ranking": [[idle]]}  # must name every seat
    assert client.post(settle, json=bad, headers=organiser).status_code == 422
    assert _seq(client, tid) == before + 1
    settled = client.post(settle, json=ruling, headers=organiser)
    assert settled.status_code == 200, settled.text
    assert settled.json()["event"]["ruling"] == "adjusted"
    rows = {r["player"]: r for r in client.get(f"/tournaments/{tid}/standings").json()["standings"]}
    assert rows[idle]["points"] == 6  # the ruling counts: the disputer placed first
    table_summary = client.get(f"/tournaments/{tid}").json()["paired"][0]["tables"][0]
    assert table_summary["status"].startswith("ruled adjusted")


def test_a_whole_event_with_registration_exports_and_standings(client: TestClient) -> None:
    created = _create(client, rounds=2)
    tid = created["id"]
    organiser = bearer(created["organiser_token"])
    late = client.post(f"/tournaments/{tid}/players", json={"player": "Fay"}, headers=organiser)
    assert late.status_code == 201, late.text
    assert late.json()["seat"] == 5
    fay = bearer(late.json()["token"])
    again = client.post(f"/tournaments/{tid}/players", json={"player": "Fay"}, headers=organiser)
    assert again.status_code == 422
    gone = client.post(
        f"/tournaments/{tid}/withdraw", json={"player": "Eir", "reason": "ill"}, headers=organiser
    )
    assert gone.status_code == 200
    assert gone.json()["event"] == {
        "type": "tournament.player_withdrawn",
        "player": "Eir",
        "reason": "ill",
    }
    for number in (1, 2):
        paired = client.post(f"/tournaments/{tid}/pair", headers=organiser).json()
        seated = sorted(p for t in paired["tables"] for p in t["seats"])
        assert seated == sorted(["Ann", "Bob", "Cid", "Dag", "Fay"])
        assert client.post(f"/tournaments/{tid}/tables/mine", headers=fay).status_code == 201
        early = client.post(f"/tournaments/{tid}/pair", headers=organiser)
        assert early.status_code == 422  # the round is not over
        client.post(f"/tournaments/{tid}/autoplay", json={"bot_seed": number}, headers=organiser)
        client.post(f"/tournaments/{tid}/results", headers=organiser)
    done = client.post(f"/tournaments/{tid}/pair", headers=organiser)
    assert done.status_code == 422
    assert "all 2 rounds" in done.json()["message"]
    now = client.get(f"/tournaments/{tid}/standings").json()
    assert now["round"] == 2
    assert sorted(now["standings"][0]) == sorted(
        ["rank", "player", "points", "tiebreaks", "games", "rating", "byes", "withdrawn"]
    )
    assert {r["player"]: r["withdrawn"] for r in now["standings"]}["Eir"] is True
    after_one = client.get(f"/tournaments/{tid}/standings", params={"round": 1}).json()
    assert after_one["round"] == 1
    assert sum(r["games"] for r in after_one["standings"]) == 5
    assert client.get(f"/tournaments/{tid}/standings", params={"round": "x"}).status_code == 422
    summary = client.get(f"/tournaments/{tid}").json()
    assert summary["withdrawn"] == ["Eir"]
    assert [r["complete"] for r in summary["paired"]] == [True, True]
    media = {
        "jsonl": "application/jsonl",
        "csv": "text/csv",
        "md": "text/markdown",
        "html": "text/html",
    }
    texts = {}
    for fmt, kind in media.items():
        out = client.get(f"/tournaments/{tid}/export", params={"format": fmt})
        assert out.status_code == 200
        assert out.headers["content-type"].startswith(kind)
        texts[fmt] = out.text
    assert texts["csv"].startswith("rank,player,points,")
    assert "Fay" in texts["md"]
    assert texts["html"].startswith("<!doctype html>")
    assert client.get(f"/tournaments/{tid}/export", params={"format": "pdf"}).status_code == 422
    assert client.get(f"/tournaments/{tid}/verify").json()["ok"] is True
    listed = client.get("/tournaments").json()["items"]
    assert [i["id"] for i in listed] == [tid]
    # the export imports elsewhere (new tokens) with the same standings, ratings included
    other = EventStore("sqlite://")
    try:
        source = client.app.state.services.tournaments.store  # type: ignore[attr-defined]
        copy_games(source, other, tid)  # its results are only what its games say
        replay = Tournaments(other, Table(Engine(other)))
        assert replay.import_jsonl(texts["jsonl"]) == tid
        assert msgspec.json.decode(msgspec.json.encode(standings(replay.state(tid)))) == now
    finally:
        other.dispose()
    twice = client.post("/tournaments/import", json={"jsonl": texts["jsonl"]})
    assert twice.status_code == 409  # the id exists here already


def test_bad_input_writes_nothing(client: TestClient) -> None:
    body = {"game": "toy", "players": ["Ann", "Bob", "Cid"], "rounds": 1}
    for change, status in (
        ({"game": "nogame"}, 404),
        ({"players": ["Ann", "Ann"]}, 422),
        ({"players": ["Ann", "7"]}, 422),
        ({"format": "knockout"}, 422),
        ({"table_size": 7}, 422),
        ({"rounds": 0}, 422),
        ({"points": [0, 6]}, 422),
        ({"tiebreaks": ["luck"]}, 422),
        ({"options": {"zz": "1"}}, 422),
        ({"final_table": 9}, 422),
        ({"surprise": 1}, 422),
    ):
        answer = client.post("/tournaments", json={**body, **change})
        assert answer.status_code == status, (change, answer.text)
        assert set(answer.json()) >= {"error", "message"}
    assert client.get("/tournaments").json()["items"] == []
    assert client.get("/games").json()["items"] == []
    garbage = client.post("/tournaments/import", json={"jsonl": "not json\n"})
    assert garbage.status_code == 422
    assert client.get("/tournaments").json()["items"] == []
    assert client.get("/tournaments/nope").status_code == 404
    assert client.post("/tournaments/nope/pair", headers=bearer("x")).status_code in (401, 404)
    created = client.post("/tournaments", json=body).json()
    tid, organiser = created["id"], bearer(created["organiser_token"])
    before = _seq(client, tid)
    for path, payload in (
        ("players", {"player": "spectator"}),
        ("players", {"player": ""}),
        ("withdraw", {"player": "Zed"}),
        ("autoplay", {"bots": "clever"}),
    ):
        answer = client.post(f"/tournaments/{tid}/{path}", json=payload, headers=organiser)
        assert answer.status_code in (404, 422), (path, answer.text)
    unknown_game = client.post(
        f"/tournaments/{tid}/disputes/nope/settle",
        json={"ruling": "stands", "reason": "x"},
        headers=organiser,
    )
    assert unknown_game.status_code == 404
    assert _seq(client, tid) == before


def test_a_duplicate_round_hands_out_no_referee_token(client: TestClient) -> None:
    created = _create(client, players=PLAYERS[:4], rounds=1, format="duplicate", table_size=2)
    tid = created["id"]
    paired = client.post(f"/tournaments/{tid}/pair", headers=bearer(created["organiser_token"]))
    assert paired.json()["duplicate"] is True
    assert all("referee_token" not in t for t in paired.json()["tables"])
    ann = bearer(created["players"][0]["token"])
    mine = client.post(f"/tournaments/{tid}/tables/mine", headers=ann).json()
    # the seat token sees its own seat, and the deal is sealed from its audit
    audit = client.get(f"/games/{mine['game']}/audit", headers=bearer(mine["token"]))
    assert audit.status_code == 403


def test_game_listings_show_games_only(client: TestClient, store_url: str) -> None:
    created = _create(client)
    client.post(f"/tournaments/{created['id']}/pair", headers=bearer(created["organiser_token"]))
    game = client.post("/games", json={"game": "toy", "players": ["Ann", "Bob"]}).json()
    noted = client.post(
        f"/games/{game['id']}/annotations",
        json={"at": "1", "comment": "hi"},
        headers=bearer(game["seats"][0]["token"]),
    )
    assert noted.status_code == 201
    listed = client.get("/games", params={"limit": 200}).json()["items"]
    ids = {item["id"] for item in listed}
    assert game["id"] in ids
    assert created["id"] not in ids
    assert not any("~" in i for i in ids)  # no notes or variation streams
    assert all(item["game"] == "toy" for item in listed)
    assert len(ids) == 3  # the game and the two tables of round 1
    assert client.get("/games", params={"game": "tournament"}).json()["items"] == []
    store = EventStore(store_url)
    try:
        table_ids = {g.id for g in Table(Engine(store)).games(limit=200)}
        assert table_ids == ids
        assert {i.kind for i in store.list_streams(limit=200)} >= {"tournament", "skald.notes"}
    finally:
        store.dispose()


def test_cli_autoplay_takes_a_bot_level(tmp_path: object) -> None:
    runner = CliRunner()
    db = ["--db", f"sqlite:///{tmp_path}/t.db"]
    tid = runner.invoke(
        cli_app, ["tournament", "new", "beowulf", "--players", "Ann,Bob,Cid", "--rounds", "1", *db]
    ).stdout.strip()
    runner.invoke(cli_app, ["tournament", "pair", tid, *db])
    bad = runner.invoke(cli_app, ["tournament", "autoplay", tid, "--bots", "clever", *db])
    assert bad.exit_code == 2
    assert bad.output.startswith("error: --bots 'clever'")
    store = EventStore(f"sqlite:///{tmp_path}/t.db")
    try:
        assert max(i.version for i in store.list_streams(limit=10)) < 10  # nothing was played
    finally:
        store.dispose()
    played = runner.invoke(cli_app, ["tournament", "autoplay", tid, "--bots", "greedy", *db])
    assert played.exit_code == 0, played.output
    [line] = [msgspec.json.decode(x) for x in played.stdout.splitlines()]
    assert sorted(line) == ["events", "game", "outcome", "round", "table"]
    assert line["outcome"]["termination"]


def test_a_real_server_runs_a_tournament(tmp_path: object) -> None:
    port = free_port()
    url = f"sqlite:///{tmp_path}/serve.db"
    command = [*skald_command(), "serve", "--port", str(port)]  # the toy game is not there
    with running(command, port, url) as base, httpx.Client(base_url=base, timeout=60) as http:
        created = http.post(
            "/tournaments", json={"game": "beowulf", "players": ["Ann", "Bob"], "rounds": 1}
        ).json()
        tid, organiser = created["id"], bearer(created["organiser_token"])
        ann = bearer(created["players"][0]["token"])
        assert http.post(f"/tournaments/{tid}/pair", headers=ann).status_code == 403
        assert http.post(f"/tournaments/{tid}/pair", headers=organiser).status_code == 201
        mine = http.post(f"/tournaments/{tid}/tables/mine", headers=ann).json()
        view = http.get(f"/games/{mine['game']}/view", headers=bearer(mine["token"]))
        assert view.status_code == 200
        http.post(f"/tournaments/{tid}/autoplay", json={}, headers=organiser)
        http.post(f"/tournaments/{tid}/results", headers=ann)
        shown = http.get(f"/tournaments/{tid}/standings").json()
        assert sum(r["points"] for r in shown["standings"]) == 6
        assert [g["id"] for g in http.get("/games").json()["items"]] == [mine["game"]]
