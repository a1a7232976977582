"""A Beast viewer's fold as data, to keep in the store (projections/knowledge/store.py): the
replay of its redacted log (`shadow.Reader`) and the path filter's last run
(`paths.PathFilter`), typed msgspec data, small and quick to read back.

It holds what reading on needs and nothing else, all of it built from the viewer's
redacted log alone:
- the replay: its shadow, tokens, draft, groups (`groups`) and the
  timeline since the reveal the path filter begins from (a run is cut at every reveal:
  paths), with the shadow before and after each event on it; a state is stored as
  the fields it changed from the one before it (the replay's states share the rest),
  each hand and card in play once;
- of the replay's undo snapshots, only those the table can still take back: the engine
  clears its undo stack at every barrier and both stacks on entropy and at the end
  (core/state.py), so the older ones can never be restored (`depths` counts the engine's
  stacks as the fold is fed);
- the path filter as its last run left it: its generations, its undo stacks (of the
  marks on them, those a run from there can still reach: `_live_marks`) and the states a
  later run may resume from, every node, generation and undo snapshot once, and each
  sequence (a node's cards, a snapshot's generations, an undo stack) as the part it shares
  with an earlier one and its own tail.

Reading it back is what a process that kept nothing pays before it reads on, so the
timeline's states (most of the bytes) are read only when a run first steps back over the
timeline (`_ReadEntry`): a request whose new events add nothing the path filter reads, or
add it at the end, steps over none of them. They are stored newest first, in chunks of
`CHUNK` (a run that goes back a few steps reads a chunk or two), as bytes of their own
with the SHA-256 of them all, checked when the fold is read back, so a fold whose bytes
were damaged is refused whole. The filter's plan is a function of the timeline and is
worked out again when a later run first compares its own with it (`_ReadBack`).
"""

from __future__ import annotations

import functools
import hashlib
import operator
import threading
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

import msgspec
from msgspec import UNSET, UnsetType

from skald.core.beast.state import BeastState, Frame, Hand
from skald.events.beast import BeastEvent, Step
from skald.events.common import (
    DecisionRedone,
    DecisionUndone,
    EntropyAdded,
    EntropyCommitted,
    GameCreated,
    GameFinished,
    MoveMade,
)
from skald.events.viewer import Viewer
from skald.projections.beast.knowledge.folds import Draft
from skald.projections.beast.knowledge.groups import Group
from skald.projections.beast.knowledge.path_graph import Zones
from skald.projections.beast.knowledge.paths import Anchor, PathFilter, _Plan
from skald.projections.beast.knowledge.shadow import Reader, _Snapshot
from skald.projections.beast.knowledge.timeline import Entry, Node

T = TypeVar("T")
FIELDS = tuple(f.name for f in msgspec.structs.fields(BeastState))
SHARED_ITEMS = ("hands", "frames")  # fields whose items are stored once each, by index

StateChanges = msgspec.defstruct(
    "StateChanges",
    [
        (f.name, (tuple[int, ...] if f.name in SHARED_ITEMS else f.type) | UnsetType, UNSET)
        for f in msgspec.structs.fields(BeastState)
    ],
    omit_defaults=True,
    frozen=True,
    kw_only=True,
    gc=False,
    module=__name__,
)
"""Some of a `BeastState`'s fields, by name (the others unset); hands and cards in play as
indices in the tables of each."""


def depths(undo: int, redo: int, event: Any) -> tuple[int, int]:
    """The engine's undo and redo stack depths after `event`, as core/state.py folds them:
    a decision pushes, an undo moves one to redo and a redo back, a barrier clears the
    undo stack, entropy and the end clear both."""
    match event:
        case GameCreated():
            return 0, 0
        case MoveMade():
            return undo + 1, 0
        case DecisionUndone():
            return max(undo - 1, 0), redo + 1
        case DecisionRedone():
            return undo + 1, max(redo - 1, 0)
        case EntropyCommitted() | EntropyAdded() | GameFinished():
            return 0, 0
    return (0 if getattr(event, "barrier", False) else undo), redo


# -- the layout ------------------------------------------------------------------------------


class Shared(msgspec.Struct, Generic[T], frozen=True, array_like=True, gc=False):
    """A sequence: the first `keep` items of sequence `ref` (an earlier one; -1: none),
    then `tail`."""

    ref: int
    keep: int
    tail: tuple[T, ...]


