""" "What could be true" on the web table (real Chromium against a real `skald serve`): a
Beowulf seat sees the tiles it has not seen and the other hand's possible tiles, a Hägar
seat the fate deck and each face-down piece (the panel is read while it is open); the
referee, who sees everything, has no such panel of its own, and looking as a seat reads
that seat's."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.browser_support import (
    CHROMIUM,
    chromium,
    local_context,
    screenshot_folder,
    served_skald,
)
from tests.servers import Server

pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with served_skald(tmp_path_factory, "web-possible") as running:
        yield running


@pytest.fixture(scope="module")
def context(server: Server) -> Iterator[Any]:
    with chromium() as browser:
        made = local_context(browser, server, height=900)
        yield made
        made.close()


def _create(server: Server, game: str, players: list[str]) -> dict[str, Any]:
    answer = httpx.post(f"{server.base}/games", json={"game": game, "players": players})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def _page(context: Any, game_id: str, token: str) -> Any:
    page = context.new_page()
    page.goto(f"/play/{game_id}#token={token}")
    page.wait_for_selector("#board svg")
    return page


def test_a_beowulf_seat_sees_what_could_be_true(context: Any, server: Server) -> None:
    created = _create(server, "beowulf", ["Ann", "Bob"])
    game_id = created["id"]
    ann_token = created["seats"][0]["token"]
    ann = _page(context, game_id, ann_token)
    ann.click("#possible summary")
    ann.wait_for_selector("#possible-text:not(:empty)")
    shown = ann.text_content("#possible-text") or ""
    asked = httpx.get(
        f"{server.base}/games/{game_id}/possible",
        headers={"Authorization": f"Bearer {ann_token}"},
    ).json()
    assert shown == asked["text"]
    assert "Bob (green) holds 2 act I tiles" in shown  # tiles as printed, not notation
    assert "each may be, by its back: act I: " in shown
    assert "@I" not in shown
    assert "act I tiles not seen" in shown
    referee = _page(context, game_id, created["referee_token"])
    referee.wait_for_selector("#possible[hidden]", state="attached")
    # looking as Ann, the referee reads what Ann could know: her own panel's text
    referee.select_option("#viewer", "Ann")
    referee.wait_for_selector("#possible:not([hidden])")
    referee.click("#possible summary")
    referee.wait_for_function(
        "(text) => document.querySelector('#possible-text').textContent === text", arg=shown
    )


def test_a_hagar_seat_sees_the_fate_deck_and_face_down_loot(context: Any, server: Server) -> None:
    created = _create(server, "hagar", ["Ann", "Bob", "Cid"])
    page = _page(context, created["id"], created["seats"][1]["token"])
    page.click("#possible summary")
    page.wait_for_selector("#possible-text:not(:empty)")
    assert "the fate deck" in (page.text_content("#possible-text") or "")


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_the_hunters_see_where_the_beast_may_be_outlined_on_the_map(
    context: Any, server: Server, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A Beast game played at random over HTTP until the hunters lose sight of the Beast
    on two locations or more: the hunter's panel says so in words (no field names), and
    exactly the locations `possible` lists are outlined on the board."""
    created = _create(server, "beast", ["Bea", "Carl"])
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    rnd = random.Random(7)
    known: dict[str, Any] = {}
    for _ in range(600):
        known = httpx.get(
            f"{server.base}/games/{game_id}/possible", headers=_auth(tokens[1])
        ).json()
        if len(known["possible"]["beast"] or ()) >= 2:
            break
        summary = httpx.get(f"{server.base}/games/{game_id}").json()
        assert summary["outcome"] is None, "the game ended with the Beast never hidden"
        seat = summary["to_act"][0]
        legal = httpx.get(f"{server.base}/games/{game_id}/legal", headers=_auth(tokens[seat]))
        made = httpx.post(
            f"{server.base}/games/{game_id}/moves",
            json={"move": rnd.choice(sorted(legal.json()["moves"]))},
            headers=_auth(tokens[seat]),
        )
        assert made.status_code in (200, 201), made.text
    where = [location for location, _share in known["possible"]["beast"]]
    assert len(where) >= 2, "the hunters never lost sight of the Beast"
    page = _page(context, game_id, tokens[1])
    page.click("#possible summary")
    page.wait_for_selector("#possible-text:not(:empty)")
    shown = page.text_content("#possible-text") or ""
    assert shown == known["text"]
    assert f"where the Beast may be ({len(where)} places" in shown
    for raw in ("Holding(", "holdings:", "tokens:", "None"):
        assert raw not in shown
    page.wait_for_selector("#board .possible-place")
    outlined = page.eval_on_selector_all(
        "#board .possible-place", "nodes => [...new Set(nodes.map(n => n.dataset.at))]"
    )
    assert sorted(outlined) == sorted(where)
    assert page.text_content("#possible-count") == (
        f"The Beast may be on {len(where)} locations, outlined on the board."
    )
    shots = screenshot_folder(tmp_path_factory, "web-possible-screenshots")
    page.screenshot(path=shots / "beast-hunter-possible.png", full_page=True)
    page.close()
