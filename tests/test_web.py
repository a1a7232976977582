"""The table in a browser: real Chromium (Debian's, through Playwright's Python package;
never a downloaded browser) against a real `skald serve`. Lobby, seat links, play by
clicking, undo/redo, a stale page's 409, live updates, replay, viewer switch, audit,
keyboard-only play; hidden tiles absent from other pages' DOM and network traffic.
Screenshots of each board are kept under pytest's temporary folder (printed)."""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from skald.core.access import TokenStore
from skald.core.engine import Engine
from skald.core.store import EventStore
from skald.events.viewer import REFEREE
from skald.projections.beowulf.board import hand_line
from skald.projections.table import Table
from tests.browser_support import CHROMIUM, chromium, local_context, screenshot_folder, served_skald
from tests.patience import HUNG
from tests.servers import Server

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with served_skald(tmp_path_factory, "web-server") as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = screenshot_folder(tmp_path_factory, "web-screenshots")
    print(f"screenshots in {folder}")
    return folder


@pytest.fixture
def context(browser: Any, server: Server) -> Iterator[Any]:
    made = local_context(browser, server, height=900)
    yield made
    made.close()


class Recorder:
    """Every response body a page received, and every request URL it sent."""

    def __init__(self, page: Any) -> None:
        self.bodies: list[str] = []
        self.urls: list[str] = []
        page.on("request", lambda request: self.urls.append(request.url))
        page.on("response", self._keep)
        self.messages: list[str] = []  # what the page sent over its live channel
        page.on("websocket", self._channel)

    def _channel(self, socket: Any) -> None:
        socket.on("framereceived", self._frame)
        socket.on("framesent", lambda payload: self.messages.append(str(payload)))

    def _frame(self, payload: str | bytes) -> None:
        self.bodies.append(payload if isinstance(payload, str) else payload.decode())

    def _keep(self, response: Any) -> None:
        if "/events" in response.url:
            return  # a stream never finishes; its copies are checked through /lines
        with contextlib.suppress(playwright_api.Error):  # a body gone with a closed page
            self.bodies.append(response.text())

    def seen(self, needle: str) -> bool:
        return any(needle in body for body in self.bodies)


def create(server: Server, game: str, players: list[str], **extra: Any) -> dict[str, Any]:
    answer = httpx.post(f"{server.base}/games", json={"game": game, "players": players, **extra})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def api(server: Server, token: str | None, path: str) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = httpx.get(f"{server.base}{path}", headers=headers)
    assert answer.status_code == 200, answer.text
    return answer.json()


