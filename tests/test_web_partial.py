"""The table page of a partial copy (a game imported with `--partial` from a record cut
short) says so in its status line and offers no move: real Chromium against a real
`skald serve`."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from skald.core.engine import Engine
from skald.core.importer import import_text
from skald.core.store import EventStore
from skald.events.viewer import REFEREE
from skald.projections.bots.autoplay import play_out, random_bot
from skald.projections.table import Table
from tests.browser_support import CHROMIUM, chromium, local_context
from tests.forgery import jsonl
from tests.servers import Server

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs /usr/bin/chromium")


@pytest.fixture
def partial_copy(tmp_path: Path) -> Iterator[tuple[Server, str]]:
    url = f"sqlite:///{tmp_path / 'skald.db'}"
    source = EventStore("sqlite://")
    table = Table(Engine(source))
    game = table.create("beowulf", ["Ann", "Bob"], seed="partial")
    play_out(table, game, random_bot, random.Random(5))
    lines = jsonl(table.log(game, REFEREE)).splitlines(keepends=True)
    source.dispose()
    store = EventStore(url)
    import_text(Engine(store), "".join(lines[: len(lines) // 2]), partial=True)
    store.dispose()
    with Server(url, tmp_path / "server.log") as running:
        running.start()
        yield running, game


def test_the_table_page_says_a_partial_copy_and_offers_no_move(
    partial_copy: tuple[Server, str],
) -> None:
    server, game = partial_copy
    with chromium() as browser:
        context = local_context(browser, server)
        page = context.new_page()
        page.goto(f"/play/{game}")
        status = page.locator("#status")
        status.filter(has_text="a partial copy: the record was cut after decision").wait_for()
        assert "to act" not in status.text_content()
        context.close()
