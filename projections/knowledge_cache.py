"""`possible` read on from where a viewer last asked, instead of from seq 1.

A game whose views offer `knowledge_fold(viewer)` (a fold of the viewer's redacted log
with `advanced(envelopes)` and `.possible`; Beast's in projections/beast_knowledge.py)
keeps, per game and viewer, the folds at the last few seqs it was asked about. A request
at seq S reads on from the latest kept fold at or before S: only the envelopes after it
are read from the store and redacted, and the fold carries on as a fold from seq 1 would
(the equality is tested). A kept fold is used only when the stored envelope at its seq
still has the hash it was folded with (the store was not replaced under it); otherwise
the game's folds are dropped and the request reads from seq 1. `?at=SEQ` below every
kept fold reads from seq 1 too. A game without a fold is answered by its `possible` over
the whole redacted log, as before.

The folds are computed from the viewer's redacted envelopes only, like `possible`
itself, and kept per viewer (two viewers never share one).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from skald.events.envelope import Envelope
from skald.events.viewer import Viewer
from skald.projections.registry import redacted_log, views_for

Read = Callable[[int, int], Sequence[Envelope[Any]]]
"""The full envelopes of the game from one seq to another, both included."""


class _Kept(NamedTuple):
    seq: int
    hash: str
    fold: Any


class KnowledgeCache:
    """The viewers' folds of the games this process was asked about: at most `per_viewer`
    seqs for each of at most `viewers` (game, viewer) pairs (emptied when full)."""

    def __init__(self, viewers: int = 256, per_viewer: int = 4) -> None:
        self._viewers = viewers
        self._per_viewer = per_viewer
        self._kept: dict[tuple[str, Viewer], list[_Kept]] = {}
        self._lock = threading.Lock()

    def possible(self, game: str, game_id: str, viewer: Viewer, seq: int, read: Read) -> Any:
        """The game's `possible` for `viewer` after seq `seq` (read: the store's envelopes)."""
        views = views_for(game)
        start = getattr(views, "knowledge_fold", None)
        if start is None:
            return views.possible(redacted_log(read(1, seq), viewer), viewer)
        key = (game_id, viewer)
        base = self._before(key, seq)
        tail: Sequence[Envelope[Any]] = ()
        if base is not None:
            envelopes = read(base.seq, seq)
            if envelopes and envelopes[0].seq == base.seq and envelopes[0].hash == base.hash:
                if base.seq == seq:
                    return base.fold.possible
                tail = envelopes[1:]
            else:
                self._drop(game_id)
                base = None
        if base is None:
            tail = read(1, seq)
        fold = (base.fold if base is not None else start(viewer)).advanced(
            redacted_log(tail, viewer)
        )
        if tail:
            self._keep(key, _Kept(tail[-1].seq, tail[-1].hash, fold))
        return fold.possible

    def _before(self, key: tuple[str, Viewer], seq: int) -> _Kept | None:
        kept = [k for k in self._kept.get(key, ()) if k.seq <= seq]
        return max(kept, key=lambda k: k.seq, default=None)

    def _keep(self, key: tuple[str, Viewer], kept: _Kept) -> None:
        with self._lock:
            if key not in self._kept and len(self._kept) >= self._viewers:
                self._kept.clear()
            others = [k for k in self._kept.get(key, ()) if k.seq != kept.seq]
            self._kept[key] = [*others, kept][-self._per_viewer :]

    def _drop(self, game_id: str) -> None:
        with self._lock:
            for key in [k for k in self._kept if k[0] == game_id]:
                del self._kept[key]
