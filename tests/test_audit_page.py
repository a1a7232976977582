"""The audit page in a real browser: a finished game served by `skald serve`, opened in
headless Chromium (Debian's, never a downloaded one), must show its verdict and checks.
CI installs Chromium and sets SKALD_REQUIRE_BROWSER=1, so a missing browser fails there."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import msgspec
import pytest

from skald.core.engine import Engine
from skald.core.store import EventStore
from skald.projections.bots.autoplay import autoplay
from skald.projections.table import Table
from tests.conftest import engine_of
from tests.forgery import forge, write_back
from tests.processes import run as run_process
from tests.servers import free_port, running

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    if os.environ.get("SKALD_REQUIRE_BROWSER"):
        pytest.fail("SKALD_REQUIRE_BROWSER is set but no chromium is installed")
    pytest.skip("no chromium (apt-get install chromium)")


def browse(url: str, profile: Path, screenshot: Path | None = None) -> str:
    """The DOM of `url` after the browser rendered it (and a PNG when asked)."""
    args = [chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}"]
    if screenshot is not None:
        run_process(
            [*args, "--window-size=1200,1400", f"--screenshot={screenshot}", url],
            capture_output=True,
            timeout=120,
            check=True,
        )
    done = run_process(
        [*args, "--dump-dom", url], capture_output=True, text=True, timeout=120, check=True
    )
    return done.stdout


def test_audit_pages_show_their_verdicts(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/page.db"
    store = EventStore(url)
    table = Table(Engine(store))
    clean = autoplay(table, "beowulf", 2, seed="page-clean").id
    doctored = autoplay(table, "beowulf", 2, seed="page-doctored").id
    envelopes = engine_of(table).envelopes(doctored)
    # a forger moves the first figure and recomputes the chain: only the rules notice
    tampered_seq = next(e.seq for e in envelopes if type(e.event).__name__ == "FigurePlaced")
    write_back(
        store,
        forge(
            envelopes,
            tampered_seq,
            lambda placed: msgspec.structs.replace(placed, at="A1" if placed.at != "A1" else "B1"),
        ),
    )
    store.dispose()
    port = free_port()
    server = [sys.executable, "-m", "skald.cli.main", "serve", "--port", str(port), "--db", url]
    with running(server, port, url) as base:
        page = browse(
            f"{base}/games/{clean}/audit?format=html",
            tmp_path / "profile",
            screenshot=tmp_path / "clean.png",
        )
        assert 'id="verdict" class="verdict clean"' in page
        assert "Hash chain" in page
        assert "Rules re-derivation" in page
        assert (tmp_path / "clean.png").stat().st_size > 10_000
        bad = browse(f"{base}/games/{doctored}/audit?format=html", tmp_path / "profile")
        assert 'class="verdict anomalies"' in bad
        assert f"<td>{tampered_seq}</td>" in bad
