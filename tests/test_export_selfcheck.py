"""The HTML export checks itself (Debian's Chromium through Playwright, the page opened from
a file:// path, every other request aborted): "verified" for untouched exports of every
viewer when the store's key is trusted (the page's `#trust=` fragment), naming that key and
no other, and for copies with one byte changed in an event, a revealed value, the signature
or an embedded receipt the same first bad seq and reason as `skald verify --file` on that
file; for random games of every title, the page, the reference script and `skald verify`
agree (also on a random one-byte edit of the record). The forgeries that keep a chain whole
are tests/test_trust_verdicts.py's."""

from __future__ import annotations

import random
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skald.core.fingerprint import key_fingerprint
from skald.events.viewer import REFEREE
from skald.projections.export.selfcheck import SCRIPT
from skald.projections.export.verify_skald import CONSISTENT, VERIFIED
from tests.history_support import viewers
from tests.selfcheck_support import (
    Browser,
    Edit,
    Signed,
    bump,
    cli_verdict,
    edit_event,
    edit_kept_receipt,
    edit_kept_signature,
    edit_revealed_value,
    edit_salt,
    edit_signature,
    edit_time,
    record_of,
    script_verdict,
    signed_games,
    trust_fragment,
    with_record,
)

playwright_api = pytest.importorskip("playwright.sync_api")
CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium")
GOLDEN = Path(__file__).parent.parent / "fixtures" / "annotated"
GAMES = {"beowulf": (31, 30), "beast": (32, 30), "hagar": (33, 24)}
EDITS: dict[str, Edit] = {
    "event": edit_event,
    "revealed value": edit_revealed_value,
    "salt": edit_salt,
    "recorded time": edit_time,
    "signature": edit_signature,
    "kept receipt": edit_kept_receipt,
    "kept receipt's signature": edit_kept_signature,
}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with playwright_api.sync_playwright() as driver:
        opened = Browser(driver)
        try:
            yield opened
        finally:
            opened.browser.close()


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Signed]:
    return signed_games(tmp_path_factory.mktemp, GAMES)


def _same_as_cli(browser: Browser, path: Path, trust: tuple[str, ...] = ()) -> dict[str, Any]:
    """The page's verdict, asserted equal to `skald verify --file` on the same file."""
    words, verdict = browser.verdict(path, trust)
    _, expected, line = cli_verdict(path, trust)
    assert (words, verdict) == (line, expected)
    return verdict


def test_the_script_cannot_end_its_own_element() -> None:
    assert "</script" not in SCRIPT.lower()


@pytest.mark.parametrize("name", ["beast", "beowulf", "hagar"])
def test_golden_pages_verify(browser: Browser, name: str) -> None:
    verdict = _same_as_cli(browser, GOLDEN / f"{name}.html")
    assert (verdict["verdict"], verdict["head"]) == (CONSISTENT, "unsigned")  # built keyless
    assert verdict["commitments"] > 0


@pytest.mark.parametrize("game", sorted(GAMES))
def test_untouched_pages_of_every_viewer_verify(
    tmp_path: Path, browser: Browser, signed: dict[str, Signed], game: str
) -> None:
    played = signed[game]
    key = played.signer.public_key
    for viewer in viewers(played.table, played.id):
        path = tmp_path / f"{viewer.name}.html"
        page = played.export(viewer, "html")
        path.write_text(page, encoding="utf-8")
        words, verdict, shown = browser.read(path, (key_fingerprint(key),))
        assert words.startswith(
            f"{VERIFIED}: the head is signed by {key} ({key_fingerprint(key)}), a key you "
            f"trust; {verdict['events']} events, "
        )
        assert "; extends 2 kept receipts signed by the head's key" in words
        assert verdict["signatures"] == "checked"
        assert ("this viewer may not see" in words) == (not viewer.referee)
        # the key that verified the head, in full, once: no other key stands on the page
        assert shown.count(key) == 1
        assert "Result:" in shown  # the readable part it checked, shown
        _same_as_cli(browser, path, (key,))
        _same_as_cli(browser, path)  # trusting nobody: consistent, naming the same key


