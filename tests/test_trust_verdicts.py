"""Verdicts against the keys a reader trusts, on forgeries that keep every chain whole, by
all three verifiers: the HTML page's own check (Chromium, opened from file://, offline,
`#trust=` in its address), the reference script (under `python3 -I`, and under a bare
`python3 -I -S` without an Ed25519 library) and `skald verify --file`; jsonl and HTML alike.

The genuine store key is trusted throughout. A careful forger re-hashes what it changed and
re-signs (or drops the signature), and re-seals the page: none of its files reads
"verified"; each says "consistent, but not signed by a key you trust" or "tampered / not
whole", and names the key that really signed the head (or says it is unsigned). The
untouched record reads "verified", naming the trusted key; trusting nothing, "consistent",
naming the same key."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from skald.core.engine import Engine
from skald.core.fingerprint import key_fingerprint
from skald.core.signing import Receipt, Signer, open_signer
from skald.core.store import EventStore
from skald.events.viewer import REFEREE
from skald.projections.export import selfcheck
from skald.projections.export.verify_skald import CONSISTENT, TAMPERED, VERIFIED
from skald.projections.table import Table
from tests.cli_support import skald
from tests.history_support import annotated_game
from tests.selfcheck_support import (
    CHROMIUM,
    VERIFIER,
    Browser,
    cli_verdict,
    game_head,
    lines_of,
    record_of,
    rehash_game,
    resealed,
    script_verdict,
    with_check,
    with_end,
    with_kept,
)

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium")
KEPT_AT = (20, 40)  # where the players kept receipts: after the early move a forger changes
RESULT = re.compile(r'(<p class="result"><b>Result:</b> )([^<]*)(</p>)')


class Played:
    """A finished, annotated Beowulf game in a signed store; receipts two players kept at
    KEPT_AT; and a forger's key of its own."""

    def __init__(self, folder: Path) -> None:
        store = EventStore(f"sqlite:///{folder / 'skald.db'}")
        self.signer: Signer = open_signer(store, folder / "skald.db.key")
        self.table = Table(Engine(store), self.signer)
        self.id = annotated_game(self.table, "beowulf", 7, 10_000)
        records = store.read(self.id)
        assert records[-1].kind == "skald.game_finished"
        self.kept: list[Receipt] = [
            self.signer.receipt(self.id, seq, records[seq - 1].hash) for seq in KEPT_AT
        ]
        self.forger = Signer(folder / "forger.key")
        self.jsonl = self.table.histories().export(
            self.id, REFEREE, "jsonl", kept_receipts=self.kept
        )
        self.html = self.table.histories().export(self.id, REFEREE, "html", kept_receipts=self.kept)

    def receipts_by(self, signer: Signer, lines: list[str]) -> list[Receipt]:
        """Receipts at KEPT_AT of the record `lines`, signed by `signer`."""
        hashes = {seq: head for seq, head in _hashes(lines)}
        return [signer.receipt(self.id, seq, hashes[seq]) for seq in KEPT_AT]


def _hashes(lines: list[str]) -> list[tuple[int, str]]:
    game = json.loads(lines[0])["id"]
    envelopes = [json.loads(line) for line in lines[1:]]
    return [(env["seq"], env["hash"]) for env in envelopes if env.get("stream") == game]


def _first_move(lines: list[str]) -> int:
    """The seq of the game's first decision whose move everyone sees."""
    game = json.loads(lines[0])["id"]
    for line in lines[1:]:
        envelope = json.loads(line)
        if envelope.get("stream") == game and envelope["event"].get("move"):
            assert envelope["seq"] < KEPT_AT[0]
            return int(envelope["seq"])
    raise AssertionError("no public move")


def _result(html: str, text: str) -> str:
    """The page with its readable result (the text after 'Result:') replaced by `text`."""
    edited, found = RESULT.subn(lambda m: m.group(1) + text + m.group(3), html)
    assert found == 1
    return edited


Forged = tuple[list[str] | None, str]
"""A forger's record (None: only the page was touched) and page."""


@dataclass(frozen=True)
class Forgery:
    """How a forger changed a file, what every verifier must say, and who signed the head."""

    forge: Callable[[Played], Forged]
    verdict: str
    signer: str  # "genuine", "forger" or "unsigned": who really signed the forged head


