"""A game's `rules.decide`, handed a command meant for another seat or another moment,
refuses it with a SkaldError naming the problem: never a bare IndexError or KeyError.

The engine refuses an out-of-turn seat before the rules see it (`kernel.check_turn`), so
this is defence in depth: the rules must not crash, nor accept a decision, on a command
that is not theirs to take. Random playouts of every game and player count; at each step
every legal command of every seat is tried by every other seat, commands legal at earlier
moments are tried again, and garbled notations go through `rules.parse` first. Whatever
`decide` accepts must come from a seat the rules say may act.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from skald.core.errors import SkaldError
from skald.core.rng import Rng
from skald.core.rules import get_rules
from skald.events.common import GameCreated
from skald.events.secret import seal

CONFIGS: list[tuple[str, int, dict[str, str]]] = [
    ("beowulf", 2, {}),
    ("beowulf", 3, {"refill": "always"}),
    ("beowulf", 4, {"last_space": "offer"}),
    ("beast", 2, {"setup": "first"}),
    ("beast", 3, {"contract": "blood-moon", "beast": "Hogbad"}),
    ("beast", 4, {"beast": "Raaga"}),
    ("hagar", 2, {}),
    ("hagar", 3, {"uncertainties": "choose"}),
    ("hagar", 4, {"feast_at": "3"}),
    ("hagar", 5, {}),
    ("hagar", 6, {}),
]
STEPS = 1000
"""Decisions per playout: enough to reach every game's later phases, within the budget."""
STALE = 12
"""Commands from earlier moments tried again at each step."""
GARBLED = 4
"""Legal notations garbled at each step (each into a few variants)."""
WORDS = ("0", "1", "2", "5", "9", "99", "-1", "+1", "A1", "Z9", "ship", "city", "nowhere")
NUMBERS = ("0", "4", "7", "9", "13", "99")


def garble(text: str, rnd: random.Random) -> list[str]:
    """Variants of a legal notation: a number changed, a word swapped, added or dropped."""
    tokens = text.split()
    variants = []
    for _ in range(3):
        changed = list(tokens)
        i = rnd.randrange(len(changed))
        roll = rnd.random()
        if roll < 0.4 and re.search(r"\d", changed[i]):
            changed[i] = re.sub(r"\d+", lambda _: rnd.choice(NUMBERS), changed[i])
        elif roll < 0.6:
            changed.append(rnd.choice(WORDS))
        elif roll < 0.8 and len(changed) > 1:
            del changed[rnd.randrange(1, len(changed))]
        else:
            changed[i] = rnd.choice(WORDS)
        variants.append(" ".join(changed))
    return variants


def try_decide(rules: Any, state: Any, seat: int, command: Any, rng: Rng) -> None:
    """`decide` refuses with a SkaldError, or accepts for a seat that may act."""
    try:
        rules.decide(state, seat, command, rng)
    except SkaldError:
        return
    except Exception as error:  # pragma: no cover - the failure this test looks for
        pytest.fail(
            f"{rules.name}: seat {seat} {rules.format(command)!r} raised "
            f"{type(error).__name__}: {error}"
        )
    assert seat in rules.to_act(state), (
        f"{rules.name}: seat {seat} {rules.format(command)!r} was accepted, "
        f"but the rules wait for {sorted(rules.to_act(state))}"
    )


def probe(
    rules: Any, state: Any, legal: dict[int, list[Any]], earlier: list[Any], rnd: random.Random
) -> None:
    """Every seat's legal commands by every other seat, earlier commands by every seat,
    garbled notations by every seat."""
    rng = Rng(f"robust/{rnd.random()}".encode())
    seats = range(len(legal))
    for owner, commands in legal.items():
        for command in commands:
            for seat in seats:
                if seat != owner:
                    try_decide(rules, state, seat, command, rng)
    for command in rnd.sample(earlier, min(len(earlier), STALE)):
        for seat in seats:
            try_decide(rules, state, seat, command, rng)
    texts = [rules.format(c) for commands in legal.values() for c in commands]
    for text in rnd.sample(texts, min(len(texts), GARBLED)):
        for variant in garble(text, rnd):
            try:
                command = rules.parse(variant)
            except SkaldError:
                continue
            for seat in seats:
                try_decide(rules, state, seat, command, rng)


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS)
def test_decide_refuses_other_seats_and_moments_cleanly(
    game: str, players: int, options: dict[str, str]
) -> None:
    rules = get_rules(game)
    created = GameCreated(
        game=game,
        players=tuple(f"P{i}" for i in range(players)),
        options=tuple(sorted(options.items())),
        seed=seal(f"robust/{game}/{players}", frozenset(), "00" * 16),
    )
    state = rules.initial(created)
    for event in rules.start(state, Rng(b"start")):
        state = rules.evolve(state, event)
    rnd = random.Random(f"{game}/{players}")
    earlier: list[Any] = []
    for step in range(STEPS):
        to_act = sorted(rules.to_act(state))
        if not to_act:
            break
        legal = {seat: list(rules.legal(state, seat)) for seat in range(players)}
        probe(rules, state, legal, earlier, rnd)
        earlier.extend(command for commands in legal.values() for command in commands)
        del earlier[:-200]
        seat = rnd.choice(to_act)
        if not legal[seat]:
            break
        rng = Rng(f"robust/{step}".encode())
        for event in rules.decide(state, seat, rnd.choice(legal[seat]), rng):
            state = rules.evolve(state, event)
