"""Where the hidden Beast may be: the hunters' pen-and-paper deduction, as a filter over
every hidden path the rules allow, and a uniform draw of one of them.

Since the last reveal the Beast has laid face-down movement cards; every sequence of them
the rules allow (roads, the zone a zone-bound card is bound to, no No Movement where it
shares a location, at most the deck's cards of each direction) that gives exactly the
public consequences the viewer saw (trails and their supply, failed searches, a zone
told, a habitat prerequisite met, a summon placed within reach, a transform of its
location) is a possible path. The filter asks the engine's own functions
(`mechanics.destinations`, `beast_trails`, `tower_trails`, `trails_event`,
`evolve.trail_cards`, `evolve` for a card's zones) on the public state with one path
filled in, so it follows the rules as implemented.

Paths are merged while nothing the rules will look at before the log's end tells them
apart (the log is read to its end first, so the filter knows what is still to come):
where the Beast is, the cards bound to zones in play, the untrailed cards on the
locations a later trail check can look at (a check can only place trails on its
hunter's location, the locations near a manned watchtower, and, after the Beast moves,
the locations with a hunter or settler), the movement under way on those, and how many
cards of each direction it laid (a direction's limit bars it). Each merged node counts
the paths it stands for; drawing a node of the last generation by its count and then,
backwards, each parent by its count is a uniform draw over every consistent path
(forward filtering, backward sampling). The order of the untrailed cards matters only
when more trails are due than tokens are left, which needs more than 30 cards laid
since the reveal and all 30 tokens placed by the log's end: such stretches keep it.

A later request reads on (`PathFilter(timeline, previous)`): the run resumes from the
previous run's state before the first step whose plan differs in what that step looked
up (the locations it asked the reach, the Beast's next check and the caps about), so a
request pays for the steps a new clue changes, not for the whole stretch.

A run that passes a reveal made while some of the Beast's cards are in play (their zones
were bound where it stood unseen, so the deduction cannot start afresh there) keeps that
reveal's generation (`Anchor`: where the Beast was shown and the zones of its cards) and
drops what came before it (`cut`): a reveal is an undo barrier, and what the plan says
after it reads only what comes after it, so the steps before it can never be taken again.
A later run begins from that anchor instead of from the reveal before, so what a run keeps
(and what projections/beast/knowledge/stored.py stores) is the stretch since the last reveal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import msgspec

from skald.core.beast.evolve import evolve, trail_cards
from skald.core.beast.mechanics import (
    MOVEMENT_DECK,
    beast_trails,
    destinations,
    tower_trails,
    trails_event,
)
from skald.core.beast.state import BEAST, BeastState, Frame
from skald.core.beast.supply import TRAIL_TOKENS
from skald.events.beast import BeastMoved, BeastRevealed, EffectProgressed, Step, TrailsPlaced
from skald.projections.beast.knowledge.clues import CLUES
from skald.projections.beast.knowledge.path_graph import PathGraph, PathNode, Zones
from skald.projections.beast.knowledge.timeline import LIMITS, Entry, Node, overlay

replace = msgspec.structs.replace
SAVE_EVERY = 8  # clocks between the states a later run may resume from
FLEE = Frame(hand=BEAST, card="", slot="flee", effects=(), mode="seq", pending=(), zones=())


class Anchor(NamedTuple):
    """A reveal made with some of the Beast's cards in play, and the generation a run
    reset to there: where the Beast was shown and the zones of each of its cards in play
    (as the paths before it bound them). A run may begin here (`PathFilter.base`)."""

    entry: Entry
    location: str
    zones: Zones


def beast_zones(state: BeastState) -> Zones:
    """The zones of the Beast's cards in play, bottom first."""
    return tuple(f.zones for f in state.frames if f.hand == BEAST)


