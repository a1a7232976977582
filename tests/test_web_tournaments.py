"""A tournament in the browser: `GET /tournaments/{id}/me` (who a token is there) and the
page `/tournaments/{id}/page` through TestClient, then the page in real Chromium against a
real `skald serve` (tests/test_web.py's fixtures): standings (rank, player, points,
tie-breaks, rating ± uncertainty), the rounds' tables linked to their games (spectator
links, or the player's own seat with the player's tournament token in the fragment)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from skald.api.main import create_app
from tests.browser_support import chromium, screenshot_folder, served_skald, windows
from tests.servers import Server, finish_game
from tests.test_web import Recorder


@pytest.fixture
def client(store_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(store_url)) as test_client:
        yield test_client


def test_who_a_token_is_and_the_page(client: TestClient) -> None:
    made = client.post(
        "/tournaments", json={"game": "beowulf", "players": ["Ann", "Bob", "Cid"], "rounds": 1}
    )
    assert made.status_code == 201, made.text
    created = made.json()
    tid = created["id"]
    me = f"/tournaments/{tid}/me"
    assert client.get(me).json() == {"tournament": tid, "role": "spectator", "player": None}
    organiser = {"Authorization": f"Bearer {created['organiser_token']}"}
    assert client.get(me, headers=organiser).json()["role"] == "organiser"
    bob = {"Authorization": f"Bearer {created['players'][1]['token']}"}
    assert client.get(me, headers=bob).json() == {
        "tournament": tid,
        "role": "player",
        "player": "Bob",
    }
    assert client.get(me, headers={"Authorization": "Bearer nope"}).status_code == 401
    assert client.get("/tournaments/nope/me").status_code == 404
    page = client.get(f"/tournaments/{tid}/page")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in page.headers["content-security-policy"]
    assert '<script src="/web/tournament.js"' in page.text


# -- in the browser ---------------------------------------------------------------------------

pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with served_skald(tmp_path_factory, "web-tournament-server") as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def window(browser: Any, server: Server) -> Iterator[Callable[[str], Any]]:
    """Opens a path in a window of its own."""
    with windows(browser, server) as open_page:
        yield open_page


def _post(server: Server, path: str, token: str, body: Any = None) -> Any:
    answer = httpx.post(
        f"{server.base}{path}",
        json=body,
        headers={"Authorization": f"Bearer {token}"},
        timeout=120,
    )
    assert answer.status_code in (200, 201), answer.text
    return answer.json()


def test_tournament_page_standings_rounds_and_seats(
    window: Callable[[str], Any], server: Server, tmp_path_factory: pytest.TempPathFactory
) -> None:
    shots = screenshot_folder(tmp_path_factory, "web-tournament-screenshots")
    players = ["Ann", "Bob", "Cid", "Dag"]
    made = httpx.post(
        f"{server.base}/tournaments",
        json={
            "game": "beowulf",
            "players": players,
            "rounds": 2,
            "table_size": 2,
            "seed": "t",
            "name": "Winter cup",
        },
    )
    assert made.status_code == 201, made.text
    created = made.json()
    tid, organiser = created["id"], created["organiser_token"]
    bob_token = created["players"][1]["token"]
    _post(server, f"/tournaments/{tid}/pair", organiser)
    _post(server, f"/tournaments/{tid}/autoplay", organiser, {"bots": "random", "bot_seed": 3})
    _post(server, f"/tournaments/{tid}/results", organiser)
    second = _post(server, f"/tournaments/{tid}/pair", organiser)
    bobs = next(t for t in second["tables"] if "Bob" in t["seats"])

    # The lobby lists it; its page shows standings and both rounds.
    lobby = window("/")
    lobby.locator(f'#tournaments [data-tournament="{tid}"] a.tournament-link').click()
    lobby.wait_for_selector("#standings tbody tr")
    assert lobby.url.endswith(f"/tournaments/{tid}/page")
    assert "Winter cup" in lobby.inner_text("#title")
    rows = lobby.locator("#standings tbody tr")
    assert rows.count() == 4
    assert lobby.locator("#standings tbody td.rank").all_inner_texts()[0] == "1"
    assert sorted(lobby.locator("#standings tbody .player").all_inner_texts()) == players
    headers = lobby.locator("#standings thead th").all_inner_texts()
    assert headers[:3] == ["Rank", "Player", "Points"]
    assert "Diamonds" in headers  # Beowulf's own tie-break, in its words
    assert "Buchholz" in headers
    titles = lobby.locator("#standings thead th[title]").evaluate_all(
        "(cells) => cells.map((cell) => cell.title)"
    )
    assert any("diamonds on the figures left unused" in title for title in titles), titles
    assert "TB " not in lobby.inner_text("#standings thead")
    assert "tie-breaks in order: diamonds on unused figures, total score" in lobby.inner_text(
        "#setup"
    )
    assert all("±" in text for text in lobby.locator("#standings td.rating").all_inner_texts())
    expected = httpx.get(f"{server.base}/tournaments/{tid}/standings").json()["standings"]
    assert lobby.locator("#standings tbody td.points").first.inner_text() == str(
        expected[0]["points"]
    ).removesuffix(".0")
    assert lobby.locator("#rounds section.round").count() == 2
    # The crosstable: a row per player in standings order, a cell per round.
    assert lobby.locator("#crosstable tbody th").all_inner_texts() == [
        row["player"] for row in expected
    ]
    assert lobby.locator("#crosstable thead th").all_inner_texts()[2:4] == ["Round 1", "Round 2"]
    played = lobby.locator('#crosstable tbody td[data-round="1"]').all_inner_texts()
    words = r"table \d, (won against|lost to|shared 1st of 2 against) \w+"
    assert all(re.fullmatch(words, cell) for cell in played), played
    assert lobby.locator("#rounds a.my-seat").count() == 0  # a spectator gets watch links
    lobby.select_option("#after", "1")
    lobby.wait_for_function("() => document.querySelectorAll('#standings tbody tr').length === 4")
    lobby.screenshot(path=shots / "tournament-spectator.png", full_page=True)

    # A spectator's link opens the table as a spectator.
    first_game = lobby.locator('#rounds section[data-round="1"] tr[data-game]').first
    game_id = first_game.get_attribute("data-game")
    first_game.locator("a.watch").click()
    lobby.wait_for_selector("#board svg")
    assert lobby.url.endswith(f"/play/{game_id}")
    assert " · spectator · " in lobby.title()

    # Bob's page (his tournament token in the fragment) opens his own seat of round 2.
    bob = window(f"/tournaments/{tid}/page#token={bob_token}")
    traffic = Recorder(bob)
    bob.reload()
    bob.wait_for_selector("#standings tbody tr")
    assert bob.inner_text("#whoami") == "You: Bob"
    mine = bob.locator(f'#rounds tr[data-game="{bobs["game"]}"] a.my-seat')
    assert mine.count() == 1
    assert bob.locator("#rounds a.my-seat").count() == 2  # one table of his in each round
    mine.click()
    bob.wait_for_selector("#board svg")
    assert f"/play/{bobs['game']}#token=" in bob.url
    assert bob.title() == "Beowulf: The Movie Board Game · Bob · Skald"
    bob.wait_for_selector("#play:not([hidden])")
    assert not [url for url in traffic.urls if "token" in url.split("#")[0]]


def test_a_duplicate_round_in_play_offers_no_watch_link(
    window: Callable[[str], Any], server: Server
) -> None:
    """Its games are read only by their own seats until the round is over: a spectator
    sees each table as sealed, a player its own seat only; a finished table's result waits
    for the round (the desk says so); once over, watch links."""
    made = httpx.post(
        f"{server.base}/tournaments",
        json={
            "game": "beowulf",
            "players": ["Ann", "Bob", "Cid", "Dag"],
            "rounds": 1,
            "table_size": 2,
            "format": "duplicate",
        },
    ).json()
    tid, organiser = made["id"], made["organiser_token"]
    _post(server, f"/tournaments/{tid}/pair", organiser)
    spectator = window(f"/tournaments/{tid}/page")
    spectator.wait_for_selector("#rounds tr[data-game]")
    assert spectator.locator("#rounds a.watch").count() == 0
    assert spectator.locator("#rounds .sealed").count() == 2
    ann = window(f"/tournaments/{tid}/page#token={made['players'][0]['token']}")
    ann.wait_for_selector("#rounds a.my-seat")
    assert ann.locator("#rounds a.my-seat").count() == 1
    assert ann.locator("#rounds a.watch").count() == 0
    # Ann's table finishes first: the organiser's desk takes nothing in, and says why
    seats = {
        p["name"]: _post(server, f"/tournaments/{tid}/tables/mine", p["token"])
        for p in made["players"]
    }
    mine = seats["Ann"]["game"]
    with httpx.Client(base_url=server.base, timeout=60) as http:
        finish_game(
            http, mine, {s["seat"]: s["token"] for s in seats.values() if s["game"] == mine}
        )
    desk = window(f"/tournaments/{tid}/page#token={organiser}")
    desk.wait_for_selector("#desk:not([hidden])")
    desk.click("#results")
    desk.wait_for_function("() => document.querySelector('#info').textContent.includes('taken in')")
    told = desk.inner_text("#info")
    assert "0 results taken in. Round 1, table " in told, told
    assert "has finished; a duplicate round's results are taken in together, once table " in told
    _post(server, f"/tournaments/{tid}/autoplay", organiser, {"bots": "random", "bot_seed": 1})
    _post(server, f"/tournaments/{tid}/results", organiser)
    spectator.reload()
    spectator.wait_for_selector("#rounds a.watch")
    assert spectator.locator("#rounds a.watch").count() == 2
    assert spectator.locator("#rounds .sealed").count() == 0
