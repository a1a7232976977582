"""A seat's own key in the browser, over plain http at a name that is not localhost (a phone
at the club's LAN address): Debian's Chromium resolves `club.test` to 127.0.0.1, so the page
is not a secure context and Web Crypto's Ed25519 is not there. The page makes the seat's
key (tweetnacl, vendored), keeps it in IndexedDB, signs every decision with it, and the
service's record says the seat's own key signed them; a reload keeps the same key."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser_support import ARGS, CHROMIUM, served_skald
from tests.servers import Server
from tests.test_web import api, create, played, seq_of

playwright_api = pytest.importorskip("playwright.sync_api")

WAIT = 45_000  # ms: the machine may be loaded
HOST = "club.test"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with served_skald(tmp_path_factory, "web-seat-key") as running:
        yield running


@pytest.fixture(scope="module")
def lan_browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip("needs /usr/bin/chromium")
    with playwright_api.sync_playwright() as driver:
        args = [*ARGS, f"--host-resolver-rules=MAP {HOST} 127.0.0.1"]
        launched = driver.chromium.launch(executable_path=str(CHROMIUM), args=args)
        yield launched
        launched.close()


def _page(browser: Any, server: Server, game_id: str, token: str) -> tuple[Any, Any]:
    port = server.base.rsplit(":", 1)[1]
    origin = f"http://{HOST}:{port}"
    context = browser.new_context(base_url=origin, viewport={"width": 390, "height": 844})
    context.set_default_timeout(WAIT)
    context.route(re.compile(rf"^(?!{re.escape(origin)}/).*"), lambda route: route.abort())
    page = context.new_page()
    page.goto(f"/play/{game_id}#token={token}")
    page.wait_for_selector("body[data-live='true']")
    return context, page


def _click_first_move(page: Any, seq: int) -> None:
    page.wait_for_function(
        "seq => document.getElementById('legal').dataset.seq === String(seq)", arg=seq
    )
    page.locator("#legal button.move").first.click()


def _undo(page: Any) -> None:
    undo = page.locator("#undo")
    undo.wait_for(state="visible")
    page.wait_for_function("() => !document.getElementById('undo').disabled")
    undo.click()


def test_a_phone_on_plain_http_signs_its_seats_decisions(lan_browser: Any, server: Server) -> None:
    game = create(server, "beowulf", ["Ann", "Bob"], seed="lan-key", reproducible=True)
    game_id = game["id"]
    ann_token = game["seats"][0]["token"]
    context, page = _page(lan_browser, server, game_id, ann_token)
    try:
        assert page.evaluate("window.isSecureContext") is False
        assert page.evaluate("!(window.crypto && crypto.subtle)")
        seq = seq_of(server, game_id)
        _click_first_move(page, seq)
        seq = played(server, game_id, seq)
        legal = api(server, ann_token, f"/games/{game_id}/legal")
        keys = dict(map(tuple, legal["keys"]))
        assert set(keys) == {0}
        stored = page.evaluate(
            """() => new Promise((ok) => { const r = indexedDB.open('skald-seat-keys');
                 r.onsuccess = () => { const g = r.result.transaction('keys').objectStore('keys')
                   .getAllKeys(); g.onsuccess = () => ok(g.result); }; })"""
        )
        assert stored == [f"{game_id}/0"]
        other, elsewhere = _page(lan_browser, server, game_id, ann_token)  # another device
        try:
            _undo(elsewhere)
            message = elsewhere.locator("#message")
            message.wait_for(state="visible")
            elsewhere.wait_for_function("() => document.getElementById('message').textContent")
            assert "key another browser or device holds" in message.inner_text()
            assert seq_of(server, game_id) == seq  # nothing written
        finally:
            other.close()
        page.reload()  # the same browser: its IndexedDB keeps the seat's key
        page.wait_for_selector("body[data-live='true']")
        _undo(page)
        seq = played(server, game_id, seq)
        log = api(server, None, f"/games/{game_id}/log")["events"]
        signed = [e["event"]["signed"] for e in log if e["event"].get("signed")]
        assert len(signed) == 2
        assert signed[0]["key"] == keys[0]
        assert "key" not in signed[1]
        audit = api(server, game["referee_token"], f"/games/{game_id}/audit?format=json")
        ann = next(seat for seat in audit["authors"] if seat["player"] == "Ann")
        assert ann["signed"] == ann["decisions"] == 2
        assert ann["key"] == keys[0]
    finally:
        context.close()