class _Plan:
    """What is still to come after each step of the replay: the locations a later trail
    check may look at, the cards still to be laid, and whether order matters."""

    def __init__(self, timeline: Sequence[Entry]) -> None:
        n = len(timeline)
        self.reach: list[frozenset[str] | None] = [frozenset()] * n
        self.remaining = [0] * n
        self.ordered = [False] * n
        self.shown: list[tuple[Step, ...] | None] = [None] * n
        self.beast_check: list[frozenset[str] | None] = [frozenset()] * n
        self.caps: dict[int, dict[str, int]] = {}
        caps: dict[str, int] = {}
        reach: frozenset[str] | None = frozenset()
        beast_check: frozenset[str] | None = frozenset()
        remaining = 0
        shown: tuple[Step, ...] | None = None
        for clock in range(n - 1, -1, -1):
            self.reach[clock], self.remaining[clock] = reach, remaining
            self.shown[clock], self.beast_check[clock] = shown, beast_check
            entry = timeline[clock]
            kind = type(entry.event)
            if kind is BeastMoved:
                self.caps[clock] = caps  # never changed: each check makes a new one
                remaining += 1
            elif kind is BeastRevealed:
                caps = {}
                reach, remaining, shown = frozenset(), 0, entry.event.cards
            elif kind is TrailsPlaced:
                caps = _caps(caps, entry)
                if entry.rule in ("beast", ""):
                    beast_check = entry.reach
                if reach is not None:
                    reach = None if entry.reach is None else reach | entry.reach
        # a stretch between reveals whose checks may have wanted more trails than the
        # tokens left: more cards laid than tokens, and every token placed by the end
        laid, placed, segment, segments = 0, 0, 0, [0]
        exhausted: list[bool] = []
        for entry in timeline:
            kind = type(entry.event)
            if kind is BeastRevealed:
                exhausted.append(placed >= TRAIL_TOKENS)
                placed, segment = 0, segment + 1
            elif kind is TrailsPlaced:
                placed += len(entry.event.locations)
            segments.append(segment)
        exhausted.append(placed >= TRAIL_TOKENS)
        for clock, entry in enumerate(timeline):
            kind = type(entry.event)
            if kind is BeastRevealed:
                laid = 0
            elif kind is BeastMoved:
                laid += 1
            self.ordered[clock] = (
                exhausted[segments[clock + 1]] and laid + self.remaining[clock] > TRAIL_TOKENS
            )

    def agrees(
        self, other: _Plan, clock: int, looked: tuple[set[str], set[str], set[str]] | None
    ) -> bool:
        """This plan tells a filter step at `clock` what `other` told it, for the locations
        that step looked up (`looked`: in the reach, in the Beast's next check, capped)."""
        if self.ordered[clock] != other.ordered[clock] or self.shown[clock] != other.shown[clock]:
            return False
        if looked is None:
            return True
        reach, check, capped = looked
        return (
            _within(self.reach[clock], reach) == _within(other.reach[clock], reach)
            and _within(self.beast_check[clock], check) == _within(other.beast_check[clock], check)
            and _capped(self.caps.get(clock), capped) == _capped(other.caps.get(clock), capped)
        )


def _within(reach: frozenset[str] | None, looked: set[str]) -> frozenset[str]:
    return frozenset(looked) if reach is None else reach.intersection(looked)


def _capped(caps: dict[str, int] | None, looked: set[str]) -> dict[str, int]:
    return {} if caps is None else {loc: caps[loc] for loc in looked if loc in caps}


def _caps(caps: dict[str, int], entry: Entry) -> dict[str, int]:
    """Before a trail check: the most untrailed cards each location may hold until then.
    A hunter's or watchtower's check looks at known locations and trails every card on
    them (so a path with more cards there than trails shown is dead at once); the
    Beast's own check may or may not look at a location, so it bounds nothing before it."""
    if entry.reach is None:
        return {}
    if entry.rule in ("hunter", "tower"):
        shown = entry.event.locations
        return caps | {loc: shown.count(loc) for loc in entry.reach}
    return {loc: n for loc, n in caps.items() if loc not in entry.reach}