def _swap_result(played: Played) -> Forged:
    lines = lines_of(played.jsonl)
    _, last, _ = game_head(lines)

    def reverse(event: dict[str, Any]) -> None:
        event["outcome"]["ranking"].reverse()
        event["outcome"]["scores"].reverse()

    forged = with_end(rehash_game(lines, reverse, at=last), None)
    assert forged != lines
    genuine = RESULT.search(played.html)
    assert genuine is not None
    said = genuine.group(2)
    swapped = said.replace("Ann", "\0").replace("Bob", "Ann").replace("\0", "Bob")
    assert swapped != said
    return forged, resealed(_result(played.html, swapped), forged, None)


def _resign(played: Played) -> Forged:
    forged = with_end(lines_of(played.jsonl), played.forger)
    return forged, resealed(played.html, forged, played.forger)


def _resign_receipts_too(played: Played) -> Forged:
    lines = with_end(lines_of(played.jsonl), played.forger)
    forged = with_kept(lines, played.receipts_by(played.forger, lines))
    return forged, resealed(played.html, forged, played.forger)


def _cut_short(played: Played) -> Forged:
    lines = lines_of(played.jsonl)
    _, last, _ = game_head(lines)
    forged = with_end(rehash_game(lines, until=last - 30), played.forger)
    return forged, resealed(played.html, forged, played.forger)


def _early_move(played: Played) -> Forged:
    lines = lines_of(played.jsonl)

    def other_move(event: dict[str, Any]) -> None:
        event["move"] = "place thane A1" if event["move"] != "place thane A1" else "pass"

    forged = with_end(rehash_game(lines, other_move, at=_first_move(lines)), played.forger)
    return forged, resealed(played.html, forged, played.forger)


def _readable_text(played: Played) -> Forged:
    return None, _result(played.html, "winner Ann")


def _check_edited(played: Played) -> Forged:
    edited = selfcheck.SCRIPT.replace("Check against a key", "Check it against a key")
    assert edited != selfcheck.SCRIPT
    return None, with_check(played.html, edited)


