"""Where the hidden Beast may be: the hunters' pen-and-paper deduction, as a filter over
every hidden path the rules allow, and a uniform draw of one of them.

Since the last reveal the Beast has laid face-down movement cards; every sequence of them
the rules allow (roads, the map's zones on a zone-bound card, no No Movement where it
shares a location, at most the deck's cards of each direction) and that gives exactly the
public consequences the viewer saw (trails and their supply, failed searches, a zone
told, a habitat prerequisite met, a summon placed within reach, a transform of its
location) is a possible path. The filter asks the engine's own functions
(`mechanics.destinations`, `beast_trails`, `tower_trails`, `trails_event`,
`evolve.trail_cards`) on the public state with the path filled in, so it follows the
rules as implemented.

Paths are merged while nothing the rules will ever look at tells them apart: where the
Beast is, the multiset of locations of its untrailed cards (No Movement cards leave no
trail), how many cards of each direction it laid, the locations of the movement under
way and the zones its cards in play are bound to. Each merged node counts the paths it
stands for, so drawing a node by its count and then, backwards, each parent by its count
is a uniform draw over every consistent path (forward filtering, backward sampling).
The order of untrailed cards matters only when more trails are due than the 30 tokens
left, which needs more than 30 cards laid since the last reveal: the multiset is then
not enough, and the model is exact only up to that length.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import msgspec

from skald.core.beast.evolve import trail_cards
from skald.core.beast.mechanics import MOVEMENT_DECK, destinations, trails_event
from skald.core.beast.state import BEAST, BeastState, Frame
from skald.events.beast import Step

replace = msgspec.structs.replace
Zones = tuple[tuple[str, ...] | None, ...]
FLEE = Frame(hand=BEAST, card="", slot="flee", effects=(), mode="seq", pending=(), zones=())


class PathNode(msgspec.Struct, frozen=True):
    """Paths merged into one: where they end, how many they are (a float: the count is
    only a weight), and the nodes of the previous generation they extend, with the
    direction of the card laid ("" when the generation laid none)."""

    location: str
    paths: float
    parents: tuple[tuple[int, str], ...] = ()


class PathGraph(msgspec.Struct, frozen=True):
    """The hidden paths since the last reveal, generation by generation.

    `laid[g]` says what made generation g: "move" (a card laid), "trail" (trails placed
    on `trails[g]`), "" (the zones bound changed). `zones` are, per node of the last
    generation, the zones of each card in play (None: not the Beast's)."""

    generations: tuple[tuple[PathNode, ...], ...]
    laid: tuple[str, ...]
    trails: tuple[tuple[str, ...], ...]
    zones: tuple[Zones, ...]


class _Node:
    """One merged node while filtering (mutable, internal)."""

    __slots__ = ("active", "location", "parents", "paths", "trailed", "zones")

    def __init__(
        self,
        location: str,
        active: tuple[Step, ...],
        trailed: tuple[int, ...],
        zones: Zones,
        paths: float = 1.0,
        parents: tuple[tuple[int, str], ...] = (),
    ) -> None:
        self.location = location
        self.active = active
        self.trailed = trailed
        self.zones = zones
        self.paths = paths
        self.parents = parents


def overlay(
    shadow: BeastState,
    location: str,
    active: tuple[Step, ...],
    trailed: tuple[int, ...],
    zones: Zones,
) -> BeastState:
    """The public state with one hidden path filled in."""
    beast = replace(shadow.hands[BEAST], location=location)
    frames = tuple(
        frame if z is None else replace(frame, zones=z)
        for frame, z in zip(shadow.frames, zones, strict=True)
    )
    return replace(
        shadow,
        hands=(beast, *shadow.hands[1:]),
        active=active,
        trailed=trailed,
        frames=frames,
    )


class PathFilter:
    """The consistent hidden paths, updated event by event by `projections.beast_knowledge`."""

    def __init__(self, location: str, zones: Zones) -> None:
        self.reset(location, zones)

    # -- the graph -------------------------------------------------------------------

    def reset(self, location: str, zones: Zones) -> None:
        """The Beast is seen: one path, no card."""
        self.history: list[list[_Node]] = [[_Node(location, (), (), zones)]]
        self.laid: list[str] = [""]
        self.trails: list[tuple[str, ...]] = [()]
        self.moved = 0

    @property
    def nodes(self) -> list[_Node]:
        """The current generation."""
        return self.history[-1]

    def _next(
        self, children: list[tuple[int, str, _Node]], laid: str, trails: tuple[str, ...] = ()
    ) -> None:
        """A new generation from (parent index, direction, child) triples, merged by key."""
        merged: dict[tuple[object, ...], _Node] = {}
        parents = self.nodes
        for parent, direction, child in children:
            key = self._key(child)
            known = merged.get(key)
            edge = ((parent, direction),)
            if known is None:
                child.paths, child.parents = parents[parent].paths, edge
                merged[key] = child
            else:
                known.paths += parents[parent].paths
                known.parents += edge
        self.history.append(list(merged.values()))
        self.laid.append(laid)
        self.trails.append(trails)

    def _key(self, node: _Node) -> tuple[object, ...]:
        marked = set(node.trailed)
        untrailed = sorted(
            c.location for i, c in enumerate(node.active) if c.direction != "X" and i not in marked
        )
        counts = tuple(sum(1 for c in node.active if c.direction == d) for d in MOVEMENT_DECK)
        current = node.active[len(node.active) - self.moved :] if self.moved else ()
        return (
            node.location,
            tuple(untrailed),
            counts,
            frozenset(c.location for c in current),
            node.zones,
        )

    def keep(self, consistent: Callable[[_Node], bool]) -> None:
        """Drop the paths that contradict an observation."""
        self.history[-1] = [node for node in self.nodes if consistent(node)]

    def state_of(self, shadow: BeastState, node: _Node) -> BeastState:
        """The public state with `node`'s path filled in."""
        return overlay(shadow, node.location, node.active, node.trailed, node.zones)

    # -- observations ------------------------------------------------------------------

    def laid_card(self, shadow: BeastState) -> None:
        """A face-down movement card: every legal step from every node."""
        children: list[tuple[int, str, _Node]] = []
        for index, node in enumerate(self.nodes):
            state = self.state_of(shadow, node)
            frame = state.frames[-1] if state.frames and state.frames[-1].hand == BEAST else FLEE
            for direction in destinations(state, BEAST, frame):
                there = (
                    node.location
                    if direction == "X"
                    else state.board.roads[node.location][direction]
                )
                child = _Node(
                    there, (*node.active, Step(direction, there)), node.trailed, node.zones
                )
                children.append((index, direction, child))
        self.moved += 1
        self._next(children, "move")

    def trailed(
        self,
        shadow: BeastState,
        locations: tuple[str, ...],
        due: Callable[[BeastState], set[int]] | None,
    ) -> None:
        """Trails placed: keep the paths whose due trails are exactly these, and mark them."""
        children: list[tuple[int, str, _Node]] = []
        for index, node in enumerate(self.nodes):
            state = self.state_of(shadow, node)
            if due is not None and trails_event(state, due(state)).locations != locations:
                continue
            try:
                marked = trail_cards(state, locations)
            except StopIteration:  # no untrailed card there on this path
                continue
            trailed = tuple(sorted({*node.trailed, *marked}))
            children.append((index, "", _Node(node.location, node.active, trailed, node.zones)))
        self._next(children, "trail", locations)

    def movement_done(self) -> int:
        """The first card of the movement that just ended (for `beast_trails`)."""
        first = len(self.nodes[0].active) - self.moved if self.nodes else 0
        self.moved = 0
        return first

    def rezone(self, zones_of: Callable[[_Node], Zones]) -> None:
        """The cards in play changed (pushed, narrowed, resolved): new zones per node."""
        changed = [zones_of(node) for node in self.nodes]
        if all(z == node.zones for z, node in zip(changed, self.nodes, strict=True)):
            return
        children = [
            (i, "", _Node(n.location, n.active, n.trailed, z))
            for i, (n, z) in enumerate(zip(self.nodes, changed, strict=True))
        ]
        self._next(children, "")

    # -- the result --------------------------------------------------------------------

    def graph(self) -> PathGraph:
        """The filter as data (what `possible` carries for `sample`)."""
        return PathGraph(
            generations=tuple(
                tuple(PathNode(n.location, n.paths, n.parents) for n in generation)
                for generation in self.history
            ),
            laid=tuple(self.laid),
            trails=tuple(self.trails),
            zones=tuple(n.zones for n in self.nodes),
        )


def locations(graph: PathGraph) -> dict[str, float]:
    """Where the Beast may be now, with the share of paths ending there."""
    last = graph.generations[-1]
    total = sum(n.paths for n in last) or 1.0
    shares_by: dict[str, float] = {}
    for node in last:
        shares_by[node.location] = shares_by.get(node.location, 0.0) + node.paths / total
    return dict(sorted(shares_by.items()))


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
