"""Every built-in game, autoplayed to the end, audits clean: each decision re-derived from
the rules and the revealed seed, chain and commitments intact, everything revealed."""

from __future__ import annotations

import pytest

from skald.core.engine import Engine
from skald.core.rules import game_names, get_rules
from skald.core.store import EventStore
from skald.events.viewer import SPECTATOR
from skald.projections.bots.autoplay import autoplay
from skald.projections.table import Table

GAMES = [name for name in game_names() if name != "toy"]


@pytest.mark.parametrize("game", GAMES)
def test_autoplayed_games_audit_clean(game: str) -> None:
    table = Table(Engine(EventStore("sqlite://")))
    rules = get_rules(game)
    for players in sorted({rules.min_players, rules.max_players}):
        result = autoplay(table, game, players, seed=f"audit-{game}-{players}")
        assert result.outcome is not None
        report = table.audit(result.id, SPECTATOR)
        assert report.verdict == "clean", report.anomalies
        assert report.rederivation.decisions > 0
        assert report.chain.ok
        assert report.seed == f"audit-{game}-{players}"
        assert all(item.value != "‹hidden›" for seat in report.knowledge for item in seat.learned)
