"""The timeline a Beast viewer's path filter reads, and the paths' nodes: what the filter
(`paths`) and the clues it reads (`clues`) share, below both.

- `Entry`: one step of the viewer's replay (an engine mark, or a rules event with the
  shadow before and after it);
- `Node`: one merged node of the consistent hidden paths;
- `overlay`: the public state with one path filled in (what a clue asks the engine about);
- `Paths`: what a clue may do to the filter (keep the nodes consistent with it, start again
  from a reveal, add a face-down card's steps, check trails).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

import msgspec

from skald.core.beast.mechanics import MOVEMENT_DECK
from skald.core.beast.state import BEAST, BeastState
from skald.events.beast import Step
from skald.projections.beast.knowledge.path_graph import Zones

replace = msgspec.structs.replace
LIMITS = tuple(MOVEMENT_DECK.values())


class Entry(NamedTuple):
    """One step of the viewer's replay: an engine mark ("mark", "undo", "redo") or a rules
    event with the shadow before and after it and, for trails, the rule that placed them
    ("hunter" with its location, "tower", "beast", or "" when not known) and every
    location that rule could have looked at; an effect's end that is its decision's only
    event has the rule "bare" (a skip, or an effect that did nothing)."""

    kind: str
    before: BeastState | None = None
    event: Any = None
    after: BeastState | None = None
    rule: str = ""
    where: str = ""
    reach: frozenset[str] | None = None


class Node:
    """One merged node while filtering (internal; never changed once in a generation)."""

    __slots__ = (
        "active",
        "counts",
        "current",
        "location",
        "parents",
        "paths",
        "trailed",
        "untrailed",
        "zones",
    )

    def __init__(
        self,
        location: str,
        active: tuple[Step, ...],
        trailed: tuple[int, ...],
        zones: Zones,
        untrailed: tuple[str, ...] = (),
        counts: tuple[int, ...] = (0,) * len(LIMITS),
        current: tuple[str, ...] = (),
    ) -> None:
        self.location = location
        self.active = active
        self.trailed = trailed
        self.zones = zones
        self.untrailed = untrailed
        self.counts = counts
        self.current = current
        self.paths = 1.0
        self.parents: tuple[tuple[int, str], ...] = ()

    def but(self, **changes: Any) -> Node:
        """A copy with some fields changed."""
        get = changes.get
        return Node(
            get("location", self.location),
            get("active", self.active),
            get("trailed", self.trailed),
            get("zones", self.zones),
            get("untrailed", self.untrailed),
            get("counts", self.counts),
            get("current", self.current),
        )


def overlay(shadow: BeastState, node: Node) -> BeastState:
    """The public state with one path filled in."""
    zones = iter(node.zones)
    frames = tuple(replace(f, zones=next(zones)) if f.hand == BEAST else f for f in shadow.frames)
    beast = replace(shadow.hands[BEAST], location=node.location)
    return replace(
        shadow,
        hands=(beast, *shadow.hands[1:]),
        active=node.active,
        trailed=node.trailed,
        frames=frames,
    )


class Paths(Protocol):
    """What a clue may do to the path filter (`paths.PathFilter`)."""

    @property
    def nodes(self) -> list[Node]:
        """The current generation."""

    def keep(self, consistent: Callable[[Node], bool]) -> None:
        """Drop the paths that contradict an observation."""

    def reset(self, location: str, zones: Zones) -> None:
        """Start again from a reveal: the Beast is at `location`."""

    def laid_card(self, shadow: BeastState) -> None:
        """A face-down movement card: every legal step from every node."""

    def trailed(self, entry: Entry) -> None:
        """Keep the paths on which the engine would place exactly these trails."""
