"""Who a viewer of a Beast game is: the referee, the Beast's side, the hunters' side or a
spectator. The view (what each sees) and the deduction (what each can know) both start
from it, so it sits below both.
"""

from __future__ import annotations

from skald.core.beast.state import BeastState
from skald.events.viewer import Viewer


def role_of(state: BeastState, viewer: Viewer) -> str:
    """referee, beast, hunters or spectator."""
    if viewer.referee:
        return "referee"
    if state.hands and state.beast.seat in viewer.seats:
        return "beast"
    if not viewer.seats.isdisjoint(state.hunter_seats):
        return "hunters"
    return "spectator"
