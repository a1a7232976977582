"""The lobby and the tournament desk in real Chromium against a real `skald serve`, at a
phone's size (390×844) and at a desktop's: a tournament created from the lobby's form, run
from the organiser's desk to the end of three rounds (pair, let bots play, take results
in), a dispute opened from a player's page and settled with a ruling at the desk, the
standings checked against `skald tournament standings` on the same store, the crosstable,
the lobby's filters and paging; no page scrolls sideways on a phone and every control is a
44-pixel touch target. Screenshots are kept as artefacts in the test's folder."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser_support import ONLY_LOOPBACK, TIMEOUT, chromium, screenshot_folder, served_skald
from tests.servers import Server

pytest.importorskip("playwright.sync_api")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1400, "height": 1000}
PLAYERS = ["Ann", "Bob", "Cid", "Dag", "Eir", "Fay", "Gus", "Hal"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with served_skald(tmp_path_factory, "web-desk-server") as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def open_page(browser: Any, server: Server) -> Iterator[Callable[..., Any]]:
    """Opens a path in a window of its own, at a phone's size unless told otherwise."""
    made: list[Any] = []

    def opening(path: str, viewport: dict[str, int] = PHONE) -> Any:
        context = browser.new_context(
            base_url=server.base, viewport=viewport, has_touch=viewport is PHONE
        )
        context.set_default_timeout(TIMEOUT)
        context.route(ONLY_LOOPBACK, lambda route: route.abort())
        made.append(context)
        page = context.new_page()
        page.goto(path)
        return page

    yield opening
    for context in made:
        context.close()


def fits_a_phone(page: Any) -> None:
    """No sideways scrolling, and every visible control at least 44 px high."""
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a 390 px phone"
    small = page.evaluate(
        """() => [...document.querySelectorAll(`button, select, input:not([type=checkbox]),
                 summary, td a, .links a`)]
            .filter((node) => node.offsetParent !== null)
            .map((node) => [node.outerHTML.slice(0, 80), node.getBoundingClientRect().height])
            .filter(([, height]) => height < 44)"""
    )
    assert not small, f"touch targets under 44 px: {small[:5]}"


def says(page: Any, words: str) -> None:
    """Wait until the page's status line says `words` (said once the page is redrawn)."""
    page.wait_for_function(
        "(words) => document.querySelector('#info').textContent.includes(words)", arg=words
    )


def cli_standings(server: Server, tournament: str) -> list[list[str]]:
    """`skald tournament standings` on the server's own store, as rows of cells."""
    done = subprocess.run(
        [str(Path(sys.executable).parent / "skald"), "tournament", "standings", tournament],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "SKALD_DB": server.url},
        timeout=60,
    )
    return [line.split("\t") for line in done.stdout.strip().splitlines()]


