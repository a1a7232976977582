"""The hunters' text view of a revealed Beast (recorded game fixtures/audit/beast_clean.jsonl):
right after a reveal the Beast's hand line names the location it was revealed at, not
"hidden location"; once it moves again in secret it is hidden again."""

from __future__ import annotations

from pathlib import Path

from skald.core.importer import read_jsonl
from skald.core.rules import get_rules
from skald.core.state import fold
from skald.events.beast import BeastMoved, BeastRevealed
from skald.events.viewer import seat_viewer
from skald.projections.beast.view import beast_view, render_view

LOG = Path(__file__).resolve().parent.parent / "fixtures" / "audit" / "beast_clean.jsonl"


def test_the_hunters_view_names_the_revealed_beasts_location() -> None:
    log = read_jsonl(LOG.read_text())
    players = log.envelopes[0].event.players
    rules = get_rules("beast")
    state = None
    checked = {"revealed": 0, "hidden": 0}
    for envelope in log.envelopes:
        state = fold(rules, state, envelope)
        event = envelope.event
        if not isinstance(event, BeastRevealed | BeastMoved):
            continue
        beast_line = next(
            line
            for line in render_view(beast_view(state.rules, seat_viewer(1)), players).splitlines()
            if line.startswith(f"  {state.rules.hands[0].character} ({players[0]})")
        )
        if isinstance(event, BeastRevealed) and not state.rules.hands[0].dead:
            assert f" at {event.location}:" in beast_line, beast_line
            checked["revealed"] += 1
        elif isinstance(event, BeastMoved):
            assert " at hidden location:" in beast_line, beast_line
            checked["hidden"] += 1
    assert checked["revealed"]
    assert checked["hidden"]
