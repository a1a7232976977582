"""Round trips: a full-information export imports into an empty store as a playable game,
and exporting it again gives the same bytes (jsonl: up to its signed trailer; text)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skald.core.engine import Engine
from skald.core.store import EventStore
from skald.events.viewer import REFEREE
from skald.projections.table import Table
from tests.history_support import GAMES, annotated_game


def _table() -> Table:
    return Table(Engine(EventStore("sqlite://")))


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("format", ["jsonl", "text"])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), decisions=st.integers(3, 40))
def test_export_import_export_is_byte_identical(
    game: str, format: str, seed: int, decisions: int
) -> None:
    source = _table()
    game_id = annotated_game(source, game, seed, decisions)
    exported = source.histories().export(game_id, REFEREE, format)
    target = _table()
    result = target.histories().import_export(exported)
    assert result.stored
    assert result.id == game_id
    again = target.histories().export(game_id, REFEREE, format)
    assert again == exported
    # and the import is playable: the game's legal moves are those of the source
    seats = target.turn(game_id).to_act
    assert seats == source.turn(game_id).to_act
    for seat in seats:
        assert target.legal(game_id, seat) == source.legal(game_id, seat)