class StoredState(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """A shadow state: state `base` (an earlier one; -1: a state of defaults) with the
    fields `changed` (their indices in `BeastState`) as `changes` has them."""

    base: int
    changed: tuple[int, ...]
    changes: StateChanges  # type: ignore[valid-type]


class StoredEntry(msgspec.Struct, frozen=True, array_like=True, gc=False, omit_defaults=True):
    """A timeline entry (timeline.Entry), its shadows as state indices (-1: none)."""

    kind: str
    before: int = -1
    event: BeastEvent | None = None
    after: int = -1
    rule: str = ""
    where: str = ""
    reach: frozenset[str] | None = None


class StoredSnapshot(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """One of the replay's undo snapshots (shadow._Snapshot), its shadow by index."""

    shadow: int
    previous: BeastEvent | None
    kinds: dict[str, str]
    excluded: dict[str, frozenset[str]]
    draft: Draft
    groups: tuple[Group, ...]


class StoredNode(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """A merged node of the path filter, its cards as an index in the card sequences."""

    location: str
    active: int
    trailed: tuple[int, ...]
    zones: Zones
    untrailed: tuple[str, ...]
    counts: tuple[int, ...]
    current: tuple[str, ...]
    paths: float
    parents: tuple[tuple[int, str], ...]


class StoredRun(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """A filter snapshot (its generations, what each laid, the trails of each): the first
    `keep` of snapshot `ref`'s (-1: none), then its own."""

    ref: int
    keep: int
    generations: tuple[int, ...]
    laid: tuple[str, ...]
    trails: tuple[tuple[str, ...], ...]


class StoredWhole(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """The filter's whole state before a clock: a snapshot, its undo stack (an index in
    the stacks), and its redo stack (pairs of snapshots)."""

    clock: int
    run: int
    marks: int
    undone: tuple[tuple[int, int], ...]


Looked = tuple[frozenset[str], frozenset[str], frozenset[str]] | None


class StoredFilter(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """A path filter after its run over the timeline stored beside it (which it begins
    with: `base` is the reveal's generation when it begins from an `Anchor`)."""

    base: tuple[str, Zones] | None
    cards: list[Shared[Step]]
    nodes: list[StoredNode]
    generations: list[tuple[int, ...]]
    runs: list[StoredRun]
    stacks: list[Shared[int]]
    now: StoredWhole
    saved: tuple[StoredWhole, ...]
    looked: tuple[Looked, ...]
    begin: int


class StoredReader(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """The replay (shadow.Reader), its undo snapshots only those still live."""

    viewer: Viewer
    shadow: int
    timeline: list[StoredEntry]
    kinds: dict[str, str]
    excluded: dict[str, frozenset[str]]
    draft: Draft
    groups: tuple[Group, ...]
    issued: int
    previous: BeastEvent | None
    revealed: str
    undo: list[StoredSnapshot]
    redo: list[tuple[StoredSnapshot, StoredSnapshot]]
    paths: StoredFilter | None


class StoredStates(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """Shadow states, numbered on from those before them (and their hands and cards in
    play, numbered on likewise)."""

    hands: list[Hand]
    frames: list[Frame]
    states: list[StoredState]


class StoredBeastFold(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """A `BeastKnowledgeFold` as data: the replay's own shadow states (its shadow and its
    undo snapshots'), the timeline's (newest first, in chunks of `StoredStates` as bytes,
    each read when a run first steps back over its stretch, with their SHA-256), its
    replay (None: nothing read yet), and the engine's undo and redo depths at its seq."""

    states: StoredStates
    timeline_states: list[msgspec.Raw]
    timeline_digest: bytes
    reader: StoredReader | None
    undo: int
    redo: int


# -- writing ---------------------------------------------------------------------------------


class _Table:
    """Things stored once each, by identity, in the order first met."""

    def __init__(self, store: Callable[[Any], Any]) -> None:
        self.index: dict[int, int] = {}
        self.rows: list[Any] = []
        self.keep: list[Any] = []  # the things themselves, so their ids stay theirs
        self._store = store

    def __call__(self, thing: Any) -> int:
        known = self.index.get(id(thing))
        if known is None:
            row = self._store(thing)
            known = self.index[id(thing)] = len(self.rows)
            self.rows.append(row)
            self.keep.append(thing)
        return known


def _shared_prefix(a: tuple[Any, ...], b: tuple[Any, ...]) -> int:
    """How many first items `a` and `b` share."""
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    low, high = 0, n  # a[:low] matches, a[:high] does not
    while high - low > 1:
        middle = (low + high) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle
    return low


class _Writer:
    def __init__(self) -> None:
        self.hands: _Table = _Table(lambda hand: hand)
        self.frames: _Table = _Table(lambda frame: frame)
        self.states: list[StoredState] = []
        self.state_index: dict[int, int] = {}
        self.kept_states: list[BeastState] = []
        self.cards: list[Shared[Step]] = []
        self.card_index: dict[tuple[Step, ...], int] = {}
        self.nodes: _Table = _Table(self._node)
        self.generations: _Table = _Table(lambda g: tuple(self.nodes(n) for n in g))
        self.runs: list[StoredRun] = []
        self.run_keys: list[tuple[tuple[Any, ...], tuple[str, ...], tuple[Any, ...]]] = []
        self.run_index: dict[int, int] = {}
        self.kept_runs: list[Any] = []
        self.stacks: list[Shared[int]] = []
        self.stack_keys: list[tuple[int, ...]] = []
        self.bounds: list[tuple[int, int, int]] = []  # where the eager part and each chunk end
        self.last_values: tuple[Any, ...] | None = None  # the fields of the last state stored

    def sizes(self) -> tuple[int, int, int]:
        """How many hands, cards in play and states are stored so far."""
        return len(self.hands.rows), len(self.frames.rows), len(self.states)

    # states, each as its changes from the previous one stored

    def state(self, state: BeastState) -> int:
        known = self.state_index.get(id(state))
        if known is not None:
            return known
        values = msgspec.structs.astuple(state)
        base = self.last_values
        changed = [i for i, v in enumerate(values) if base is None or v is not base[i]]
        changes = {FIELDS[i]: values[i] for i in changed}
        self.last_values = values
        for name in SHARED_ITEMS:
            if name in changes:
                changes[name] = tuple(getattr(self, name)(item) for item in changes[name])
        stored = StoredState(len(self.kept_states) - 1, tuple(changed), StateChanges(**changes))
        known = self.state_index[id(state)] = len(self.states)
        self.states.append(stored)
        self.kept_states.append(state)
        return known

    # the replay

    def entry(self, entry: Entry) -> StoredEntry:
        return StoredEntry(
            entry.kind,
            -1 if entry.before is None else self.state(entry.before),
            entry.event,
            -1 if entry.after is None else self.state(entry.after),
            entry.rule,
            entry.where,
            entry.reach,
        )

    def snapshot(self, snap: _Snapshot) -> StoredSnapshot:
        return StoredSnapshot(
            self.state(snap.shadow),
            snap.previous,
            snap.kinds,
            snap.excluded,
            snap.draft,
            snap.groups,
        )

    def reader(self, reader: Reader, undo: int, redo: int) -> StoredReader:
        paths = reader.paths
        timeline = reader.timeline
        if paths is not None:
            start = len(timeline) - len(paths.timeline)
            if start < 0 or any(
                a is not b for a, b in zip(timeline[start:], paths.timeline, strict=True)
            ):
                raise ValueError("a Beast fold is stored once its path filter has run")
            timeline = timeline[start:]
        live_undo = reader.undo[len(reader.undo) - min(undo, len(reader.undo)) :]
        live_redo = reader.redo[len(reader.redo) - min(redo, len(reader.redo)) :]
        shadow = self.state(reader.shadow)  # the replay's own states first: read at once
        undone = [self.snapshot(s) for s in live_undo]
        redone = [(self.snapshot(a), self.snapshot(b)) for a, b in live_redo]
        self.bounds.append(self.sizes())
        for entry in reversed(timeline):  # then the timeline's, newest first, in chunks
            for state in (entry.after, entry.before):
                if state is not None:
                    self.state(state)
            if len(self.states) - self.bounds[-1][2] >= CHUNK:
                self.bounds.append(self.sizes())
        if self.bounds[-1] != self.sizes():
            self.bounds.append(self.sizes())
        return StoredReader(
            viewer=reader.viewer,
            shadow=shadow,
            timeline=[self.entry(e) for e in timeline],
            kinds=reader.kinds,
            excluded=reader.excluded,
            draft=reader.draft,
            groups=reader.groups,
            issued=reader.issued,
            previous=reader.previous,
            revealed=reader.revealed,
            undo=undone,
            redo=redone,
            paths=None if paths is None else self.filter(paths, undo),
        )

    # the path filter

    def card_sequence(self, active: tuple[Step, ...]) -> int:
        known = self.card_index.get(active)
        if known is None:
            keep = len(active)
            while keep and active[:keep] not in self.card_index:
                keep -= 1
            ref = self.card_index[active[:keep]] if keep else -1
            known = self.card_index[active] = len(self.cards)
            self.cards.append(Shared(ref, keep, active[keep:]))
        return known

    def _node(self, node: Node) -> StoredNode:
        return StoredNode(
            node.location,
            self.card_sequence(node.active),
            node.trailed,
            node.zones,
            node.untrailed,
            node.counts,
            node.current,
            node.paths,
            node.parents,
        )

    def run(self, snap: tuple[Any, ...]) -> int:
        """A filter snapshot (history, laid, trails), stored once per snapshot object."""
        known = self.run_index.get(id(snap))
        if known is not None:
            return known
        history, laid, trails = tuple(snap[0]), tuple(snap[1]), tuple(snap[2])
        ref, keep = -1, 0
        if self.run_keys:
            last = self.run_keys[-1]
            keep = min(
                _shared_prefix(history, last[0]),
                _shared_prefix(laid, last[1]),
                _shared_prefix(trails, last[2]),
            )
            ref = len(self.run_keys) - 1 if keep else -1
        generations = tuple(self.generations(g) for g in history[keep:])
        known = self.run_index[id(snap)] = len(self.runs)
        self.runs.append(StoredRun(ref, keep, generations, laid[keep:], trails[keep:]))
        self.run_keys.append((history, laid, trails))
        self.kept_runs.append(snap)
        return known

    def stack(self, marks: Sequence[tuple[Any, ...]]) -> int:
        items = tuple(self.run(m) for m in marks)
        ref, keep = -1, 0
        if self.stack_keys:
            ref = len(self.stack_keys) - 1
            keep = _shared_prefix(items, self.stack_keys[ref])
            if not keep:
                ref = -1
        self.stacks.append(Shared(ref, keep, items[keep:]))
        self.stack_keys.append(items)
        return len(self.stacks) - 1

    def whole(self, clock: int, whole: tuple[Any, ...], live: int) -> StoredWhole:
        history, laid, trails, marks, undone = whole
        return StoredWhole(
            clock,
            self.run((history, laid, trails)),
            self.stack(marks[max(0, len(marks) - live) :]),
            tuple((self.run(a), self.run(b)) for a, b in undone),
        )

    def filter(self, paths: PathFilter, undo: int) -> StoredFilter:
        base = None if paths.base is None else (paths.base.location, paths.base.zones)
        live = _live_marks(paths.timeline, undo)
        saved = tuple(self.whole(c, w, live[c]) for c, w in sorted(paths.saved.items()))
        now = self.whole(paths.clock, paths.whole(), live[-1])
        looked = tuple(
            None if x is None else (frozenset(x[0]), frozenset(x[1]), frozenset(x[2]))
            for x in paths.looked
        )
        return StoredFilter(
            base,
            self.cards,
            self.nodes.rows,
            self.generations.rows,
            self.runs,
            self.stacks,
            now,
            saved,
            looked,
            paths.begin,
        )


def _live_marks(timeline: Sequence[Entry], undo: int) -> list[int]:
    """Per clock, how many of the path filter's undo marks then can still be taken back:
    those a run from that clock to the end undoes, and those it leaves among the `undo`
    the table can take back at the end (the engine's depth: a barrier cleared the rest)."""
    heights = [0]
    for entry in timeline:
        heights.append(heights[-1] + _HEIGHT.get(entry.kind, 0))
    lowest = heights[:]
    for clock in range(len(heights) - 2, -1, -1):
        lowest[clock] = min(heights[clock], lowest[clock + 1])
    end = heights[-1]
    return [max(h - low, undo - (end - h)) for h, low in zip(heights, lowest, strict=True)]


_HEIGHT = {"mark": 1, "undo": -1, "redo": 1}


def stored(reader: Reader | None, undo: int, redo: int) -> StoredBeastFold:
    """A viewer's replay as data (its path filter run to its end: see `Reader.path_filter`);
    `undo` and `redo`: the engine's stack depths at its seq (`depths`)."""
    writer = _Writer()
    data = None if reader is None else writer.reader(reader, undo, redo)
    bounds = writer.bounds or [writer.sizes()]
    parts = [
        StoredStates(
            writer.hands.rows[start[0] : end[0]],
            writer.frames.rows[start[1] : end[1]],
            writer.states[start[2] : end[2]],
        )
        for start, end in zip([(0, 0, 0), *bounds], bounds, strict=False)
    ]
    later = [_ENCODER.encode(part) for part in parts[1:]]
    return StoredBeastFold(
        parts[0], [msgspec.Raw(c) for c in later], _digest(later), data, undo, redo
    )


def _digest(chunks: Sequence[Any]) -> bytes:
    """The SHA-256 of the chunks' bytes, each after its length."""
    digest = hashlib.sha256()
    for chunk in chunks:
        digest.update(len(chunk).to_bytes(8, "big"))
        digest.update(chunk)
    return digest.digest()


_ENCODER = msgspec.msgpack.Encoder()
_LATER = msgspec.msgpack.Decoder(StoredStates)
CHUNK = 24
"""Timeline states a chunk holds (a run that goes back a few steps reads a chunk or two)."""


# -- reading ---------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1024)
def _getter(changed: tuple[int, ...]) -> tuple[tuple[str, ...], Callable[[Any], Any]]:
    """The names of some fields, and what reads them off a struct as a tuple."""
    names = tuple(FIELDS[i] for i in changed)
    if len(names) == 1:
        one = operator.attrgetter(names[0])
        return names, lambda struct: (one(struct),)
    return names, operator.attrgetter(*names) if names else (lambda _: ())


class _Shadows:
    """The shadow states of a fold read back from the store, by number: the replay's own
    at once, the timeline's (newest first) a chunk at a time, when one is first asked for."""

    def __init__(self, data: StoredBeastFold) -> None:
        if _digest(data.timeline_states) != data.timeline_digest:
            raise ValueError("the timeline's states are not the bytes stored with them")
        self.hands: list[Hand] = list(data.states.hands)
        self.frames: list[Frame] = list(data.states.frames)
        self.made: list[BeastState] = []
        self._made(data.states)
        self._later = list(reversed(data.timeline_states))  # the next chunk last
        self._lock = threading.Lock()

    def __getitem__(self, index: int) -> BeastState:
        if index >= len(self.made):
            with self._lock:  # (another request may be reading them now)
                while index >= len(self.made) and self._later:
                    sizes = len(self.hands), len(self.frames), len(self.made)
                    try:
                        chunk = _LATER.decode(self._later[-1])
                        self.hands += chunk.hands
                        self.frames += chunk.frames
                        self._made(chunk)
                    except BaseException:  # all of a chunk or none
                        del self.hands[sizes[0] :], self.frames[sizes[1] :], self.made[sizes[2] :]
                        raise
                    self._later.pop()
        return self.made[index]

    def _made(self, data: StoredStates) -> None:
        hands, frames, states = self.hands, self.frames, self.made
        replace = msgspec.structs.replace
        for row in data.states:
            names, get = _getter(row.changed)
            changes = dict(zip(names, get(row.changes), strict=True))
            if "hands" in changes:
                changes["hands"] = tuple([hands[i] for i in changes["hands"]])
            if "frames" in changes:
                changes["frames"] = tuple([frames[i] for i in changes["frames"]])
            if row.base < 0:
                states.append(BeastState(**changes))
            else:
                states.append(replace(states[row.base], **changes))


class _Shadow:
    """A timeline state not read yet: its number among a fold's `_Shadows`."""

    __slots__ = ("index", "states")

    def __init__(self, states: _Shadows, index: int) -> None:
        self.states, self.index = states, index

    def get(self) -> BeastState:
        return self.states[self.index]


class _ReadEntry(Entry):
    """A timeline entry read back from the store: its shadows (`_Shadow`s) are read when
    first asked for (a run that resumes at the end steps over none of them)."""

    __slots__ = ()

    @property
    def before(self) -> BeastState | None:
        shadow = tuple.__getitem__(self, 1)
        return None if shadow is None else shadow.get()

    @property
    def after(self) -> BeastState | None:
        shadow = tuple.__getitem__(self, 3)
        return None if shadow is None else shadow.get()


def _sequences(rows: Sequence[Shared[Any]], item: Callable[[Any], Any]) -> list[tuple[Any, ...]]:
    made: list[tuple[Any, ...]] = []
    for row in rows:
        head = made[row.ref][: row.keep] if row.ref >= 0 else ()
        made.append(head + tuple(item(x) for x in row.tail))
    return made


class _ReadBack(PathFilter):
    """A path filter read back from the store. Its plan (a function of its timeline) is
    worked out when a later run first compares its own with it: a request that adds
    nothing to the timeline uses this run as it is (`Reader.path_filter`)."""

    @functools.cached_property
    def plan(self) -> _Plan:  # type: ignore[override]
        return _Plan(self.timeline)


def _filter(data: StoredFilter, timeline: list[Entry]) -> PathFilter:
    cards = _sequences(data.cards, lambda step: step)
    nodes = []
    for row in data.nodes:
        node = Node(
            row.location,
            cards[row.active],
            row.trailed,
            row.zones,
            row.untrailed,
            row.counts,
            row.current,
        )
        node.paths, node.parents = row.paths, row.parents
        nodes.append(node)
    generations = [[nodes[i] for i in g] for g in data.generations]
    runs: list[tuple[Any, ...]] = []
    for run in data.runs:
        head = runs[run.ref] if run.ref >= 0 else ((), (), ())
        runs.append(
            (
                head[0][: run.keep] + tuple(generations[g] for g in run.generations),
                head[1][: run.keep] + run.laid,
                head[2][: run.keep] + run.trails,
            )
        )
    stacks = _sequences(data.stacks, lambda i: runs[i])

    def whole(w: StoredWhole) -> tuple[Any, ...]:
        return (*runs[w.run], stacks[w.marks], tuple((runs[a], runs[b]) for a, b in w.undone))

    paths = _ReadBack.__new__(_ReadBack)
    paths.timeline = timeline
    paths.base = None
    if data.base is not None:
        paths.base = Anchor(timeline[0], *data.base)
    paths.saved = {w.clock: whole(w) for w in data.saved}
    history, laid, trails, marks, undone = whole(data.now)
    paths.history, paths.laid, paths.trails = list(history), list(laid), list(trails)
    paths.marks, paths.undone = list(marks), list(undone)
    paths.clock = data.now.clock
    paths.looked = [None if x is None else (set(x[0]), set(x[1]), set(x[2])) for x in data.looked]
    paths.looking = (set(), set(), set())
    paths.converted = {}
    paths.anchored = None
    paths.begin = data.begin
    return paths


def restored(data: StoredBeastFold) -> Reader | None:
    """The replay back from `stored`'s data (None: nothing read yet)."""
    if data.reader is None:
        return None
    states = _Shadows(data)
    handles: dict[int, _Shadow | None] = {-1: None}

    def shadow(index: int) -> _Shadow | None:
        known = handles.get(index)
        if known is None and index >= 0:
            known = handles[index] = _Shadow(states, index)
        return known

    def snapshot(s: StoredSnapshot) -> _Snapshot:
        return _Snapshot(states[s.shadow], s.previous, s.kinds, s.excluded, s.draft, s.groups)

    entry = functools.partial(tuple.__new__, _ReadEntry)
    stored_reader = data.reader
    reader = Reader(stored_reader.viewer)
    reader.shadow = states[stored_reader.shadow]
    reader.timeline = [
        entry((e.kind, shadow(e.before), e.event, shadow(e.after), e.rule, e.where, e.reach))
        for e in stored_reader.timeline
    ]
    reader.kinds, reader.excluded = stored_reader.kinds, stored_reader.excluded
    reader.draft, reader.issued = stored_reader.draft, stored_reader.issued
    reader.groups = stored_reader.groups
    reader.previous, reader.revealed = stored_reader.previous, stored_reader.revealed
    reader.undo = [snapshot(s) for s in stored_reader.undo]
    reader.redo = [(snapshot(a), snapshot(b)) for a, b in stored_reader.redo]
    if stored_reader.paths is not None:
        reader.paths = _filter(stored_reader.paths, list(reader.timeline))
    return reader
