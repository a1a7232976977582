"""Real browser tests: a real `skald serve` on a SQLite file, Debian's Chromium driven by
Playwright's Python package (never a downloaded browser), and browser contexts that may
reach only the service under test. Shared by tests/test_web*.py."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.patience import HUNG
from tests.servers import Server

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# ms, for every wait in the page: each waits for something that comes (a selector, a
# frame), so it is a detector of a hung page, never a requirement of speed (a loaded
# machine's Chromium has taken over 10 s to draw a page): tests/patience.py
TIMEOUT = int(HUNG * 1000)
ONLY_LOOPBACK = re.compile(r"^(?!http://127\.0\.0\.1:\d+/).*")


def screenshot_folder(tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    """Where a browser test keeps its screenshots for a person to look at: the folder
    SKALD_SCREENSHOTS names (kept after the run), else a fresh temporary one."""
    chosen = os.environ.get("SKALD_SCREENSHOTS")
    if not chosen:
        return tmp_path_factory.mktemp(name)
    folder = Path(chosen) / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextmanager
def served_skald(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[Server]:
    """A started `skald serve` on a SQLite file of its own, stopped afterwards."""
    folder = tmp_path_factory.mktemp(name)
    with Server(f"sqlite:///{folder / 'skald.db'}", folder / "server.log") as running:
        running.start()
        yield running


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium, launched headless (the test is skipped where it is missing)."""
    if not CHROMIUM.exists():
        pytest.skip("needs /usr/bin/chromium")
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


def local_context(browser: Any, server: Server, height: int = 1000) -> Any:
    """A browser context on `server` whose requests anywhere else are aborted."""
    context = browser.new_context(base_url=server.base, viewport={"width": 1400, "height": height})
    context.set_default_timeout(TIMEOUT)
    context.route(ONLY_LOOPBACK, lambda route: route.abort())
    return context


@contextmanager
def windows(
    browser: Any, server: Server, ready: str | None = None
) -> Iterator[Callable[[str], Any]]:
    """Opens paths each in a window of its own (pages that are tabs of one window are
    background tabs, which hardly get animation frames, and Playwright's clicks wait for
    them), waiting for `ready` when given; every window is closed afterwards."""
    made: list[Any] = []

    def open_page(path: str) -> Any:
        context = local_context(browser, server)
        made.append(context)
        page = context.new_page()
        page.goto(path)
        if ready is not None:
            page.wait_for_selector(ready)
        return page

    try:
        yield open_page
    finally:
        for context in made:
            context.close()
