"""A stored Hägar log of rules version 4, with the robbery version 5 changed: replayed,
re-derived and continued by this build exactly as version 4 did.

fixtures/hagar/v4_robbed_at_sea.jsonl was recorded by the version 4 code (the tree of
6f041a1) as tests/audit_fixtures.py `recorded_game` records (a fixed clock, 2026-12-05
20:00 UTC, and "service key" random.Random("fixture-hagar")), game id
fixture-hagar-v4-robbed, 6 players, seed rob-field/10, bot seed 10, with a random bot
weighting each legal move (rob 50, take 10, a walk into a city 5, feast 0.2, a sail to a
home harbour 0.05, force and spare 0.01, anything else 1); cut after the turn of seq
1049, where Cid (seat 2) robs Dag (seat 3) at sea, drawing a piece of his ship's cargo
while Dag also carries one (ship 2 → 1, hands 1). Its end line says the game stands at
seq 1050, so it imports whole.

The digests below were computed by the version 4 code from the same file: every seat's
and a spectator's `possible` at the end (so the fold reads a version 4 robbery as it did,
the documented caveat included: it takes Dag's piece from his hands), and every viewer's
view of the referee's fold.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec

from skald.core.engine import Engine
from skald.core.importer import read_jsonl
from skald.core.rederive import rederive
from skald.core.rules import get_rules
from skald.core.state import fold
from skald.core.store import EventStore
from skald.events.hagar import LootRobbed
from skald.events.viewer import REFEREE, SPECTATOR, Viewer, seat_viewer
from skald.projections.audit.report import build_audit
from skald.projections.registry import redacted_log, views_for
from skald.projections.table import Table

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "hagar" / "v4_robbed_at_sea.jsonl"
ROBBERY = 1049
VIEWERS: list[Viewer] = [*(seat_viewer(seat) for seat in range(6)), SPECTATOR]
POSSIBLE_V4 = {  # sha256 of msgspec.json.encode(possible), first 16 hex digits
    "seat 0": "6ef52ac14bfe9eef",
    "seat 1": "b57cc70a3212cb85",
    "seat 2": "ee07c8e0c7451edb",
    "seat 3": "d456ad67a7518b11",
    "seat 4": "270ff8b40c79acd9",
    "seat 5": "61bcab51f4332980",
    "spectator": "78d2d8de7a61ea0a",
}
VIEWS_V4 = "f44e5b6f1f7678ae"  # the views of VIEWERS and the referee, joined


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _log() -> Any:
    return read_jsonl(FIXTURE.read_text())


def test_the_stored_log_is_version_4_and_holds_the_robbery() -> None:
    """The file is what version 4 wrote: no robbery names a field, and at seq 1049 Dag was
    robbed at sea of a piece of his ship's cargo while he also carried one."""
    log = _log()
    assert log.chain.ok
    assert log.finding is None
    assert log.envelopes[0].event.rules_version == "4"
    robberies = [e for e in log.envelopes if isinstance(e.event, LootRobbed)]
    assert robberies
    assert all(e.event.from_cargo is None for e in robberies)
    assert b"from_cargo" not in FIXTURE.read_bytes()
    rules, state = get_rules("hagar"), None
    for envelope in log.envelopes[: ROBBERY - 1]:
        state = fold(rules, state, envelope)
    assert state is not None
    robbed = log.envelopes[ROBBERY - 1].event
    dag = state.rules.vikings[robbed.victim]
    assert (robbed.victim, robbed.at_sea, len(dag.cargo), len(dag.carried)) == (3, True, 2, 1)
    assert robbed.piece.get() in dag.cargo


def test_the_stored_log_re_derives_clean_under_version_4() -> None:
    """Every event, byte for byte, is what this build's `decide` derives under version 4."""
    envelopes = _log().envelopes
    derived = rederive("hagar", envelopes)
    assert derived.clean, derived
    assert derived.findings == ()
    log = _log()
    report = build_audit(log.stream, log.game, log.envelopes, log.chain, None)
    assert report.verdict == "clean"


def test_the_stored_log_replays_as_version_4_did() -> None:
    """The referee's fold shows every viewer what version 4 showed, and each viewer's
    `possible` is what version 4's fold made of it: the hand is taken, as before, so the
    third seats' `possible` keeps Dag's old shape (the caveat older logs keep: docs/explain/
    secrecy.md), while the view shows ship 1, hands 1."""
    log = _log()
    rules, state = get_rules("hagar"), None
    for envelope in log.envelopes:
        state = fold(rules, state, envelope)
    assert state is not None
    assert state.rules.rules_version == 4
    views = views_for("hagar")
    shown = b"".join(msgspec.json.encode(views.view(state.rules, v)) for v in [*VIEWERS, REFEREE])
    assert _digest(shown) == VIEWS_V4
    for viewer in VIEWERS:
        known = views.possible(redacted_log(log.envelopes, viewer), viewer)
        assert _digest(msgspec.json.encode(known)) == POSSIBLE_V4[viewer.name], viewer.name
    dag = state.rules.vikings[3]
    assert (len(dag.cargo), len(dag.carried)) == (1, 1)
    outsider = seat_viewer(0)
    known = views.possible(redacted_log(log.envelopes, outsider), outsider)
    assert Counter(k.field for k in known.pieces if k.seat == 3) == Counter({"cargo": 2})


def test_a_version_4_game_goes_on_under_version_4() -> None:
    """Imported into a store of this build, the version 4 game goes on: 80 decisions by a
    random bot are accepted, the log stays version 4 (no robbery names its field) and the
    whole log re-derives clean; a new game is version 5."""
    table = Table(Engine(EventStore("sqlite://")))
    imported = table.import_text(FIXTURE.read_text())
    assert imported.clean
    game_id = imported.id
    rnd = random.Random(4)
    for _ in range(80):
        turn = table.turn(game_id)
        if turn.outcome is not None:
            break
        seat = turn.to_act[0]
        table.move(game_id, seat, rnd.choice(table.legal(game_id, seat)))
    envelopes = table.log(game_id, REFEREE)
    assert len(envelopes) > 1050
    assert envelopes[0].event.rules_version == "4"
    assert all(e.event.from_cargo is None for e in envelopes if isinstance(e.event, LootRobbed))
    derived = rederive("hagar", envelopes)
    assert derived.clean, derived
    fresh = table.create("hagar", ["Ann", "Bob"], seed="v5")
    assert table.log(fresh, REFEREE)[0].event.rules_version == "5"
