"""Per-game view functions, found by game name like the rules are.

A game's projection module provides `view(state, viewer) -> Struct` (a pure function of the
rules state and the viewer: only what that viewer is entitled to), `render(view) -> str`
(a readable terminal rendering) and `perturb_hidden(state, viewer, rnd) -> state` (the
dual of `view`: a state that differs only in what `viewer` may not see, so the conformance
suite can check that views, legal commands and logs do not depend on it), and registers
them with `@register_views(name)`.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any, Protocol

from skald.core.errors import NotFound
from skald.events.viewer import Viewer


class GameViews(Protocol):
    """What a game's projection module provides."""

    def view(self, state: Any, viewer: Viewer) -> Any:
        """What `viewer` sees of the rules state."""

    def render(self, view: Any) -> str:
        """A readable text rendering of a view."""

    def perturb_hidden(self, state: Any, viewer: Viewer, rnd: random.Random) -> Any:
        """`state` with (some of) what `viewer` may not see changed at random, and nothing
        else: the same view for `viewer`, the same legal commands for its seats."""


_VIEWS: dict[str, Callable[[], GameViews]] = {}
BUILTIN_VIEWS = {
    "beowulf": "skald.projections.beowulf",
    "beast": "skald.projections.beast",
    "hagar": "skald.projections.hagar",
}


def register_views(name: str) -> Callable[[Callable[[], GameViews]], Callable[[], GameViews]]:
    """Decorator: make a game's views available by name."""

    def wrap(factory: Callable[[], GameViews]) -> Callable[[], GameViews]:
        _VIEWS[name] = factory
        return factory

    return wrap


def views_for(game: str) -> GameViews:
    """The views registered for `game`."""
    if game not in _VIEWS and game in BUILTIN_VIEWS:
        importlib.import_module(BUILTIN_VIEWS[game])
    try:
        return _VIEWS[game]()
    except KeyError:
        raise NotFound(f"no views for game {game!r}") from None
