"""A test bot for the Beast that transforms as much as it can: it plays every card and
upgrade that transforms, lets its summons use their abilities, heads for the settlements
(and, once none is left, for the hunters), attacks hunters but never settlers. Its games
turn settlements into the Beast's habitat and kill hunters, the road to a night where a
dead hunter must return and no settlement is left (issue 24). Hunters play greedy."""

from __future__ import annotations

import random

from skald.core.beast.data import boards, card_index, pieces, side_of
from skald.projections.beast.bot import choose as greedy_beast
from skald.projections.beast.view import BeastView


def _score(view: BeastView, move: str) -> float:
    board = boards()[view.map]
    words = move.split()
    head = words[0]
    if head == "play" and " ".join(words[1:]) in card_index():
        ops = {e.op for e in side_of(" ".join(words[1:]), True).effects}
        return 50 * ("transform" in ops) + 10 * ("move" in ops)
    if head in ("do", "upgrade"):
        return 40
    if head == "attack":
        kind = words[1].partition("/")[2]
        if kind in pieces() and pieces()[kind].settler:
            return -100
        return 60 if not kind else 5
    if len(words) > 1 and words[1] == "ability":
        return 45
    if len(words) > 1 and words[1] == "attack":
        return -50
    if head == "step":
        here = view.beast_location or view.standee
        there = here if words[1] == "X" else board.roads[here][words[1]]
        habitats = dict(board.habitat) | dict(view.habitats)
        goal = [loc for loc, h in habitats.items() if h == "settlement"] or [
            h.location for h in view.hands[1:] if h.location
        ]
        distance = board.distances(there)
        return 20 - min((distance.get(g, 99) for g in goal), default=0)
    return 0


def transforming_beast(view: BeastView, legal: list[str], rnd: random.Random) -> str:
    """The Beast's seat transforms aggressively; a hunter's seat plays greedy."""
    if view.role != "beast":
        return greedy_beast(view, legal, rnd)
    best = max(_score(view, move) for move in legal)
    return rnd.choice([move for move in legal if _score(view, move) == best])
