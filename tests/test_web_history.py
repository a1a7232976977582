"""Annotations and variations at the table: the JSON reads the page uses (through
TestClient on each store), then the page itself in real Chromium against a real
`skald serve` (tests/test_web.py's fixtures): an annotation added from one seat's page
shows on its move, a seat-only one is absent from the other seat's DOM and traffic (not
even a notes frame tells it was written), markup is drawn on the SVG board, and a
variation opened from the page replays."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from skald.api.main import create_app
from tests.browser_support import chromium, screenshot_folder, served_skald, windows
from tests.servers import Server
from tests.test_web import (
    Recorder,
    create,
    seq_of,
)


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
    assert [(n["seq"], n["comment"]) for n in as_ann] == [(1, "Ann's secret plan"), (2, "for all")]
    assert as_ann[0]["audience"] == "seat"
    for other in (as_bob, as_spectator):  # nothing of hers: not even that it exists
        assert [(n["seq"], n["author"], n["comment"]) for n in other] == [(1, "Bob", "for all")]
    assert as_spectator[0]["marks"] == [
        {"shape": "arrow", "at": "B2", "to": "C3", "colour": "blue", "label": None},
        {"shape": "label", "at": "C3", "to": None, "colour": "green", "label": "look here"},
    ]
    assert as_spectator[0]["glyph"] == "!?"
    assert "secret plan" not in client.get(f"/games/{game_id}/annotations").text
    assert notes(referee)[0]["comment"] == "Ann's secret plan"

    def listed(headers: dict[str, str]) -> list[dict[str, Any]]:
        answer = client.get(f"/games/{game_id}/variations", headers=headers)
        assert answer.status_code == 200, answer.text
        found: list[dict[str, Any]] = answer.json()["variations"]
        return found

    (mine,) = listed(bob)
    assert (mine["id"], mine["name"], mine["parent"], mine["at"]) == ("v2", "centre", "game", seq)
    assert mine["author"] == "Bob"
    assert mine["hypothetical"] is True
    assert mine["lines"][0]["seq"] == 2
    assert "C3" in mine["lines"][0]["text"]
    assert listed(ann) == []  # a seat's variation is its own while the game runs
    assert listed({}) == []
    assert [v["id"] for v in listed(referee)] == ["v2"]
    # The variation's board, for those who see it; a 404 for the others.
    board = client.get(f"/games/{game_id}/board.svg?variation=v2&at=3", headers=bob)
    assert board.status_code == 200, board.text
    assert 'class="figure' in board.text
    assert client.get(f"/games/{game_id}/board.svg?variation=v2", headers=ann).status_code == 404
    assert client.get(f"/games/{game_id}/board.svg?variation=v9", headers=bob).status_code == 404
    assert (
        client.get(f"/games/{game_id}/board.svg?variation=v2&at=99", headers=bob).status_code == 404
    )
    # A token that is not this game's is a 401, as on every game route.
    assert client.get(f"/games/{game_id}/annotations", headers=_bearer("nope")).status_code == 401


# -- in the browser ---------------------------------------------------------------------------

pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with served_skald(tmp_path_factory, "web-history-server") as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def window(browser: Any, server: Server) -> Iterator[Callable[[str], Any]]:
    """Opens a path in a window of its own, once its board or standings are drawn."""
    with windows(browser, server, "#board svg, #standings tbody tr") as open_page:
        yield open_page


def test_notes_and_variations_at_the_table(
    window: Callable[[str], Any], server: Server, tmp_path_factory: pytest.TempPathFactory
) -> None:
    shots = screenshot_folder(tmp_path_factory, "web-history-screenshots")
    created = create(server, "beowulf", ["Ann", "Bob"], seed="14")
    game_id = created["id"]
    ann_token, bob_token = (seat["token"] for seat in created["seats"])
    ann = window(f"/play/{game_id}#token={ann_token}")
    bob = window(f"/play/{game_id}#token={bob_token}")
    bob_traffic = Recorder(bob)
    bob.reload()  # recorded from its first request
    bob.wait_for_selector("#board svg")
    spectator = window(f"/play/{game_id}")
    seq = seq_of(server, game_id)

    # Ann notes the shown seq for her seat alone: a comment, a glyph, a circle and an arrow
    # picked by clicking places of the board.
    ann.fill("#note-comment", "Ann's plan: the centre")
    ann.select_option("#note-glyph", "!?")
    ann.select_option("#note-audience", "seat")
    ann.click("#mark-pick")
    ann.locator('#board [data-at="C3"]').first.click()
    ann.select_option("#mark-shape", "arrow")
    ann.select_option("#mark-colour", "blue")
    ann.locator('#board [data-at="B2"]').first.click()
    ann.locator('#board [data-at="D4"]').first.click()
    assert ann.locator("#marks .mark-words").all_inner_texts() == [
        "circle C3 red",
        "arrow B2 D4 blue",
    ]
    ann.click("#note-add")
    ann.wait_for_selector("#message.info:has-text('Note added')")
    mine = ann.locator(f'#lines li[data-seq="{seq}"] .notes-on li')
    assert mine.count() == 1
    assert "Ann's plan: the centre" in mine.inner_text()
    assert "!?" in mine.inner_text()
    assert ann.locator('#board g.markup circle[data-mark="circle"]').count() == 1
    assert ann.locator('#board g.markup line[data-mark="arrow"]').count() == 1
    ann.locator("#board").screenshot(path=shots / "beowulf-note-markup-ann.png")
    # Stepping back a seq leaves the markup on its own move.
    ann.click("#back")
    ann.wait_for_selector(f"#position:text-is('{seq - 1} / {seq}')")
    assert ann.locator("#board g.markup circle").count() == 0
    ann.keyboard.press("End")

    # Bob and a spectator are shown nothing of Ann's note: not what it says or marks, nor
    # that it exists (no notes frame, no placeholder, which would count her notes).
    bob.wait_for_timeout(1500)
    for page in (bob, spectator):
        assert page.locator(f'#lines li[data-seq="{seq}"] .notes-on li').count() == 0
        assert "Ann's plan" not in page.content()
        assert "not shown to you" not in page.content()
        assert page.locator("#board g.markup circle").count() == 0
    bob.locator("section:has(#lines)").screenshot(path=shots / "beowulf-private-note-bob.png")
    assert bob_traffic.bodies
    assert not bob_traffic.seen("Ann's plan")
    assert not bob_traffic.seen("B2 D4")
    assert '{"type":"notes"}' not in bob_traffic.bodies

    # Bob's public note with a label typed and a cross placed by keyboard reaches Ann's page.
    bob.fill("#note-comment", "Watch C3")
    bob.select_option("#mark-shape", "label")
    bob.fill("#mark-label", "here")
    bob.click("#mark-pick")
    bob.locator('#board [data-at="C3"]').first.focus()
    bob.keyboard.press("Enter")
    bob.select_option("#mark-shape", "cross")
    bob.locator('#board [data-at="A1"]').first.focus()
    bob.keyboard.press("Enter")
    bob.click("#note-add")
    bob.wait_for_selector("#message.info:has-text('Note added')")
    ann.wait_for_selector(f'#lines li[data-seq="{seq}"] .notes-on li:has-text("Watch C3")')
    ann.wait_for_selector('#board g.markup text[data-mark="label"]:text-is("here")')
    assert ann.locator('#board g.markup path[data-mark="cross"]').count() == 1

    # Bob opens a variation at the shown seq by notation; its replay is read-only.
    bob.fill("#branch-name", "centre")
    bob.fill("#branch-move", "place beowulf C3")
    bob.click("#branch-add")
    bob.click("#branch-open")
    bob.wait_for_selector("#status:has-text('Variation v2')")
    bob.wait_for_selector('#board .figure[data-at="C3"]')
    assert bob.locator("#play-hint").inner_text().startswith("Showing a variation")
    last = bob.inner_text("#position").split(" / ")[1]
    bob.click("#first")
    bob.wait_for_selector(f"#position:text-is('1 / {last}')")
    assert bob.locator('#board .figure[data-at="C3"]').count() == 0
    bob.keyboard.press("End")
    bob.wait_for_selector(f"#position:text-is('{last} / {last}')")
    bob.locator("#board").screenshot(path=shots / "beowulf-variation-bob.png")
    bob.click("#variation-close")
    bob.wait_for_selector(f"#position:text-is('{seq} / {seq}')")
    assert bob.locator('#variation-list li[data-variation="v2"]').count() == 1
    # Ann never sees Bob's variation while the game runs.
    ann.reload()
    ann.wait_for_selector("#variation-list li")
    assert ann.locator("#variation-list li[data-variation]").count() == 0
    assert "centre" not in ann.inner_text("#variation-list")

    # Nothing is polled: an idle page asks for nothing (the old watch read the notes every
    # 3 s); its channel says when there is something to read.
    asked = len(bob_traffic.urls)
    bob.wait_for_timeout(4000)
    assert bob_traffic.urls[asked:] == []
    # Ann's public note reaches Bob's page over the channel (a notes frame, then one read).
    noted = httpx.post(
        f"{server.base}/games/{game_id}/annotations",
        json={"at": str(seq), "comment": "Told live"},
        headers={"Authorization": f"Bearer {ann_token}"},
    )
    assert noted.status_code == 201, noted.text
    bob.wait_for_selector(f'#lines li[data-seq="{seq}"] .notes-on li:has-text("Told live")')
    assert '{"type":"notes"}' in bob_traffic.bodies
