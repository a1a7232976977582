"""Per-game view functions, found by game name like the rules are.

A game's projection module provides `view(state, viewer) -> Struct` (a pure function of the
rules state and the viewer: only what that viewer is entitled to), `render(view, players)
-> str` (a readable terminal rendering in the game's words: players by their names, places
and pieces as printed, never seat numbers, ids or field names, which belong to the JSON)
and `perturb_hidden(state, viewer, rnd) -> state` (the dual of `view`: a state that
differs only in what `viewer` may not see, so the conformance suite can check that views,
legal commands and logs do not depend on it), and registers them with
`@register_views(name)`.

Each game's views also say what a viewer could believe (DESIGN.md "What a viewer can
know"): `possible(log, viewer)`, computed only from the viewer's redacted log
(`redacted_log`), and `sample(state, possible, viewer, rnd)`, a complete rules state
drawn from those worlds. Anything that plays forward from a position a viewer cannot fully
see starts from `sample` (`knowledge.believed_state`); `perturb_hidden` is a test tool.

A game's views may also offer `knowledge_fold()`: a `KnowledgeFold`, the same `possible`
folded one redacted envelope at a time, so `knowledge_cache` keeps it per game and viewer
at some seqs and goes on from the nearest instead of folding the whole log again. A
game's `possible(log, viewer)` is then that fold fed the whole log.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, Protocol

from skald.core.errors import NotFound
from skald.events.envelope import Envelope
from skald.events.secret import redact
from skald.events.viewer import Viewer


class GameViews(Protocol):
    """What a game's projection module provides."""

    def view(self, state: Any, viewer: Viewer) -> Any:
        """What `viewer` sees of the rules state."""

    def render(self, view: Any, players: Sequence[str]) -> str:
        """A readable text rendering of a view, each seat shown by its player's name
        (`players`, in seat order)."""

    def perturb_hidden(self, state: Any, viewer: Viewer, rnd: random.Random) -> Any:
        """`state` with (some of) what `viewer` may not see changed at random, and nothing
        else: the same view for `viewer`, the same legal commands for its seats."""

    def possible(self, log: Sequence[Envelope[Any]], viewer: Viewer) -> Any:
        """What could be true of every hidden item, exactly, for the rules as implemented,
        computed ONLY from `log`: the game's envelopes from seq 1 up to the position asked
        (`at`), each already redacted for `viewer` (the same redaction `skald log --as
        VIEWER` prints: hidden values the viewer may not see are commitments). Returns the
        game's own frozen msgspec Struct (e.g. `BeowulfPossible`), JSON-encodable with
        msgspec, in faces people can read (tile faces, card names, location names), with
        counts."""

    def sample(self, state: Any, possible: Any, viewer: Viewer, rnd: random.Random) -> Any:
        """A complete rules state drawn from the worlds in `possible` (uniformly over the
        consistent deals and hidden histories, or by their exact weights: say which in the
        docstring): `state` with EVERY part hidden from `viewer` replaced by a draw from
        `possible`. It may read from `state` only what `viewer` sees; the result must give
        `viewer` the same view and the same legal moves as `state`."""


# A game's views may also offer `describe(possible, players) -> str`: what could be true as
# lines a player reads (`knowledge.possible.describe_possible`; without it, every field).


class KnowledgeFold(Protocol):
    """A game's `possible` as a fold over the viewer's redacted log (mutable while fed)."""

    def feed(self, envelope: Envelope[Any]) -> None:
        """Fold the next envelope of the viewer's redacted log."""

    def copy(self) -> KnowledgeFold:
        """An independent fold at the same seq: feeding either never changes the other."""

    def possible(self, viewer: Viewer) -> Any:
        """`possible` of the envelopes fed so far (reads the fold, never changes it)."""


def redacted_log(envelopes: Sequence[Envelope[Any]], viewer: Viewer) -> list[Envelope[Any]]:
    """The envelopes as `viewer` may read them: every hidden value outside its entitlement
    sealed to its commitment (what `skald log --as VIEWER` prints), nothing else changed."""
    return [redact(envelope, viewer) for envelope in envelopes]


_Factory = Callable[[], GameViews]
_VIEWS: dict[str, _Factory] = {}
READING_SIDES = {
    "beowulf": "skald.projections.beowulf",
    "beast": "skald.projections.beast",
    "hagar": "skald.projections.hagar",
}
"""Each built-in game's reading-side package: `view` (which registers the views),
`narrative`, `board`, `bot` and the rest, each found by name (`game_part`), so nothing
shared imports a game's module."""


def register_views(name: str) -> Callable[[_Factory], _Factory]:
    """Decorator: make a game's views available by name."""

    def wrap(factory: _Factory) -> _Factory:
        _VIEWS[name] = factory
        return factory

    return wrap


def views_for(game: str) -> GameViews:
    """The views registered for `game`."""
    if game not in _VIEWS and game in READING_SIDES:
        importlib.import_module(f"{READING_SIDES[game]}.view")
    try:
        return _VIEWS[game]()
    except KeyError:
        raise NotFound(f"no views for game {game!r}") from None


def game_part(game: str, part: str) -> ModuleType | None:
    """The module `part` (`narrative`, `board`, `bot`) of a built-in game's reading side,
    or None where the game has none (a game registered from elsewhere, such as the
    tests' toy game, has only its views)."""
    package = READING_SIDES.get(game)
    if package is None:
        return None
    name = f"{package}.{part}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name != name:
            raise
        return None


def view_names() -> set[str]:
    """The games whose views are registered or built in."""
    return {*_VIEWS, *READING_SIDES}