def test_a_swiss_night_from_the_lobby_to_the_final_standings(
    open_page: Callable[..., Any], server: Server, tmp_path_factory: pytest.TempPathFactory
) -> None:
    shots = screenshot_folder(tmp_path_factory, "web-desk-screenshots")
    lobby = open_page("/")
    lobby.click("#tournament-form-box summary")
    lobby.fill("#t-name", "Friday Swiss")
    lobby.fill("#t-players", ", ".join(PLAYERS))
    lobby.fill("#t-rounds", "3")
    lobby.fill("#t-table-size", "2")
    lobby.fill("#t-seed", "friday")
    lobby.click("#create-tournament")
    lobby.wait_for_selector("#t-created:not([hidden]) .seat-link")
    links = lobby.locator("#t-links li")
    assert links.count() == len(PLAYERS) + 2  # the organiser, each player, everyone else
    assert links.first.inner_text().startswith("Organiser")
    desk_link = lobby.locator("#t-links .seat-link").first.get_attribute("href")
    hal_link = lobby.locator("#t-links .seat-link").nth(len(PLAYERS)).get_attribute("href")
    assert "#token=" in desk_link
    assert "#token=" in hal_link
    fits_a_phone(lobby)
    lobby.screenshot(path=shots / "lobby-phone-tournament-created.png", full_page=True)

    desk = open_page(desk_link)
    desk.wait_for_selector("#desk:not([hidden])")
    assert desk.inner_text("#whoami") == "You: the organiser"
    tournament = desk_link.split("/tournaments/")[1].split("/")[0]
    for round_number in (1, 2, 3):
        desk.click("#pair")
        says(desk, f"Round {round_number} is paired")
        handed = desk.locator("#handout-links li")
        assert handed.count() == 4  # a watch link per table, none a referee's
        assert all(
            "#token=" not in (a.get_attribute("href") or "") for a in handed.locator("a").all()
        )
        assert "): watch " in handed.first.inner_text()
        desk.click("#autoplay")
        desk.wait_for_function(
            "() => document.querySelector('#info').textContent.includes('bots played')"
        )
        desk.click("#results")
        desk.wait_for_function(
            "() => document.querySelector('#info').textContent.includes('taken in')"
        )
        assert "4 results taken in" in desk.inner_text("#info")
    assert desk.locator("#rounds section.round").count() == 3
    assert desk.locator("#rounds h3").first.inner_text().endswith("complete")
    # Every round is paired: the button says so (on hover, on focus, beside it) and pairs nothing.
    pair = desk.locator("#pair")
    assert pair.get_attribute("aria-disabled") == "true"
    assert pair.get_attribute("title") == "Every round of Friday Swiss is paired."
    assert desk.inner_text("#pair-why") == "Every round of Friday Swiss is paired."
    assert pair.is_disabled()  # aria-disabled: it keeps its focus, and says why when pressed
    pair.focus()
    desk.keyboard.press("Enter")
    says(desk, "Every round of Friday Swiss is paired.")
    assert desk.locator("#rounds section.round").count() == 3
    refused = httpx.post(
        f"{server.base}/tournaments/{tournament}/pair",
        headers={"Authorization": f"Bearer {desk_link.split('#token=')[1]}"},
    )
    assert refused.status_code == 422
    assert 'all 3 rounds of the tournament "Friday Swiss" are paired' in refused.json()["message"]
    assert tournament not in refused.text

    # Hal disputes his last game from his own page; the organiser rules it stands.
    hal = open_page(hal_link)
    hal.wait_for_selector("#rounds form.dispute")
    assert hal.inner_text("#whoami") == "You: Hal"
    last = hal.locator('#rounds section[data-round="3"] form.dispute')
    last.locator("input").fill("the pile was short a tile")
    last.locator("button").click()
    hal.wait_for_function(
        "() => document.querySelector('#info').textContent.includes('dispute is recorded')"
    )
    fits_a_phone(hal)
    hal.screenshot(path=shots / "tournament-player-phone.png", full_page=True)
    desk.reload()
    settle = desk.locator("#dispute-list form.settle")
    settle.wait_for()
    assert "disputed by Hal" in settle.inner_text()
    settle.locator("input").first.fill("the audit is clean")
    settle.locator("button").click()
    says(desk, "the result stands")
    assert desk.inner_text("#info").startswith("Ruling on round 3, table ")
    assert desk.locator("#dispute-list form.settle").count() == 0
    summary = httpx.get(f"{server.base}/tournaments/{tournament}").json()
    ruled = [t for r in summary["paired"] for t in r["tables"] if t["status"].startswith("ruled")]
    assert len(ruled) == 1
    assert "Hal" in ruled[0]["seats"]
    status = desk.locator(f'#rounds tr[data-game="{ruled[0]["game"]}"] td').nth(2).inner_text()
    assert status == "Ruling: the result stands — the audit is clean", status

    # The standings on the page are the command line's, row by row; the crosstable has a
    # cell for every player and round, naming the opponents.
    desk.wait_for_selector("#standings tbody tr")
    page_rows = desk.evaluate(
        """() => [...document.querySelectorAll('#standings tbody tr')].map((row) =>
            [row.querySelector('.rank').textContent, row.querySelector('.player').textContent,
             row.querySelector('.points').textContent])"""
    )
    cli_rows = cli_standings(server, tournament)
    assert cli_rows[0][:3] == ["rank", "player", "points"]
    assert page_rows == [[rank, player, points] for rank, player, points, *_ in cli_rows[1:]]
    cells = desk.locator("#crosstable tbody tr")
    assert cells.count() == len(PLAYERS)
    for row in cells.all():
        texts = row.locator("td[data-round]").all_inner_texts()
        assert len(texts) == 3
        assert all(
            re.fullmatch(r"table \d, (won against|lost to|shared 1st of 2 against) \w+", text)
            for text in texts
        ), texts
    headers = desk.locator("#standings thead th").all_inner_texts()
    assert "Buchholz" in headers
    assert "TB " not in " ".join(headers)
    fits_a_phone(desk)
    desk.screenshot(path=shots / "desk-phone-final.png", full_page=True)
    wide = open_page(desk_link, DESKTOP)
    wide.wait_for_selector("#crosstable tbody tr")
    wide.screenshot(path=shots / "desk-desktop-final.png", full_page=True)

    # The lobby: all rounds played, the tournament is finished.
    lobby.reload()
    heading = lobby.locator(f'#tournaments [data-tournament="{tournament}"] summary')
    heading.wait_for()
    assert heading.inner_text() == (
        "Friday Swiss · Beowulf: The Movie Board Game · 3 of 3 rounds · 8 players · finished"
        " · tournament page"
    )


