"""What a viewer can know, for every game: its information set and the worlds drawn from it.

The one entry point every hypothetical path uses (a seat's variation, a bot playing on for
a seat, anything that plays forward from a position the viewer cannot fully see):
`believed_state` draws a complete rules state from the viewer's information set, the
game's `possible` over the viewer's redacted log (`registry.redacted_log`), through the
game's `sample`. It never reads the real hidden values: `possible` sees only the redacted
log, and `sample` only what the viewer sees of the state. `possible_for` is what
`GET /games/ID/possible` and `skald possible` show.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from skald.events.envelope import Envelope
from skald.events.viewer import Viewer
from skald.projections.registry import GameViews, redacted_log, views_for


def possible_for(game: str, log: Sequence[Envelope[Any]], viewer: Viewer) -> Any:
    """The game's `possible` for `viewer` from the full envelopes `log` (redacted here)."""
    return views_for(game).possible(redacted_log(log, viewer), viewer)


def believed_state(
    game: str,
    state: Any,
    viewer: Viewer,
    rnd: random.Random,
    log: Callable[[], Sequence[Envelope[Any]]],
    legacy: bool = False,
) -> Any:
    """`state` (a rules state) with everything `viewer` may not see drawn from its
    information set over `log()` (the full envelopes up to the position; read only when
    something is hidden). `legacy`: a variation stored before information sets, replayed
    with the draw it was made with."""
    views = views_for(game)
    if viewer.referee:
        return state
    if legacy or not _models_knowledge(views):
        return views.perturb_hidden(state, viewer, rnd)
    possible = views.possible(redacted_log(log(), viewer), viewer)
    return views.sample(state, possible, viewer, rnd)


def _models_knowledge(views: GameViews) -> bool:
    # BEAST FALLBACK (lead: delete at merge, with the `not _models_knowledge` test above,
    # once projections/beast_knowledge.py gives Beast's views `possible` and `sample`): a
    # game whose views do not model knowledge yet keeps the old `perturb_hidden` draw.
    return hasattr(views, "possible") and hasattr(views, "sample")


def believer(game: str) -> Any:
    """`core.history.variations.Believe` for `game` (what `HistoryStore` is given)."""

    def believe(
        state: Any,
        viewer: Viewer,
        rnd: random.Random,
        log: Callable[[], Sequence[Envelope[Any]]],
        legacy: bool,
    ) -> Any:
        return believed_state(game, state, viewer, rnd, log, legacy)

    return believe
