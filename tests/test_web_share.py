"""The table page's share panel in real Chromium against a real `skald serve`: an export
downloaded from the page is byte for byte what `skald export` writes for that viewer on the
same store (each format, with and without notes), the position link opens the position it
names (and carries no token), and the full audit downloads as a page for the referee while
a seat is told why it must wait."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser_support import chromium, served_skald, windows
from tests.servers import Server

pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with served_skald(tmp_path_factory, "web-share-server") as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def window(browser: Any, server: Server) -> Iterator[Callable[[str], Any]]:
    with windows(browser, server, ready="#board svg") as open_page:
        yield open_page


def played(server: Server) -> dict[str, Any]:
    """A Beowulf game four decisions in, with a note."""
    created = httpx.post(
        f"{server.base}/games", json={"game": "beowulf", "players": ["Ann", "Bob"]}
    ).json()
    tokens = [{"Authorization": f"Bearer {seat['token']}"} for seat in created["seats"]]
    for _ in range(4):
        summary = httpx.get(f"{server.base}/games/{created['id']}").json()
        seat = summary["to_act"][0]
        legal = httpx.get(f"{server.base}/games/{created['id']}/legal", headers=tokens[seat])
        move = next(m for m in legal.json()["moves"] if m.startswith("place"))
        answer = httpx.post(
            f"{server.base}/games/{created['id']}/moves",
            headers=tokens[seat],
            json={"move": move, "expected_seq": summary["seq"]},
        )
        assert answer.status_code == 201, answer.text
    note = httpx.post(
        f"{server.base}/games/{created['id']}/annotations",
        headers=tokens[0],
        json={"at": 6, "comment": "A bold start."},
    )
    assert note.status_code == 201, note.text
    return created


def cli_export(server: Server, game: str, viewer: str, *flags: str) -> bytes:
    done = subprocess.run(
        [str(Path(sys.executable).parent / "skald"), "export", game, "--as", viewer, *flags],
        capture_output=True,
        check=True,
        env={**os.environ, "SKALD_DB": server.url},
        timeout=60,
    )
    return done.stdout


def downloaded(page: Any, button: str) -> bytes:
    with page.expect_download() as download:
        page.click(button)
    return Path(download.value.path()).read_bytes()


def test_an_export_from_the_page_is_skald_exports_for_that_viewer(
    window: Callable[[str], Any], server: Server
) -> None:
    created = played(server)
    game, ann = created["id"], created["seats"][0]["token"]
    page = window(f"/play/{game}#token={ann}")
    for format_name in ("jsonl", "text", "md", "html"):
        page.select_option("#export-format", format_name)
        from_page = downloaded(page, "#export-download")
        assert from_page == cli_export(server, game, "Ann", "--format", format_name), format_name
    page.uncheck("#export-comments")
    page.select_option("#export-format", "text")
    without_notes = downloaded(page, "#export-download")
    assert without_notes == cli_export(server, game, "Ann", "--format", "text", "--no-comments")
    assert b"A bold start." not in without_notes
    spectator = window(f"/play/{game}")
    spectator.select_option("#export-format", "jsonl")
    assert downloaded(spectator, "#export-download") == cli_export(
        server, game, "spectator", "--format", "jsonl"
    )


def test_the_position_link_opens_that_position_and_holds_no_token(
    window: Callable[[str], Any], server: Server
) -> None:
    created = played(server)
    game, ann = created["id"], created["seats"][0]["token"]
    page = window(f"/play/{game}#token={ann}")
    page.click("#back")
    page.click("#back")
    # Both steps back taken: the link and the position shown agree (after the first step
    # the link already holds an at=, which a loaded machine read before the second)
    page.wait_for_function(
        """() => {
            const at = document.querySelector('#position-link').value.match(/[?]at=(\\d+)$/);
            const [now, last] = document.querySelector('#position').textContent.split(' / ');
            return at !== null && at[1] === now && Number(now) === Number(last) - 2;
        }"""
    )
    link = page.input_value("#position-link")
    assert ann not in link
    assert "#" not in link
    shown = page.inner_text("#position").split(" / ")[0]
    assert link.endswith(f"?at={shown}")
    other = window(link)
    other.wait_for_function(
        "(seq) => document.querySelector('#position').textContent.startsWith(seq + ' /')",
        arg=shown,
    )
    assert "replaying" in other.inner_text("#status")


def test_the_full_audit_is_the_referees_while_the_game_runs(
    window: Callable[[str], Any], server: Server
) -> None:
    created = played(server)
    game = created["id"]
    seat = window(f"/play/{game}#token={created['seats'][1]['token']}")
    seat.wait_for_selector("#audit-full:disabled")  # off, and said why: not a refusal
    assert seat.locator("#open-audit").is_disabled()
    assert "after the game" in (seat.get_attribute("#audit-full", "title") or "")
    assert "after the game" in seat.inner_text("#audit-why")
    referee = window(f"/play/{game}#token={created['referee_token']}")
    page_text = downloaded(referee, "#audit-full").decode()
    assert page_text.startswith("<!doctype html") or page_text.lower().startswith("<!doctype")
    assert game in page_text
