"""Information sets kept per game and viewer, so `possible` folds only what is new.

A game whose views offer `knowledge_fold()` (`registry.KnowledgeFold`) has its fold kept,
per process, for each (game stream, viewer's entitlement): a checkpoint every
`CHECKPOINT_EVERY` seqs and one at the furthest seq asked. A call at seq S goes on from
the nearest checkpoint at or before S and folds only the envelopes after it, each
redacted for the viewer as before. A call with no checkpoint folds the whole log: the
first for a viewer in a process, or after its checkpoints were let go (the least
recently asked (game, viewer) goes first once `LINES_KEPT` are kept). So polling after
each move costs the few new events, and a replay `?at=SEQ` at most `CHECKPOINT_EVERY`
(more past `MAX_CHECKPOINTS`) and gives the answer as it stood at SEQ: a checkpoint at
seq s is the fold of the envelopes 1..s, and nothing after s ever reaches it.

A checkpoint is a cache, never a source of truth: it is used only when the stored
envelope at its seq has the chain hash it was folded at (the hash covers every event up
to it, so the prefix is the very one folded); on a mismatch the game's checkpoints for
that viewer are dropped and the log is folded from seq 1. It holds only what the
viewer's redacted log holds. A game without `knowledge_fold` is folded whole each time.

A process that has kept nothing for the viewer (the CLI, another server, a restart) goes
on from the nearest fold kept in the store (projections/knowledge/store.py), checked the
same way, and leaves there the last grid checkpoint it folded past unless the store holds
it already: one write per `CHECKPOINT_EVERY` seqs per viewer, so the first request after
a restart folds at most that many events. A fold that reads lazily (Beast's: `settle`)
reads what it holds at that checkpoint before it is copied there, and the call goes on
from it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from skald.events.envelope import Envelope
from skald.events.secret import redact
from skald.events.viewer import Viewer
from skald.projections.knowledge.store import KeptKnowledge
from skald.projections.registry import KnowledgeFold, redacted_log, views_for

CHECKPOINT_EVERY = 50
"""Seqs between kept checkpoints: a replay at any seq folds at most this many events."""
MAX_CHECKPOINTS = 16
"""Checkpoints kept per game and viewer on the grid; past it every other one is let go
(the spacing doubles), so a long game's memory stays bounded."""
LINES_KEPT = 256
"""(game, viewer) pairs kept per process, the least recently asked let go first. A Hägar
checkpoint at seq ~1,600 holds about 12 KB: some 50 MB at most for games that long."""

Read = Callable[[int, int], Sequence[Envelope[Any]]]
"""The game's full envelopes from one seq to another, inclusive (redacted here)."""


class _Checkpoint(msgspec.Struct, frozen=True):
    seq: int
    hash: str
    fold: Any  # a KnowledgeFold nobody feeds again (copied before going on)


class _Line:
    """One (game, viewer)'s checkpoints: on the grid, and the furthest asked."""

    def __init__(self) -> None:
        self.grid: dict[int, _Checkpoint] = {}
        self.furthest: _Checkpoint | None = None
        self.spacing = CHECKPOINT_EVERY
        self.lock = threading.Lock()  # requests in threads share a line

    def nearest(self, seq: int) -> _Checkpoint | None:
        with self.lock:
            kept = [c for c in (*self.grid.values(), self.furthest) if c and c.seq <= seq]
        return max(kept, key=lambda c: c.seq, default=None)

    def keep(self, checkpoint: _Checkpoint) -> None:
        with self.lock:
            if checkpoint.seq % self.spacing:
                return
            self.grid[checkpoint.seq] = checkpoint
            if len(self.grid) > MAX_CHECKPOINTS:
                self.spacing *= 2
                self.grid = {s: c for s, c in self.grid.items() if s % self.spacing == 0}

    def reached(self, checkpoint: _Checkpoint) -> None:
        with self.lock:
            if self.furthest is None or checkpoint.seq >= self.furthest.seq:
                self.furthest = checkpoint

    def drop(self) -> None:
        with self.lock:
            self.grid.clear()
            self.furthest = None


_Key = tuple[str, frozenset[int], bool]
_LINES: OrderedDict[_Key, _Line] = OrderedDict()
_LOCK = threading.Lock()


def _line(key: _Key) -> _Line:
    """The checkpoints of one (game, viewer), made on first use, marked as just asked."""
    with _LOCK:
        line = _LINES.get(key)
        if line is None:
            line = _LINES[key] = _Line()
            while len(_LINES) > LINES_KEPT:
                _LINES.popitem(last=False)
        else:
            _LINES.move_to_end(key)
        return line


def possible_at(
    game: str,
    stream: str,
    viewer: Viewer,
    seq: int,
    read: Read,
    kept: KeptKnowledge | None = None,
) -> Any:
    """The game's `possible` for `viewer` after `seq` of `stream`, from the viewer's
    redacted log, going on from the nearest checkpoint kept for it: in this process, else
    in the store (`kept`, projections/knowledge/store.py), which then gets the last
    checkpoint on the `CHECKPOINT_EVERY` grid this call folded past."""
    views = views_for(game)
    begin: Callable[[], KnowledgeFold] | None = getattr(views, "knowledge_fold", None)
    if begin is None:
        return views.possible(redacted_log(read(1, seq), viewer), viewer)
    line = _line((stream, viewer.seats, viewer.referee))
    start = line.nearest(seq)
    from_store = start is None and kept is not None
    if from_store and kept is not None:
        found = kept.nearest(seq)
        start = _Checkpoint(found.seq, found.hash, found.fold) if found else None
    tail: Sequence[Envelope[Any]] = ()
    if start is not None:
        envelopes = read(start.seq, seq)
        if envelopes and envelopes[0].seq == start.seq and envelopes[0].hash == start.hash:
            fold, tail = start.fold.copy(), envelopes[1:]
        elif from_store and kept is not None:  # a fold of another chain: forget it
            kept.drop(start.seq)
            start = None
        else:  # the stream is not the one folded (replaced, restored): start over
            line.drop()
            start = None
    if start is None:
        fold, tail = begin(), read(1, seq)
    store_at = _to_store(tail, kept)
    settle: Callable[[Viewer], None] | None = getattr(fold, "settle", None)
    last: Envelope[Any] | None = None
    to_store: _Checkpoint | None = None
    for envelope in tail:
        fold.feed(redact(envelope, viewer))
        last = envelope
        if envelope.seq % CHECKPOINT_EVERY == 0:
            if envelope.seq == store_at and settle is not None:
                settle(viewer)  # a fold that reads lazily reads what it holds, to be stored
            checkpoint = _Checkpoint(envelope.seq, envelope.hash, fold.copy())
            line.keep(checkpoint)
            if envelope.seq == store_at:
                to_store = checkpoint
    if last is not None:
        line.reached(_Checkpoint(last.seq, last.hash, fold))
    if to_store is not None and kept is not None:
        kept.keep(to_store.seq, to_store.hash, to_store.fold)
    return fold.possible(viewer)


def _to_store(tail: Sequence[Envelope[Any]], kept: KeptKnowledge | None) -> int | None:
    """The seq whose fold this call leaves in the store: the last on the grid it folds
    past, unless the store holds that one already (or keeps none)."""
    if kept is None:
        return None
    grid = next((e for e in reversed(tail) if e.seq % CHECKPOINT_EVERY == 0), None)
    if grid is None or kept.holds(grid.seq, grid.hash):
        return None
    return int(grid.seq)


def forget() -> None:
    """Let every checkpoint go (tests; a process that wants its memory back)."""
    with _LOCK:
        _LINES.clear()
