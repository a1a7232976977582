"""The verifiers check every seat signature from the export alone: the reference script
(`python3 -I`), `skald verify --file` and the HTML page's check. A record in which the store
altered a seat-signed decision and re-signed the whole record with its own key is named at
that decision, with the seat; the untouched one says how many decisions each seat's own key
signed."""

from __future__ import annotations

import random
import re
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from skald.core.engine import Engine
from skald.core.identity import sign_decision
from skald.core.signing import open_signer
from skald.core.store import EventStore
from skald.events.common import MoveMade
from skald.events.viewer import REFEREE
from skald.projections.bots.autoplay import greedy_bot, play_out
from skald.projections.table import Table
from tests.cli_support import skald
from tests.forgery import forge, write_back
from tests.selfcheck_support import CHROMIUM, Browser

playwright_api = pytest.importorskip("playwright.sync_api")
SCRIPT = Path(__file__).resolve().parent.parent / "projections" / "export" / "verify_skald.py"


def _played(folder: Path) -> tuple[Table, str]:
    store = EventStore(f"sqlite:///{folder / 'skald.db'}")
    signer = open_signer(store, folder / "skald.db.key")
    table = Table(Engine(store), signer)
    game = table.create("beowulf", ("Ann", "Bob"), seed="seat-verify", reproducible=True)
    ann = secrets.token_bytes(32)
    for _ in range(8):
        seat = table.turn(game).to_act[0]
        legal = table.legal_now(game, seat)
        move = legal.moves[0]
        signing = None
        if seat == 0:
            register = 0 not in dict(legal.keys)
            signing = sign_decision(ann, game, 0, legal.seq, legal.head, "move", move, register)
        table.move(game, seat, move, signing=signing)
    play_out(table, game, greedy_bot, random.Random(1), started_by="the organiser")
    return table, game


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.skip("no /usr/bin/chromium")
    with playwright_api.sync_playwright() as driver:
        opened = Browser(driver)
        yield opened
        opened.browser.close()


def _script(path: Path, *trust: str) -> str:
    args = [a for key in trust for a in ("--trust", key)]
    ran = subprocess.run(
        [sys.executable, "-I", str(SCRIPT), *args, str(path)], capture_output=True, text=True
    )
    return ran.stdout + ran.stderr


def test_the_verifiers_count_each_seats_signed_decisions(tmp_path: Path, browser: Browser) -> None:
    table, game = _played(tmp_path)
    path = tmp_path / "game.jsonl"
    path.write_text(table.histories().export(game, REFEREE, "jsonl"), encoding="utf-8")
    said = _script(path)
    assert "consistent" in said
    found = re.search(r"Ann: (\d+) decisions, (\d+) signed by the seat's own key", said)
    assert found is not None, said
    assert 0 < int(found.group(2)) < int(found.group(1))  # the bot's decisions are not hers
    assert "Bob: " in said
    assert re.search(r"Bob: \d+ decisions, 0 signed", said)
    _, out, err = skald("verify", "--file", str(path))
    assert found.group(0) in out + err
    page = tmp_path / "game.html"
    page.write_text(table.histories().export(game, REFEREE, "html"), encoding="utf-8")
    words, verdict = browser.verdict(page)
    assert found.group(0) in words, words
    assert verdict["seats"]["Ann"]["signed"] == int(found.group(2))


def test_a_seat_signed_decision_altered_and_re_signed_is_named(
    tmp_path: Path, browser: Browser
) -> None:
    """The store changes Ann's first signed move, re-hashes and re-signs the record with its
    own key: the chain and the head's signature hold, her signature does not."""
    table, game = _played(tmp_path)
    store = table._engine.store
    log = list(table.log(game, table.viewer(game, "referee")))
    first = next(e.seq for e in log if isinstance(e.event, MoveMade) and e.event.signed)
    doctored = forge(log, first, lambda event: msgspec.structs.replace(event, move="pass"))
    write_back(store, doctored)
    table._engine.forget(game)
    path = tmp_path / "doctored.jsonl"
    path.write_text(table.histories().export(game, REFEREE, "jsonl"), encoding="utf-8")
    said = _script(path)
    assert said.startswith("tampered / not whole at seq"), said
    assert f"at seq {first}" in said
    assert "Ann" in said
    code, out, err = skald("verify", "--file", str(path))
    assert code == 1
    assert f"at seq {first}" in out + err
    assert "Ann" in out + err
    page = tmp_path / "doctored.html"
    page.write_text(table.histories().export(game, REFEREE, "html"), encoding="utf-8")
    words, _ = browser.verdict(page)
    assert words.startswith(f"tampered / not whole at seq {first}"), words
    assert "Ann" in words
