"""Provable fairness through the toy game: seat entropy, re-derivation, receipts, imports,
and the audit report's verdicts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest

from skald.core.engine import Engine
from skald.core.errors import Forbidden, IllegalMove, InvalidNotation
from skald.core.importer import import_text
from skald.core.rederive import rederive
from skald.core.secrecy import entropy_commitment
from skald.core.signing import Signer
from skald.core.store import EventStore, events
from skald.events.secret import seal
from skald.events.viewer import REFEREE, SPECTATOR, seat_viewer
from skald.projections.audit.render import render_audit
from skald.projections.table import Table
from tests.conftest import engine_of
from tests.forgery import forge, jsonl, write_back

MOVES = ["bet 1", "draw", "bet 2", "draw", "bet 1", "bet 3"]


@pytest.fixture
def signed_table(sqlite_store: EventStore, tmp_path: Path) -> Table:
    return Table(Engine(sqlite_store), Signer(tmp_path / "key"))


def play(table: Table, options: dict[str, str] | None = None, moves: int = 6) -> str:
    game_id = table.create("toy", ["Ann", "Bob"], seed="audit", options=options)
    for turn, move in enumerate(MOVES[:moves]):
        table.move(game_id, turn % 2, move)
    return game_id


def referee_jsonl(table: Table, game_id: str) -> list[str]:
    """The lines of `skald log --as referee --json`, its end line last."""
    return jsonl(table.log(game_id, REFEREE)).splitlines()


def test_clean_game_audits_clean(signed_table: Table) -> None:
    game_id = play(signed_table)
    report = signed_table.audit(game_id, SPECTATOR)
    assert report.verdict == "clean"
    assert report.anomalies == ()
    assert report.rederivation.decisions == 6
    assert report.rederivation.random_events >= 5
    assert report.seed == "audit"
    assert report.chain.ok
    ann = report.knowledge[0]
    assert ann.player == "Ann"
    assert [item.seq for item in ann.learned][:1] == [3]
    for fmt in ("md", "json", "html"):
        assert "clean" in render_audit(report, fmt)


def test_audit_before_the_end_is_for_the_referee(signed_table: Table) -> None:
    game_id = play(signed_table, moves=2)
    with pytest.raises(Forbidden):
        signed_table.audit(game_id, signed_table.viewer(game_id, "Ann"))
    assert signed_table.audit(game_id, REFEREE).verdict == "clean"


def test_undos_are_listed_with_who_asked(signed_table: Table) -> None:
    game_id = signed_table.create("toy", ["Ann", "Bob"], seed="u", options={"undo": "anyone"})
    signed_table.move(game_id, 0, "bet 2")
    signed_table.undo(game_id, 1)
    report = signed_table.audit(game_id, REFEREE)
    assert [(u.action, u.asked_by, u.author) for u in report.undos] == [("undo", "Bob", "Ann")]
    assert report.verdict == "clean"


ANN_TEXT, BOB_TEXT = "dice-from-my-pocket", "42 and some more characters"


def test_seat_entropy_is_committed_then_revealed_before_the_first_draw(signed_table: Table) -> None:
    plain = signed_table.create("toy", ["Ann", "Bob"], seed="e")
    mixed = signed_table.create("toy", ["Ann", "Bob"], seed="e", options={"entropy": "seats"})
    assert signed_table.legal(mixed, 0) == ["entropy commit SHA256"]
    with pytest.raises(InvalidNotation, match="entropy"):
        signed_table.move(mixed, 0, "bet 1")
    with pytest.raises(InvalidNotation, match="commit first"):
        signed_table.move(mixed, 0, f"entropy reveal {ANN_TEXT}")
    signed_table.move(mixed, 0, f"entropy commit {entropy_commitment(ANN_TEXT)}")
    # Bob sees only Ann's commitment, never her text, before he fixes his own.
    assert ANN_TEXT not in str(signed_table.log(mixed, seat_viewer(1, "Bob")))
    assert signed_table.show(mixed, SPECTATOR).to_act == (1,)
    signed_table.move(mixed, 1, f"entropy commit {entropy_commitment(BOB_TEXT)}")
    assert signed_table.legal(mixed, 0) == ["entropy reveal TEXT"]
    with pytest.raises(IllegalMove, match="does not match"):
        signed_table.move(mixed, 0, "entropy reveal something-else-entirely")
    signed_table.move(mixed, 0, f"entropy reveal {ANN_TEXT}")
    signed_table.move(mixed, 1, f"entropy reveal {BOB_TEXT}")
    engine = engine_of(signed_table)
    assert engine.load(mixed).rules.deck != engine.load(plain).rules.deck
    for turn, move in enumerate(MOVES):
        signed_table.move(mixed, turn % 2, move)
    report = signed_table.audit(mixed, SPECTATOR)
    assert report.verdict == "clean"
    assert report.entropy == ((0, ANN_TEXT), (1, BOB_TEXT))
    assert report.entropy_commitments == (
        (0, entropy_commitment(ANN_TEXT)),
        (1, entropy_commitment(BOB_TEXT)),
    )


def test_receipt_catches_a_rewritten_history(signed_table: Table) -> None:
    game_id = play(signed_table, moves=3)
    receipt = signed_table.receipt(game_id)
    for turn, move in enumerate(MOVES[3:], start=3):
        signed_table.move(game_id, turn % 2, move)
    assert signed_table.verify_receipt(game_id, receipt).ok
    rewrite_bet_and_rehash(engine_of(signed_table).store, game_id, seq=6)
    assert signed_table.verify(game_id).ok  # the forger recomputed every hash...
    report = signed_table.verify_receipt(game_id, receipt)
    assert not report.ok
    assert report.bad_seq == receipt.seq
    assert "rewritten" in report.reason
    forged = msgspec.structs.replace(receipt, head="0" * 64)
    assert "signature" in signed_table.verify_receipt(game_id, forged).reason


def rewrite_bet_and_rehash(store: EventStore, game_id: str, seq: int) -> None:
    """A forger who changes a bet and recomputes the whole chain after it."""
    envelopes = Engine(store).envelopes(game_id)
    write_back(
        store,
        forge(envelopes, seq, lambda bet: msgspec.structs.replace(bet, amount=bet.amount % 5 + 1)),
    )


def test_rehashed_forgery_is_caught_by_rederivation(signed_table: Table) -> None:
    game_id = play(signed_table)
    rewrite_bet_and_rehash(engine_of(signed_table).store, game_id, seq=6)
    report = signed_table.audit(game_id, REFEREE)
    assert report.chain.ok
    assert report.verdict == "anomalies"
    assert report.anomalies[0].seq == 6
    assert "differs from what the rules derive" in report.anomalies[0].rule


def test_import_of_a_clean_log_keeps_its_hashes(signed_table: Table, tmp_path: Path) -> None:
    game_id = play(signed_table)
    lines = referee_jsonl(signed_table, game_id)
    other = Engine(EventStore(f"sqlite:///{tmp_path}/other.db"))
    result = import_text(other, "\n".join(lines))
    assert result.clean
    assert result.accepted == len(lines) - 1  # every event; the last line is the end mark
    assert result.id == game_id
    assert Table(other).verify(game_id).ok
    assert other.load(game_id).outcome == engine_of(signed_table).load(game_id).outcome


def test_import_stops_at_a_changed_draw(signed_table: Table, tmp_path: Path) -> None:
    game_id = play(signed_table)
    rewrite_draw(engine_of(signed_table).store, game_id)
    lines = referee_jsonl(signed_table, game_id)
    other = Engine(EventStore(f"sqlite:///{tmp_path}/other.db"))
    # Refused naming the changed draw; nothing is kept (as for every record that is not
    # whole or not sound: one behaviour).
    with pytest.raises(IllegalMove, match=r"REJECTED at seq 8: .*nothing was imported"):
        import_text(other, "\n".join(lines))
    assert other.store.version(game_id) == 0


def rewrite_draw(store: EventStore, game_id: str) -> None:
    """Swap Bob's drawn card for another (with a valid commitment), recompute the chain."""

    def other_card(event: Any) -> Any:
        card = event.card
        return msgspec.structs.replace(
            event, card=seal(card.value % 9 + 1, card.audience, card.salt)
        )

    write_back(store, forge(Engine(store).envelopes(game_id), 8, other_card))


