"""Hägar, third rules pass: each deviation a careful reading found, as a scenario reached
through legal play and quoting the rulebook sentence it follows.

A position is reached from `RULES.start` with a chosen seed and a random bot that picks
among the legal commands only (as `random_playout` does); the seeds were found by a
search for the position the rule needs, and each test first asserts that position.
"""

from __future__ import annotations

import random

import pytest

from skald.core.hagar import legal
from skald.core.rng import Rng
from skald.events.hagar import RoadsideLootFound, VikingBoarded, VikingWalked
from tests.test_hagar_support import RULES, Game, begin, step


def played(players: int, seed: str, bot_seed: int, decisions: int) -> tuple[Game, Rng]:
    """A game from its seeded start through `decisions` random legal commands."""
    game, rng = begin(players, seed)
    bot = random.Random(bot_seed)
    for _ in range(decisions):
        (seat,) = RULES.to_act(game.state)
        step(game, rng, seat, RULES.format(bot.choice(list(RULES.legal(game.state, seat)))))
    return game, rng


def moves(game: Game, seat: int) -> set[str]:
    return {RULES.format(c) for c in RULES.legal(game.state, seat)}


# (players, seed, bot seed, decisions, seat, from, to, points, the shorter path taken before)
#
# Own harbour: Madrid harbour, where the Viking's ship lies and loot was dropped.
#
#     fr-5 ── es-2 ── madrid-port        2 spaces: boarding, the surplus expires
#       │               │
#     madrid ──────── es-1               3 spaces: the whole throw
#
# Crossroads ce-2, where loot was dropped:
#
#     de-1 ── de-2 ── cologne ── ce-2    3 spaces: a crossroads stops the walk
#       │               │
#     hamburg-port ── de-3               4 spaces: the whole throw
EXACT = [
    (2, "s159", 159, 346, 1, "fr-5", "madrid-port", 3, ("fr-5", "es-2", "madrid-port")),
    (2, "s99", 99, 412, 1, "de-1", "ce-2", 4, ("de-1", "de-2", "cologne", "ce-2")),
]


@pytest.mark.parametrize(
    ("players", "seed", "bot_seed", "decisions", "seat", "start", "to", "points", "shorter"),
    EXACT,
)
def test_roadside_loot_on_a_stop_space_is_reached_with_the_whole_throw(
    players: int,
    seed: str,
    bot_seed: int,
    decisions: int,
    seat: int,
    start: str,
    to: str,
    points: int,
    shorter: tuple[str, ...],
) -> None:
    """Rulebook "Loot at the roadside": "A loot piece that was thrown away at the roadside
    (→ dragon) may be taken along by any Viking who reaches that space directly with the
    matching point number." "On Raiding Expeditions": "moves that many spaces in a
    direction of his choice".

    The Viking's own harbour and a crossroads stop a walk early, but each can also be
    reached with the whole throw by another way; `walk SPACE` names only the end, so the
    move goes the whole way and the Viking may take the loot (before, the move took the
    shorter way and the loot was out of reach)."""
    game, rng = played(players, seed, bot_seed, decisions)
    state = game.state
    viking = state.vikings[seat]
    assert RULES.to_act(state) == frozenset({seat})
    assert (state.phase, viking.at, viking.aboard) == ("move", start, False)
    assert state.leg is not None
    assert state.leg.points == points
    assert state.lying(to)
    assert legal.can_loot(viking)
    assert f"walk {to}" in moves(game, seat)
    before = len(game.events)
    step(game, rng, seat, f"walk {to}")
    events = game.events[before:]
    walked = next(e for e in events if isinstance(e, VikingWalked))
    assert len(walked.path) - 1 == points
    assert walked.path != shorter
    assert RoadsideLootFound(seat=seat, space=to) in events
    assert moves(game, seat) == {"take", "leave"}
    lying = state.lying(to)
    before = len(game.events)
    step(game, rng, seat, "take")
    assert game.state.lying(to) == lying[1:]
    if to == viking.ship:  # taken along, then loaded as he boards
        assert any(isinstance(e, VikingBoarded) for e in game.events[before:])
        assert game.state.vikings[seat].cargo[-1] == lying[0]
    else:
        assert game.state.vikings[seat].carried == (lying[0],)
