"""The `Rules` protocol every game implements, and the registry that finds games by name.

The engine does the shared checks once (game over, whose turn, versions); a game's module
only knows its rules: `initial` state from the creation event, `start` events (deals,
shuffles), `decide` (the only place rules are checked), `evolve` (pure, total), the legal
commands, who may act, the outcome, and its notation (`parse(format(c)) == c`).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Protocol

from typing_extensions import TypeVar

from skald.core.errors import NotFound
from skald.core.rng import Rng
from skald.events.base import Event
from skald.events.common import GameCreated, Outcome
from skald.events.secret import Secret

S = TypeVar("S", default=Any)
"""A game's rules state."""
C = TypeVar("C", default=Any)
"""A game's command (what `parse` reads and `format` writes)."""


class Rules(Protocol[S, C]):
    """What a game provides to the engine, typed by its state `S` and command `C`.

    The engine holds any game (`Rules`, that is `Rules[Any, Any]`); a game implements
    `Rules[ItsState, ItsCommand]` (through `BaseRules`), so strict mypy checks every method
    of the game against this protocol.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    version: ClassVar[str]
    older_versions: ClassVar[tuple[str, ...]]
    """Earlier rules versions this build still derives exactly as they did: a game started
    under one of them goes on, and is re-derived, under its own version (new games get
    `version`)."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    event_types: ClassVar[tuple[type, ...]]
    option_names: ClassVar[tuple[str, ...]]
    """The game's own table options (besides the engine's undo, reveal, entropy)."""

    def initial(self, created: GameCreated) -> S:
        """The state right after creation, before any start events."""

    def start(self, state: S, rng: Rng) -> tuple[Event, ...]:
        """The system events that open the game (shuffles, deals)."""

    def decide(self, state: S, seat: int, command: C, rng: Rng) -> tuple[Event, ...]:
        """Validate `command` for `seat`; return its events or raise IllegalMove."""

    def evolve(self, state: S, event: Event) -> S:
        """Apply one event; pure and total."""

    def legal(self, state: S, seat: int) -> Iterable[C]:
        """Every command `seat` may make now."""

    def to_act(self, state: S) -> frozenset[int]:
        """The seats that may make a decision now."""

    def outcome(self, state: S) -> Outcome | None:
        """The outcome once the game is over, else None."""

    def parse(self, text: str) -> C:
        """A command from its notation; raises InvalidNotation."""

    def format(self, command: C) -> str:
        """The notation of a command."""

    def hide_move(self, state: S, seat: int, command: C, rng: Rng) -> Secret[str] | None:
        """The move's notation as a Secret when it must not be public, else None."""

    def chapter(self, state: S) -> int:
        """The act, day or round the game is in (0 for a game without them): the engine
        also keeps a snapshot where it changes, so a replay to the start of any chapter
        folds only that chapter's events."""

    def places(self, state: S) -> frozenset[str] | None:
        """Every place an annotation's markup may name at this state (a Beowulf cell, a
        Beast location, a Hägar space); None for a game without a board to name."""

    def team(self, state: S, seat: int) -> frozenset[int]:
        """The seats that share `seat`'s private notes (those that share its hand)."""


def plays(rules: Rules, version: str) -> bool:
    """Whether this build derives `version` of `rules` (the current one or an older one it
    kept)."""
    return version == rules.version or version in rules.older_versions


def versions_played(rules: Rules) -> str:
    """The versions `plays` accepts, in words: "5", or "5 (and 4)"."""
    older = ", ".join(rules.older_versions)
    return f"{rules.version} (and {older})" if older else rules.version


class BaseRules(Rules[S, C]):
    """The base of every game's rules: public moves, rules version "1", unless overridden.

    Bump `version` whenever a change to the rules or their data would make `decide` derive
    different events from the same log: games record the version they were played under,
    and the audit refuses to re-derive a game under another one rather than report
    phantom anomalies. Where the new `decide` still derives an older version's events
    exactly when its state says so, list that version in `older_versions`: its games then
    go on and are re-derived under it.
    """

    version: ClassVar[str] = "1"
    older_versions: ClassVar[tuple[str, ...]] = ()
    option_names: ClassVar[tuple[str, ...]] = ()

    def hide_move(self, state: S, seat: int, command: C, rng: Rng) -> Secret[str] | None:
        """Moves are public unless a game says otherwise."""
        return None

    def chapter(self, state: S) -> int:
        """No chapters unless a game says otherwise."""
        return 0

    def places(self, state: S) -> frozenset[str] | None:
        """No board to name unless a game says otherwise."""
        return None

    def team(self, state: S, seat: int) -> frozenset[int]:
        """A seat's notes are its own unless a game says otherwise."""
        return frozenset({seat})


_REGISTRY: dict[str, Callable[[], Rules]] = {}


def register(name: str) -> Callable[[Callable[[], Rules]], Callable[[], Rules]]:
    """Class decorator: make a Rules implementation available by name."""

    def wrap(factory: Callable[[], Rules]) -> Callable[[], Rules]:
        _REGISTRY[name] = factory
        return factory

    return wrap


# Built-in games load on first use, so the engine never names a game in its code paths.
BUILTIN_GAMES = {
    "beowulf": "skald.core.beowulf.rules",
    "beast": "skald.core.beast.rules",
    "hagar": "skald.core.hagar.rules",
}


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(BUILTIN_GAMES[name]) is not None
    except ModuleNotFoundError:
        return False


def get_rules(name: str) -> Rules:
    """The rules registered under `name`."""
    if name not in _REGISTRY and name in BUILTIN_GAMES and _installed(name):
        importlib.import_module(BUILTIN_GAMES[name])
    try:
        return _REGISTRY[name]()
    except KeyError:
        raise NotFound(f"unknown game {name!r} (known: {', '.join(game_names())})") from None


def game_names() -> tuple[str, ...]:
    """Names of every known game."""
    builtin = {name for name in BUILTIN_GAMES if _installed(name)}
    return tuple(sorted(builtin | set(_REGISTRY)))
