"""A receipt certifies the log: `skald receipt` and `GET /games/{id}/receipt` refuse to sign
the head of a stored chain that `skald verify` reports TAMPERED (an edited payload, a tail
deleted with the header left, rows reordered), naming the first bad seq: CLI exit 9, one
line, nothing on stdout; HTTP 500 `corrupt_record` like every other corrupt record. The
signed head is the one the check verified."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
from fastapi.testclient import TestClient

from skald.api.main import create_app
from skald.core.signing import load_receipt, signature_valid
from tests.cli_support import one_line, skald

MOVES = ["bet 1", "draw", "bet 2", "draw", "bet 1", "bet 3"]


@pytest.fixture
def game(tmp_path: Path) -> tuple[Path, str, str]:
    """A finished toy game in a SQLite file: (path, db url, id)."""
    path = tmp_path / "receipts.db"
    db = f"sqlite:///{path}"
    code, out, _ = skald("new", "toy", "--players", "Ann,Bob", "--seed", "r", "--db", db)
    assert code == 0
    game_id = out.strip()
    for turn, move in enumerate(MOVES):
        code, _, err = skald("move", game_id, move, "--as", str(turn % 2), "--db", db)
        assert code == 0, err
    return path, db, game_id


def edit_a_bet(path: Path, game_id: str) -> None:
    """Change a bet's amount in its stored payload (the hash is left as it was)."""
    with sqlite3.connect(path) as conn:
        seq, payload = conn.execute(
            "SELECT seq, payload FROM events WHERE stream_id = ? AND kind = 'toy.bet_placed' "
            "ORDER BY seq",
            (game_id,),
        ).fetchone()
        event = json.loads(payload)
        event["amount"] = event["amount"] % 5 + 1
        conn.execute(
            "UPDATE events SET payload = ? WHERE stream_id = ? AND seq = ?",
            (msgspec.json.encode(event).decode(), game_id, seq),
        )
    conn.close()


def delete_the_tail(path: Path, game_id: str) -> None:
    """Delete the last two events, leaving the header's version as it was."""
    with sqlite3.connect(path) as conn:
        (last,) = conn.execute(
            "SELECT max(seq) FROM events WHERE stream_id = ?", (game_id,)
        ).fetchone()
        conn.execute("DELETE FROM events WHERE stream_id = ? AND seq >= ?", (game_id, last - 1))
    conn.close()


def swap_two_rows(path: Path, game_id: str) -> None:
    """Swap the seqs of two bets' rows (their hashes go with them)."""
    with sqlite3.connect(path) as conn:
        first, second = (
            seq
            for (seq,) in conn.execute(
                "SELECT seq FROM events WHERE stream_id = ? AND kind = 'toy.bet_placed' "
                "ORDER BY seq LIMIT 2",
                (game_id,),
            )
        )
        for old, new in ((first, -1), (second, first), (-1, second)):
            conn.execute(
                "UPDATE events SET seq = ? WHERE stream_id = ? AND seq = ?", (new, game_id, old)
            )
    conn.close()


TAMPERS: dict[str, Callable[[Path, str], None]] = {
    "edited-payload": edit_a_bet,
    "deleted-tail": delete_the_tail,
    "reordered-rows": swap_two_rows,
}


def bad_seq(db: str, game_id: str) -> int:
    """The first bad seq `skald verify` names."""
    code, out, _ = skald("verify", game_id, "--json", "--db", db)
    assert code == 1
    seq: int = json.loads(out)["bad_seq"]
    return seq


def test_an_intact_chain_is_signed_at_its_verified_head(game: tuple[Path, str, str]) -> None:
    _, db, game_id = game
    code, out, _ = skald("verify", game_id, "--json", "--db", db)
    assert code == 0
    checked = json.loads(out)
    code, out, err = skald("receipt", game_id, "--db", db)
    assert code == 0, err
    receipt = load_receipt(out.encode())
    assert (receipt.stream, receipt.seq, receipt.head) == (
        game_id,
        checked["checked"],
        checked["head"],
    )
    assert signature_valid(receipt)


@pytest.mark.parametrize("tamper", TAMPERS)
def test_the_cli_refuses_to_sign_a_tampered_chain(tamper: str, game: tuple[Path, str, str]) -> None:
    path, db, game_id = game
    TAMPERS[tamper](path, game_id)
    seq = bad_seq(db, game_id)
    code, out, err = skald("receipt", game_id, "--db", db)
    assert (code, out) == (9, ""), err
    line = one_line(err)
    assert line.startswith(f"error: seq {seq}: the log does not verify, so no receipt is signed")


@pytest.mark.parametrize("tamper", TAMPERS)
def test_http_refuses_to_sign_a_tampered_chain(tamper: str, game: tuple[Path, str, str]) -> None:
    path, db, game_id = game
    with TestClient(create_app(db)) as client:
        # The service has the game in its cache when the rows change under it.
        signed = client.get(f"/games/{game_id}/receipt")
        assert signed.status_code == 200
        assert signature_valid(load_receipt(signed.content))
        TAMPERS[tamper](path, game_id)
        seq = bad_seq(db, game_id)
        refused = client.get(f"/games/{game_id}/receipt")
    assert refused.status_code == 500
    body = refused.json()
    assert body["error"] == "corrupt_record"
    assert body["message"].startswith(f"seq {seq}: the log does not verify"), body
    assert "signature" not in body


@pytest.mark.parametrize("tamper", TAMPERS)
def test_a_signed_export_is_refused_for_a_tampered_chain(
    tamper: str, game: tuple[Path, str, str]
) -> None:
    """The jsonl export ends with a receipt of its head: it is signed only for a chain that
    verifies, as `skald receipt` is (before, an export of a doctored store was signed)."""
    path, db, game_id = game
    code, out, err = skald("export", game_id, "--format", "jsonl", "--db", db)
    assert code == 0, err
    assert '"signature"' in out.splitlines()[-1]
    TAMPERS[tamper](path, game_id)
    seq = bad_seq(db, game_id)
    code, out, err = skald("export", game_id, "--format", "jsonl", "--db", db)
    assert (code, out) == (9, ""), err
    assert one_line(err).startswith(f"error: seq {seq}: the log does not verify")