class PathFilter:
    """The consistent hidden paths, read from the viewer's replay (`run`).

    `previous`: a run over an earlier part of the same stretch (the same timeline, fewer
    entries). The run then begins where that run's plan first differs from this one's
    (what is still to come changed there), from that run's state at a checkpoint at or
    before it: the very steps a run from the start would take, skipped."""

    def __init__(self, timeline: Sequence[Entry], previous: PathFilter | None = None) -> None:
        start, self.base = _start(timeline, previous)
        timeline = timeline[start:]
        self.timeline = timeline
        self.plan = _Plan(timeline)
        self.clock = 0
        self.history: list[list[Node]] = []
        self.laid: list[str] = []
        self.trails: list[tuple[str, ...]] = []
        self.marks: list[tuple[Any, ...]] = []
        self.undone: list[tuple[tuple[Any, ...], tuple[Any, ...]]] = []
        self.saved: dict[int, tuple[Any, ...]] = {}  # the whole state before some clocks
        # per clock, the locations whose place in the plan's reach, the Beast's next
        # check and the caps the step looked up (what a later plan must agree on)
        self.looked: list[tuple[set[str], set[str], set[str]] | None] = []
        self.looking: tuple[set[str], set[str], set[str]] = (set(), set(), set())
        self.converted: dict[int, tuple[list[Node], tuple[PathNode, ...]]] = {}
        self.anchored: tuple[int, Anchor, int] | None = None  # (clock, anchor, marks then)
        self.begin = self._resume(previous) if previous is not None else 0

    @property
    def nodes(self) -> list[Node]:
        """The current generation."""
        return self.history[-1]

    def run(self) -> PathFilter:
        """Filter through the whole replay (from `begin`)."""
        for clock in range(self.begin, len(self.timeline)):
            self.clock = clock
            if clock % SAVE_EVERY == 0:
                self.saved[clock] = self.whole()
            self.looking = (set(), set(), set())
            entry = self.timeline[clock]
            self.looked.append(self.looking if entry.kind == "event" else None)
            begun = bool(self.history)
            self.step(entry)
            if not any(self.looking):
                self.looked[-1] = None
            if begun and _anchors(entry):
                node = self.history[0][0]  # the reveal's reset (a new history)
                self.anchored = (clock, Anchor(entry, node.location, node.zones), len(self.marks))
        self.saved[len(self.timeline)] = self.whole()
        if self.anchored is not None:
            self.cut(*self.anchored)
        return self

    def cut(self, clock: int, anchor: Anchor, marks: int) -> None:
        """Begin at the reveal at `clock` (`anchor`), forgetting the steps before it: the
        marks on the undo stack then (`marks` of them) can never be undone (the reveal is
        a barrier), and the plan from it on reads only what comes after it."""
        self.timeline = self.timeline[clock:]
        self.base, self.anchored = anchor, None
        self.plan = _Plan(self.timeline)
        self.looked = self.looked[clock:]
        self.saved = {
            c - clock: (*whole[:3], whole[3][marks:], whole[4])
            for c, whole in self.saved.items()
            if c > clock
        }
        self.marks = self.marks[marks:]
        self.clock -= clock
        self.begin = max(0, self.begin - clock)

    def _resume(self, previous: PathFilter) -> int:
        """Take over `previous`'s state before the first clock it planned differently."""
        done = previous.timeline
        if not done or len(done) > len(self.timeline):
            return 0
        if self.timeline[0] is not done[0] or self.timeline[len(done) - 1] is not done[-1]:
            return 0
        same = 0
        while same < len(done) and self.plan.agrees(previous.plan, same, previous.looked[same]):
            same += 1
        clock = max((c for c in previous.saved if c <= same), default=0)
        if clock == 0:
            return 0
        self.saved = {c: s for c, s in previous.saved.items() if c <= clock}
        self.converted = previous.converted
        self.looked = previous.looked[:clock]
        history, laid, trails, marks, undone = self.saved[clock]
        self.restore((history, laid, trails))
        self.marks, self.undone = list(marks), list(undone)
        return clock

    def whole(self) -> tuple[Any, ...]:
        """Everything the filter holds, undo stacks included (for a later run to resume)."""
        return (*self.snapshot(), tuple(self.marks), tuple(self.undone))

    def step(self, entry: Entry) -> None:
        """One step of the replay."""
        if entry.kind == "mark":
            self.marks.append(self.snapshot())
            self.undone.clear()
        elif entry.kind == "undo" and self.marks:
            before = self.marks.pop()
            self.undone.append((before, self.snapshot()))
            self.restore(before)
        elif entry.kind == "redo" and self.undone:
            before, after = self.undone.pop()
            self.restore(after)
            self.marks.append(before)
        elif entry.before is not None and entry.after is not None:
            if not self.history:
                if self.base is not None:  # the reveal this run begins from, as it was
                    self.reset(self.base.location, self.base.zones)
                    self.rezone(entry.before, entry.event, entry.after)
                elif entry.after.hands:
                    self.reset(entry.after.beast.location, beast_zones(entry.after))
                return
            self.observe(entry)
            self.rezone(entry.before, entry.event, entry.after)

    def snapshot(self) -> tuple[Any, ...]:
        """The filter's state (generations are never changed once made)."""
        return (tuple(self.history), tuple(self.laid), tuple(self.trails))

    def restore(self, snap: tuple[Any, ...]) -> None:
        """Back to a snapshot."""
        self.history, self.laid, self.trails = list(snap[0]), list(snap[1]), list(snap[2])

    # -- generations -------------------------------------------------------------------

    def reset(self, location: str, zones: Zones) -> None:
        """The Beast is seen: one path, no card."""
        self.history = [[Node(location, (), (), zones)]]
        self.laid, self.trails = [""], [()]

    def _next(
        self, children: list[tuple[int, str, Node]], laid: str, trails: tuple[str, ...] = ()
    ) -> None:
        """A new generation from (parent index, direction, child), merged by key."""
        merged: dict[tuple[object, ...], Node] = {}
        parents = self.nodes
        for parent, direction, child in children:
            key = self._key(child)
            known = merged.get(key)
            if known is None:
                child.paths, child.parents = parents[parent].paths, ((parent, direction),)
                merged[key] = child
            else:
                known.paths += parents[parent].paths
                known.parents += ((parent, direction),)
        self.history.append(list(merged.values()))
        self.laid.append(laid)
        self.trails.append(trails)

    def _key(self, node: Node) -> tuple[object, ...]:
        """What the rest of the log can still tell apart (`untrailed` and `current` keep
        only the locations a later check may look at: see `_within_reach`)."""
        current = frozenset(self._before_check(node.current))
        return (node.location, node.untrailed, node.counts, current, node.zones)

    def _within_reach(self, locations: tuple[str, ...]) -> tuple[str, ...]:
        """The locations a later trail check may still look at (the set only shrinks)."""
        reach = self.plan.reach[self.clock]
        self.looking[0].update(locations)
        return locations if reach is None else tuple(loc for loc in locations if loc in reach)

    def keep(self, consistent: Callable[[Node], bool]) -> None:
        """Drop the paths that contradict an observation."""
        self.history[-1] = [node for node in self.nodes if consistent(node)]

    # -- observations ------------------------------------------------------------------

    def observe(self, entry: Entry) -> None:
        """Keep the paths consistent with one event (the public checks are in
        `clues`, called from here by event type)."""
        clue = CLUES.get(type(entry.event))
        if clue is not None:
            clue(self, entry)

    def laid_card(self, shadow: BeastState) -> None:
        """A face-down movement card: every legal step from every node."""
        steps: dict[tuple[object, ...], list[str]] = {}
        children: list[tuple[int, str, Node]] = []
        top = shadow.frames[-1] if shadow.frames and shadow.frames[-1].hand == BEAST else None
        caps = None if self.plan.ordered[self.clock] else self.plan.caps.get(self.clock)
        for index, node in enumerate(self.nodes):
            memo = (
                node.location,
                node.zones[-1] if top else None,
                tuple(c >= m for c, m in zip(node.counts, LIMITS, strict=True)),
            )
            if memo not in steps:
                state = overlay(shadow, node)
                steps[memo] = destinations(state, BEAST, state.frames[-1] if top else FLEE)
            untrailed = self._within_reach(node.untrailed)
            for direction in steps[memo]:
                if direction != "X" and caps is not None:
                    there = shadow.board.roads[node.location][direction]
                    self.looking[2].add(there)
                    if there in caps and untrailed.count(there) >= caps[there]:
                        continue  # more cards there than the next check will show
                there = (
                    node.location
                    if direction == "X"
                    else shadow.board.roads[node.location][direction]
                )
                child = Node(
                    there,
                    (*node.active, Step(direction, there)),
                    node.trailed,
                    node.zones,
                    untrailed if direction == "X" else self._add(untrailed, there),
                    tuple(
                        c + (d == direction)
                        for c, d in zip(node.counts, MOVEMENT_DECK, strict=True)
                    ),
                    (*node.current, there),
                )
                children.append((index, direction, child))
        shown = self.plan.shown[self.clock]
        if shown is not None:  # a stretch the log shows later: only its own path
            children = [c for c in children if c[2].active == shown[: len(c[2].active)]]
        self._next(children, "move")

    def _before_check(self, current: tuple[str, ...]) -> tuple[str, ...]:
        """The locations of the movement under way the check after it may look at (the
        node keeps them all: their number says where the movement began)."""
        reach = self.plan.beast_check[self.clock]
        self.looking[1].update(current)
        return current if reach is None else tuple(loc for loc in current if loc in reach)

    def _add(self, untrailed: tuple[str, ...], location: str) -> tuple[str, ...]:
        reach = self.plan.reach[self.clock]
        self.looking[0].add(location)
        if reach is not None and location not in reach:
            return untrailed
        if self.plan.ordered[self.clock]:
            return (*untrailed, location)
        return tuple(sorted((*untrailed, location)))

    def trailed(self, entry: Entry) -> None:
        """Trails placed: keep the paths whose due trails are exactly these, and mark them."""
        shadow, locations = entry.before, entry.event.locations
        assert shadow is not None
        due = _due(entry)
        expected: dict[tuple[object, ...], tuple[str, ...] | None] = {}
        ordered = self.plan.ordered[self.clock]
        reach = entry.reach
        children: list[tuple[int, str, Node]] = []
        for index, node in enumerate(self.nodes):
            if due is not None:
                memo: tuple[object, ...] = (
                    (index,)
                    if ordered or reach is None
                    else (
                        tuple(loc for loc in node.untrailed if loc in reach),
                        frozenset(loc for loc in node.current if loc in reach),
                    )
                )
                if memo not in expected:
                    state = overlay(shadow, node)
                    expected[memo] = trails_event(state, due(state, node)).locations
                if expected[memo] != locations:
                    continue
            try:
                marked = trail_cards(
                    BeastState(players=2, active=node.active, trailed=node.trailed), locations
                )
            except StopIteration:  # no untrailed card there on this path
                continue
            untrailed = list(node.untrailed)
            for loc in locations:
                untrailed.remove(loc)
            child = node.but(
                trailed=tuple(sorted({*node.trailed, *marked})),
                untrailed=self._within_reach(tuple(untrailed)),
                current=() if entry.rule == "beast" else node.current,
            )
            children.append((index, "", child))
        self._next(children, "trail", locations)

    def rezone(self, before: BeastState, event: Any, after: BeastState) -> None:
        """The Beast's cards in play changed (played, narrowed, resolved): new zones."""
        was, now = beast_zones(before), beast_zones(after)
        if len(now) == len(was) and not (
            isinstance(event, EffectProgressed)
            and before.frames
            and before.frames[-1].hand == BEAST
            and any(e.zone for e in before.frames[-1].effects)
        ):
            return
        narrowed: dict[tuple[object, ...], Zones] = {}
        changed: list[tuple[int, str, Node]] = []
        for index, node in enumerate(self.nodes):
            if len(now) < len(was):
                zones = node.zones[: len(now)]
            elif len(now) > len(was):
                zones = node.zones + (after.board.zones_of(node.location),) * (len(now) - len(was))
            else:
                memo = (node.location, node.zones)
                if memo not in narrowed:
                    narrowed[memo] = beast_zones(evolve(overlay(before, node), event))
                zones = narrowed[memo]
            changed.append((index, "", node.but(zones=zones)))
        if any(
            child.zones != node.zones
            for (_, _, child), node in zip(changed, self.nodes, strict=True)
        ):
            self._next(changed, "")

    # -- the result --------------------------------------------------------------------

    def graph(self) -> PathGraph:
        """The filter as data (what `possible` carries for `sample`); a generation is
        converted once, and again only by a run that made it anew."""
        converted = {}
        for generation in self.history:
            known = self.converted.get(id(generation))
            if known is None or known[0] is not generation:
                nodes = tuple(PathNode(n.location, n.paths, n.parents) for n in generation)
                known = (generation, nodes)
            converted[id(generation)] = known
        self.converted = converted
        return PathGraph(
            generations=tuple(converted[id(g)][1] for g in self.history),
            laid=tuple(self.laid),
            trails=tuple(self.trails),
            zones=tuple(n.zones for n in self.nodes),
        )


