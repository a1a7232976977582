"""Measures how greedy Hägar games end (issue 24): `python -m tests.hagar_endgame [GAMES]`.

Greedy bots (projections/hagar/bot.py) play every seat straight through the rules, each
seeing its own view; game k at each table size uses seed `endgame/k`. Per player count it
prints how the games ended, the rounds they took, the rounds played after the last piece
came home, and each seat's share of the wins (a shared first place counts its share).
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from dataclasses import dataclass

from skald.core.hagar.state import HagarState
from skald.core.rng import Rng
from skald.core.rules import get_rules
from skald.events.common import GameCreated, Outcome
from skald.events.secret import seal
from skald.events.viewer import seat_viewer
from skald.projections.hagar.bot import choose as greedy_hagar
from skald.projections.registry import views_for

NAMES = ("Ann", "Bob", "Cid", "Dag", "Eir", "Fro")
DECISIONS = 60_000


@dataclass(frozen=True)
class Ending:
    """How one greedy game ended."""

    outcome: Outcome
    rounds: int
    rounds_after_last_home: int


def greedy_game(players: int, seed: int) -> Ending:
    """One greedy game to its end (AssertionError if it has none after DECISIONS)."""
    rules = get_rules("hagar")
    created = GameCreated(
        game="hagar", players=NAMES[:players], seed=seal(f"endgame/{seed}", frozenset(), "00" * 16)
    )
    rng = Rng(f"endgame/{seed}".encode())
    state: HagarState = rules.initial(created)
    for event in rules.start(state, rng):
        state = rules.evolve(state, event)
    views, rnd = views_for("hagar"), random.Random(seed)
    home, last_home = 0, 0
    for _ in range(DECISIONS):
        outcome = rules.outcome(state)
        if outcome is not None:
            return Ending(outcome, state.rounds, state.rounds - last_home)
        (seat,) = rules.to_act(state)
        legal = [rules.format(c) for c in rules.legal(state, seat)]
        move = greedy_hagar(views.view(state, seat_viewer(seat)), legal, rnd)
        for event in rules.decide(state, seat, rules.parse(move), rng):
            state = rules.evolve(state, event)
        now = sum(len(v.home) for v in state.vikings)
        if now != home:
            home, last_home = now, state.rounds
    raise AssertionError(f"hagar, {players} players, seed {seed}: no outcome")


def report(players: int, games: int) -> str:
    """One line of figures for `games` greedy games at `players` players."""
    endings = [greedy_game(players, seed) for seed in range(games)]
    wins = [0.0] * players
    for ending in endings:
        first = ending.outcome.ranking[0]
        for seat in first:
            wins[seat] += 1 / len(first)
    rounds = sorted(e.rounds for e in endings)
    after = max(e.rounds_after_last_home for e in endings)
    ended = Counter(e.outcome.termination for e in endings)
    shares = ", ".join(f"{w / games:.0%}" for w in wins)
    return (
        f"{players} players, {games} games: {dict(sorted(ended.items()))}; rounds median "
        f"{rounds[len(rounds) // 2]}, max {rounds[-1]}; at most {after} rounds after the last "
        f"piece came home; wins by seat {shares}"
    )


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for players in range(2, 7):
        print(report(players, games), flush=True)


if __name__ == "__main__":
    main()