def test_the_lobby_filters_games_and_keeps_tournament_games_under_their_tournament(
    open_page: Callable[..., Any], server: Server
) -> None:
    made = httpx.post(
        f"{server.base}/tournaments",
        json={"game": "hagar", "players": ["Ann", "Bob"], "rounds": 1, "table_size": 2},
    ).json()
    organiser = {"Authorization": f"Bearer {made['organiser_token']}"}
    paired = httpx.post(f"{server.base}/tournaments/{made['id']}/pair", headers=organiser).json()
    tournament_game = paired["tables"][0]["game"]
    lone = httpx.post(f"{server.base}/games", json={"game": "beast", "players": ["Iona", "Ulf"]})
    lone_game = lone.json()["id"]

    lobby = open_page("/", DESKTOP)
    lobby.wait_for_selector(f'#games tr[data-game="{lone_game}"]')
    assert lobby.locator(f'#games tr[data-game="{tournament_game}"]').count() == 0
    assert lobby.locator(f'#tournaments [data-game="{tournament_game}"]').count() == 1
    row = lobby.locator(f'#games tr[data-game="{lone_game}"]')
    assert row.locator("a.game-link").inner_text() == "Beast"
    assert "Iona, Ulf" in row.inner_text()
    assert "Iona to act" in row.inner_text()

    lobby.check("#filter-tournament")
    lobby.wait_for_selector(f'#games tr[data-game="{tournament_game}"]')
    lobby.select_option("#filter-game", "beast")
    lobby.wait_for_function(
        "() => [...document.querySelectorAll('#games tr[data-kind]')]"
        ".every((row) => row.dataset.kind === 'beast')"
    )
    assert lobby.locator(f'#games tr[data-game="{lone_game}"]').count() == 1
    lobby.select_option("#filter-state", "finished")
    lobby.wait_for_function(
        f"() => !document.querySelector('#games tr[data-game=\"{lone_game}\"]')"
    )

    # Made without a name: its format and game, each said once; still in play.
    heading = lobby.locator(f'#tournaments [data-tournament="{made["id"]}"] summary').inner_text()
    assert heading.startswith("Swiss, Hägar ruft zum Beutefest · 1 of 1 round · 2 players"), heading
    assert heading.count("Hägar") == 1, heading
    assert heading.count("Swiss") == 1, heading
    assert "round 1 in play" in heading, heading


def test_the_lobby_counts_the_players_still_in(
    open_page: Callable[..., Any], server: Server
) -> None:
    made = httpx.post(
        f"{server.base}/tournaments",
        json={"game": "hagar", "players": ["Ann", "Bob", "Cid"], "rounds": 2, "table_size": 2},
    ).json()
    organiser = {"Authorization": f"Bearer {made['organiser_token']}"}
    withdrawn = httpx.post(
        f"{server.base}/tournaments/{made['id']}/withdraw",
        json={"player": "Cid"},
        headers=organiser,
    )
    assert withdrawn.status_code == 200, withdrawn.text
    lobby = open_page("/")
    heading = lobby.locator(f'#tournaments [data-tournament="{made["id"]}"] summary')
    heading.wait_for()
    assert "0 of 2 rounds · 2 players (1 withdrawn) · not started" in heading.inner_text()


