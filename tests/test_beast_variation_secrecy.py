"""A Beast hunter's variations see what that hunter sees, against a real server.

Found by a fresh-eyes review of issue 23: a hunter's variation was seen from the whole
hunting team (`VariationStarted.seats`), but a draft pack is dealt to one seat. So with
Bob's token, a variation move played for Cid (`Cid: draft Nothing`) was refused with Cid's
real pack as its list of legal moves, while Bob's own log shows that pack only as a
commitment; and the worlds drawn for Bob's variations came from what every hunter saw.
Now a variation is seen from its author's seat alone (`core.history.variations.
author_seats`): the refusal names none of Cid's cards, the variation says it is seen from
Bob's seat, and Bob's teammates do not read it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.servers import bearer as _headers
from tests.servers import legal_moves, served_sqlite

PLAYERS = ["Ann", "Bob", "Cid", "Dag"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from served_sqlite(tmp_path_factory, "variation")


def _at_a_draft(http: httpx.Client) -> tuple[str, dict[str, str], int, list[str]]:
    """A 4-player game played at random until Cid (seat 2) drafts: its id, the tokens by
    name, the seq and Cid's real pack (the cards of his legal moves)."""
    created = http.post(
        "/games",
        json={"game": "beast", "players": PLAYERS, "seed": "packs", "reproducible": True},
    ).json()
    game, tokens = created["id"], {s["name"]: s["token"] for s in created["seats"]}
    rnd = random.Random(4)
    for _ in range(200):
        summary = http.get(f"/games/{game}").json()
        cid = legal_moves(http, game, tokens["Cid"]) if 2 in summary["to_act"] else []
        if cid and all(m.startswith("draft ") for m in cid):
            return game, tokens, summary["seq"], [m.removeprefix("draft ") for m in cid]
        seat = summary["to_act"][0]
        token = tokens[PLAYERS[seat]]
        move = rnd.choice(legal_moves(http, game, token))
        made = http.post(f"/games/{game}/moves", json={"move": move}, headers=_headers(token))
        assert made.status_code == 201, made.text
    raise AssertionError("no draft reached")


def test_a_hunters_variation_sees_what_that_hunter_sees(server: str) -> None:
    with httpx.Client(base_url=server, timeout=60) as http:
        game, tokens, seq, pack = _at_a_draft(http)
        bob = _headers(tokens["Bob"])
        own = {m.removeprefix("draft ") for m in legal_moves(http, game, tokens["Bob"])}
        hidden = [card for card in pack if card not in own]
        assert hidden  # Cid holds cards Bob has not seen
        log = http.get(f"/games/{game}/log", headers=bob).text
        assert not any(f'"{card}"' in log for card in hidden)  # Bob's log: commitments only
        for seed in ("q", "r", "s"):
            refused = http.post(
                f"/games/{game}/variations",
                json={"from": str(seq), "moves": ["Cid: draft Nothing"], "seed": seed},
                headers=bob,
            )
            assert refused.status_code == 422, refused.text
            assert not [card for card in hidden if card in refused.text], refused.text
        opened = http.post(
            f"/games/{game}/variations",
            json={"from": str(seq), "moves": [f"Bob: draft {sorted(own)[0]}"], "seed": "t"},
            headers=bob,
        )
        assert opened.status_code == 201, opened.text
        number = opened.json()["id"].rpartition("~")[2]
        started = _started(http, game, number, bob)
        assert started["seats"] == [1]  # seen from Bob's seat, not the hunters'
        for teammate in ("Cid", "Dag"):
            listed = http.get(f"/games/{game}/variations", headers=_headers(tokens[teammate]))
            assert number not in [v["id"] for v in listed.json()["variations"]], teammate


def _started(http: httpx.Client, game: str, number: str, headers: dict[str, str]) -> Any:
    """The `VariationStarted` event of variation `number` as its author reads it (in the
    game's JSON-lines export)."""
    answer = http.get(f"/games/{game}/export", params={"format": "jsonl"}, headers=headers)
    assert answer.status_code == 200, answer.text
    records = [json.loads(line) for line in answer.text.splitlines() if line.strip()]
    return next(
        r["event"]
        for r in records
        if r.get("stream", "").endswith(f"~{number}")
        and r.get("event", {}).get("type") == "history.variation_started"
    )
