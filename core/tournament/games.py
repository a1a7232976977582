"""How a tournament reaches its games: `GameDesk`, the interface the desk
(core/tournament/desk.py) and the evidence check (core/tournament/evidence.py) use, and
what they read of a game's summary and audit. projections/table/facade.py `Table` satisfies it;
nothing in core/tournament touches a game's engine or state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from skald.core.chain import ChainReport
from skald.events.common import Outcome
from skald.events.viewer import Viewer


class GameSummaryLike(Protocol):
    """What the desk reads of a game's summary."""

    @property
    def players(self) -> tuple[str, ...]: ...
    @property
    def outcome(self) -> Outcome | None: ...


class AuditLike(Protocol):
    """What the desk reads of a game's audit."""

    @property
    def verdict(self) -> str: ...
    @property
    def seed(self) -> str | None: ...


class GameDesk(Protocol):
    """How the desk reaches games (projections/table/facade.py `Table` is one)."""

    def create(
        self,
        game: str,
        players: Sequence[str],
        seed: str | None = None,
        options: Mapping[str, str] | None = None,
        game_id: str | None = None,
        deal: str | None = None,
        reproducible: bool = False,
    ) -> str: ...
    def summary(self, game_id: str) -> GameSummaryLike: ...
    def verify(self, game_id: str) -> ChainReport: ...
    def audit(self, game_id: str, viewer: Viewer) -> AuditLike: ...