def _start(timeline: Sequence[Entry], previous: PathFilter | None) -> tuple[int, Anchor | None]:
    """Where the deduction may start: the last reveal with none of the Beast's cards in
    play (their zones were bound where the Beast stood unseen), or, when it is later, the
    reveal the previous run began from with its generation (its `base`). Nothing before a
    reveal says anything of the path after it, and no undo goes back over one (a barrier)."""
    base = previous.base if previous is not None else None
    for clock in range(len(timeline) - 1, -1, -1):
        entry = timeline[clock]
        if base is not None and entry is base.entry:
            return clock, base
        if _cards_in_play_at_reveal(entry) is False:
            return clock, None
    return 0, None


def _anchors(entry: Entry) -> bool:
    """A reveal with some of the Beast's cards in play (a run may begin from it only with
    the generation it reset to: `Anchor`)."""
    return _cards_in_play_at_reveal(entry) is True


def _cards_in_play_at_reveal(entry: Entry) -> bool | None:
    """Whether some of the Beast's cards are in play after the reveal `entry` (None: not a
    reveal, or one whose state is not known)."""
    after = entry.after
    if not isinstance(entry.event, BeastRevealed) or after is None:
        return None
    return bool(beast_zones(after))


def _due(entry: Entry) -> Callable[[BeastState, Node], set[int]] | None:
    """The engine's rule for the trails of this check, if the replay knows it."""
    from skald.core.beast.mechanics import _untrailed

    if entry.rule == "hunter":
        there = entry.where
        return lambda s, _: _untrailed(s, {there}) | tower_trails(s)
    if entry.rule == "tower":
        return lambda s, _: tower_trails(s)
    if entry.rule == "beast":
        return lambda s, n: beast_trails(s, len(n.active) - len(n.current))
    return None
