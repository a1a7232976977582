"""Shared helpers for the Hägar tests (this module holds no tests).

`table(...)` builds a position directly (no randomness), `play(...)` runs one command
through decide and evolve, `random_playout(...)` plays a whole game with a random bot.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import msgspec

from skald.core.hagar.board import board
from skald.core.hagar.data import cards, chests
from skald.core.hagar.rules import HagarRules
from skald.core.hagar.state import HagarState, Leg, Options, Viking
from skald.core.rng import Rng
from skald.events.common import GameCreated
from skald.events.secret import seal

RULES = HagarRules()
replace = msgspec.structs.replace


def created(players: int, **options: str) -> GameCreated:
    return GameCreated(
        game="hagar",
        players=tuple(f"viking{i}" for i in range(players)),
        seed=seal("seed", frozenset(), "00" * 16),
        options=tuple(sorted(options.items())),
        rules_version=HagarRules.version,
    )


def card_of(kind: str, nth: int = 0) -> int:
    """The id of the nth fate card of a kind."""
    return [i for i, c in enumerate(cards()) if c.kind == kind][nth]


def table(
    vikings: list[Viking],
    *,
    stacks: dict[str, tuple[int, ...]] | None = None,
    phase: str = "throw",
    turn: int = 0,
    leg: Leg | None = None,
    deck: tuple[int, ...] | None = None,
    options: Options | None = None,
    **more: Any,
) -> HagarState:
    """A position built by hand: stacks default to empty, the deck to every card."""
    stacks = stacks or {}
    return HagarState(
        players=len(vikings),
        options=options or Options(),
        vikings=tuple(vikings),
        stacks=tuple(stacks.get(c, ()) for c in board().cities),
        camp=more.pop("camp", chests()),
        phase=phase,
        turn=turn,
        leg=leg,  # type: ignore[arg-type]
        deck=tuple(range(len(cards()))) if deck is None else deck,
        **more,
    )


def aboard(at: str, **more: Any) -> Viking:
    return Viking(at=at, ship=at, aboard=True, **more)


def on_foot(at: str, ship: str, **more: Any) -> Viking:
    return Viking(at=at, ship=ship, aboard=False, **more)


def play(
    state: HagarState, text: str, seat: int | None = None, seed: bytes = b"test"
) -> tuple[HagarState, tuple[Any, ...]]:
    """One command by notation: the new state and the events."""
    seat = state.turn if seat is None else seat
    events = RULES.decide(state, seat, RULES.parse(text), Rng(seed))
    for event in events:
        state = RULES.evolve(state, event)
    return state, events


def kinds(events: tuple[Any, ...]) -> list[str]:
    return [type(e).__name__ for e in events]


@dataclass
class Game:
    """A game played through the rules directly."""

    state: HagarState
    commands: list[tuple[int, str]] = field(default_factory=list)
    events: list[Any] = field(default_factory=list)
    states: list[HagarState] = field(default_factory=list)


def begin(
    players: int, seed: str, opening: tuple[Any, ...] | None = None, **options: str
) -> tuple[Game, Rng]:
    rng = Rng(seed.encode())
    state = RULES.initial(created(players, **options))
    events = RULES.start(state, rng) if opening is None else opening
    for event in events:
        state = RULES.evolve(state, event)
    return Game(state=state, events=list(events), states=[state]), rng


def step(game: Game, rng: Rng, seat: int, text: str) -> None:
    events = RULES.decide(game.state, seat, RULES.parse(text), rng)
    for event in events:
        game.state = RULES.evolve(game.state, event)
        game.events.append(event)
    game.commands.append((seat, text))
    game.states.append(game.state)


def random_playout(
    players: int, seed: str, bot_seed: int, limit: int = 50_000, **options: str
) -> Game:
    """A random bot for every seat, uniform over the legal commands, to the feast."""
    game, rng = begin(players, seed, **options)
    bot = random.Random(bot_seed)
    while RULES.outcome(game.state) is None and len(game.commands) < limit:
        (seat,) = RULES.to_act(game.state)
        legal = list(RULES.legal(game.state, seat))
        step(game, rng, seat, RULES.format(bot.choice(legal)))
    return game
