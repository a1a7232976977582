"""One request per decision: a move's answer carries whose turn it is, the outcome, the
seat's legal moves and its new view, equal to what the separate routes answer after it;
a client autoplays a whole game with nothing but POST /moves."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from skald.api.main import create_app


@pytest.fixture
def client(store_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(store_url)) as test_client:
        yield test_client


def test_a_move_answers_what_the_seat_needs_next(client: TestClient) -> None:
    game = client.post("/games", json={"game": "toy", "players": ["Ann", "Bob"]}).json()
    path = f"/games/{game['id']}"
    tokens = [{"Authorization": f"Bearer {seat['token']}"} for seat in game["seats"]]
    seat = client.get(path).json()["to_act"][0]
    moved = client.post(
        f"{path}/moves", headers=tokens[seat], json={"move": "bet 2", "expected_seq": game["seq"]}
    )
    assert moved.status_code == 201, moved.text
    body = moved.json()
    summary = client.get(path).json()
    assert (body["seq"], body["to_act"], body["outcome"]) == (
        summary["seq"],
        summary["to_act"],
        summary["outcome"],
    )
    assert body["view"] == client.get(f"{path}/view", headers=tokens[seat]).json()
    assert body["legal"] == client.get(f"{path}/legal", headers=tokens[seat]).json()["moves"]
    # The acting seat's view only: the other seat's hidden card stays hidden in it.
    other = client.get(f"{path}/view", headers=tokens[1 - seat]).json()
    assert body["view"]["state"] != other["state"]


def test_a_whole_game_with_one_request_per_decision(client: TestClient) -> None:
    game = client.post("/games", json={"game": "toy", "players": ["Ann", "Bob"]}).json()
    path = f"/games/{game['id']}"
    tokens = [{"Authorization": f"Bearer {seat['token']}"} for seat in game["seats"]]
    first = client.get(path).json()  # the one read before the first decision
    seq, to_act, legal_of = first["seq"], first["to_act"], {}
    rnd = random.Random(3)
    outcome = None
    for _ in range(200):
        if not to_act:
            break
        seat = to_act[0]
        moves = (
            legal_of.get(seat) or client.get(f"{path}/legal", headers=tokens[seat]).json()["moves"]
        )
        body = client.post(
            f"{path}/moves",
            headers=tokens[seat],
            json={"move": rnd.choice(moves), "expected_seq": seq},
        ).json()
        seq, to_act, outcome = body["seq"], body["to_act"], body["outcome"]
        legal_of = {seat: body["legal"]}
    assert outcome is not None
    assert client.get(path).json()["outcome"] == outcome
