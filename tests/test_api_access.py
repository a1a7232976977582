"""Access: a seat's token never yields another seat's hidden values, from any endpoint.

The toy game hides each dealt or drawn card from everyone but its seat, and the deck
order from everyone. The referee's log names every secret and its salt. Each viewer
(Ann's token, Bob's token, no token) then sweeps every endpoint — views and logs at
every seq, legal moves, move/undo/redo answers, errors, the live stream — and no
response may carry the value or the salt of a secret outside that viewer's audience.
Salts are 64 random hex digits, so finding one anywhere in a body is a leak.
The game uses `reveal=referee`, so the end of the game reveals nothing either.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from skald.api.main import create_app

VIEWERS = ("ann", "bob", "spectator")
SEATS = {"ann": 0, "bob": 1}


@pytest.fixture
def client(tmp_path: object) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path}/access.db")) as test_client:
        yield test_client


def secrets_in(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        if "commitment" in value and "audience" in value:
            yield value
        for item in value.values():
            yield from secrets_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from secrets_in(item)


class Sweep:
    """Collects every body each viewer received."""

    def __init__(self, client: TestClient, created: dict[str, Any]) -> None:
        self.client, self.id = client, created["id"]
        self.headers = {
            "spectator": {},
            "referee": {"Authorization": f"Bearer {created['referee_token']}"},
        }
        for name, seat in SEATS.items():
            self.headers[name] = {"Authorization": f"Bearer {created['seats'][seat]['token']}"}
        self.bodies: dict[str, list[str]] = {name: [] for name in VIEWERS}

    def call(self, who: str, method: str, path: str, **kwargs: Any) -> Any:
        response = self.client.request(
            method, f"/games/{self.id}{path}", headers=self.headers[who], **kwargs
        )
        if who in self.bodies:
            self.bodies[who].append(response.text)
        return response

    def reads(self) -> None:
        seq = self.client.get(f"/games/{self.id}").json()["seq"]
        for who in VIEWERS:
            self.call(who, "GET", "")
            self.call(who, "GET", "/legal")
            self.call(who, "GET", "/log")
            for at in range(1, seq + 1):
                self.call(who, "GET", "/view", params={"at": at})
                self.call(who, "GET", "/log", params={"from": 1, "at": at})
            with self.client.stream(
                "GET",
                f"/games/{self.id}/events",
                headers={**self.headers[who], "Last-Event-ID": "0"},
            ) as stream:
                if self.finished():
                    self.bodies[who].append("".join(stream.iter_text()))

    def finished(self) -> bool:
        return self.client.get(f"/games/{self.id}").json()["outcome"] is not None


def test_no_seat_sees_another_seats_secrets_anywhere(client: TestClient) -> None:
    created = client.post(
        "/games",
        json={
            "game": "toy",
            "players": ["Ann", "Bob"],
            "options": {"reveal": "referee", "undo": "anyone"},
        },
    ).json()
    sweep = Sweep(client, created)
    script = [
        ("ann", "POST", "/moves", {"move": "draw"}),
        ("bob", "POST", "/moves", {"move": "bet 2"}),
        ("ann", "POST", "/undo", {}),  # anyone may undo; Bob's bet is undoable
        ("ann", "POST", "/redo", {}),
        ("ann", "POST", "/moves", {"move": "bet 1"}),
        ("bob", "POST", "/moves", {"move": "draw"}),
        ("bob", "POST", "/moves", {"move": "draw"}),  # not Bob's turn: an error
        ("ann", "POST", "/moves", {"move": "bet 9"}),  # illegal: an error
        ("ann", "POST", "/moves", {"move": "draw"}),
        ("bob", "POST", "/moves", {"move": "draw"}),
    ]
    for step, (who, method, path, body) in enumerate(script):
        for other in VIEWERS:  # the others try the same thing: errors must not leak
            if other != who:
                sweep.call(other, method, path, json=body)
        sweep.call(who, method, path, json=body)
        if step in (0, 5, len(script) - 1):  # replays with `at` cover the steps between
            sweep.reads()
    assert sweep.finished()

    referee_log = client.get(f"/games/{sweep.id}/log", headers=sweep.headers["referee"]).json()
    secrets = list(secrets_in(referee_log))
    assert len(secrets) >= 7
    assert all(s["salt"] for s in secrets)

    for who in VIEWERS:
        seats = {SEATS[who]} if who in SEATS else set()
        hidden = [s for s in secrets if not seats & set(s["audience"])]
        visible = [s for s in secrets if seats & set(s["audience"])]
        text = "\n".join(sweep.bodies[who])
        for secret in hidden:
            assert secret["salt"] not in text, (who, secret["commitment"])
        for body in sweep.bodies[who]:
            for shown in secrets_in(_json_parts(body)):
                if not seats & set(shown["audience"]):
                    assert shown["value"] is None, who
                    assert shown["salt"] is None, who
        if who in SEATS:
            assert visible, who
            assert all(s["salt"] in text for s in visible), who

    hands = client.get(f"/games/{sweep.id}/view", headers=sweep.headers["referee"])
    assert hands.status_code == 200
    ann_view = client.get(f"/games/{sweep.id}/view", headers=sweep.headers["ann"]).json()
    bob_view = client.get(f"/games/{sweep.id}/view", headers=sweep.headers["bob"]).json()
    assert ann_view["state"]["hand"] != bob_view["state"]["hand"]
    spectator = client.get(f"/games/{sweep.id}/view").json()
    assert spectator["state"]["hand"] is None


def _json_parts(body: str) -> Any:
    """A response body as JSON; an SSE body as the list of its messages' data."""
    if body.startswith(":") or body.startswith("id:"):
        return [
            json.loads(line[len("data: ") :])
            for line in body.splitlines()
            if line.startswith("data: ")
        ]
    try:
        return json.loads(body)
    except ValueError:
        return None
