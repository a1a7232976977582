"""The store's key, to compare aloud: its fingerprint is stable and made of hex groups and
words from the one list (the same list in Skald, the reference script and the page's check);
every verifier takes a key in hex or its fingerprint, in any spelling, and refuses anything
else; a real `skald serve` prints it when it starts, answers it at `GET /key`, and its lobby
shows it in Chromium."""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from skald.core.fingerprint import WORDS, key_fingerprint, trust_entry_problem
from skald.core.signing import Signer
from skald.projections.export import verify_skald
from skald.projections.export.selfcheck import SCRIPT
from tests.browser_support import chromium, local_context, served_skald
from tests.cli_support import one_line, skald
from tests.selfcheck_support import VERIFIER
from tests.servers import Server

KEY = "3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29"
"""RFC 8032's second test key (its public half): a fixed key whose fingerprint never changes."""


def test_a_fingerprint_is_stable_hex_groups_then_words_from_the_list() -> None:
    printed = key_fingerprint(KEY)
    assert printed == "139e 3940 e64b 5491 jaguar button lotus stamp"  # as published, forever
    groups, words = printed.split()[:4], printed.split()[4:]
    assert all(re.fullmatch(r"[0-9a-f]{4}", group) for group in groups)
    assert len(words) == 4
    assert set(words) <= set(WORDS)
    assert verify_skald.fingerprint(KEY) == printed  # the reference script's, byte for byte
    assert key_fingerprint(KEY.upper()) == printed
    other = key_fingerprint(KEY[:-1] + "8")
    assert other != printed
    assert other.split()[:4] != groups


def test_the_word_list_is_one_list_in_skald_the_script_and_the_page() -> None:
    assert len(WORDS) == 256
    assert len(set(WORDS)) == 256
    assert all(re.fullmatch(r"[a-z]{3,7}", word) for word in WORDS)
    # none could be read as a group of hex digits
    assert not [word for word in WORDS if re.fullmatch(r"[a-f]+", word)]
    assert tuple(verify_skald.WORDS) == WORDS
    listed = re.search(r"const WORDS = \(\n(.*?)\n  \)\.split", SCRIPT, re.S)
    assert listed is not None
    in_page = "".join(re.findall(r'"([^"]*)"', listed.group(1))).split(" ")
    assert tuple(in_page) == WORDS


@pytest.mark.parametrize(
    "entry",
    [
        KEY,
        KEY.upper(),
        key_fingerprint(KEY),
        key_fingerprint(KEY).upper().replace(" ", "-"),
        "  " + key_fingerprint(KEY).replace(" ", "  ") + " ",
    ],
)
def test_a_key_or_its_fingerprint_in_any_spelling_is_trusted(entry: str) -> None:
    assert trust_entry_problem(entry) == ""
    assert verify_skald.trusted([entry]) <= {KEY, key_fingerprint(KEY)}


@pytest.mark.parametrize(
    "entry",
    [
        KEY[:-2],  # a key cut short
        " ".join(key_fingerprint(KEY).split()[:4]),  # the hex groups alone
        key_fingerprint(KEY).rsplit(" ", 1)[0] + " zyzzyva",  # a word not on the list
        "ann's key",
        "",
    ],
)
def test_anything_else_is_refused_by_every_verifier(tmp_path: Path, entry: str) -> None:
    assert trust_entry_problem(entry) != ""
    with pytest.raises(ValueError, match="neither a key"):
        verify_skald.trusted([entry])
    export = Path(__file__).parent.parent / "fixtures" / "annotated" / "hagar.jsonl"
    code, _, error = skald("verify", "--file", str(export), "--trust", entry)
    assert code == 2
    assert "neither a key (64 hex digits) nor a fingerprint" in one_line(error)
    script = subprocess.run(
        ["python3", "-I", "-S", str(VERIFIER), "--trust", entry, str(export)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert script.returncode == 2
    assert "neither a key (64 hex digits) nor a fingerprint" in script.stderr
    listed = tmp_path / "trusted.txt"
    listed.write_text(f"# the club's keys\n{KEY}\n\n{entry}\n", encoding="utf-8")
    assert skald("verify", "--file", str(export), "--trust-file", str(listed))[0] == (
        2 if entry else 1  # a blank line is no entry: the file trusts KEY alone
    )


def test_trust_goes_with_an_export_only() -> None:
    code, _, error = skald("verify", "some-game", "--trust", KEY)
    assert code == 2
    assert "--trust and --trust-file go with --file" in one_line(error)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with served_skald(tmp_path_factory, "key-server") as running:
        yield running


def _store_key() -> str:
    # the tests' signing key (conftest sets SKALD_SIGNING_KEY); the server loaded it
    return Signer(os.environ["SKALD_SIGNING_KEY"], create=False).public_key


def test_serve_prints_the_keys_fingerprint_and_get_key_answers_it(server: Server) -> None:
    key = _store_key()
    printed = server.log.read_text(encoding="utf-8").splitlines()
    assert f"signing key {key}" in printed
    assert f"fingerprint {key_fingerprint(key)}" in printed
    answer = httpx.get(f"{server.base}/key", timeout=10)
    assert answer.status_code == 200
    assert answer.json() == {"public_key": key, "fingerprint": key_fingerprint(key)}


def test_the_lobby_shows_the_keys_fingerprint(server: Server) -> None:
    key = _store_key()
    with chromium() as browser:
        context: Any = local_context(browser, server)
        try:
            page = context.new_page()
            page.goto("/")
            shown = page.locator("#key-fingerprint")
            shown.filter(has_text=key_fingerprint(key)).wait_for()
            assert shown.inner_text() == key_fingerprint(key)
            assert page.locator("#key-hex").inner_text() == key
            assert page.locator("#store-key").is_visible()
        finally:
            context.close()
