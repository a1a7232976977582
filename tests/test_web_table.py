"""The table page as the phones at a table use it (issue 27): real Chromium (Debian's,
through Playwright) against a real `skald serve`. Two seats on 390×844 phones and a
spectator at a desktop width play Beowulf by tapping the board and the listed moves; undo
and redo are enabled only when the service says they may be done, and a refused one says
why; clicks interleaved with live updates are sent with the seq they were shown at (a
stale one answers 409 and the page says so, none is lost); Beast and Hägar are played for a
round by every seat; player entropy is committed and revealed from two pages. Screenshots
at both sizes are kept (tests/browser_support.screenshot_folder)."""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from skald.core.rules import get_rules
from skald.events.common import Outcome
from skald.projections.narrative import end_sentence
from tests.browser_support import CHROMIUM, ONLY_LOOPBACK, chromium, screenshot_folder, served_skald
from tests.cli_support import skald
from tests.patience import HUNG
from tests.servers import Server
from tests.test_web import api, api_move, create, played, seq_of, wait_seq

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium")

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1400, "height": 1000}
WAIT = int(HUNG * 1000)  # ms: a hung page, not a slow one (tests/patience.py)
# Every tap on a listed move, as the page showed it at that instant (capture phase: before
# the page's own handler runs): the move's words and the seq the list was drawn for.
RECORD_CLICKS = """
window.skaldClicks = [];
document.addEventListener("click", (event) => {
  const button = event.target.closest && event.target.closest("#legal button.move");
  const seq = Number(document.getElementById("legal").dataset.seq);
  if (button) window.skaldClicks.push({ move: button.closest("li").dataset.move, seq });
}, true);
// Every sentence the page's message line has said, in order (a later one replaces it).
window.skaldMessages = [];
document.addEventListener("DOMContentLoaded", () => {
  const said = document.getElementById("message");
  new MutationObserver(() => {
    if (said.textContent) window.skaldMessages.push(said.textContent);
  }).observe(said, { subtree: true, childList: true, characterData: true });
});
"""

