"""Refusals through the routes read the same whatever the requester cannot see, against a
real server, for every game (issue 23: "the error text of the same request is
byte-identical under `perturb_hidden` for the requester", on every route).

A seat's variation opened with another seed is the same position with other hidden values
drawn for what that seat cannot see (`sample`): the perturbation, made by the service
itself. So, at positions along a random game, a seat asks the same requests of variations
opened with several seeds: its own moves (legal and not), moves played for each other
seat, moves no game knows. The status and text of each answer must be byte-identical from
seed to seed; a refusal for another seat quotes no value hidden from the requester. The
seat's own refusals in the game itself must read as they do in a variation (one place
makes them: `core.refusal`), over REST and over the live channel alike.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.servers import bearer, legal_moves, served_sqlite

NAMES = ["Ann", "Bob", "Cid", "Dag"]
TABLES = {"beowulf": 2, "hagar": 3, "beast": 2}
"""Every game the server plays (the toy game lives in the tests only)."""
SEEDS = ("north", "south", "east")
NONSENSE = ["", "fly to the moon", "Zed: pass", "play 99@99"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from served_sqlite(tmp_path_factory, "refusals")


def _variation(http: httpx.Client, game: str, seq: int, moves: list[str], seed: str, token: str):
    return http.post(
        f"/games/{game}/variations",
        json={"from": str(seq), "moves": moves, "seed": seed},
        headers=bearer(token),
    )


def _over_channel(base: str, game: str, token: str, move: str) -> dict[str, Any]:
    """The live channel's answer to one move message (the first frame that is no update)."""
    with connect(base.replace("http", "ws", 1) + f"/games/{game}/play") as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        ws.send(json.dumps({"type": "move", "move": move}))
        while True:
            frame = json.loads(ws.recv(timeout=30))
            if frame["type"] not in ("welcome", "update"):
                return frame


@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_refusal_reads_the_same_whatever_the_requester_cannot_see(server: str, game: str) -> None:
    players = NAMES[: TABLES[game]]
    compared = refused_for_others = main_compared = 0
    with httpx.Client(base_url=server, timeout=60) as http:
        created = http.post(
            "/games",
            json={"game": game, "players": players, "seed": "routes", "reproducible": True},
        )
        assert created.status_code == 201, created.text
        game_id = created.json()["id"]
        tokens = [s["token"] for s in created.json()["seats"]]
        rnd = random.Random(game)
        seen: set[str] = set()
        for decision in range(40):
            summary = http.get(f"/games/{game_id}").json()
            if summary.get("outcome") is not None or not summary["to_act"]:
                break
            legal = {seat: legal_moves(http, game_id, tokens[seat]) for seat in range(len(players))}
            for moves in legal.values():
                seen.update(moves)
            if decision % 8 == 3:
                for seat, token in enumerate(tokens):
                    asked = rnd.sample(sorted(seen), min(6, len(seen))) + NONSENSE
                    for move in asked:
                        for requests in (
                            [move],
                            *([f"{name}: {move}"] for i, name in enumerate(players) if i != seat),
                        ):
                            answers = [
                                _variation(http, game_id, summary["seq"], requests, s, token)
                                for s in SEEDS
                            ]
                            shapes = {(a.status_code, a.text) for a in answers}
                            if any(a.status_code == 201 for a in answers):
                                continue  # accepted: each world its own variation
                            assert len(shapes) == 1, (game, seat, requests, shapes)
                            compared += 1
                            refused_for_others += ":" in requests[0]
                        if (
                            move
                            and ":" not in move
                            and seat in summary["to_act"]
                            and move not in legal[seat]
                        ):
                            main_compared += _main_refusal(
                                http, server, game_id, summary["seq"], token, move
                            )
            seat = summary["to_act"][0]
            made = http.post(
                f"/games/{game_id}/moves",
                json={"move": rnd.choice(legal[seat])},
                headers=bearer(tokens[seat]),
            )
            assert made.status_code == 201, made.text
    assert compared >= 20, compared
    assert refused_for_others >= 10, refused_for_others
    assert main_compared >= 3, main_compared


def _main_refusal(http: httpx.Client, base: str, game: str, seq: int, token: str, move: str) -> int:
    """The seat's own illegal move in the game itself, over REST and over the channel: the
    same refusal as in its variation, and nothing written."""
    rest = http.post(f"/games/{game}/moves", json={"move": move}, headers=bearer(token))
    if rest.status_code != 422:
        assert rest.status_code == 400, rest.text  # a notation that does not parse
    variation = _variation(http, game, seq, [move], SEEDS[0], token)
    assert rest.json()["message"] in variation.json()["message"], (rest.text, variation.text)
    frame = _over_channel(base, game, token, move)
    assert frame["message"] == rest.json()["message"], (frame, rest.text)
    assert http.get(f"/games/{game}").json()["seq"] == seq  # nothing written
    return 1
