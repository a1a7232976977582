"""The Beast's hidden paths as data (what `possible` carries for `sample`), the share of
paths ending on each location, and a uniform draw of one path: backward sampling over
the generations `paths` builds, each parent drawn by the number of
consistent paths it stands for.
"""

from __future__ import annotations

import random

import msgspec

from skald.core.beast.evolve import trail_cards
from skald.core.beast.state import BeastState
from skald.events.beast import Step

Zones = tuple[tuple[str, ...], ...]


class PathNode(msgspec.Struct, frozen=True):
    """Paths merged into one: where they end, how many they are (a float: a weight), and
    the nodes of the previous generation they extend, with the direction of the card
    laid ("" when the generation laid none)."""

    location: str
    paths: float
    parents: tuple[tuple[int, str], ...] = ()


class PathGraph(msgspec.Struct, frozen=True):
    """The hidden paths since the last reveal, generation by generation: `laid[g]` is
    "move" (a card laid), "trail" (trails placed on `trails[g]`) or "" (the zones of the
    Beast's cards in play changed); `zones`: per node of the last generation, the zones
    of each of the Beast's cards in play, bottom first."""

    generations: tuple[tuple[PathNode, ...], ...]
    laid: tuple[str, ...]
    trails: tuple[tuple[str, ...], ...]
    zones: tuple[Zones, ...]


def locations(graph: PathGraph) -> dict[str, float]:
    """Where the Beast may be now, with the share of paths ending there."""
    last = graph.generations[-1]
    total = sum(n.paths for n in last) or 1.0
    shares: dict[str, float] = {}
    for node in last:
        shares[node.location] = shares.get(node.location, 0.0) + node.paths / total
    return dict(sorted(shares.items()))


def draw_path(
    graph: PathGraph, rnd: random.Random
) -> tuple[str, tuple[Step, ...], tuple[int, ...], Zones]:
    """One path, uniformly over all consistent ones: (location, cards, trailed, zones)."""
    last = graph.generations[-1]
    index = rnd.choices(range(len(last)), weights=[n.paths for n in last])[0]
    chain = [index]
    for g in range(len(graph.generations) - 1, 0, -1):
        node = graph.generations[g][chain[-1]]
        above = graph.generations[g - 1]
        parent, _ = rnd.choices(node.parents, weights=[above[p].paths for p, _ in node.parents])[0]
        chain.append(parent)
    chain.reverse()
    active: list[Step] = []
    trailed: set[int] = set()
    for g in range(1, len(graph.generations)):
        node = graph.generations[g][chain[g]]
        if graph.laid[g] == "move":
            direction = next(d for p, d in node.parents if p == chain[g - 1])
            active.append(Step(direction, node.location))
        elif graph.laid[g] == "trail":
            marks = BeastState(players=2, active=tuple(active), trailed=tuple(sorted(trailed)))
            trailed.update(trail_cards(marks, graph.trails[g]))
    location = graph.generations[-1][chain[-1]].location
    return location, tuple(active), tuple(sorted(trailed)), graph.zones[index]
