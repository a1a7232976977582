"""Helpers for the Beast tests: a game driven through the rules without a store.

`BeastGame` keeps the log the engine would keep (a MoveMade marker with the hidden or
public notation before each decision's events) so tests can redact it per viewer.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec

from skald.core.beast.state import BeastState, Hand
from skald.core.rng import Rng
from skald.core.rules import get_rules
from skald.events.common import GameCreated, MoveMade
from skald.events.secret import seal

RULES = get_rules("beast")
NAMES = ("Ann", "Bob", "Cid", "Dag")


class BeastGame:
    """A Beast game played command by command."""

    def __init__(self, players: int = 3, seed: str = "test", **options: str) -> None:
        created = GameCreated(
            game="beast",
            players=NAMES[:players],
            seed=seal(seed, frozenset(), "00" * 16),
            options=tuple(sorted(options.items())),
        )
        self.rng = Rng(seed.encode())
        self.state: BeastState = RULES.initial(created)
        self.log: list[Any] = []
        self.apply(RULES.start(self.state, self.rng))

    def apply(self, events: tuple[Any, ...]) -> None:
        """Fold events into the state and the log."""
        for event in events:
            self.log.append(event)
            self.state = RULES.evolve(self.state, event)

    def seat(self) -> int:
        """The (first) seat to act."""
        return sorted(RULES.to_act(self.state))[0]

    def do(self, *moves: str, seat: int | None = None) -> list[Any]:
        """Play moves in notation; returns the events of the last one."""
        events: tuple[Any, ...] = ()
        for text in moves:
            who = self.seat() if seat is None else seat
            command = RULES.parse(text)
            hidden = RULES.hide_move(self.state, who, command, self.rng)
            events = RULES.decide(self.state, who, command, self.rng)
            self.log.append(MoveMade(seat=who, move=None if hidden else text, hidden_move=hidden))
            self.apply(events)
        return list(events)

    def legal(self, seat: int | None = None) -> list[str]:
        """Legal moves in notation."""
        who = self.seat() if seat is None else seat
        return [RULES.format(c) for c in RULES.legal(self.state, who)]

    def edit(self, **changes: Any) -> None:
        """Arrange a position (scenario set-up only)."""
        self.state = msgspec.structs.replace(self.state, **changes)

    def edit_hand(self, index: int, **changes: Any) -> None:
        """Arrange one hand."""
        hands = list(self.state.hands)
        hands[index] = msgspec.structs.replace(hands[index], **changes)
        self.state = msgspec.structs.replace(self.state, hands=tuple(hands))

    def hand(self, index: int) -> Hand:
        """One hand."""
        return self.state.hands[index]


def opening(steps: tuple[str, ...]) -> tuple[str, ...]:
    """The Beast's two opening movement cards: `steps`, then No Movement for the rest
    ("The Beast then gets to move up two steps by playing two movement cards")."""
    return (*steps, *("X",) * (2 - len(steps)))


def day_one(
    players: int = 3,
    beast_steps: tuple[str, ...] = (),
    places: tuple[str, ...] = (),
    **options: str,
) -> BeastGame:
    """A first-time game on day 1 with the Beast to play (Drenched Lands for 2-3 players)."""
    options.setdefault("setup", "first")
    game = BeastGame(players, **options)
    # The opening is always two movement cards, No Movement for a step not taken.
    game.do(*(f"step {d}" for d in opening(beast_steps)))
    hunters = len(game.state.hunters)
    game.do(*(f"place {loc}" for loc in (places or ("A1",) * hunters)))
    assert game.state.phase == "day"
    assert game.state.turn == 0
    return game


def random_game(players: int, seed: int, **options: str) -> BeastGame:
    """Play a random legal game to its end."""
    game = BeastGame(players, seed=f"playout/{seed}", **options)
    rnd = random.Random(seed)
    for _ in range(20_000):
        if RULES.outcome(game.state) is not None:
            return game
        seat = game.seat()
        command = rnd.choice(list(RULES.legal(game.state, seat)))
        game.do(RULES.format(command), seat=seat)
    raise AssertionError("the game did not end")
