"""Who won a game of Beast (rulebook "One vs Many", "Phase 3: Night", contracts).

The reducer records the end (`winner`, `reason`): the Beast wins once it has killed the
settlers its contract asks for (`settlers_killed`); the hunters win by killing the Beast
(`beast_killed`) or by reinforcements when the night after the contract's last day falls
(`days_passed`). The outcome ranks the winning side first; scores are the Beast's
settler kills and the hunters' wounds dealt to the Beast.
"""

from __future__ import annotations

from skald.core.beast.state import BeastState
from skald.events.common import Outcome


def outcome(state: BeastState) -> Outcome | None:
    """The winning side once the game is over."""
    if not state.winner:
        return None
    hunters = tuple(sorted(state.hunter_seats))
    beast = (state.beast.seat,)
    ranking = (beast, hunters) if state.winner == "beast" else (hunters, beast)
    scores = tuple(
        state.stat("settler_kills") if seat == state.beast.seat else state.stat("beast_wounds")
        for seat in range(state.players)
    )
    return Outcome(termination=state.reason, ranking=ranking, scores=scores)