# What to tap: a playable place of the board (the middle one; whether it opens a menu of
# moves), else the first listed move; as a CSS selector that names it alone.
PICK = """
on_board => {
  const places = [...document.querySelectorAll('#board .playable[tabindex]')];
  if (on_board && places.length) {
    const place = places[Math.floor(places.length / 2)];
    const at = place.dataset.at;
    const label = place.getAttribute('aria-label');
    const menu = /^[0-9]+ moves$/.test(label.slice(at.length + 2));
    return { target: `#board .playable[tabindex][data-at="${at}"]`, label, menu };
  }
  const first = document.querySelector('#legal button.move');
  const label = first.closest('li').dataset.move;
  return { target: '#legal li:first-child button.move', label, menu: false };
}
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with served_skald(tmp_path_factory, "web-table-server") as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = screenshot_folder(tmp_path_factory, "web-table-screenshots")
    print(f"screenshots in {folder}")
    return folder


class Table:
    """A page at a game's table in a window (a browser context) of its own: a phone
    (390×844, touch) or a desktop; every decision it sends (over its live channel, or
    POSTed while the channel is down) and every refusal it is answered."""

    def __init__(
        self, browser: Any, server: Server, game_id: str, token: str | None, phone: bool
    ) -> None:
        self.phone = phone
        self.context = browser.new_context(
            base_url=server.base,
            viewport=PHONE if phone else DESKTOP,
            is_mobile=phone,
            has_touch=phone,
        )
        self.context.set_default_timeout(WAIT)
        self.context.route(ONLY_LOOPBACK, lambda route: route.abort())
        self.context.add_init_script(RECORD_CLICKS)
        self.page = self.context.new_page()
        self.sent: list[dict[str, Any]] = []  # {"route", "move"?, "expected_seq"}
        self.refusals: list[str] = []  # the error codes the service answered decisions with
        self.posted: list[str] = []  # decisions sent over REST (only while the channel is down)
        self.page.on("websocket", self._channel)
        self.page.on("request", self._posted)
        self.page.goto(f"/play/{game_id}" + (f"#token={token}" if token else ""))
        self.page.wait_for_selector("#board svg")

    def _channel(self, socket: Any) -> None:
        socket.on("framesent", self._sent)
        socket.on("framereceived", self._received)

    def _sent(self, payload: str | bytes) -> None:
        message = json.loads(payload)
        if message["type"] in ("move", "undo", "redo", "entropy"):
            route = {"move": "moves", "entropy": "moves"}.get(message["type"], message["type"])
            self.sent.append({"route": route, **message})

    def _received(self, payload: str | bytes) -> None:
        if '"type":"error"' in str(payload)[:40]:  # an update frame is long: not parsed
            self.refusals.append(json.loads(payload)["error"])

    def _posted(self, request: Any) -> None:
        if request.method == "POST" and request.url.rsplit("/", 1)[-1] in ("moves", "undo", "redo"):
            self.posted.append(request.url.rsplit("/", 1)[-1])

    def touch(self, locator: Any, **options: Any) -> None:
        if self.phone:
            locator.tap(**options)
        else:
            locator.click(**options)

    def controls_at(self, seq: int) -> None:
        """Wait until the seat's controls are drawn for `seq` (its moves, undo, redo)."""
        self.page.wait_for_function(
            "seq => document.getElementById('legal').dataset.seq === String(seq)", arg=seq
        )

    def moved_on(self, seq: int) -> int:
        """Wait until this page shows a seq after `seq` (its decision, or anyone's, has
        landed and the page has drawn it); that seq."""
        shown = self.page.wait_for_function(
            """seq => {
              const drawn = Number(document.getElementById('legal').dataset.seq || 0);
              const over = document.getElementById('status').textContent.includes('game is over');
              return drawn > seq ? drawn : over ? -1 : 0;
            }""",
            arg=seq,
        )
        return int(shown.json_value())

    def play(self, on_board: bool) -> str:
        """Play one legal move by tapping: a playable place on the board (then the first
        move of its menu, if it opens one), else the first listed move; the move's words.
        What to tap is chosen in one look at the page."""
        chosen = self.page.evaluate(PICK, on_board)
        self.touch(self.page.locator(chosen["target"]))
        if chosen["menu"]:
            menu = self.page.locator("#menu:not([hidden]) button.move").first
            chosen["label"] = str(menu.inner_text())
            self.touch(menu)
        return str(chosen["label"])

    def clicks(self) -> list[dict[str, Any]]:
        return list(self.page.evaluate("window.skaldClicks"))

    def messages(self) -> list[str]:
        """Every sentence the message line has said so far (repeats of one kept once)."""
        said = self.page.evaluate("window.skaldMessages")
        return [text for i, text in enumerate(said) if i == 0 or said[i - 1] != text]

    def close(self) -> None:
        self.context.close()


def fits_a_phone(table: Table) -> None:
    """No horizontal scrolling; every control a finger needs at least 44 px high, the
    board's places at least 44 px wide."""
    page = table.page
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (
        "the page scrolls sideways"
    )
    small = page.evaluate(
        """() => [...document.querySelectorAll(
               '#play button, #entropy button, #replay button, #share button')]
             .filter((b) => b.offsetParent && b.getBoundingClientRect().height < 44)
             .map((b) => b.textContent)"""
    )
    assert not small, f"too small to tap: {small}"
    # Measured once the board has been laid out for a phone: narrow.js cuts a new drawing to
    # its places at the next animation frame, and measured before that the places are at the
    # whole drawing's scale (a busy run read one at 38 of its 53 px); and an update that
    # arrives meanwhile draws the board again, so the places are read until two readings
    # five frames apart agree
    cells = page.evaluate(
        """async () => {
             const frame = () => new Promise((done) => requestAnimationFrame(done));
             const read = () =>
               [...document.querySelectorAll('#board .playable[tabindex]')].map((n) => {
                 const box = n.getBoundingClientRect();
                 return [box.left + box.width / 2, box.top + box.height / 2, box.width];
               });
             let last = null;
             for (let tries = 0; tries < 40; tries++) {
               for (let k = 0; k < 5; k++) await frame();
               const now = read();
               if (last !== null && JSON.stringify(now) === JSON.stringify(last)) return now;
               last = now;
             }
             return last;
           }"""
    )
    for x, y, width in cells:
        # A finger's width, or as much as the nearest playable place leaves (Hägar's spaces
        # lie closer than a finger: each hit area reaches half the way to the next).
        room = min(
            (math.dist((x, y), (x2, y2)) for x2, y2, _w in cells if (x2, y2) != (x, y)), default=44
        )
        assert width >= min(44, room) - 1, f"a board place {width:.0f} px wide, {room:.0f} px free"