def test_import_rejects_a_reordered_log(signed_table: Table, tmp_path: Path) -> None:
    game_id = play(signed_table)
    lines = referee_jsonl(signed_table, game_id)
    lines[8], lines[9] = lines[9], lines[8]
    other = Engine(EventStore(f"sqlite:///{tmp_path}/o.db"))
    with pytest.raises(IllegalMove, match="REJECTED at seq 9"):
        import_text(other, "\n".join(lines))
    assert other.store.list_streams() == []


def test_import_of_notation(tmp_path: Path) -> None:
    engine = Engine(EventStore(f"sqlite:///{tmp_path}/n.db"))
    text = "# game: toy\n# players: Ann, Bob\n# seed: n\nbet 1\nBob: draw\nbet 1\n"
    result = import_text(engine, text)
    assert (result.accepted, result.total) == (3, 3)
    assert result.clean
    live = engine.create("toy", ["Ann", "Bob"], seed="n").id
    for seat, move in ((0, "bet 1"), (1, "draw"), (0, "bet 1")):
        engine.execute(live, seat, move)
    assert engine.load(result.id).version == engine.load(live).version
    assert [r.kind for r in engine.store.read(result.id)] == [
        r.kind for r in engine.store.read(live)
    ]


def test_a_failed_notation_import_leaves_nothing_behind(tmp_path: Path) -> None:
    engine = Engine(EventStore(f"sqlite:///{tmp_path}/n.db"))
    text = "# game: toy\n# players: Ann, Bob\n# seed: n\nbet 1\nBob: draw\nbet 9\nbet 1\n"
    with pytest.raises(IllegalMove, match=r"line 6 \(bet 9\): .*bets are 1 to 5.*nothing"):
        import_text(engine, text)
    assert engine.store.list_streams() == []


