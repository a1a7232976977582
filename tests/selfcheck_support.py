"""Exports that verify themselves, for the reference-verifier and self-check tests: signed
annotated games with receipts players kept, one-byte edits of an export's record, and the
three verdicts on a file (`skald verify --file`, the reference script, the page itself)."""

from __future__ import annotations

import base64
import hashlib
import json
import random
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import msgspec

from skald.core.engine import Engine
from skald.core.signing import Receipt, Signer, open_signer
from skald.core.store import EventStore
from skald.events.viewer import Viewer
from skald.projections.export import selfcheck
from skald.projections.export import verify_skald as reference
from skald.projections.table import Table
from tests.cli_support import skald
from tests.history_support import annotated_game

VERIFIER = Path(__file__).parent.parent / "projections" / "export" / "verify_skald.py"
HEX = "0123456789abcdef"
GENESIS = "0" * 64


class Signed:
    """A signed, annotated game in a fresh store, and receipts kept at some of its seqs."""

    def __init__(self, folder: Path, game: str, seed: int, decisions: int) -> None:
        store = EventStore(f"sqlite:///{folder / 'skald.db'}")
        self.signer: Signer = open_signer(store, folder / "skald.db.key")
        self.table = Table(Engine(store), self.signer)
        self.id = annotated_game(self.table, game, seed, decisions)
        records = store.read(self.id)
        rnd = random.Random(seed)
        seqs = sorted(rnd.sample(range(1, len(records) + 1), min(2, len(records))))
        self.kept: list[Receipt] = [
            self.signer.receipt(self.id, seq, records[seq - 1].hash) for seq in seqs
        ]

    def export(self, viewer: Viewer, format: str, kept: list[Receipt] | None = None) -> str:
        """The game's export for `viewer`, the kept receipts embedded."""
        receipts = self.kept if kept is None else kept
        return self.table.histories().export(self.id, viewer, format, kept_receipts=receipts)


def signed_games(
    folders: Callable[[str], Path], games: dict[str, tuple[int, int]]
) -> dict[str, Signed]:
    """A signed game of each title: `games` maps it to its seed and number of decisions,
    each in its own folder (`folders(title)`)."""
    return {game: Signed(folders(game), game, seed, n) for game, (seed, n) in games.items()}


# -- one-byte edits of an export's record (a list of its jsonl lines) --------------------


def bump(char: str) -> str:
    """Another character of the same kind: a digit a digit, a hex letter a hex letter, any
    other letter a letter (so a number, a hex string, a name stays one)."""
    if char.isdigit():
        return str((int(char) + 1) % 10)
    if char in HEX:
        return HEX[10 + (HEX.index(char) - 9) % 6]
    base = "a" if char.islower() else "A"
    return chr((ord(char) - ord(base) + 1) % 26 + ord(base))


def _bump_at(line: str, index: int) -> str:
    return line[:index] + bump(line[index]) + line[index + 1 :]


def _first_in_value(line: str, start: int) -> int:
    """The first letter inside a string, or digit, at or after `start`: changing it keeps
    the JSON valid (a letter of `true` or `null` would not)."""
    in_string, escaped = False, False
    for index in range(start, len(line)):
        char = line[index]
        if in_string and not escaped and char == '"':
            in_string = False
        elif not in_string and char == '"':
            in_string = True
        elif (in_string and char.isalnum() and not escaped) or (not in_string and char.isdigit()):
            return index
        escaped = in_string and char == "\\" and not escaped
    raise AssertionError(f"nothing to change after {start} in {line[:80]}")


Edit = Callable[[list[str]], tuple[list[str], int]]
"""An edit of the record's lines: the edited lines and the seq it must be found at."""


def _game_lines(lines: list[str]) -> list[tuple[int, dict[str, Any]]]:
    header = json.loads(lines[0])
    return [
        (index, envelope)
        for index, line in enumerate(lines)
        if index and (envelope := json.loads(line)).get("stream") == header["id"]
    ]


