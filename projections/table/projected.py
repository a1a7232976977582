"""What one viewer is answered at one state: pure functions of a game's state (the
effective viewer once the game is over, its table view, a seat's legal moves, a live
update, whether a seat may take back). The Table calls them; the live channel's frames
use them for each of its listeners.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from skald.core.engine import (
    to_act,
)
from skald.core.errors import Forbidden, IllegalMove
from skald.core.kernel import (
    entropy_template,
)
from skald.core.rules import get_rules
from skald.core.signing import Receipt
from skald.core.state import GameState, presenting
from skald.events.envelope import Envelope
from skald.events.secret import redact
from skald.events.viewer import Viewer
from skald.projections.registry import views_for
from skald.projections.table.answers import TableView, TakeBack, Update


def effective_viewer(state: GameState, viewer: Viewer) -> Viewer:
    """Who `viewer` is for what it is shown: after the game under reveal=end, one who sees
    everything (the log, the board and the audit show what was hidden)."""
    if state.outcome is not None and state.option("reveal", "end") == "end":
        return Viewer(viewer.name, viewer.seats, referee=True)
    return viewer


def view_of(
    game_id: str, state: GameState, viewer: Viewer, waiting: tuple[int, ...] | None = None
) -> TableView:
    """The game at `state` as `viewer` sees it (`waiting`: the seats to act, if known)."""
    with presenting(state.version):
        seen = views_for(state.game).view(state.rules, viewer)
    return TableView(
        id=game_id,
        game=state.game,
        seq=state.version,
        viewer=viewer.name,
        players=state.players,
        to_act=waiting_seats(state) if waiting is None else waiting,
        outcome=state.outcome,
        state=seen,
    )


def legal_moves(state: GameState, seat: int) -> list[str]:
    """A seat's legal moves at `state` in notation (empty when it is not to act)."""
    rules = get_rules(state.game)
    if seat not in to_act(rules, state):
        return []
    if state.awaiting_entropy:
        return [entropy_template(state)]
    with presenting(state.version):
        return [rules.format(command) for command in rules.legal(state.rules, seat)]


def update_for(
    game_id: str,
    state: GameState,
    envelopes: list[Envelope[Any]],
    viewer: Viewer,
    legal: list[str] | None,
    receipt: Receipt | None,
    waiting: tuple[int, ...] | None = None,
) -> Update:
    """The update for `viewer` at `state`, with the full `envelopes` since its last seq
    redacted for it, and its seat's `legal` moves (`legal_moves`, or None without a seat):
    the one place an update is projected, so what it shows is what the viewer may see
    (`waiting`: the seats to act, if known)."""
    effective = effective_viewer(state, viewer)
    waiting = waiting_seats(state) if waiting is None else waiting
    return Update(
        seq=state.version,
        events=[redact(env, effective) for env in envelopes],
        to_act=waiting,
        outcome=state.outcome,
        legal=legal,
        view=view_of(game_id, state, effective, waiting),
        receipt=receipt,
        head=state.last_hash,
        keys=state.seat_keys,
    )


def take_back(state: GameState, seat: int, check: Callable[[GameState, int], object]) -> TakeBack:
    """Whether `check` (the kernel's own undo or redo check) lets `seat` take it now; its
    refusal's words are the reason (they name decisions and policies, never a hidden value)."""
    if state.outcome is not None:
        return TakeBack(allowed=False, reason="the game is over: nothing can be taken back")
    try:
        check(state, seat)
    except (IllegalMove, Forbidden) as refusal:
        return TakeBack(allowed=False, reason=str(refusal))
    return TakeBack(allowed=True)


def waiting_seats(state: GameState) -> tuple[int, ...]:
    """The seats that may act now, in seat order."""
    return tuple(sorted(to_act(get_rules(state.game), state)))