def api_move(
    server: Server, game_id: str, token: str, move: str, seq: int, bot: str | None = None
) -> None:
    """A move sent over REST for the token's seat (unsigned: as a bot the seat's player runs,
    named `bot`, where the seat signs its own decisions)."""
    body: dict[str, Any] = {"move": move, "expected_seq": seq}
    if bot is not None:
        body["bot"] = bot
    answer = httpx.post(
        f"{server.base}/games/{game_id}/moves",
        json=body,
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 201, answer.text


def open_table(context: Any, game_id: str, token: str | None = None) -> Any:
    page = context.new_page()
    page.goto(f"/play/{game_id}" + (f"#token={token}" if token else ""))
    page.wait_for_selector("#board svg")
    return page


def wait_seq(page: Any, seq: int) -> None:
    page.wait_for_function(
        "seq => document.getElementById('position').textContent.endsWith('/ ' + seq)", arg=seq
    )


def seq_of(server: Server, game_id: str) -> int:
    return int(api(server, None, f"/games/{game_id}")["seq"])


def test_lobby_creates_a_game_and_hands_out_links(context: Any, server: Server) -> None:
    page = context.new_page()
    recorder = Recorder(page)
    page.goto("/")
    page.select_option("#game", "beowulf")
    page.fill("#players", "Ann, Bob")
    page.fill("#options", "undo=anyone")
    page.click("#create")
    links = page.locator("#links a")
    links.first.wait_for()
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    assert len(hrefs) == 4  # two seats, the referee, spectators
    assert all("#token=" in href for href in hrefs[:3])
    assert "#" not in hrefs[3]
    who = page.locator("#links .who").all_inner_texts()
    assert who[:2] == ["Ann (seat 1)", "Bob (seat 2)"]  # seats as people count them, from 1
    game_id = hrefs[0].split("/")[2].split("#")[0]
    page.locator(f'#games tr[data-game="{game_id}"]').wait_for()
    assert "Ann, Bob" in page.locator(f'#games tr[data-game="{game_id}"]').inner_text()
    # A bad option is a readable message, and nothing is created.
    before = len(httpx.get(f"{server.base}/games").json()["items"])
    page.fill("#options", "undo=sometimes")
    page.click("#create")
    page.wait_for_selector("#message:not(:empty)")
    assert "undo" in page.inner_text("#message")
    assert len(httpx.get(f"{server.base}/games").json()["items"]) == before
    # Following a seat link sends its token only in the Authorization header.
    page.goto(hrefs[0])
    page.wait_for_selector("#board svg")
    assert not [url for url in recorder.urls if "token" in url]


def hidden_values(node: Any, audience: list[int]) -> set[str]:
    """Every hidden value in a log addressed to `audience`, as quoted JSON strings."""
    found: set[str] = set()
    if isinstance(node, dict):
        if node.get("audience") == audience and node.get("value") is not None:
            values = node["value"] if isinstance(node["value"], list) else [node["value"]]
            found |= {f'"{value}"' for value in values if isinstance(value, str)}
        for child in node.values():
            found |= hidden_values(child, audience)
    elif isinstance(node, list):
        for child in node:
            found |= hidden_values(child, audience)
    return found


def click_a_move(page: Any) -> str:
    """Play one legal move by clicking: a place on the board when one is playable (then
    the first entry of its menu, if it opens one), else the first legal-move entry."""
    page.wait_for_selector("#legal button.move")
    place = page.locator("#board .playable[tabindex]")
    if place.count():
        # Read before the click: a place that plays at once is redrawn away by the answer.
        place_label = place.first.get_attribute("aria-label")
        place.first.click()
        menu = page.locator("#menu:not([hidden]) button.move")
        if menu.count():
            label = menu.first.inner_text()
            menu.first.click()
            return str(label)
        return str(place_label)
    entry = page.locator("#legal button.move").first
    label = entry.inner_text()
    entry.click()
    return str(label)


def played(server: Server, game_id: str, before: int, seconds: float = HUNG) -> int:
    """The new seq once a move after `before` has landed (bounded only as hung)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        seq = seq_of(server, game_id)
        if seq > before:
            return seq
        time.sleep(0.05)
    raise AssertionError(f"no move landed after seq {before} in {seconds:.0f} s")


def free_squares(view: dict[str, Any]) -> int:
    """Squares of a Beowulf board without tile, figure or printed Throat (0: the act ends)."""
    taken = len(view["tiles"]) + len(view["figures"]) + len(view["printed_throats"])
    return int(view["rows"] * view["cols"] - taken)


def test_beowulf_played_in_the_browser(context: Any, server: Server, shots: Path) -> None:
    created = create(server, "beowulf", ["Ann", "Bob"])
    game_id, referee = created["id"], created["referee_token"]
    ann_token, bob_token = (seat["token"] for seat in created["seats"])
    ann = open_table(context, game_id, ann_token)
    bob = open_table(context, game_id, bob_token)
    bob_traffic = Recorder(bob)
    ann_traffic = Recorder(ann)
    spectator = context.new_page()
    spectator_traffic = Recorder(spectator)
    spectator.goto(f"/play/{game_id}")
    spectator.wait_for_selector("#board svg")
    for page in (bob, ann):  # reopened: their channels are recorded from the start
        page.reload()
        page.wait_for_selector("#board svg")

    # Ann's dealt tiles: in her own page, absent from Bob's and the spectator's DOM and traffic.
    ann_log = api(server, ann_token, f"/games/{game_id}/log")
    secret_ids = hidden_values(ann_log, [0])
    assert secret_ids, "Ann's deal is in her log"
    faces = api(server, ann_token, f"/games/{game_id}/view")["state"]["seats"][0]["hand"]
    ann_hand = hand_line(faces)
    assert ann.text_content('#board [data-seat="0"] .hand') == ann_hand
    for page, traffic in ((bob, bob_traffic), (spectator, spectator_traffic)):
        assert ann_hand not in page.content()
        assert "tiles (backs" in page.text_content('#board [data-seat="0"] .hand')
        assert traffic.bodies, "the page's responses were recorded"
        assert not [tile for tile in secret_ids if traffic.seen(tile)]
        assert not traffic.seen(ann_hand)
    ann.locator("#board").screenshot(path=shots / "beowulf-1-start-ann.png")

    # Ann places a figure by clicking a square; the other pages update live.
    start = seq_of(server, game_id)
    move = click_a_move(ann)
    seq = played(server, game_id, start)
    for page in (ann, bob, spectator):
        wait_seq(page, seq)
    square = move.split()[-1]
    assert bob.locator(f'#board .figure[data-at="{square}"]').count() == 1
    assert bob_traffic.seen('"type":"update"'), "Bob's page follows over its live channel"
    # The page's own decisions go over its live channel at the seq shown (controls.js), once.
    assert not [url for url in ann_traffic.urls if url.endswith("/moves")]
    decided = [json.loads(m) for m in ann_traffic.messages if '"type":"move"' in m]
    assert [d["expected_seq"] for d in decided] == [start]
    assert decided[0]["move"] in move  # the move shown (a place's label names its square too)

    # Undo (the author, before anyone else acts), then redo; every page follows.
    ann.click("#undo")
    seq = played(server, game_id, seq)
    wait_seq(spectator, seq)
    assert spectator.locator(f'#board .figure[data-at="{square}"]').count() == 0
    ann.click("#redo")
    seq = played(server, game_id, seq)
    wait_seq(spectator, seq)
    assert spectator.locator(f'#board .figure[data-at="{square}"]').count() == 1

    # Bob may not undo Ann's decision: the button says so on focus, and a tap on it says
    # why in the message box; nothing is written.
    bob.wait_for_selector("#undo[aria-disabled='true']")
    bob.focus("#undo")
    assert "only Ann" in bob.locator("#undo-why").inner_text()
    bob.click("#undo", force=True)
    bob.wait_for_selector("#message:not(:empty)")
    assert "only Ann" in bob.inner_text("#message")
    assert "Traceback" not in bob.inner_text("#message")
    assert seq_of(server, game_id) == seq

    # A stale page (its live channel cut: it acts through REST) plays on an old seq: 409,
    # and it reloads.
    bob_move = click_a_move(bob)
    seq = played(server, game_id, seq)
    stale = context.new_page()
    stale.route_web_socket("**/play", lambda ws: ws.close())
    stale.goto(f"/play/{game_id}#token={ann_token}")
    stale.wait_for_selector("#legal button.move")
    legal = api(server, ann_token, f"/games/{game_id}/legal")
    # The move elsewhere and the stale tap in one go inside the page: the page has no
    # moment between them to hear of the move (its channel's reconnects could, on a busy
    # machine, and take the button away before a tap sent from here)
    # (signed by Ann's key, which this browser holds: her seat signs since her first move)
    stale.evaluate(
        """async ([url, token, move, legal, game]) => {
            const signed = await SkaldSeatKey.sign(
                game, legal.seat, legal.seq, legal.head, "move", move, legal.keys);
            const made = await fetch(url, {
                method: "POST",
                headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
                body: JSON.stringify({ move, expected_seq: legal.seq, signed }),
            });
            if (made.status !== 201) throw new Error(`the move elsewhere: ${made.status}`);
            document.querySelector("#legal button.move").click();
        }""",
        [f"/games/{game_id}/moves", ann_token, legal["moves"][0], legal, game_id],
    )
    # The page says "Sending: ..." while the tap is under way, then the refusal's words.
    stale.wait_for_function(
        "() => { const m = document.querySelector('#message').innerText;"
        " return m !== '' && !m.startsWith('Sending'); }"
    )
    assert "moved on" in stale.inner_text("#message")
    wait_seq(stale, seq_of(server, game_id))
    assert stale.locator("#legal button.move").count() == 0  # now Bob's turn
    stale.close()
    del bob_move

    # The referee may look as any seat; a seat only as itself or a spectator.
    judge = open_table(context, game_id, referee)
    judge.select_option("#viewer", "Bob")
    judge.wait_for_function(
        "() => document.querySelector('#board [data-seat=\"0\"] .hand')"
        ".textContent.includes('backs')"
    )
    assert "backs" not in judge.text_content('#board [data-seat="1"] .hand')
    assert bob.locator('#viewer option[value="Ann"]').count() == 0
    judge.click("#open-audit")
    judge.wait_for_selector("#audit .verdict")
    bob.wait_for_selector("#open-audit:disabled")  # a seat while the game runs: told why
    assert "after the game" in bob.inner_text("#audit-why")
    judge.close()
    bob.locator("#board").screenshot(path=shots / "beowulf-2-opening-bob.png")


def near_the_end(server: Server) -> tuple[str, list[str]]:
    """A 2-player Beowulf game played at random into Act III until three squares are left,
    written straight into the server's store (as a second process would), with its seat
    tokens: the browser then plays its last decisions."""
    store = EventStore(server.url)
    try:
        table = Table(Engine(store))
        game_id = table.create("beowulf", ["Ann", "Bob"])
        rnd = random.Random(14)
        for _ in range(5000):
            state = table.show(game_id, REFEREE).state
            if state.act == 3 and free_squares(msgspec.to_builtins(state)) <= 3:
                break
            seat = table.turn(game_id).to_act[0]
            table.move(game_id, seat, rnd.choice(table.legal(game_id, seat)))
        issued = TokenStore(store).issue(game_id, 2)
        return game_id, list(issued.seats)
    finally:
        store.dispose()


@pytest.mark.slow
def test_beowulf_finished_replayed_and_audited(context: Any, server: Server, shots: Path) -> None:
    game_id, (ann_token, bob_token) = near_the_end(server)
    ann = open_table(context, game_id, ann_token)
    bob = open_table(context, game_id, bob_token)
    spectator = open_table(context, game_id)
    pages = {0: ann, 1: bob}
    for page in (ann, bob, spectator):
        wait_seq(page, seq_of(server, game_id))
    ann.locator("#board").screenshot(path=shots / "beowulf-3-act3-ann.png")
    clicks = 0
    while not api(server, None, f"/games/{game_id}")["outcome"]:
        clicks += 1
        assert clicks <= 120, "the game did not end by clicking"
        summary = api(server, None, f"/games/{game_id}")
        page = pages[summary["to_act"][0]]
        wait_seq(page, summary["seq"])
        click_a_move(page)
        played(server, game_id, summary["seq"])
    final = seq_of(server, game_id)
    for page in (ann, bob, spectator):
        wait_seq(page, final)
    spectator.wait_for_selector("#status:has-text('The game is over')")
    spectator.locator("#board").screenshot(path=shots / "beowulf-4-over-spectator.png")
    print(f"the last {clicks} decisions were clicked")

    # Replay by keyboard, jump, the log, autoplay.
    spectator.locator("body").press("Home")
    wait_seq(spectator, final)
    spectator.wait_for_function(
        f"() => document.getElementById('position').textContent === '1 / ' + {final}"
    )
    spectator.keyboard.press("ArrowRight")
    spectator.wait_for_selector(f"#position:text-is('2 / {final}')")
    spectator.keyboard.press("ArrowLeft")
    spectator.wait_for_selector(f"#position:text-is('1 / {final}')")
    spectator.fill("#jump-seq", "40")
    spectator.press("#jump-seq", "Enter")
    spectator.wait_for_selector(f"#position:text-is('40 / {final}')")
    assert spectator.locator("#lines li.current").get_attribute("data-seq") == "40"
    spectator.locator("#lines li[data-seq='30'] button").click()
    spectator.wait_for_selector(f"#position:text-is('30 / {final}')")
    spectator.fill("#jump-seq", str(final - 4))
    spectator.press("#jump-seq", "Enter")
    spectator.select_option("#speed", "300")
    spectator.click("#autoplay")
    spectator.wait_for_selector(f"#position:text-is('{final} / {final}')")
    spectator.wait_for_selector("#autoplay[aria-pressed='false']")
    spectator.keyboard.press("End")

    # After the game the audit is everyone's: verdict, anomalies, knowledge, linked to seqs.
    spectator.click("#open-audit")
    spectator.wait_for_selector("#audit .verdict")
    assert spectator.inner_text("#anomalies") == "none"
    spectator.locator("#audit details").first.click()
    spectator.locator("#audit details button.seq").first.click()
    spectator.wait_for_selector("#status:has-text('replaying')")


def tab_to(page: Any, selector: str, limit: int = 200) -> None:
    """Press Tab until the focused element matches `selector` (bounded)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def enter_a_move_by_keyboard(
    page: Any, server: Server, game_id: str, seq: int, target: str = "#legal button.move"
) -> int:
    """Tab to `target` (a legal move in the list, or a playable place on the map) and press
    Enter (and Enter again on the menu a place may open); the new seq. The page redraws
    when it hears of the previous move, which can take the focus away between Tab and
    Enter: then the keyboard tries again (three times at most). A try that did send its
    move must not be taken for one that did not (its retry would make a second move), so
    each waits far longer than a loaded machine takes to land a move (over 5 s seen)."""
    for attempt in range(3):
        tab_to(page, target)
        page.keyboard.press("Enter")
        if page.locator("#menu:not([hidden])").count():
            page.keyboard.press("Enter")  # the menu's first move has the focus
        try:
            return played(server, game_id, seq, seconds=30)
        except AssertionError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


@pytest.mark.slow
def test_beast_by_clicking_and_keyboard(context: Any, server: Server, shots: Path) -> None:
    created = create(server, "beast", ["Ann", "Bob"])
    game_id = created["id"]
    ann_token, bob_token = (seat["token"] for seat in created["seats"])
    ann = open_table(context, game_id, ann_token)
    bob = context.new_page()
    bob_traffic = Recorder(bob)
    bob.goto(f"/play/{game_id}#token={bob_token}")
    bob.wait_for_selector("#board svg")
    spectator = open_table(context, game_id)

    # The Beast (seat 0) takes two hidden steps from the list, the second by keyboard.
    seq = seq_of(server, game_id)
    label = click_a_move(ann)
    assert label.startswith("step")
    seq = played(server, game_id, seq)
    wait_seq(ann, seq)
    ann.bring_to_front()  # keyboard input goes to the focused page
    seq = enter_a_move_by_keyboard(ann, server, game_id, seq)
    for page in (ann, bob, spectator):
        wait_seq(page, seq)
    actual = api(server, ann_token, f"/games/{game_id}/view")["state"]["beast_location"]
    assert actual
    assert ann.locator("#board .hidden-path").count() >= 1
    assert ann.locator("#board .beast-actual").count() == 1
    for page in (bob, spectator):
        assert page.locator("#board .hidden-path").count() == 0
        assert page.locator("#board .beast-actual").count() == 0
        assert page.locator("#board .standee").count() == 1
    assert not bob_traffic.seen(f'"beast_location":"{actual}"')
    assert not bob_traffic.seen("the Beast (actual)")
    assert not bob_traffic.seen("hidden path")
    ann.locator("#board").screenshot(path=shots / "beast-1-beast-sees-its-path.png")

    # The hunter places by clicking a location on the map, then by keyboard alone.
    bob.wait_for_selector("#board .playable")
    label = click_a_move(bob)
    assert label.split()[0] == "place" or "place" in label
    seq = played(server, game_id, seq)
    wait_seq(bob, seq)
    bob.bring_to_front()  # keyboard input goes to the focused page
    seq = enter_a_move_by_keyboard(bob, server, game_id, seq, "#board [data-at][tabindex]")
    wait_seq(spectator, seq)
    assert spectator.locator("#board .hunter").count() >= 1
    bob.locator("#board").screenshot(path=shots / "beast-2-hunter-view.png")
    spectator.locator("#board").screenshot(path=shots / "beast-3-spectator-view.png")


def test_hagar_board_in_the_browser(context: Any, server: Server, shots: Path) -> None:
    created = create(server, "hagar", ["Ann", "Bob", "Cid"])
    game_id = created["id"]
    page = open_table(context, game_id, created["seats"][0]["token"])
    spectator = open_table(context, game_id)
    assert page.locator('#board [data-at="paris"]').count() == 1
    seq = seq_of(server, game_id)
    if page.locator("#board .playable").count():  # e.g. `start fjord-west` on the map
        click_a_move(page)
        seq = played(server, game_id, seq)
        wait_seq(spectator, seq)
    spectator.locator("#board").screenshot(path=shots / "hagar-1-spectator.png")


def test_a_bad_link_says_what_to_do_and_offers_no_game(
    context: Any, server: Server, shots: Path
) -> None:
    """A link whose token is not the game's, or whose game does not exist, gets the
    service's words and what to do, and none of the game's controls (a review found
    replay buttons, Download and Open the audit around the red message)."""
    game = create(server, "beowulf", ["Ann", "Bob"])
    cases = [
        (f"/play/{game['id']}#token=notatoken", "Ask whoever set up the game for your seat's"),
        ("/play/0123456789abcdef", "Check the link, or find the game in the lobby."),
    ]
    for link, advice in cases:
        page = context.new_page()
        page.goto(link)
        page.wait_for_selector("body[data-refused='true']")
        said = page.inner_text("#message")
        assert advice in said, said
        assert ".." not in said, said
        for control in ("#replay", "#board", "#open-audit", "#viewer"):
            assert not page.locator(control).is_visible(), control
        assert page.locator("#message").is_visible()
        page.screenshot(path=shots / f"bad-link-{len(advice)}.png")
        page.close()


def test_a_shared_link_to_a_position_that_is_not_there_says_so(
    context: Any, server: Server
) -> None:
    """A link naming a variation the viewer has not, or a seq past the game's, says so and
    shows the game as it is (found by a review: the page showed the last position with no
    word)."""
    game = create(server, "beowulf", ["Ann", "Bob"])
    for query, said in (
        ("?variation=v99", "This game has no variation “v99” that you may see"),
        ("?at=99999", "This link names seq 99999, but the game is at seq"),
    ):
        page = context.new_page()
        page.goto(f"/play/{game['id']}{query}")
        page.wait_for_selector("#board svg")
        page.wait_for_selector(f"#message:has-text('{said}')")
        assert page.locator("#replay").is_visible()
        page.close()