def edit_event(lines: list[str]) -> tuple[list[str], int]:
    """A letter of the event type of the game's middle event."""
    game = _game_lines(lines)
    index, envelope = game[len(game) // 2]
    at = lines[index].index('"event":{"type":"') + len('"event":{"type":"')
    return [*lines[:index], _bump_at(lines[index], at), *lines[index + 1 :]], envelope["seq"]


def edit_revealed_value(lines: list[str]) -> tuple[list[str], int]:
    """A character of the last revealed hidden value of the game's stream."""
    for index, envelope in reversed(_game_lines(lines)):
        line = lines[index]
        salted = [p for p in range(len(line)) if line.startswith('","value":', p)]
        for position in salted:
            tail = line[position + len('","value":') :]
            if not tail.startswith("null"):
                at = _first_in_value(line, position + len('","value":'))
                return [*lines[:index], _bump_at(line, at), *lines[index + 1 :]], envelope["seq"]
    raise AssertionError("no revealed value in the game")


def edit_time(lines: list[str]) -> tuple[list[str], int]:
    """The last digit of the middle game event's recorded time (still a valid time)."""
    game = _game_lines(lines)
    index, envelope = game[len(game) // 2]
    line = lines[index]
    at = line.index('","actor":') - 2  # the last digit of the seconds, before the "Z"
    return [*lines[:index], _bump_at(line, at), *lines[index + 1 :]], envelope["seq"]


def edit_salt(lines: list[str]) -> tuple[list[str], int]:
    """A hex digit of the first revealed salt of the game's stream (still hex)."""
    for index, envelope in _game_lines(lines):
        if '"salt":"' in lines[index]:
            at = lines[index].index('"salt":"') + len('"salt":"')
            return [*lines[:index], _bump_at(lines[index], at), *lines[index + 1 :]], envelope[
                "seq"
            ]
    raise AssertionError("no revealed salt in the game")


def _edit_receipt(key: str, field: str, offset: int) -> Edit:
    def edit(lines: list[str]) -> tuple[list[str], int]:
        index = next(i for i, line in enumerate(lines) if line.startswith(f'{{"{key}":'))
        line = lines[index]
        at = line.index(f'"{field}":"') + len(f'"{field}":"') + offset
        return [*lines[:index], _bump_at(line, at), *lines[index + 1 :]], json.loads(line)[key][
            "seq"
        ]

    return edit


edit_signature = _edit_receipt("receipt", "signature", 9)
edit_kept_receipt = _edit_receipt("kept_receipt", "head", 5)
edit_kept_signature = _edit_receipt("kept_receipt", "signature", 20)


def lines_of(jsonl: str) -> list[str]:
    """The lines of a jsonl export."""
    return jsonl.removesuffix("\n").split("\n")


def with_record(html: str, lines: list[str]) -> str:
    """The HTML page `html` with its embedded record replaced by `lines`."""
    start = html.index('<script type="application/json" id="skald-record">')
    end = html.index("</script>", start) + len("</script>")
    return html[:start] + selfcheck.record_html("\n".join(lines) + "\n") + html[end:]


def record_of(html: str) -> list[str]:
    """The lines of the record an HTML export embeds."""
    start = html.index('id="skald-record">') + len('id="skald-record">')
    lines: list[str] = json.loads(html[start : html.index("</script>", start)])
    return lines


# -- the three verdicts on one file ------------------------------------------------------


def trust_args(trust: Sequence[str]) -> list[str]:
    """`--trust KEY` for each key or fingerprint trusted."""
    return [arg for key in trust for arg in ("--trust", key)]


def cli_verdict(path: Path, trust: Sequence[str] = ()) -> tuple[int, dict[str, Any], str]:
    """`skald verify --file` (trusting `trust`): exit code, verdict (--json) and its line."""
    code, out, _ = skald("verify", "--file", str(path), *trust_args(trust), "--json")
    again, text, error = skald("verify", "--file", str(path), *trust_args(trust))
    assert again == code
    return code, json.loads(out), (text or error).strip()


def script_verdict(path: Path, bare: bool, trust: Sequence[str] = ()) -> tuple[int, str]:
    """The reference script run on `path` (trusting `trust`): under a bare `python3 -I -S`
    (standard library only, no site packages) or this interpreter (PyNaCl installed). Exit
    code and line."""
    python = ["python3", "-I", "-S"] if bare else [sys.executable, "-I"]
    done = subprocess.run(
        [*python, str(VERIFIER), *trust_args(trust), str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stderr == "", done.stderr
    return done.returncode, done.stdout.strip()


def trust_fragment(trust: Sequence[str]) -> str:
    """The page address's fragment that trusts `trust` (`#trust=…&trust=…`)."""
    return "#" + urlencode([("trust", key) for key in trust]) if trust else ""


# -- the page's own verdict, in Chromium ----------------------------------------------------

CHROMIUM = Path("/usr/bin/chromium")


class Browser:
    """One Chromium for the module; every request but the file opened is aborted (and
    remembered, so a test can say none was made)."""

    def __init__(self, driver: Any) -> None:
        self.browser = driver.chromium.launch(executable_path=str(CHROMIUM))
        self.context = self.browser.new_context()
        self.requests: list[str] = []
        self.context.route("**/*", self._route)

    def _route(self, route: Any) -> None:
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            self.requests.append(route.request.url)
            route.abort()

    def verdict(self, path: Path, trust: tuple[str, ...] = ()) -> tuple[str, dict[str, Any]]:
        """What the page says once its check ran (trusting `trust`): its words and verdict."""
        words, verdict, _ = self.read(path, trust)
        return words, verdict

    def read(self, path: Path, trust: tuple[str, ...] = ()) -> tuple[str, dict[str, Any], str]:
        """The page's words and verdict once its check ran, and all the text it shows."""
        page = self.context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        try:
            page.goto(path.as_uri() + trust_fragment(trust))
            shown = page.locator("#skald-verdict[data-verdict]")
            shown.wait_for(timeout=30_000)
            words = shown.inner_text()
            verdict = page.evaluate(
                "JSON.parse(document.getElementById('skald-verdict').dataset.verdict)"
            )
            text = page.inner_text("body")
        finally:
            page.close()
        assert errors == []
        assert self.requests == []
        return words, verdict, text


# -- a careful forger's edits of an export: re-hashed, re-signed, re-sealed ----------------


def _line(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def rehash_game(
    lines: list[str],
    change: Callable[[dict[str, Any]], None] | None = None,
    at: int = 0,
    until: int | None = None,
) -> list[str]:
    """The record with the game's event at seq `at` changed by `change` (in place), the game
    cut after seq `until` (None: kept whole), and every game hash from there on recomputed,
    as a forger holding no key would (the end mark and kept receipts left as they were)."""
    game = json.loads(lines[0])["id"]
    out, prev = [], GENESIS
    for line in lines:
        envelope = json.loads(line)
        if envelope.get("stream") != game:
            out.append(line)
            continue
        if until is not None and envelope["seq"] > until:
            continue
        if envelope["seq"] == at and change is not None:
            change(envelope["event"])
        public = {key: envelope[key] for key in ("actor", "event", "recorded_at", "seq", "stream")}
        public["event"] = reference.sealed(envelope["event"], [])
        envelope["prev_hash"] = prev
        envelope["hash"] = prev = hashlib.sha256(
            bytes.fromhex(envelope["prev_hash"]) + reference.canonical(public)
        ).hexdigest()
        out.append(_line(envelope))
    return out


def game_head(lines: list[str]) -> tuple[str, int, str]:
    """The game's id, last seq and last hash in a record."""
    game = json.loads(lines[0])["id"]
    last = [json.loads(line) for line in lines[1:] if json.loads(line).get("stream") == game][-1]
    return game, last["seq"], last["hash"]


def with_end(lines: list[str], signer: Signer | None) -> list[str]:
    """The record ending with a head signed by `signer`, or an unsigned end (None)."""
    game, seq, head = game_head(lines)
    if signer is None:
        end = _line({"end": {"seq": seq, "head": head}})
    else:
        end = _line({"receipt": msgspec.to_builtins(signer.receipt(game, seq, head))})
    return [*lines[:-1], end]


def with_kept(lines: list[str], kept: Sequence[Receipt]) -> list[str]:
    """The record with `kept` as its kept receipts (before the end mark)."""
    record = [line for line in lines[:-1] if not line.startswith('{"kept_receipt":')]
    mine = [_line({"kept_receipt": msgspec.to_builtins(receipt)}) for receipt in kept]
    return [*record, *mine, lines[-1]]


def resealed(html: str, lines: list[str], signer: Signer | None) -> str:
    """The page `html` carrying the record `lines`, sealed again by `signer` (None: as from
    a store without a key), as a forger who holds that key would."""
    page = with_record(html, lines)
    game, seq, head = game_head(lines)
    key = signer.public_key if signer is not None else ""
    return selfcheck.seal(page, game, seq, head, key, signer.sign if signer else None)


def with_check(html: str, script: str) -> str:
    """The page `html` with its self-check replaced by `script`, and the page's CSP hash
    made to allow it (as a forger editing the check would)."""
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    edited = html.replace(selfcheck.SCRIPT_SOURCE, f"'sha256-{digest}'")
    start = edited.index(selfcheck.CHECK_OPEN) + len(selfcheck.CHECK_OPEN)
    return edited[:start] + script + edited[edited.index("</script>", start) :]