def named_properly(table: Table, game: str, game_id: str) -> None:
    """The page's header names the game as its rules do; the id only in small print."""
    page = table.page
    page.wait_for_selector(f"#game-id:has-text('{game_id}')")
    assert page.inner_text("#title") == get_rules(game).title
    assert game_id not in page.inner_text("#title")
    size = page.evaluate(
        "() => [getComputedStyle(document.getElementById('title')).fontSize,"
        " getComputedStyle(document.getElementById('game-id')).fontSize].map(parseFloat)"
    )
    assert size[1] < size[0], size


def take_back_says(table: Table, route: str, words: str) -> None:
    """`route` (undo or redo) is refused on the page before it is tried: not enabled, and
    its reason shown when it has the focus (and on a tap, in the message box)."""
    page = table.page
    page.wait_for_selector(f"#{route}[aria-disabled='true']")
    page.focus(f"#{route}")
    why = page.locator(f"#{route}-why")
    assert why.is_visible()
    assert words in why.inner_text(), why.inner_text()
    assert words in str(page.get_attribute(f"#{route}", "title"))
    page.keyboard.press("Enter")  # pressed anyway: the message box says why
    page.wait_for_selector(f"#message:has-text('{words}')")


def beowulf_act(server: Server, game_id: str, referee: str) -> int:
    return int(api(server, referee, f"/games/{game_id}/view")["state"]["act"])


def outcome_words(game: str, outcome: dict[str, Any], players: list[str]) -> str:
    """How the table page states an outcome (its status line): the log's sentence for the
    end, in the game's words (names with their scores, the end's reason said, no codes)."""
    return end_sentence(game, players, msgspec.convert(outcome, Outcome))


def undo_and_redo(table: Table, seq: int) -> int:
    """The seat takes its last decision back and plays it again, from the buttons the
    page enabled; every page follows. The seq after both."""
    page = table.page
    page.wait_for_selector("#undo[aria-disabled='false']")
    table.touch(page.locator("#undo"))
    page.wait_for_selector("#message:has-text('Undone')")
    seq = table.moved_on(seq)  # an undo is a decision of its own
    page.wait_for_selector("#redo[aria-disabled='false']")
    table.touch(page.locator("#redo"))
    page.wait_for_selector("#message:has-text('Redone')")
    seq = table.moved_on(seq)
    take_back_says(table, "redo", "nothing to redo")
    return seq


