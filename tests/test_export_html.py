"""The HTML export in the real browser (Debian's Chromium through Playwright): once its check
ran, the board diagrams render, the move list is there, and nothing is requested from the
network."""

from __future__ import annotations

from pathlib import Path

import pytest

from skald.core.engine import Engine
from skald.core.store import EventStore
from skald.events.viewer import REFEREE
from skald.projections.bots.autoplay import autoplay
from skald.projections.table import Table

playwright_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = Path("/usr/bin/chromium")


@pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium")
def test_the_html_export_renders_offline(tmp_path: Path) -> None:
    table = Table(Engine(EventStore("sqlite://")))
    game_id = autoplay(table, "beowulf", 2, seed="4").id
    histories = table.histories()
    histories.annotate(
        game_id, REFEREE, "9", comment="Look here", marks=["circle B2 blue", "arrow A1 C3"]
    )
    page_file = tmp_path / "game.html"
    page_file.write_text(histories.export(game_id, REFEREE, "html"), encoding="utf-8")
    url = page_file.as_uri()
    # a negative control: the page without its Content-Security-Policy and with one
    # external image, which the counter must see
    html = page_file.read_text()
    policy = html[html.index("<meta http-equiv") : html.index("<title>")]
    control = tmp_path / "control.html"
    control.write_text(
        html.replace(policy, "").replace("<body>", '<body><img src="http://192.0.2.1/x.png">', 1)
    )
    requests: list[str] = []
    with playwright_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=str(CHROMIUM))
        try:
            page = browser.new_page()

            def count(route: object) -> None:
                request = route.request  # type: ignore[attr-defined]
                if request.url in (url, control.as_uri()):
                    route.continue_()  # type: ignore[attr-defined]
                else:
                    requests.append(request.url)
                    route.abort()  # type: ignore[attr-defined]

            page.route("**", count)
            page.goto(url)
            # the readable part is shown once the check found the page whole
            page.locator("#skald-verdict[data-verdict]").wait_for(timeout=30_000)
            assert page.locator("#skald-verdict").inner_text().startswith("consistent, but ")
            moves = page.locator("#skald-shown li.move")
            assert moves.count() > 10
            assert "place" in moves.first.inner_text()
            boards = page.locator("figure svg.board")
            assert boards.count() >= 4  # the markup, three acts' ends, the game's end
            box = boards.first.bounding_box()
            assert box is not None
            assert box["width"] > 100
            assert box["height"] > 100
            # the markup is drawn: a blue circle on the board
            assert page.locator('svg.board circle[stroke="#1565c0"]').count() == 1
            assert "Look here" in page.locator("li.note").first.inner_text()
            assert requests == []
            page.goto(control.as_uri())
            assert requests == ["http://192.0.2.1/x.png"]
        finally:
            browser.close()
