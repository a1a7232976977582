"""A receipt that is wrong itself (for another game, or altered after it was signed) is
reported as such, `RECEIPT INVALID: ...` with exit 3 (bad input, as a file that is no
receipt at all), never as `TAMPERED` and never with a Python None: the log is not blamed
for a bad receipt. `verify --json` keeps every field it had and adds `receipt_problem`
and `bounded`, which decide the headline (not the wording of the reason)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from skald.cli.history import _verdict_line
from skald.core.chain import RECEIPT_ALTERED, RECEIPT_OTHER_GAME, ChainReport
from skald.core.engine import Engine
from skald.core.signing import load_receipt
from skald.core.store import EventStore
from tests.cli_support import one_line, skald
from tests.forgery import forge, write_back

MOVES = ["bet 1", "draw", "bet 2", "draw", "bet 1", "bet 3"]
OLD_FIELDS = {"stream", "checked", "ok", "bad_seq", "reason", "head", "other_key"}


def new_game(db: str, seed: str) -> str:
    code, out, _ = skald("new", "toy", "--players", "Ann,Bob", "--seed", seed, "--db", db)
    assert code == 0
    game_id = out.strip()
    for turn, move in enumerate(MOVES):
        code, _, err = skald("move", game_id, move, "--as", str(turn % 2), "--db", db)
        assert code == 0, err
    return game_id


@pytest.fixture
def two_games(tmp_path: Path) -> tuple[str, str, str, Path]:
    """Two finished games in one store and a receipt of the first: (db, first, second,
    receipt file)."""
    db = f"sqlite:///{tmp_path}/receipts.db"
    first, second = new_game(db, "a"), new_game(db, "b")
    code, out, _ = skald("receipt", first, "--db", db)
    assert code == 0
    receipt = tmp_path / "first.json"
    receipt.write_text(out)
    return db, first, second, receipt


def verify(db: str, game_id: str, receipt: Path, *flags: str) -> tuple[int, str, str]:
    return skald("verify", game_id, "--receipt", str(receipt), *flags, "--db", db)


def altered(receipt: Path, folder: Path, **changes: object) -> Path:
    """A copy of the receipt with fields changed after it was signed."""
    fields = json.loads(receipt.read_text()) | changes
    copy = folder / "altered.json"
    copy.write_text(json.dumps(fields))
    return copy


def test_a_genuine_receipt_of_the_game_verifies(two_games: tuple[str, str, str, Path]) -> None:
    db, first, _, receipt = two_games
    code, out, err = verify(db, first, receipt)
    assert code == 0, err
    assert out.startswith("ok: ")


def test_a_receipt_for_another_game_is_invalid_not_tampering(
    two_games: tuple[str, str, str, Path],
) -> None:
    db, first, second, receipt = two_games
    code, out, err = verify(db, second, receipt)
    assert (code, out) == (3, "")
    line = one_line(err)
    assert line == f"RECEIPT INVALID: the receipt is for game {first}, not {second}"
    assert "TAMPERED" not in err
    assert "None" not in err
    code, out, _ = verify(db, second, receipt, "--json")
    assert code == 3
    report = json.loads(out)
    assert report.keys() >= OLD_FIELDS
    assert report["ok"] is False
    assert report["bad_seq"] is None
    assert report["receipt_problem"] == RECEIPT_OTHER_GAME
    assert report["bounded"] is False


@pytest.mark.parametrize("field", ["seq", "head", "stream"])
def test_an_altered_receipt_is_invalid_not_tampering(
    field: str, two_games: tuple[str, str, str, Path], tmp_path: Path
) -> None:
    db, first, second, receipt = two_games
    signed = load_receipt(receipt.read_bytes())
    change = {"seq": signed.seq - 3, "head": "0" * 64, "stream": second}[field]
    forged = altered(receipt, tmp_path, **{field: change})
    # A receipt whose game was changed is altered too: its signature is checked first.
    for game_id in (first, second):
        code, out, err = verify(db, game_id, forged)
        assert (code, out) == (3, "")
        line = one_line(err)
        assert line == (
            "RECEIPT INVALID: the receipt's signature does not match its contents: "
            "the receipt was altered"
        )
        assert "TAMPERED" not in err
        assert "None" not in err
    code, out, _ = verify(db, first, forged, "--json")
    assert code == 3
    report = json.loads(out)
    assert report.keys() >= OLD_FIELDS
    assert (report["ok"], report["bad_seq"]) == (False, None)
    assert report["receipt_problem"] == RECEIPT_ALTERED


def test_a_rewritten_history_is_still_tampering_and_bounded(
    two_games: tuple[str, str, str, Path],
) -> None:
    db, first, _, receipt = two_games
    store = EventStore(db)
    envelopes = Engine(store).envelopes(first)
    bet = next(env.seq for env in envelopes if hasattr(env.event, "amount") and env.seq > 4)
    write_back(
        store,
        forge(envelopes, bet, lambda e: msgspec.structs.replace(e, amount=e.amount % 5 + 1)),
    )
    store.dispose()
    signed = load_receipt(receipt.read_bytes())
    code, out, err = verify(db, first, receipt)
    assert (code, out) == (1, "")
    assert one_line(err).startswith(
        f"TAMPERED: history was rewritten at or before seq {signed.seq}: "
    )
    code, out, _ = verify(db, first, receipt, "--json")
    assert code == 1
    report = json.loads(out)
    assert (report["bad_seq"], report["bounded"], report["receipt_problem"]) == (
        signed.seq,
        True,
        "",
    )


def test_the_headline_follows_the_report_fields_not_the_reason() -> None:
    def line(**fields: Any) -> str:
        report = ChainReport(stream="g", checked=4, ok=False, reason="why", **fields)
        return _verdict_line(report)

    assert line(bad_seq=5) == "TAMPERED at seq 5: why"
    assert line(bad_seq=5, bounded=True) == "TAMPERED: why"
    assert line(receipt_problem=RECEIPT_OTHER_GAME) == "RECEIPT INVALID: why"
    assert line(other_key=True) == "NOT VERIFIED: why"
    assert line() == "TAMPERED: why"  # never "at seq None"
