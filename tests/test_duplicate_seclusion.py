"""Duplicate rounds stay apart (issue 23, attack 1), against a real `skald serve`.

Every table of a duplicate round plays one deal, so table 1's public play told seat 0 of
table 2 its opponent's hand and its own next draw. Here a duplicate round of Beowulf at
two tables of two: table 1 is played to its end, table 2 a few decisions. While table 2
plays, both games refuse every read route (and every `as=`), and the live channel
(`/games/ID/play`: its hello answered with the same refusal, then closed with 4403), to a
caller without a token,
to the other table's seat tokens and to the players' tournament tokens, all with one 403
that names the round and nothing played; their own seats and their referee read them;
anyone reads the summary and the game list, which say whether the game is over and
nothing more (no seq, no turn, no outcome: tests/test_hostile_seat_attacks.py).
Once table 2 is over everything opens as the table options say (`reveal=referee`: the
audit stays the referee's). A game of a Swiss round and a game outside any tournament
read as before, without a token.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from skald.core.engine import Engine
from skald.core.store import EventStore
from skald.core.tournament.access import issue_one
from skald.projections.bots.autoplay import play_out, random_bot
from skald.projections.table import Table
from tests.conftest import fresh_store_url
from tests.servers import bearer, free_port, running, skald_command
from tests.test_api_play import close_code, frame, ws_url

PLAYERS = ["Ann", "Bob", "Cid", "Dag"]
OPEN = (
    "view",
    "view?at=2",
    "log",
    "log?from=2&at=3",
    "lines",
    "lines?as=spectator",
    "board.svg",
    "board.svg?as=spectator",
    "board.svg?at=2",
    "table",
    "table?at=2&from=1&legal=true",
    "events",
    "events?from=3",
    "annotations",
    "variations",
    "export",
    "export?format=jsonl",
    "export?format=md&variations=false",
    "verify",
    "receipt",
)
"""Reads every seat and the referee may make of any game, and anyone of a public one."""
READS = (
    *OPEN,
    "lines?as=0",
    "lines?as=referee",
    "board.svg?variation=v1",
    "log?variation=v1",
    "audit",
    "audit?format=md",
)
"""Every read of a game beyond its summary (some refused to some callers for their own
reasons: another seat's eyes, a variation not theirs, the audit under reveal=referee)."""
WRITES = (
    ("annotations", {"at": "2", "comment": "a note"}),
    ("variations", {"from": "2", "moves": ["pass"]}),
)
"""Routes that write beside a game, reading it first."""
NOTES = ("annotations", "variations")


def read(http: httpx.Client, path: str, headers: dict[str, str]) -> tuple[int, bytes]:
    """The status and the start of the body (a live stream is read to its first bytes)."""
    with http.stream("GET", path, headers=headers) as answer:
        body = b""
        for chunk in answer.iter_bytes():
            body += chunk
            if answer.headers.get("content-type", "").startswith("text/event-stream"):
                break
        return answer.status_code, body


@pytest.fixture(params=["sqlite", "postgresql"])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[httpx.Client, str]]:
    url = fresh_store_url(request.param, tmp_path)
    port = free_port()
    command = [*skald_command(), "serve", "--port", str(port)]
    with running(command, port, url) as base, httpx.Client(base_url=base, timeout=60) as http:
        yield http, url


def _duplicate_round(http: httpx.Client) -> tuple[str, list[str], dict[str, dict[str, Any]]]:
    """A duplicate round of Beowulf at two tables of two: its id, games, and each
    player's seat (`game`, `seat`, `token`) with its `tournament_token`."""
    rules = {"game": "beowulf", "players": PLAYERS, "rounds": 1, "table_size": 2}
    created = http.post("/tournaments", json={**rules, "format": "duplicate"}).json()
    tid = created["id"]
    paired = http.post(f"/tournaments/{tid}/pair", headers=bearer(created["organiser_token"]))
    assert paired.status_code == 201, paired.text
    seats = {
        player["name"]: {
            **http.post(f"/tournaments/{tid}/tables/mine", headers=bearer(player["token"])).json(),
            "tournament_token": player["token"],
        }
        for player in created["players"]
    }
    return tid, [t["game"] for t in paired.json()["tables"]], seats


def _refusal(game: str, tournament: str) -> dict[str, str]:
    return {
        "error": "forbidden",
        "message": f"game {game} is a table of duplicate round 1 of tournament {tournament}: "
        "until every table of the round has finished, only its seats and its referee may "
        "read it; anyone else may know whether it is over, nothing more",
    }


def _outsiders(seats: dict[str, dict[str, Any]], game: str) -> list[tuple[str, dict[str, str]]]:
    """Every caller who is neither a seat nor the referee of `game`."""
    callers: list[tuple[str, dict[str, str]]] = [("no token", {})]
    for name, seat in seats.items():
        callers.append((f"{name}'s tournament token", bearer(seat["tournament_token"])))
        if seat["game"] != game:
            callers.append((f"{name}'s seat at {seat['game']}", bearer(seat["token"])))
    return callers


def _follow(http: httpx.Client, game: str, headers: dict[str, str]) -> tuple[dict[str, Any], int]:
    """The live channel's first frame to a caller (its token as the hello's, if any) asking
    for the game from seq 1, and the close code (0 when it stays open: a welcome)."""
    hello: dict[str, Any] = {"type": "hello", "after": 1}
    if headers:
        hello["token"] = headers["Authorization"].removeprefix("Bearer ")
    with connect(ws_url(str(http.base_url).rstrip("/"), game), open_timeout=30) as conn:
        conn.send(json.dumps(hello))
        first = frame(conn)
        return first, (close_code(conn) if first["type"] == "error" else 0)