def test_rederive_flags_an_event_nobody_decided(sqlite_store: EventStore) -> None:
    table = Table(Engine(sqlite_store))
    game_id = play(table, moves=2)
    envelopes = engine_of(table).envelopes(game_id)
    shuffled = [envelopes[0], envelopes[2], envelopes[1], *envelopes[3:]]
    found = rederive("toy", shuffled)
    assert found.findings[0].seq == 2
    assert "found seq 3" in found.findings[0].detail


def test_a_game_from_other_rules_is_refused_not_misjudged(signed_table: Table) -> None:
    game_id = play(signed_table)
    envelopes = engine_of(signed_table).envelopes(game_id)
    newer = forge(envelopes, 1, lambda created: msgspec.structs.replace(created, rules_version="2"))
    derived = rederive("toy", newer)
    assert not derived.findings
    assert not derived.clean
    assert "rules version 2" in derived.unsupported


def test_what_each_seat_knew_is_listed_up_to_a_broken_chain(signed_table: Table) -> None:
    game_id = play(signed_table)
    before = signed_table.audit(game_id, REFEREE).knowledge
    seqs = sorted({item.seq for seat in before for item in seat.learned})
    assert seqs[0] == 3  # Ann's first hidden value
    broken = seqs[1]  # a later event something hidden was shown in
    store = engine_of(signed_table).store
    with store.engine.begin() as conn:
        conn.execute(
            events.update()
            .where(events.c.stream_id == game_id, events.c.seq == broken)
            .values(actor="9")
        )
    report = signed_table.audit(game_id, REFEREE)
    assert report.chain.bad_seq == broken
    assert report.knowledge_until == broken
    # Everything before the break is still listed, nothing from the break on.
    for seat, then in zip(report.knowledge, before, strict=True):
        assert seat.learned == tuple(item for item in then.learned if item.seq < broken)
    assert report.knowledge[0].learned[0].seq == 3
    text = render_audit(report, "md")
    section = text.split("## What each seat knew, and when")[1].split("## Events")[0]
    assert f"Listed before seq {broken} only: the hash chain breaks at seq {broken}" in section
    assert "- seq 3: " in section
    assert f"hash chain breaks at seq {broken}" in render_audit(report, "html")
    # A clean game says nothing of the kind.
    clean = signed_table.audit(play(signed_table), REFEREE)
    assert clean.knowledge_until is None
    assert "Listed before" not in render_audit(clean, "md")
