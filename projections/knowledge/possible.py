"""What a viewer can know, for every game: its information set and the worlds drawn from it.

The one entry point every hypothetical path uses (a seat's variation, a bot playing on for
a seat, anything that plays forward from a position the viewer cannot fully see):
`believed_state` draws a complete rules state from the viewer's information set, the
game's `possible` over the viewer's redacted log (`registry.redacted_log`), through the
game's `sample`. It never reads the real hidden values: `possible` sees only the redacted
log, and `sample` only what the viewer sees of the state. `possible_for` folds a whole
log; `GET /games/ID/possible` and `skald possible` give the same answer going on from the
fold kept for the viewer (`knowledge_cache.possible_at`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from skald.events.envelope import Envelope
from skald.events.viewer import Viewer
from skald.projections.registry import redacted_log, view_names, views_for


def possible_for(game: str, log: Sequence[Envelope[Any]], viewer: Viewer) -> Any:
    """The game's `possible` for `viewer` from the full envelopes `log` (redacted here)."""
    views = views_for(game)
    return views.possible(redacted_log(log, viewer), viewer)


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
    if legacy:
        return views.perturb_hidden(state, viewer, rnd)
    possible = views.possible(redacted_log(log(), viewer), viewer)
    return views.sample(state, possible, viewer, rnd)


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


# -- in the game's words -------------------------------------------------------------------


def describe_possible(possible: Any, players: Sequence[str]) -> str:
    """What could be true, as lines a player reads (the game's own words where its views
    say them: `describe(possible, players)`, from `projections/<game>/possible_words.py`;
    else every field)."""
    game = getattr(possible, "game", "")
    describe = getattr(views_for(game), "describe", None) if game in view_names() else None
    if describe is None:
        fields = msgspec.structs.asdict(possible).items()
        return "\n".join(f"{name}: {value}" for name, value in fields)
    text: str = describe(possible, players)
    if "\n" not in text:  # the heading alone: nothing is hidden from this viewer
        viewer = getattr(possible, "viewer", "this viewer")
        text += f"\n  nothing: {viewer} sees everything at this point of the game"
    return text
