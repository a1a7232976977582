"""The reference verifier (`skald verifier`, projections/export/verify_skald.py) and `skald
verify --file`: the same verdict on the golden exports, on signed exports with receipts
players kept (verified against the store's key when it is trusted, consistent otherwise),
and on copies with one byte changed in an event, a revealed value, the signature or an
embedded receipt, each named at the seq the edit lies at. The script runs under a bare
`python3 -I -S` (standard library only: signatures reported not checked, so nothing reads
verified) and under this interpreter (PyNaCl installed: every signature checked, the same
line). The forgeries that keep a chain whole are tests/test_trust_verdicts.py's."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from skald.core.fingerprint import key_fingerprint
from skald.core.history.streams import chain_problem
from skald.events.viewer import REFEREE
from skald.projections.export.jsonl import read_jsonl
from skald.projections.export.verify_skald import CONSISTENT, TAMPERED, VERIFIED
from skald.projections.export.verify_skald import verify as verify_export
from tests.cli_support import one_line, skald
from tests.history_support import viewers
from tests.selfcheck_support import (
    VERIFIER,
    Edit,
    Signed,
    cli_verdict,
    edit_event,
    edit_kept_receipt,
    edit_kept_signature,
    edit_revealed_value,
    edit_salt,
    edit_signature,
    edit_time,
    lines_of,
    script_verdict,
    signed_games,
)

GOLDEN = Path(__file__).parent.parent / "fixtures" / "annotated"
GAMES = {"beowulf": (21, 30), "beast": (22, 30), "hagar": (23, 24)}
SKIPPED = "signatures (no Ed25519 library here: pip install pynacl)"
# The edits, and what a verifier without Ed25519 still sees of each ("same": the verdict;
# "seq": the same first bad seq, another reason; "skipped": nothing, signatures unchecked).
EDITS: dict[str, tuple[Edit, str]] = {
    "event": (edit_event, "same"),
    "revealed value": (edit_revealed_value, "same"),
    "salt": (edit_salt, "same"),
    "recorded time": (edit_time, "same"),
    "signature": (edit_signature, "skipped"),
    "kept receipt": (edit_kept_receipt, "seq"),
    "kept receipt's signature": (edit_kept_signature, "skipped"),
}


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Signed]:
    return signed_games(tmp_path_factory.mktemp, GAMES)


def _agree(path: Path, trust: tuple[str, ...] = ()) -> tuple[int, dict[str, Any], str]:
    """`skald verify --file` and the script under this interpreter say the same."""
    code, verdict, line = cli_verdict(path, trust)
    assert script_verdict(path, bare=False, trust=trust) == (code, line)
    return code, verdict, line


@pytest.mark.parametrize("name", ["beast", "beowulf", "hagar"])
@pytest.mark.parametrize("suffix", ["jsonl", "html"])
def test_the_golden_exports_verify_alike(name: str, suffix: str) -> None:
    path = GOLDEN / f"{name}.{suffix}"
    code, verdict, line = _agree(path)
    # the goldens are built without a key: whole, but nobody vouches for them
    assert (code, verdict["ok"], verdict["verdict"]) == (1, False, CONSISTENT)
    seats = "".join(
        f"; {name}: {seat['decisions']} decisions, 0 signed by the seat's own key"
        for name, seat in verdict["seats"].items()
    )  # nobody signed: the goldens are bots' games
    assert line == (
        f"{CONSISTENT}: the head is unsigned; {verdict['events']} events, "
        f"{verdict['commitments']} commitments{seats}"
    )
    assert verdict["seats"]
    assert script_verdict(path, bare=True) == (1, line)


@pytest.mark.parametrize("edit", [edit_event, edit_revealed_value])
@pytest.mark.parametrize("name", ["beast", "beowulf", "hagar"])
def test_edited_golden_exports_name_the_edited_seq(tmp_path: Path, name: str, edit: Edit) -> None:
    lines, seq = edit(lines_of((GOLDEN / f"{name}.jsonl").read_text(encoding="utf-8")))
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, verdict, line = _agree(path)
    assert (code, verdict["ok"], verdict["seq"]) == (1, False, seq)
    assert line.startswith(f"{TAMPERED} at seq {seq}: ")
    assert script_verdict(path, bare=True) == (1, line)


@pytest.mark.parametrize("damage", ["cut before the end mark", "a line after it"])
@pytest.mark.parametrize("name", ["beast", "beowulf", "hagar"])
def test_a_record_cut_at_its_end_mark_or_added_to_is_tampered(
    tmp_path: Path, name: str, damage: str
) -> None:
    # The one cut that leaves every chain whole (the end mark's line dropped) and the one
    # addition that changes no chain (a copy of the end mark after it): neither verifies.
    lines = lines_of((GOLDEN / f"{name}.jsonl").read_text(encoding="utf-8"))
    assert "stream" not in json.loads(lines[-1])  # the end mark: nothing but it is dropped
    game = json.loads(lines[0])["id"]
    after = 1 + max(
        json.loads(line)["seq"] for line in lines[1:-1] if json.loads(line)["stream"] == game
    )
    cut = lines[:-1] if damage.startswith("cut") else [*lines, lines[-1]]
    path = tmp_path / "damaged.jsonl"
    path.write_text("\n".join(cut) + "\n", encoding="utf-8")
    code, verdict, line = _agree(path)
    assert (code, verdict["ok"], verdict["seq"]) == (1, False, after)
    assert line == f"{TAMPERED} at seq {after}: " + (
        "no end mark (signed head): it was cut short"
        if damage.startswith("cut")
        else f"line {len(lines) + 1} follows the end mark"
    )
    assert script_verdict(path, bare=True) == (1, line)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_untouched_signed_exports_verify_for_every_viewer(
    tmp_path: Path, signed: dict[str, Signed], game: str
) -> None:
    played = signed[game]
    key = played.signer.public_key
    named = f"{key} ({key_fingerprint(key)})"
    for viewer in viewers(played.table, played.id):
        path = tmp_path / f"{viewer.name}.jsonl"
        path.write_text(played.export(viewer, "jsonl"), encoding="utf-8")
        code, verdict, line = _agree(path, (key,))
        assert code == 0, line
        assert (verdict["verdict"], verdict["key"], verdict["trusted"]) == (VERIFIED, key, True)
        assert verdict["receipts"] == [
            {"key": key, "fingerprint": key_fingerprint(key), "trusted": True, "count": 2}
        ]
        assert line.startswith(f"{VERIFIED}: the head is signed by {named}, a key you trust; ")
        assert "; extends 2 kept receipts signed by the head's key" in line
        # a seat's copy says what it could not check; the referee's checks every value
        assert (verdict["sealed"] == 0) == viewer.referee
        assert ("may not see" in line) == (not viewer.referee)
        # trusting no key, or trusting it by its fingerprint
        untrusted = CONSISTENT + line.removeprefix(VERIFIED).replace(
            ", a key you trust", ", not a key you trust"
        )
        assert _agree(path)[::2] == (1, untrusted)
        assert _agree(path, (key_fingerprint(key).upper().replace(" ", "-"),))[::2] == (0, line)
        # without an Ed25519 library no signature is checked: nothing can read verified
        bare_code, bare_line = script_verdict(path, bare=True, trust=(key,))
        joined = ", " if verdict["sealed"] else "; not checked: "
        unchecked = untrusted.replace(", not a key you trust", "")
        assert (bare_code, bare_line) == (1, f"{unchecked}{joined}{SKIPPED}")


@pytest.mark.parametrize("what", sorted(EDITS))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_one_byte_edits_are_named_at_their_seq(
    tmp_path: Path, signed: dict[str, Signed], game: str, what: str
) -> None:
    edit, bare = EDITS[what]
    original = lines_of(signed[game].export(REFEREE, "jsonl"))
    lines, seq = edit(original)
    assert sum(a != b for a, b in zip("".join(lines), "".join(original), strict=True)) == 1
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    key = signed[game].signer.public_key
    code, verdict, line = _agree(path, (key,))
    assert (code, verdict["verdict"], verdict["seq"], verdict["stream"]) == (
        1,
        TAMPERED,
        seq,
        signed[game].id,
    )
    assert line.startswith(f"{TAMPERED} at seq {seq}: {verdict['reason']}")
    # an edit found after the head was checked names who signed it
    assert line.endswith(
        f"; the head is signed by {key} ({key_fingerprint(key)}), a key you trust"
    ) == (what.startswith("kept"))
    bare_code, bare_line = script_verdict(path, bare=True, trust=(key,))
    if bare == "same":
        assert (bare_code, bare_line) == (1, line)
    elif bare == "seq":  # the signature unchecked, the head it signed is still compared
        assert bare_line.startswith(f"{TAMPERED} at seq {seq}: the record does not extend kept")
    else:
        assert bare_code == 1
        assert bare_line.startswith(f"{CONSISTENT}: the head is signed by {key} (")
        assert bare_line.endswith(SKIPPED)


def test_a_genuine_receipt_the_record_does_not_extend(
    tmp_path: Path, signed: dict[str, Signed]
) -> None:
    """A receipt kept before the history was rewritten: genuine, but of another head."""
    played = signed["beowulf"]
    kept = played.kept[0]
    before = played.signer.receipt(played.id, kept.seq, "ab" * 32)
    path = tmp_path / "rewritten.jsonl"
    path.write_text(played.export(REFEREE, "jsonl", kept=[before]), encoding="utf-8")
    code, verdict, line = _agree(path)
    assert (code, verdict["seq"]) == (1, kept.seq)
    assert f"the record does not extend kept receipt 1: the head at seq {kept.seq}" in line
    # without Ed25519, the head's key is named but not weighed
    assert script_verdict(path, bare=True) == (1, line.removesuffix(", not a key you trust"))


def test_a_record_cut_short_of_its_signed_head(tmp_path: Path, signed: dict[str, Signed]) -> None:
    played = signed["hagar"]
    lines = lines_of(played.export(REFEREE, "jsonl", kept=[]))
    game = [i for i, line in enumerate(lines) if json.loads(line).get("stream") == played.id]
    last_seq = json.loads(lines[game[-1]])["seq"]
    path = tmp_path / "cut.jsonl"
    path.write_text("\n".join(lines[: game[-1]] + lines[game[-1] + 1 :]) + "\n", encoding="utf-8")
    code, verdict, line = _agree(path)
    assert (code, verdict["seq"]) == (1, last_seq)
    assert line == (
        f"{TAMPERED} at seq {last_seq}: the signed head covers seq {last_seq}, but the record "
        f"ends at {last_seq - 1}"
    )


def test_export_embeds_receipts_from_files(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'skald.db'}"
    _, game_id, _ = skald("new", "beowulf", "--players", "Ann,Bob", "--db", db)
    game_id = game_id.strip()
    code, receipt, _ = skald("receipt", game_id, "--db", db)
    assert code == 0
    kept = tmp_path / "ann.json"
    kept.write_text(receipt, encoding="utf-8")
    code, legal, _ = skald("legal", game_id, "--as", "Ann", "--db", db)
    assert skald("move", game_id, "--as", "Ann", legal.splitlines()[0], "--db", db)[0] == 0
    for format in ("jsonl", "html"):
        code, text, error = skald(
            "export", game_id, "--as", "Bob", "--format", format, "--receipt", str(kept), "--db", db
        )
        assert code == 0, error
        export = tmp_path / f"bob.{format}"
        export.write_text(text, encoding="utf-8")
        key = json.loads(receipt)["public_key"]
        code, verdict, line = _agree(export, (key,))
        assert code == 0, line
        assert [(kept["key"], kept["count"]) for kept in verdict["receipts"]] == [(key, 1)]
    # a receipt altered after signing, or another game's, is refused (nothing written)
    altered = json.loads(receipt) | {"seq": 1}
    kept.write_text(json.dumps(altered), encoding="utf-8")
    code, out, error = skald(
        "export", game_id, "--format", "jsonl", "--receipt", str(kept), "--db", db
    )
    assert (code, out) == (3, "")
    assert one_line(error).startswith("error: RECEIPT INVALID: receipt 1 does not match")
    _, other, _ = skald("new", "hagar", "--players", "Ann,Bob", "--db", db)
    kept.write_text(skald("receipt", other.strip(), "--db", db)[1], encoding="utf-8")
    code, _, error = skald(
        "export", game_id, "--format", "jsonl", "--receipt", str(kept), "--db", db
    )
    assert code == 3
    assert f"is for game {other.strip()}, not {game_id}" in one_line(error)
    code, _, error = skald(
        "export", game_id, "--format", "text", "--receipt", str(kept), "--db", db
    )
    assert code == 2
    assert "--receipt" in one_line(error)


def test_verify_file_of_something_else(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("hello\n", encoding="utf-8")
    code, _, error = skald("verify", "--file", str(path))
    assert (code, one_line(error)) == (3, "NOT VERIFIED: not a Skald export (skald-history)")
    assert script_verdict(path, bare=True) == (3, one_line(error))
    assert skald("verify", "--file", str(tmp_path / "missing.jsonl"))[0] == 6
    assert skald("verify", "game", "--file", str(path))[0] == 2
    assert skald("verify")[0] == 2


def test_the_printed_verifier_is_the_shipped_script_short_and_standard_library_only() -> None:
    code, text, _ = skald("verifier")
    assert code == 0
    assert text == VERIFIER.read_text(encoding="utf-8")
    # short enough to read through before trusting it (issue 30's 200 lines, grown by the
    # fingerprint's 256 words, the keys one trusts, the page's seal and the seats' signatures)
    assert len(text.splitlines()) < 330
    imported = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    # the standard library, and the two Ed25519 libraries it tries (inside `try`)
    assert imported == {"hashlib", "json", "re", "sys", "nacl", "cryptography"}


def _core_first_bad(text: str) -> tuple[str, int] | None:
    """The first bad (stream, seq) by the store's own chain check (msgspec's canonical
    encoding of the decoded events), over every stream of a jsonl export."""
    parsed = read_jsonl(text)
    for envelopes in (parsed.game, parsed.notes, *parsed.variations):
        problem = chain_problem(envelopes)
        if problem is not None:
            return envelopes[0].stream, problem[0]
    return None


@pytest.mark.parametrize("edit", [None, edit_time, edit_salt])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_documented_bytes_are_the_stores_bytes(
    signed: dict[str, Signed], game: str, edit: Edit | None
) -> None:
    """What the script re-derives from the JSON alone is what the store hashed: the store's
    chain check (typed events, msgspec's canonical form) agrees on every viewer's copy, and
    on edits the typed events still decode (a time, a salt)."""
    played = signed[game]
    for viewer in viewers(played.table, played.id):
        lines = lines_of(played.export(viewer, "jsonl", kept=[]))
        if edit is not None and viewer.referee:
            lines = edit(lines)[0]
        text = "\n".join(lines) + "\n"
        verdict = verify_export(text)
        whole = verdict["verdict"] != TAMPERED
        expected = None if whole else (verdict["stream"], verdict["seq"])
        assert _core_first_bad(text) == expected
        assert whole == (edit is None or not viewer.referee)