@pytest.mark.parametrize("what", sorted(EDITS))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_pages_with_one_byte_changed_name_the_seq_and_reason(
    tmp_path: Path, browser: Browser, signed: dict[str, Signed], game: str, what: str
) -> None:
    page = signed[game].export(REFEREE, "html")
    lines, seq = EDITS[what](record_of(page))
    edited = with_record(page, lines)
    assert len(edited) == len(page)
    assert sum(a != b for a, b in zip(edited, page, strict=True)) == 1
    path = tmp_path / "edited.html"
    path.write_text(edited, encoding="utf-8")
    verdict = _same_as_cli(browser, path, (signed[game].signer.public_key,))
    assert (verdict["ok"], verdict["seq"], verdict["stream"]) == (False, seq, signed[game].id)


@pytest.mark.parametrize("damage", ["cut before the end mark", "a line after it"])
def test_a_page_whose_record_lost_its_end_mark_or_gained_a_line_is_tampered(
    tmp_path: Path, browser: Browser, signed: dict[str, Signed], damage: str
) -> None:
    page = signed["hagar"].export(REFEREE, "html")
    lines = record_of(page)
    damaged = lines[:-1] if damage.startswith("cut") else [*lines, lines[-1]]
    path = tmp_path / "damaged.html"
    path.write_text(with_record(page, damaged), encoding="utf-8")
    verdict = _same_as_cli(browser, path)
    reason = "no end mark" if damage.startswith("cut") else "follows the end mark"
    assert (verdict["ok"], verdict["stream"]) == (False, signed["hagar"].id)
    assert reason in verdict["reason"]


def _random_edit(page: str, rnd: random.Random) -> str:
    """`page` with one letter or digit of its embedded record changed."""
    start = page.index('id="skald-record">') + len('id="skald-record">')
    end = page.index("</script>", start)
    candidates = [i for i in range(start, end) if page[i].isascii() and page[i].isalnum()]
    at = rnd.choice(candidates)
    # an edit inside an escape (\u0026) may break the record's JSON: every verifier then
    # says it is not a Skald export
    return page[:at] + bump(page[at]) + page[at + 1 :]


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    game=st.sampled_from(sorted(GAMES)),
    seed=st.integers(0, 10_000),
    decisions=st.integers(3, 40),
    seat=st.integers(-1, 2),
    edit=st.booleans(),
)
def test_page_script_and_cli_agree_on_random_games(
    browser: Browser, game: str, seed: int, decisions: int, seat: int, edit: bool
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        played = Signed(Path(folder), game, seed, decisions)
        everyone = viewers(played.table, played.id)
        page = played.export(everyone[seat + 1], "html")
        if edit:
            page = _random_edit(page, random.Random(seed))
        path = Path(folder) / "game.html"
        path.write_text(page, encoding="utf-8")
        verdict = _same_as_cli(browser, path)
        code, line = script_verdict(path, bare=False)
        assert line == browser.verdict(path)[0]
        assert code == (0 if verdict["ok"] else 1 if verdict["export"] else 3)
        if not edit:
            assert verdict["verdict"] == CONSISTENT


def test_a_browser_without_ed25519_says_the_signatures_went_unchecked(
    tmp_path: Path, browser: Browser, signed: dict[str, Signed]
) -> None:
    path = tmp_path / "game.html"
    path.write_text(signed["hagar"].export(REFEREE, "html"), encoding="utf-8")
    key = signed["hagar"].signer.public_key
    page = browser.context.new_page()
    # the page as an older browser runs it: Web Crypto without the Ed25519 algorithm
    page.add_init_script(
        """const importKey = crypto.subtle.importKey.bind(crypto.subtle);
        crypto.subtle.importKey = (format, key, algorithm, ...rest) =>
          algorithm && algorithm.name === "Ed25519"
            ? Promise.reject(new DOMException("no Ed25519", "NotSupportedError"))
            : importKey(format, key, algorithm, ...rest);"""
    )
    try:
        page.goto(path.as_uri() + trust_fragment((key,)))
        shown = page.locator("#skald-verdict[data-verdict]")
        shown.wait_for(timeout=30_000)
        words = shown.inner_text()
    finally:
        page.close()
    _, verdict, line = cli_verdict(path, (key,))
    assert (verdict["signatures"], verdict["verdict"]) == ("checked", VERIFIED)
    # a head whose signature could not be checked is never verified, whoever it names
    unchecked = CONSISTENT + line.removeprefix(VERIFIED).replace(", a key you trust", "")
    assert words == (
        f"{unchecked}; not checked: signatures (this browser has no Ed25519: run verify_skald.py)"
    )
