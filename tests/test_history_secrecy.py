"""Secrecy of annotated histories: a seat's export while the game runs never opens a hidden
value it may not see (compared with the referee's log) nor shows another seat's private
notes; after the game the reveal policy decides; a seat's variation never reads hidden
values it could not see."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skald.core.engine import Engine
from skald.core.errors import InvalidOption
from skald.core.store import EventStore
from skald.events.secret import secrets_in
from skald.events.viewer import REFEREE, seat_viewer
from skald.projections.bots.autoplay import autoplay
from skald.projections.registry import views_for
from skald.projections.table import Table
from tests.history_support import GAMES, annotated_game

FORMATS = ("jsonl", "text", "md", "html")


def _table() -> Table:
    return Table(Engine(EventStore("sqlite://")))


def _private_notes(table: Table, game_id: str) -> list[tuple[frozenset[int], str]]:
    """(audience, marker) of one private note per seat and one for the referee."""
    histories = table.histories()
    notes = []
    for seat, name in enumerate(table.players(game_id)):
        marker = f"PRIVATE-{seat}-{random.randrange(10**9)}"
        histories.annotate(game_id, seat_viewer(seat, name), "1", comment=marker, audience="seat")
        notes.append((frozenset({seat}), marker))
    marker = f"REFEREE-{random.randrange(10**9)}"
    histories.annotate(game_id, REFEREE, "1", comment=marker, audience="referee")
    notes.append((frozenset(), marker))
    return notes


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), decisions=st.integers(5, 40))
def test_a_seats_export_opens_nothing_it_may_not_see(game: str, seed: int, decisions: int) -> None:
    table = _table()
    game_id = annotated_game(table, game, seed, decisions)
    if table.turn(game_id).outcome is not None:
        return  # finished: everything is revealed under reveal=end (tested below)
    notes = _private_notes(table, game_id)
    referee_log = table.log(game_id, REFEREE)
    hidden = [s for env in referee_log for s in secrets_in(env.event)]
    for name in table.players(game_id):
        viewer = table.viewer(game_id, name)
        may_see = {
            s.salt for env in table.log(game_id, viewer) for s in secrets_in(env.event) if s.known
        }
        for format in FORMATS:
            exported = table.histories().export(game_id, viewer, format)
            for secret in hidden:
                if secret.salt not in may_see:
                    assert secret.salt not in exported, (format, secret.audience)
            for audience, marker in notes:
                assert (marker in exported) == (bool(audience & viewer.seats)), (format, marker)


@pytest.mark.parametrize(("reveal", "shown"), [("end", True), ("referee", False)])
def test_after_the_game_the_reveal_policy_decides(reveal: str, shown: bool) -> None:
    table = _table()
    game_id = autoplay(table, "beowulf", 2, seed="3", options={"reveal": reveal}).id
    assert table.turn(game_id).outcome is not None
    notes = _private_notes(table, game_id)
    exported = table.histories().export(game_id, table.viewer(game_id, "1"), "text")
    for _audience, marker in notes:
        assert (marker in exported) == (shown or _audience == frozenset({1}))
    assert ("[Key " in exported) == shown


def test_a_seats_variation_draws_what_it_cannot_see_afresh() -> None:
    table = _table()
    game_id = autoplay(table, "beowulf", 3, seed="8", max_decisions=6).id
    histories = table.histories()
    store = histories._store
    real = store.game(game_id)
    viewer = table.viewer(game_id, "0")
    stream = histories.variation(game_id, viewer, str(real.version), (), seed="s1")
    base = store.state_at(game_id, stream)
    views = views_for("beowulf")
    # the seat sees the same game in its variation, but the others' hands are drawn afresh
    assert views.view(base.rules, viewer) == views.view(real.rules, viewer)
    assert base.rules.hands[0] == real.rules.hands[0]
    assert (base.rules.hands[1:], base.rules.pile) != (real.rules.hands[1:], real.rules.pile)
    assert store.started(stream, "beowulf").hypothetical
    # the referee's variation starts from the real position
    referee_stream = histories.variation(game_id, REFEREE, str(real.version), (), seed="s1")
    assert store.state_at(game_id, referee_stream).rules.hands == real.rules.hands
    assert not store.started(referee_stream, "beowulf").hypothetical
    # and another seat sees only that it exists (the public index), none of its events
    other = table.viewer(game_id, "1")
    assert f'"stream":"{stream}"' not in histories.export(game_id, other, "jsonl")
    assert f'"stream":"{stream}"' in histories.export(game_id, viewer, "jsonl")


def test_a_note_in_a_variation_is_never_seen_by_more_than_the_variation() -> None:
    """A note anchored in a variation that only its side sees is for that side by default
    (the referee's: for the referee); asked to be public it is refused and nothing is
    written. Another seat and a spectator read neither its comment nor its marks, in any
    export or in the notes stream (found by a tester: a default, public note on a seat's
    variation was readable by everyone in the jsonl export and the API)."""
    table = _table()
    game_id = autoplay(table, "beowulf", 2, seed="8", max_decisions=6).id
    histories = table.histories()
    bob, ann = table.viewer(game_id, "1"), table.viewer(game_id, "0")
    spectator = table.viewer(game_id, "spectator")
    stream = histories.variation(game_id, bob, "3", (), name="secretplan", seed="s")
    short = stream.removeprefix(f"{game_id}~")
    noted = histories.annotate(
        game_id, bob, f"{short}@1", comment="BOB-VARIATION-NOTE", marks=["circle A1 red"]
    )
    assert noted.event.audience == "seat"
    by_referee = histories.annotate(game_id, REFEREE, f"{short}@1", comment="REF-VAR-NOTE")
    assert by_referee.event.audience == "referee"
    notes_before = len(histories._store.notes(game_id))
    with pytest.raises(InvalidOption, match="cannot be public"):
        histories.annotate(game_id, bob, f"{short}@1", comment="LEAK", audience="public")
    assert len(histories._store.notes(game_id)) == notes_before  # nothing written
    for outsider in (ann, spectator):
        for format in FORMATS:
            exported = histories.export(game_id, outsider, format)
            assert "BOB-VARIATION-NOTE" not in exported, format
            assert "REF-VAR-NOTE" not in exported, format
            assert '"circle"' not in exported, format
    assert "BOB-VARIATION-NOTE" in histories.export(game_id, bob, "jsonl")
    assert "REF-VAR-NOTE" not in histories.export(game_id, bob, "jsonl")
    assert "REF-VAR-NOTE" in histories.export(game_id, REFEREE, "jsonl")
    # a note on the game itself keeps its default: public
    assert histories.annotate(game_id, bob, "3", comment="open").event.audience == "public"