FORGERIES = {
    "result swapped, re-hashed, unsigned end": Forgery(_swap_result, CONSISTENT, "unsigned"),
    "re-signed with another key": Forgery(_resign, CONSISTENT, "forger"),
    "re-signed, kept receipts too": Forgery(_resign_receipts_too, CONSISTENT, "forger"),
    "cut short with an own-signed end": Forgery(_cut_short, CONSISTENT, "forger"),
    "an early move changed, re-hashed, re-signed": Forgery(_early_move, TAMPERED, "forger"),
    "readable text edited": Forgery(_readable_text, TAMPERED, "genuine"),
    "self-check edited with its CSP hash": Forgery(_check_edited, TAMPERED, "genuine"),
}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return Played(tmp_path_factory.mktemp("trust"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with playwright_api.sync_playwright() as driver:
        opened = Browser(driver)
        try:
            yield opened
        finally:
            opened.browser.close()


def _named(signer: Signer, trusted: bool) -> str:
    key = signer.public_key
    return f"{key} ({key_fingerprint(key)}), {'a' if trusted else 'not a'} key you trust"


def _verdicts(browser: Browser, path: Path, trust: tuple[str, ...]) -> dict[str, tuple[str, str]]:
    """Every verifier's verdict and words on `path` (the page's only on a page)."""
    code, verdict, line = cli_verdict(path, trust)
    assert code == (0 if verdict["verdict"] == VERIFIED else 1)
    said = {"skald verify --file": (verdict["verdict"], line)}
    script_code, script_line = script_verdict(path, bare=False, trust=trust)
    assert (script_code, script_line) == (code, line)
    said["verify_skald.py under python3 -I"] = (verdict["verdict"], script_line)
    bare_code, bare_line = script_verdict(path, bare=True, trust=trust)
    headline = next(said for said in (VERIFIED, CONSISTENT, TAMPERED) if bare_line.startswith(said))
    said["verify_skald.py under python3 -I -S"] = (headline, bare_line)
    assert bare_code == 1  # no signature checked: never verified
    if path.suffix == ".html":
        words, page = browser.verdict(path, trust)
        assert (words, page) == (line, verdict)
        said["the page"] = (page["verdict"], words)
    return said


@pytest.mark.parametrize("name", list(FORGERIES))
def test_no_forgery_reads_verified_and_each_names_the_real_signer(
    tmp_path: Path, browser: Browser, played: Played, name: str
) -> None:
    forgery = FORGERIES[name]
    lines, page = forgery.forge(played)
    files = {"forged.html": page}
    if lines is not None:
        files["forged.jsonl"] = "\n".join(lines) + "\n"
        assert record_of(page) == lines  # the page carries the same forged record
    trust = (played.signer.public_key,)
    signer = {"genuine": played.signer, "forger": played.forger, "unsigned": None}[forgery.signer]
    for file, text in files.items():
        path = tmp_path / file
        path.write_text(text, encoding="utf-8")
        for verifier, (verdict, words) in _verdicts(browser, path, trust).items():
            where = f"{name}, {file}, {verifier}: {words}"
            assert verdict == forgery.verdict, where
            assert not words.startswith(VERIFIED), where
            bare = verifier.endswith("-S")  # without Ed25519: the key named, not weighed
            if signer is None:
                assert "; the head is unsigned" in words or ": the head is unsigned;" in words
            elif bare:
                assert f"the head is signed by {signer.public_key} (" in words, where
            else:
                said = _named(signer, trusted=signer is played.signer)
                assert f"the head is signed by {said}" in words, where
            if signer is not played.signer:  # never the trusted key for another's signature
                assert f"the head is signed by {played.signer.public_key}" not in words, where


def test_what_each_forgery_is_called(tmp_path: Path, played: Played) -> None:
    """The reasons, through `skald verify --file` (the other verifiers say the same words)."""
    trust = (played.signer.public_key,)
    said = {}
    for name in ("readable text edited", "self-check edited with its CSP hash"):
        path = tmp_path / f"{len(said)}.html"
        path.write_text(FORGERIES[name].forge(played)[1], encoding="utf-8")
        said[name] = cli_verdict(path, trust)[2]
    genuine = _named(played.signer, trusted=True)
    assert said == {
        "readable text edited": f"{TAMPERED}: the page's readable part was changed after it "
        f"was sealed; the head is signed by {genuine}",
        "self-check edited with its CSP hash": f"{TAMPERED}: the page's self-check was "
        f"changed after it was sealed; the head is signed by {genuine}",
    }
    path = tmp_path / "moved.jsonl"
    path.write_text("\n".join(_early_move(played)[0] or []) + "\n", encoding="utf-8")
    line = cli_verdict(path, trust)[2]
    assert line.startswith(
        f"{TAMPERED} at seq {KEPT_AT[0]}: the record does not extend kept receipt 1: "
    )
    path = tmp_path / "receipts.jsonl"
    path.write_text("\n".join(_resign_receipts_too(played)[0] or []) + "\n", encoding="utf-8")
    line = cli_verdict(path, trust)[2]
    forger = _named(played.forger, trusted=False)
    assert line.startswith(f"{CONSISTENT}: the head is signed by {forger}; ")
    assert line.endswith("; extends 2 kept receipts signed by the head's key")
    path = tmp_path / "resigned.jsonl"
    path.write_text("\n".join(_resign(played)[0] or []) + "\n", encoding="utf-8")
    line = cli_verdict(path, trust)[2]
    assert line.endswith(f"; extends 2 kept receipts signed by {genuine}")  # counted by key


@pytest.mark.parametrize("suffix", ["html", "jsonl"])
def test_the_untouched_record_is_verified_by_the_trusted_key_and_consistent_trusting_none(
    tmp_path: Path, browser: Browser, played: Played, suffix: str
) -> None:
    path = tmp_path / f"game.{suffix}"
    path.write_text(played.html if suffix == "html" else played.jsonl, encoding="utf-8")
    for trust, verdict, named in (
        ((played.signer.public_key,), VERIFIED, _named(played.signer, trusted=True)),
        ((key_fingerprint(played.signer.public_key),), VERIFIED, _named(played.signer, True)),
        ((), CONSISTENT, _named(played.signer, trusted=False)),
        ((played.forger.public_key,), CONSISTENT, _named(played.signer, trusted=False)),
    ):
        for verifier, (said, words) in _verdicts(browser, path, trust).items():
            if verifier.endswith("-S"):  # without Ed25519 nothing is verified
                assert said == CONSISTENT, words
                continue
            assert said == verdict, (verifier, words)
            assert words.startswith(f"{verdict}: the head is signed by {named}; "), words
            assert "extends 2 kept receipts signed by the head's key" in words


def test_a_check_rewritten_to_lie_fools_only_the_page(
    tmp_path: Path, browser: Browser, played: Played
) -> None:
    """Why the page says that a file can be edited together with its own check: a forger who
    rewrites the check can make the page say anything. The independent verifiers read the
    same file and say what was changed."""
    lie = "verified: the head is signed by the club's key"
    script = (
        '"use strict";(() => { const shown = document.getElementById("skald-verdict");'
        f'shown.textContent = "{lie}"; shown.dataset.verdict = "{{}}"; }})();'
    )
    page = with_check(_result(played.html, "winner Bob"), script)
    path = tmp_path / "lying.html"
    path.write_text(page, encoding="utf-8")
    trust = (played.signer.public_key,)
    assert browser.verdict(path, trust)[0] == lie  # the page cannot tell: it says so itself
    line = cli_verdict(path, trust)[2]
    assert line.startswith(f"{TAMPERED}: the page's readable part was changed after it was sealed")
    assert script_verdict(path, bare=False, trust=trust)[1] == line
    assert selfcheck.HONEST.replace("`", "") in browser.read(path, trust)[2]
    assert skald("verify", "--file", str(path), "--trust", trust[0])[0] == 1


def test_a_trust_file_lists_the_keys_one_trusts(tmp_path: Path, played: Played) -> None:
    path = tmp_path / "game.html"
    path.write_text(played.html, encoding="utf-8")
    listed = tmp_path / "club.keys"
    listed.write_text(
        f"# our club's key, as the lobby shows it\n\n{key_fingerprint(played.signer.public_key)}\n"
        f"{played.forger.public_key}\n",
        encoding="utf-8",
    )
    code, line, _ = skald("verify", "--file", str(path), "--trust-file", str(listed))
    assert code == 0
    assert line.startswith(f"{VERIFIED}: the head is signed by {_named(played.signer, True)}; ")
    assert script_verdict(path, bare=False)[0] == 1  # trusting nobody
    run = subprocess.run(
        [sys.executable, "-I", str(VERIFIER), "--trust-file", str(listed), str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (run.returncode, run.stdout.strip()) == (0, line.strip())


def test_the_pages_box_checks_against_a_key(
    tmp_path: Path, browser: Browser, played: Played
) -> None:
    path = tmp_path / "game.html"
    path.write_text(played.html, encoding="utf-8")
    page = browser.context.new_page()
    try:
        page.goto(path.as_uri())
        shown = page.locator("#skald-verdict[data-verdict]")
        shown.wait_for(timeout=30_000)
        assert shown.inner_text().startswith(f"{CONSISTENT}: ")
        page.fill("#skald-trust", "not a key")
        page.get_by_role("button", name="Check").click()
        page.get_by_text("neither a key nor a fingerprint: not a key").wait_for()
        page.fill("#skald-trust", key_fingerprint(played.signer.public_key))
        page.get_by_role("button", name="Check").click()
        page.locator("#skald-verdict", has_text=f"{VERIFIED}: ").wait_for()
        assert shown.inner_text().startswith(
            f"{VERIFIED}: the head is signed by {_named(played.signer, True)}; "
        )
        page.fill("#skald-trust", played.forger.public_key)
        page.keyboard.press("Enter")
        page.locator("#skald-verdict", has_text=f"{CONSISTENT}: ").wait_for()
        # the address's fragment counts too, and a change of it checks again
        page.evaluate(f"location.hash = 'trust={played.signer.public_key}'")
        page.locator("#skald-verdict", has_text=f"{VERIFIED}: ").wait_for()
        assert page.locator("#skald-shown li.move").count() > 10  # drawn once, kept
    finally:
        page.close()
    assert browser.requests == []