def test_the_lobby_pages_through_long_lists(
    open_page: Callable[..., Any], server: Server, tmp_path_factory: pytest.TempPathFactory
) -> None:
    for _ in range(27):
        httpx.post(f"{server.base}/games", json={"game": "beowulf", "players": ["Ann", "Bob"]})
    lobby = open_page("/")
    lobby.wait_for_selector("#games tbody tr[data-game]")
    first_page = lobby.locator("#games tr[data-game]").evaluate_all(
        "(rows) => rows.map((row) => row.dataset.game)"
    )
    assert lobby.is_disabled("#newer")
    assert not lobby.is_disabled("#older")
    lobby.click("#older")
    lobby.wait_for_function("() => !document.querySelector('#newer').disabled")
    second_page = lobby.locator("#games tr[data-game]").evaluate_all(
        "(rows) => rows.map((row) => row.dataset.game)"
    )
    assert second_page
    assert not set(first_page) & set(second_page)
    fits_a_phone(lobby)
    shots = screenshot_folder(tmp_path_factory, "web-desk-screenshots")
    lobby.screenshot(path=shots / "lobby-phone-games.png", full_page=True)
    # The Created column fits a phone: the short date, the whole one on hover.
    created = lobby.locator("#games tbody tr[data-game] td.created").first
    assert created.get_attribute("title")
    box, table = created.bounding_box(), lobby.locator("#games").bounding_box()
    assert box["x"] + box["width"] <= PHONE["width"], box
    assert table["x"] + table["width"] <= PHONE["width"], table


def test_the_lobby_filters_the_whole_list_not_a_page(
    open_page: Callable[..., Any], server: Server
) -> None:
    """A finished game older than a page of games in play is on the first page of the
    finished ones, and the count counts the games shown."""
    made = httpx.post(
        f"{server.base}/tournaments",
        json={"game": "hagar", "players": ["Ann", "Bob"], "rounds": 1, "table_size": 2},
    ).json()
    organiser = {"Authorization": f"Bearer {made['organiser_token']}"}
    base = f"{server.base}/tournaments/{made['id']}"
    game = httpx.post(f"{base}/pair", headers=organiser).json()["tables"][0]["game"]
    played = httpx.post(f"{base}/autoplay", json={"bots": "greedy"}, headers=organiser)
    assert played.status_code == 200, played.text
    for _ in range(27):
        httpx.post(f"{server.base}/games", json={"game": "beast", "players": ["Iona", "Ulf"]})
    finished = httpx.get(f"{server.base}/games", params={"state": "finished", "limit": 200})
    expected = [item["id"] for item in finished.json()["items"]]
    assert game in expected
    alone = httpx.get(f"{server.base}/games", params={"tournaments": "false", "limit": 200})
    assert not [item["id"] for item in alone.json()["items"] if item["id"].startswith(made["id"])]

    lobby = open_page("/")
    lobby.wait_for_selector("#games tbody tr[data-game]")
    lobby.check("#filter-tournament")
    lobby.select_option("#filter-state", "finished")
    lobby.wait_for_selector(f'#games tr[data-game="{game}"]')
    rows = lobby.locator("#games tbody tr[data-game]")
    shown = rows.evaluate_all("(rows) => rows.map((row) => row.dataset.game)")
    assert shown == expected[: len(shown)]
    assert all(
        text.startswith("finished") for text in lobby.locator("#games td.state").all_inner_texts()
    )
    assert lobby.inner_text("#page-info") == f"matching games 1–{len(shown)}"
    lobby.select_option("#filter-state", "to-act")
    lobby.wait_for_function(f"() => !document.querySelector('#games tr[data-game=\"{game}\"]')")
    assert lobby.inner_text("#page-info") == "matching games 1–25"
    assert rows.count() == 25
    fits_a_phone(lobby)