@pytest.mark.slow
def test_a_whole_beowulf_game_on_two_phones_and_a_desktop(
    browser: Any, server: Server, shots: Path
) -> None:
    """Ann and Bob play a whole game of Beowulf on their phones, every decision a tap on
    the board or on a listed move, each tapping the moment its page offers its turn (the
    other page and the spectator follow live, no one waits for them); undo and redo are
    taken when the page enables them and refused with the reason shown when it does not.
    Every tap reaches the service once over the page's live channel, at the seq it was
    shown at, and none is refused; the three pages end on the outcome the store holds."""
    players = ["Ann", "Bob"]
    created = create(server, "beowulf", players)
    game_id, referee = created["id"], created["referee_token"]
    ann_token, bob_token = (seat["token"] for seat in created["seats"])
    ann = Table(browser, server, game_id, ann_token, phone=True)
    bob = Table(browser, server, game_id, bob_token, phone=True)
    spectator = Table(browser, server, game_id, None, phone=False)
    tables = {0: ann, 1: bob}
    service = httpx.Client(base_url=server.base)
    started = time.monotonic()
    try:
        seq = seq_of(server, game_id)
        ann.controls_at(seq)
        fits_a_phone(ann)
        for table in (ann, spectator):
            named_properly(table, "beowulf", game_id)
        ann.page.screenshot(path=shots / "beowulf-phone-1-ann-start.png")
        ann.page.screenshot(path=shots / "beowulf-phone-1-ann-start-whole.png", full_page=True)
        # The deal used chance: nothing to undo yet, and the page says so before any try.
        take_back_says(ann, "undo", "cannot be taken back")
        take_back_says(ann, "redo", "nothing to redo")
        assert spectator.page.locator("#notes").is_hidden()  # spectators may not annotate
        assert spectator.page.locator("#branch").is_hidden()  # nor open variations
        assert spectator.page.locator("#play").is_hidden()
        assert ann.page.locator("#annotate").is_visible()

        # Ann taps a square; Bob may not take it back (table policy: author), Ann may.
        ann.play(on_board=True)
        seq = played(server, game_id, seq)
        bob.controls_at(seq)
        take_back_says(bob, "undo", "only Ann")
        ann.controls_at(seq)
        seq = undo_and_redo(ann, seq)

        # The rest of the game, tap after tap, the board and the list in turn.
        taps, undone, act, tapped = 0, 1, 1, {0: 0, 1: 0}
        while True:
            summary = service.get(f"/games/{game_id}").raise_for_status().json()
            if summary["outcome"]:
                break
            taps += 1
            assert taps <= 400, "the game did not end by tapping"
            seat = summary["to_act"][0]
            table = tables[seat]
            table.controls_at(summary["seq"])
            table.play(on_board=taps % 3 != 0)
            tapped[seat] += 1
            seq = table.moved_on(summary["seq"])
            if (
                seq > 0
                and taps % 45 == 0
                and table.page.get_attribute("#undo", "aria-disabled") == "false"
            ):
                seq = undo_and_redo(table, seq)
                undone += 1
            now = beowulf_act(server, game_id, referee) if taps % 10 == 0 else act
            if now != act:
                act = now
                fits_a_phone(table)
                table.page.screenshot(
                    path=shots / f"beowulf-phone-{act}-{players[seat]}-act{act}.png"
                )
        print(
            f"the whole game: {taps} tapped decisions, {undone} undone and redone, "
            f"{time.monotonic() - started:.0f} s"
        )

        # The outcome: the store's (skald show), stated alike on all three pages.
        code, out, err = skald("show", game_id, "--json", "--db", server.url)
        assert code == 0, err
        shown = json.loads(out)
        assert shown["outcome"] == summary["outcome"]
        words = outcome_words("beowulf", summary["outcome"], players)
        for table in (ann, bob, spectator):
            table.page.wait_for_selector(f"#status:has-text('{words}')")
            assert table.page.locator("#legal button.move").count() == 0
        assert "game is over" in ann.page.inner_text("#play-hint")
        fits_a_phone(ann)
        ann.page.screenshot(path=shots / "beowulf-phone-9-ann-over.png")
        bob.page.screenshot(path=shots / "beowulf-phone-9-bob-over-whole.png", full_page=True)
        spectator.page.screenshot(
            path=shots / "beowulf-desktop-9-spectator-over.png", full_page=True
        )

        # Every tap reached the service once, over the live channel, at the seq the page
        # showed; none was refused and nothing went over REST.
        for seat, table in tables.items():
            listed = [(c["move"], c["seq"]) for c in table.clicks() if c["move"]]
            sent = [(s["move"], s["expected_seq"]) for s in table.sent if s["route"] == "moves"]
            assert set(listed) <= set(sent)
            moves = len([s for s in table.sent if s["route"] == "moves"])
            assert moves == tapped[seat] + (1 if seat == 0 else 0), (seat, moves, tapped)
            assert not table.refusals, table.refusals
            assert not table.posted, table.posted
    finally:
        service.close()
        for table in (ann, bob, spectator):
            table.close()


