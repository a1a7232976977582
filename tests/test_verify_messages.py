"""`skald verify` names the right seq: a log cut short at its end names the first missing
event (not the header at seq 1), and a receipt that no longer matches a re-hashed history
says it only bounds the change and that the audit finds the exact seq."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest
import sqlalchemy as sa

from skald.core.engine import Engine
from skald.core.store import EventStore, events
from tests.cli_support import skald
from tests.forgery import forge, write_back

MOVES = ["bet 1", "draw", "bet 2", "draw", "bet 1", "bet 3"]


@pytest.fixture
def game(tmp_path: Path) -> tuple[str, str, Path]:
    """A finished toy game in a SQLite file, and a receipt of its head: (db, id, receipt)."""
    db = f"sqlite:///{tmp_path}/verify.db"
    code, out, _ = skald("new", "toy", "--players", "Ann,Bob", "--seed", "v", "--db", db)
    assert code == 0
    game_id = out.strip()
    for turn, move in enumerate(MOVES):
        code, _, err = skald("move", game_id, move, "--as", str(turn % 2), "--db", db)
        assert code == 0, err
    code, out, _ = skald("receipt", game_id, "--db", db)
    assert code == 0
    receipt = tmp_path / "r.json"
    receipt.write_text(out)
    return db, game_id, receipt


def last_seq(db: str, game_id: str) -> int:
    code, out, _ = skald("verify", game_id, "--json", "--db", db)
    assert code == 0
    checked: int = json.loads(out)["checked"]
    return checked


def test_a_deleted_tail_names_the_first_missing_seq(game: tuple[str, str, Path]) -> None:
    db, game_id, receipt = game
    last = last_seq(db, game_id)
    cut = last - 2  # events cut..last are deleted, the header still says `last`
    store = EventStore(db)
    with store.engine.begin() as conn:
        conn.execute(sa.delete(events).where(events.c.stream_id == game_id, events.c.seq >= cut))
    store.dispose()
    for extra in ([], ["--receipt", str(receipt)]):
        code, out, err = skald("verify", game_id, *extra, "--db", db)
        assert (code, out) == (1, ""), extra
        assert err.startswith(f"TAMPERED at seq {cut}: "), err
        assert f"seqs {cut}–{last} missing" in err, err
        assert "header disagrees" not in err
        assert err.count("\n") == 1
    code, out, _ = skald("verify", game_id, "--json", "--db", db)
    report = json.loads(out)
    assert (report["ok"], report["bad_seq"], report["checked"]) == (False, cut, cut - 1)


def test_a_rehashed_rewrite_is_bounded_by_the_receipt_and_found_by_the_audit(
    game: tuple[str, str, Path],
) -> None:
    db, game_id, receipt = game
    last = last_seq(db, game_id)
    store = EventStore(db)
    envelopes = Engine(store).envelopes(game_id)
    bet = next(env.seq for env in envelopes if hasattr(env.event, "amount") and env.seq > 4)
    write_back(
        store,
        forge(envelopes, bet, lambda e: msgspec.structs.replace(e, amount=e.amount % 5 + 1)),
    )
    store.dispose()
    # The chain alone cannot see a forger who recomputed every hash...
    code, out, _ = skald("verify", game_id, "--db", db)
    assert code == 0, out
    # ...the receipt can, but only bounds where; the message says so and points at the audit.
    code, out, err = skald("verify", game_id, "--receipt", str(receipt), "--db", db)
    assert (code, out) == (1, "")
    assert err.startswith(f"TAMPERED: history was rewritten at or before seq {last}: "), err
    assert "the receipt only bounds where" in err
    assert f"`skald audit {game_id}` finds the exact seq" in err
    assert err.count("\n") == 1
    code, out, _ = skald("audit", game_id, "--format", "json", "--db", db)
    assert code == 1
    assert json.loads(out)["anomalies"][0]["seq"] == bet
