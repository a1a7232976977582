"""A tile with a follow-up (Golden Statue, Temptation, Courage) just placed, and the player
asks for something else: the refusal says in words what the tile asks for, with an
example move, never a grammar placeholder ("remove SQ"). Positions from the recorded game
fixtures/audit/beowulf_clean.jsonl, at every follow-up it offered."""

from __future__ import annotations

from pathlib import Path

import pytest

from skald.core.errors import IllegalMove
from skald.core.importer import read_jsonl
from skald.core.rng import Rng
from skald.core.rules import get_rules
from skald.core.state import fold
from skald.events.beowulf import AbilityOffered

LOG = Path(__file__).resolve().parent.parent / "fixtures" / "audit" / "beowulf_clean.jsonl"
ASKED = {
    "golden_statue": "a swap of two other tiles (swap C3 D4)",
    "temptation": "the removal of a Courage tile (remove C3)",
    "courage": "the removal of a Temptation tile (remove C3)",
}


def test_a_follow_up_refusal_names_what_the_tile_asks_for() -> None:
    log = read_jsonl(LOG.read_text())
    rules = get_rules("beowulf")
    state = None
    seen = set()
    for envelope in log.envelopes:
        state = fold(rules, state, envelope)
        event = envelope.event
        if isinstance(event, AbilityOffered) and event.ability in ASKED:
            with pytest.raises(IllegalMove) as refused:
                rules.decide(state.rules, event.seat, rules.parse("draw"), Rng(b"x"))
            message = str(refused.value)
            assert "SQ" not in message
            assert f"asks for {ASKED[event.ability]}, or skip" in message, message
            seen.add(event.ability)
    assert seen