def test_clicks_interleaved_with_live_updates(browser: Any, server: Server) -> None:
    """Both phones play as fast as their pages let them while a third device of the seat
    to act plays behind its page's back: every tap is sent once over the page's channel,
    with the move and seq it showed; a stale one is refused (the game moved on) and the
    page says it reloaded; none lands stale."""
    created = create(server, "beowulf", ["Ann", "Bob"])
    game_id, referee = created["id"], created["referee_token"]
    ann_token, bob_token = (seat["token"] for seat in created["seats"])
    ann = Table(browser, server, game_id, ann_token, phone=True)
    bob = Table(browser, server, game_id, bob_token, phone=True)
    try:
        tables = {0: ann, 1: bob}
        tokens = {0: ann_token, 1: bob_token}
        behind_its_back: set[int] = set()  # the seqs another device played at
        stale_taps = 0
        for round_no in range(10):
            summary = api(server, None, f"/games/{game_id}")
            seat = summary["to_act"][0]
            table = tables[seat]
            table.controls_at(summary["seq"])
            if round_no % 2:
                # The seat's other device plays first (a helper bot of the player's: this
                # browser holds the seat's key); the page's tap comes right after.
                legal = api(server, tokens[seat], f"/games/{game_id}/legal")
                move, seq = legal["moves"][-1], legal["seq"]
                api_move(server, game_id, tokens[seat], move, seq, bot="other device")
                behind_its_back.add(legal["seq"])
                try:
                    table.touch(table.page.locator("#legal button.move").first, timeout=3000)
                    stale_taps += 1
                except playwright_api.TimeoutError:
                    pass  # the live update took the list away first: nothing to tap
            else:
                table.play(on_board=False)  # the listed moves: their taps are recorded
                played(server, game_id, summary["seq"])
            other = tables[1 - seat]
            other.controls_at(seq_of(server, game_id))
        log = {e["seq"]: e for e in api(server, referee, f"/games/{game_id}/log")["events"]}
        stale = 0
        for seat, table in tables.items():
            sent = [(s["move"], s["expected_seq"]) for s in table.sent if s["route"] == "moves"]
            table.page.wait_for_function("n => window.skaldClicks.length === n", arg=len(sent))
            assert [(c["move"], c["seq"]) for c in table.clicks()] == sent  # once, as shown
            assert not table.posted, "decisions go over the live channel"
            for _move, seq in sent:
                if seq in behind_its_back:
                    stale += 1  # refused: another device played at that seq
                else:
                    assert log[seq + 1]["actor"] == str(seat), (seat, seq)  # landed there
            assert set(table.refusals) <= {"version_conflict"}, table.refusals
        refused = len(ann.refusals) + len(bob.refusals)
        print(f"{stale_taps} taps after another device played; {refused} refused as stale")
        assert refused == stale, (refused, stale)  # only the stale ones, every one of them
        said = ann.messages() + bob.messages()  # a later move's words replace the line's
        assert len([text for text in said if "moved on" in text]) == refused, said
    finally:
        ann.close()
        bob.close()


def test_a_stale_tap_over_the_channel_is_refused_and_said(browser: Any, server: Server) -> None:
    """Ann's page does not hear of the move her other device made (its channel's frames
    are held back): her tap goes over the channel with the seq it showed, the service
    refuses it (the game moved on), nothing is written, and the page says so and reloads
    to the position as it is."""
    created = create(server, "beowulf", ["Ann", "Bob"])
    game_id = created["id"]
    ann_token = created["seats"][0]["token"]
    context = browser.new_context(
        base_url=server.base, viewport=PHONE, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(WAIT)
    context.route(ONLY_LOOPBACK, lambda route: route.abort())
    held: list[Any] = []
    holding = {"on": False}

    def relay(socket: Any) -> None:
        service = socket.connect_to_server()
        socket.on_message(service.send)

        def to_page(frame: str | bytes) -> None:
            if holding["on"] and '"type":"update"' in str(frame):
                held.append(frame)  # the page does not hear of the other device's move
            else:
                socket.send(frame)

        service.on_message(to_page)

    try:
        page = context.new_page()
        page.route_web_socket("**/play", relay)
        page.goto(f"/play/{game_id}#token={ann_token}")
        seq = seq_of(server, game_id)
        page.wait_for_selector("body[data-live]", state="attached")  # welcomed, notes read
        page.wait_for_function(
            "seq => document.getElementById('legal').dataset.seq === String(seq)", arg=seq
        )
        holding["on"] = True
        legal = api(server, ann_token, f"/games/{game_id}/legal")
        api_move(server, game_id, ann_token, legal["moves"][-1], seq)  # her other device
        now = seq_of(server, game_id)
        page.locator("#legal li:first-child button.move").tap()
        page.wait_for_selector("#message:has-text('moved on')")
        assert seq_of(server, game_id) == now  # the stale tap wrote nothing
        wait_seq(page, now)  # reloaded to the game as it is
        assert held, "the update frame was held back"
    finally:
        context.close()


def round_of(server: Server, game: str, game_id: str, referee: str) -> int:
    state = api(server, referee, f"/games/{game_id}/view")["state"]
    return int(state["day"] if game == "beast" else state["rounds"])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "players"), [("beast", ["Ann", "Bob"]), ("hagar", ["Ann", "Bob", "Cid"])]
)
def test_a_round_tapped_by_every_seat(
    browser: Any, server: Server, shots: Path, game: str, players: list[str]
) -> None:
    created = create(server, game, players)
    game_id, referee = created["id"], created["referee_token"]
    tables = [
        Table(browser, server, game_id, seat["token"], phone=True) for seat in created["seats"]
    ]
    spectator = Table(browser, server, game_id, None, phone=False)
    try:
        first = round_of(server, game, game_id, referee)
        tapped: set[int] = set()
        taps = 0
        while round_of(server, game, game_id, referee) == first or len(tapped) < len(players):
            taps += 1
            assert taps <= 60, f"no round of {game} by tapping"
            summary = api(server, None, f"/games/{game_id}")
            if summary["outcome"]:
                break
            seat = summary["to_act"][0]
            tables[seat].controls_at(summary["seq"])
            tables[seat].play(on_board=taps % 2 == 1)
            played(server, game_id, summary["seq"])
            tapped.add(seat)
            if taps == 2:
                fits_a_phone(tables[seat])
                named_properly(tables[seat], game, game_id)
                tables[seat].page.screenshot(path=shots / f"{game}-phone-{players[seat]}.png")
        print(f"{game}: round {first} → {round_of(server, game, game_id, referee)} in {taps} taps")
        assert tapped == set(range(len(players)))
        wait_seq(spectator.page, seq_of(server, game_id))
        spectator.page.screenshot(path=shots / f"{game}-desktop-spectator.png")
    finally:
        for table in (*tables, spectator):
            table.close()


