"""`?as=` on a real `skald serve`: anyone may look as a spectator, a seat as itself, the
referee as anyone — and nobody else as anybody. A review found that a caller with no token
(a spectator) could look as the referee on `/board.svg` and `/lines` (both speak for no
seat, and "the same seats" was the rule): every hand, the pile's order, the game key, the
Beast's hidden steps and a seat's private variation were one query away. The attack is
tried on every route of the OpenAPI document that takes `as`, so a new one is covered."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from skald.api.main import create_app
from skald.projections.beowulf.board import hand_line
from tests.patience import HUNG
from tests.servers import free_port, running, skald_command


def routes_taking_as() -> list[str]:
    """Every GET path of the service with an `as` query parameter."""
    spec = create_app("sqlite://").openapi()
    return sorted(
        path
        for path, operations in spec["paths"].items()
        for method, operation in operations.items()
        if method == "get" and any(p["name"] == "as" for p in operation.get("parameters", []))
    )


ROUTES = routes_taking_as()


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder: Path = tmp_path_factory.mktemp("looking-as")
    port = free_port()
    command = [*skald_command(), "serve", "--port", str(port)]
    with running(command, port, f"sqlite:///{folder / 'skald.db'}") as base:
        yield base


@pytest.fixture(scope="module")
def game(service: str) -> dict[str, object]:
    """A Beowulf game two moves in, and a private variation of Ann's."""
    with httpx.Client(base_url=service, timeout=HUNG) as client:
        created = client.post("/games", json={"game": "beowulf", "players": ["Ann", "Bob"]})
        assert created.status_code == 201, created.text
        body = created.json()
        tokens = {seat["name"]: seat["token"] for seat in body["seats"]}
        path = f"/games/{body['id']}"
        for name in ("Ann", "Bob"):
            auth = {"Authorization": f"Bearer {tokens[name]}"}
            moves = client.get(f"{path}/legal", headers=auth).json()["moves"]
            assert client.post(f"{path}/moves", json={"move": moves[0]}, headers=auth).is_success
        auth = {"Authorization": f"Bearer {tokens['Ann']}"}
        legal = client.get(f"{path}/legal", headers=auth).json()
        opened = client.post(
            f"{path}/variations",
            json={"from": legal["seq"], "moves": [f"Ann: {legal['moves'][-1]}"]},
            headers=auth,
        )
        assert opened.status_code == 201, opened.text
        return {"path": path, "tokens": tokens, "referee": body["referee_token"]}


def get(service: str, url: str, token: str | None = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.get(f"{service}{url}", headers=headers, timeout=HUNG)


def test_the_routes_taking_as_are_found() -> None:
    assert "/games/{game_id}/board.svg" in ROUTES
    assert "/games/{game_id}/lines" in ROUTES


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("who", ["referee", "Ann", "Bob", "0", "1"])
def test_no_token_looks_as_nobody_but_a_spectator(
    service: str, game: dict[str, object], route: str, who: str
) -> None:
    url = route.replace("/games/{game_id}", str(game["path"]))
    assert get(service, url).status_code == 200
    assert get(service, f"{url}?as=spectator").status_code == 200
    refused = get(service, f"{url}?as={who}")
    assert refused.status_code == 403, refused.text[:300]
    assert refused.json()["error"] == "forbidden"
    # A seat's private variation is not reachable that way either.
    if route.endswith("board.svg"):
        assert get(service, f"{url}?variation=v1&as={who}").status_code == 403


@pytest.mark.parametrize("route", ROUTES)
def test_a_seat_looks_as_itself_and_the_referee_as_anyone(
    service: str, game: dict[str, object], route: str
) -> None:
    url = route.replace("/games/{game_id}", str(game["path"]))
    tokens: dict[str, str] = game["tokens"]  # type: ignore[assignment]
    for who in ("Ann", "0", "spectator"):
        assert get(service, f"{url}?as={who}", tokens["Ann"]).status_code == 200, who
    for who in ("Bob", "1", "referee"):
        assert get(service, f"{url}?as={who}", tokens["Ann"]).status_code == 403, who
    for who in ("Ann", "Bob", "1", "spectator", "referee"):
        assert get(service, f"{url}?as={who}", str(game["referee"])).status_code == 200, who
    if route.endswith("board.svg"):  # Ann's private variation: hers and the referee's
        assert get(service, f"{url}?variation=v1", tokens["Ann"]).status_code == 200
        assert get(service, f"{url}?variation=v1", tokens["Bob"]).status_code == 404
        assert get(service, f"{url}?variation=v1&as=Ann", str(game["referee"])).status_code == 200


def test_what_a_spectator_gets_hides_every_hand(service: str, game: dict[str, object]) -> None:
    """The refused query would have shown both hands; the spectator's board shows backs."""
    path = str(game["path"])
    tokens: dict[str, str] = game["tokens"]  # type: ignore[assignment]
    ann = httpx.get(
        f"{service}{path}/view", headers={"Authorization": f"Bearer {tokens['Ann']}"}, timeout=HUNG
    ).json()
    board = get(service, f"{path}/board.svg").text
    lines = get(service, f"{path}/lines").text
    hand = [face for seat in ann["state"]["seats"] if seat.get("hand") for face in seat["hand"]]
    assert hand
    assert hand_line(hand) not in board
    told = [line["text"] for line in json.loads(lines)["lines"]]
    dealt = [text for text in told if " was dealt " in text]
    assert dealt  # the deal is told, without the tiles (Ann's own view names hers)
    assert all(text.endswith(" tiles.") for text in dealt), dealt


@pytest.mark.parametrize("route", ["/view", "/possible"])
def test_the_referee_reads_what_a_seat_reads(
    service: str, game: dict[str, object], route: str
) -> None:
    """The referee's `/view?as=Bob` and `/possible?as=Bob` (what Bob could have known: a
    dispute's question) are Bob's own answers; a seat's `as=` another seat is refused, not
    ignored (review finding: `/view?as=1` answered for the caller)."""
    url = f"{game['path']}{route}"
    tokens: dict[str, str] = game["tokens"]  # type: ignore[assignment]
    own = get(service, url, tokens["Bob"]).json()
    as_bob = get(service, f"{url}?as=Bob", str(game["referee"])).json()
    assert as_bob == own
    assert get(service, url, str(game["referee"])).json() != own
    assert get(service, f"{url}?as=1", tokens["Ann"]).status_code == 403