def _open_a_variation(http: httpx.Client, table: Table, game: str, seats: dict[str, Any]) -> None:
    """The seat to act opens v1 with one of its legal moves, at the game's last seq."""
    turn = table.turn(game)
    [mover] = [s for s in seats.values() if s["game"] == game and s["seat"] == turn.to_act[0]]
    move = table.legal(game, mover["seat"])[0]
    opened = http.post(
        f"/games/{game}/variations",
        json={"from": str(turn.seq), "moves": [move]},
        headers=bearer(mover["token"]),
    )
    assert opened.status_code == 201, opened.text


def _assert_sealed(
    http: httpx.Client, tid: str, game: str, seats: dict[str, Any], referee: dict[str, str]
) -> None:
    refused = _refusal(game, tid)
    written = [http.get(f"/games/{game}/{n}", headers=referee).json()[n] for n in NOTES]
    for who, headers in _outsiders(seats, game):
        for path in (*READS, "legal"):
            status, body = read(http, f"/games/{game}/{path}", headers)
            assert (status, httpx.Response(status, content=body).json()) == (403, refused), (
                who,
                path,
            )
        for path, sent in WRITES:
            answer = http.post(f"/games/{game}/{path}", json=sent, headers=headers)
            assert (answer.status_code, answer.json()) == (403, refused), (who, path)
        assert _follow(http, game, headers) == ({"type": "error", **refused}, 4403), who
    assert [http.get(f"/games/{game}/{n}", headers=referee).json()[n] for n in NOTES] == written
    members = [bearer(s["token"]) for s in seats.values() if s["game"] == game] + [referee]
    for headers in members:
        assert _follow(http, game, headers)[0]["type"] == "welcome"
        for path in READS:
            status, body = read(http, f"/games/{game}/{path}", headers)
            assert b"duplicate round" not in body, path
            if path in OPEN:
                assert status == 200, (path, body[:200])
    assert read(http, f"/games/{game}/audit", referee)[0] == 200
    summary = http.get(f"/games/{game}")  # whether it is over, and nothing of its play
    assert summary.status_code == 200
    assert summary.json()["sealed"] is True
    assert (summary.json()["seq"], summary.json()["to_act"], summary.json()["outcome"]) == (
        None,
        [],
        None,
    )


def test_a_duplicate_round_is_read_only_by_its_seats_and_referee_until_it_is_over(
    served: tuple[httpx.Client, str],
) -> None:
    http, url = served
    tid, games, seats = _duplicate_round(http)
    first, second = games
    store = EventStore(url)
    try:
        table = Table(Engine(store))
        play_out(table, first, random_bot, random.Random(1))
        play_out(table, second, random_bot, random.Random(2), max_decisions=4)
        _open_a_variation(http, table, second, seats)
        referees = {game: bearer(issue_one(store, game, None)) for game in games}
        for game in games:
            _assert_sealed(http, tid, game, seats, referees[game])
        assert http.get(f"/games/{first}").json()["finished"] is True
        assert http.get(f"/games/{second}").json()["finished"] is False
        listed = {item["id"]: item for item in http.get("/games").json()["items"]}
        assert all(listed[g]["seq"] is None for g in games)

        play_out(table, second, random_bot, random.Random(3))
        for game in games:
            opened = http.get(f"/games/{game}").json()  # the round over: the whole summary
            assert "sealed" not in opened or opened["sealed"] is False
            assert opened["seq"] is not None
            assert opened["outcome"] is not None
            assert _follow(http, game, {})[0]["type"] == "welcome"  # a spectator now
            for path in READS:
                status, body = read(http, f"/games/{game}/{path}", {})
                assert b"duplicate round" not in body, path
                if path in OPEN:
                    assert status == 200, (path, body[:200])
            audit = http.get(f"/games/{game}/audit")  # reveal=referee: the table option's word
            assert audit.status_code == 403
            assert "referee" in audit.json()["message"]
            assert http.get(f"/games/{game}/audit", headers=referees[game]).status_code == 200
        other_table = bearer(next(s["token"] for s in seats.values() if s["game"] == second))
        assert http.get(f"/games/{first}/view", headers=other_table).status_code == 401  # as ever
    finally:
        store.dispose()


def test_other_games_read_as_before_without_a_token(served: tuple[httpx.Client, str]) -> None:
    """A Swiss round's game (named like a duplicate one) and a game of no tournament."""
    http, url = served
    created = http.post(
        "/tournaments",
        json={"game": "beowulf", "players": PLAYERS, "rounds": 1, "table_size": 2},
    ).json()
    paired = http.post(
        f"/tournaments/{created['id']}/pair", headers=bearer(created["organiser_token"])
    ).json()
    alone = http.post("/games", json={"game": "beowulf", "players": ["Eir", "Fay"]}).json()["id"]
    swiss = paired["tables"][0]["game"]
    store = EventStore(url)
    try:
        table = Table(Engine(store))
        for game in (swiss, alone):
            play_out(table, game, random_bot, random.Random(5), max_decisions=4)
            for path in OPEN:
                status, body = read(http, f"/games/{game}/{path}", {})
                assert status == 200, (game, path, body[:200])
            refused = http.get(f"/games/{game}/audit")  # reveal=end: after the game
            assert refused.status_code == 403
            assert "duplicate round" not in refused.json()["message"]
    finally:
        store.dispose()