def test_entropy_committed_and_revealed_from_two_pages(
    browser: Any, server: Server, shots: Path
) -> None:
    created = create(server, "beowulf", ["Ann", "Bob"], options={"entropy": "seats"})
    game_id, referee = created["id"], created["referee_token"]
    tokens = [seat["token"] for seat in created["seats"]]
    ann, bob = (Table(browser, server, game_id, token, phone=True) for token in tokens)
    try:
        texts = ["Ann's secret: a hawk over Heorot", "bob picks a long enough text"]
        for table, text in zip((ann, bob), texts, strict=True):
            page = table.page
            page.wait_for_selector("#entropy-send:has-text('Commit')")
            assert len(str(page.input_value("#entropy-text"))) >= 16  # a random text is offered
            page.fill("#entropy-text", "too short")
            page.wait_for_selector("#entropy-hash:has-text('more characters')")
            page.fill("#entropy-text", text)
            digest = hashlib.sha256(text.encode()).hexdigest()
            page.wait_for_selector(f"#entropy-hash:text-is('{digest}')")
            # The plain-script SHA-256 (for pages served over plain http) agrees.
            plain = (
                "t => [...SkaldEntropy.sha256Plain(new TextEncoder().encode(t))]"
                ".map((b) => b.toString(16).padStart(2, '0')).join('')"
            )
            assert page.evaluate(plain, text) == digest
            if table is ann:
                fits_a_phone(ann)
                page.screenshot(path=shots / "entropy-phone-ann-commit.png")
            seq = seq_of(server, game_id)
            table.touch(page.locator("#entropy-send"))
            played(server, game_id, seq)
            if table is ann:
                ann.page.wait_for_selector("#entropy-hint:has-text('Waiting for the other seats')")
        log = json.dumps(api(server, referee, f"/games/{game_id}/log"))
        for text in texts:
            assert hashlib.sha256(text.encode()).hexdigest() in log
            assert text not in log  # only the commitment so far
        for table, text in zip((ann, bob), texts, strict=True):
            table.page.wait_for_selector("#entropy-send:has-text('Reveal')")
            assert table.page.input_value("#entropy-text") == text  # kept by the browser
            table.page.wait_for_selector("#entropy-hash:has-text('matches your commitment')")
            seq = seq_of(server, game_id)
            table.touch(table.page.locator("#entropy-send"))
            played(server, game_id, seq)
        for table in (ann, bob):
            table.page.wait_for_selector("#entropy", state="hidden")
            table.page.wait_for_selector("#legal button.move, #play-hint:has-text('Waiting')")
        state = api(server, referee, f"/games/{game_id}/view")["state"]
        assert state["act"] == 1
        assert state["seats"][0]["hand"], "the opening was dealt"
    finally:
        ann.close()
        bob.close()
