"""Annotations and variations at the table: the JSON reads the page uses (through
TestClient on each store), then the page itself in real Chromium against a real
`skald serve` (tests/test_web.py's fixtures): an annotation added from one seat's page
shows on its move, a seat-only one is absent from the other seat's DOM and traffic,
markup is drawn on the SVG board, and a variation opened from the page replays."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from skald.api.main import create_app


@pytest.fixture
def client(store_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(store_url)) as test_client:
        yield test_client


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_annotations_and_variations_read_as_each_viewer(client: TestClient) -> None:
    created = client.post(
        "/games", json={"game": "beowulf", "players": ["Ann", "Bob"], "seed": "3"}
    ).json()
    game_id = created["id"]
    ann, bob = (_bearer(seat["token"]) for seat in created["seats"])
    referee = _bearer(created["referee_token"])
    seq = client.get(f"/games/{game_id}").json()["seq"]
    private = {"at": str(seq), "comment": "Ann's secret plan", "audience": "seat"}
    assert (
        client.post(f"/games/{game_id}/annotations", json=private, headers=ann).status_code == 201
    )
    public = {
        "at": str(seq),
        "comment": "for all",
        "glyph": "!?",
        "marks": ["arrow B2 C3 blue", "label C3 green look here"],
    }
    assert client.post(f"/games/{game_id}/annotations", json=public, headers=bob).status_code == 201
    opened = client.post(
        f"/games/{game_id}/variations",
        json={"from": str(seq), "moves": ["place beowulf C3"], "name": "centre", "seed": "x"},
        headers=bob,
    )
    assert opened.status_code == 201, opened.text

    def notes(headers: dict[str, str]) -> list[dict[str, Any]]:
        answer = client.get(f"/games/{game_id}/annotations", headers=headers)
        assert answer.status_code == 200, answer.text
        found: list[dict[str, Any]] = answer.json()["annotations"]
        return found

    as_ann, as_bob, as_spectator = notes(ann), notes(bob), notes({})
    assert as_ann[0]["comment"] == "Ann's secret plan"
    assert as_ann[0]["sealed"] is False
    for other in (as_bob, as_spectator):
        assert other[0] == {
            "seq": 1,
            "at": str(seq),
            "stream": "game",
            "move": seq,
            "author": "Ann",
            "audience": "seat",
            "sealed": True,
        }
    assert as_spectator[1]["marks"] == [
        {"shape": "arrow", "at": "B2", "to": "C3", "colour": "blue", "label": None},
        {"shape": "label", "at": "C3", "to": None, "colour": "green", "label": "look here"},
    ]
    assert as_spectator[1]["glyph"] == "!?"
    assert "secret plan" not in client.get(f"/games/{game_id}/annotations").text
    assert notes(referee)[0]["comment"] == "Ann's secret plan"

    def listed(headers: dict[str, str]) -> list[dict[str, Any]]:
        answer = client.get(f"/games/{game_id}/variations", headers=headers)
        assert answer.status_code == 200, answer.text
        found: list[dict[str, Any]] = answer.json()["variations"]
        return found

    (mine,) = listed(bob)
    assert (mine["id"], mine["name"], mine["parent"], mine["at"]) == ("v1", "centre", "game", seq)
    assert mine["author"] == "Bob"
    assert mine["hypothetical"] is True
    assert mine["lines"][0]["seq"] == 2
    assert "C3" in mine["lines"][0]["text"]
    assert listed(ann) == []  # a seat's variation is its own while the game runs
    assert listed({}) == []
    assert [v["id"] for v in listed(referee)] == ["v1"]
    # The variation's board, for those who see it; a 404 for the others.
    board = client.get(f"/games/{game_id}/board.svg?variation=v1&at=3", headers=bob)
    assert board.status_code == 200, board.text
    assert 'class="figure' in board.text
    assert client.get(f"/games/{game_id}/board.svg?variation=v1", headers=ann).status_code == 404
    assert client.get(f"/games/{game_id}/board.svg?variation=v9", headers=bob).status_code == 404
    assert (
        client.get(f"/games/{game_id}/board.svg?variation=v1&at=99", headers=bob).status_code == 404
    )
    # A token that is not this game's is a 401, as on every game route.
    assert client.get(f"/games/{game_id}/annotations", headers=_bearer("nope")).status_code == 401
