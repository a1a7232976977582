"""Information sets kept in the store, so a process that never folded a game (the CLI, a
second server, a restarted one) reads on from the nearest one instead of from seq 1.

`projections.knowledge.cache` keeps a viewer's fold in memory; this module keeps some of
them beside the stream (`knowledge_checkpoints`, core/store/caches.py), as the engine keeps its
snapshots (core/snapshots.py), and trusts one only on the same three conditions:

- it was folded by this code: its version key covers the layout it is stored in, the
  source of the game's knowledge module (and of the modules it names in `CODE`) and of
  this one, the redaction code, and the game's snapshot version (the game's package and
  the engine's fold); a change to any makes the old ones invisible, and the next save for
  that viewer deletes them;
- the stored event at its seq has the chain hash it was folded at (checked by the
  caller on the envelopes it reads on), so it is the fold of this very prefix;
- it decodes, typed (msgspec msgpack; no pickle: a database row never runs code), and
  before it is written it is decoded again and compared with the fold it came from.

It holds only the viewer's redacted log folded (nothing the viewer may not see), under a
key naming the viewer's entitlement (its seats, or the referee), so one seat's request
never reads another's. A game's fold offers `stored()`, `from_stored(...)` and its
`Stored` layout (`StoredFold`), and may name in `CODE` the other modules its folding
depends on (their source joins the version key), and offer `settle(viewer)` when it reads
lazily (Beast's holds the envelopes fed until `possible` is asked: the cache settles the
fold it is about to store, projections/knowledge/cache.py). Hägar's and Beowulf's folds
are small; Beast's is the replay since the path filter's last reveal and the filter's last
run (projections/beast/knowledge/stored.py). A store that refuses a write (read-only evidence, a
full disk, a writer holding the lock) only logs: the cache is never needed.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import logging
import sys
from pathlib import Path
from typing import Any, Protocol

import msgspec
from sqlalchemy.exc import DBAPIError

from skald.core.errors import StoreError
from skald.core.snapshots import codec_for
from skald.core.store import EventStore
from skald.events import secret as secret_module
from skald.events.viewer import Viewer
from skald.projections.registry import KnowledgeFold, views_for

log = logging.getLogger(__name__)

FORMAT = "1"
"""Bump when the way folds are stored here changes."""


UNFIT = (msgspec.DecodeError, msgspec.ValidationError, TypeError, ValueError, LookupError)
"""What reading a stored fold back raises when its bytes do not fit the layout, or fit it
but not each other (an index past a table's end)."""


class StoredFold(Protocol):
    """A `KnowledgeFold` that can be kept in the store."""

    Stored: Any  # the msgspec layout of `stored()`

    def stored(self) -> Any:
        """The fold as data (its `Stored` layout); ValueError when it cannot be stored as
        it is (a lazy fold not settled)."""

    @classmethod
    def from_stored(cls, data: Any) -> KnowledgeFold:
        """The fold back from `stored()`'s data (one of `UNFIT` when the data does not fit
        together). A fold read back equals (`==`) the one it was stored from."""


class FoldCodec:
    """Encodes and decodes one game's folds; `version_key` names the code that folds."""

    def __init__(self, game: str, fold_type: Any) -> None:
        self.game = game
        self.fold_type = fold_type
        self._encoder = msgspec.msgpack.Encoder()
        self._decoder: msgspec.msgpack.Decoder[Any] = msgspec.msgpack.Decoder(fold_type.Stored)
        snapshot = codec_for(game)
        digest = hashlib.sha256(msgspec.json.encode(msgspec.json.schema(fold_type.Stored)))
        code = [importlib.import_module(name) for name in getattr(fold_type, "CODE", ())]
        for module in (sys.modules[fold_type.__module__], *code, sys.modules[__name__]):
            digest.update(_source(module))
        digest.update(_source(secret_module))
        digest.update(snapshot.version_key.encode() if snapshot else b"")
        self.version_key = f"{game}/{digest.hexdigest()[:16]}/{FORMAT}"
        self.broken = False

    def encode(self, fold: Any) -> bytes:
        return self._encoder.encode(fold.stored())

    def decode(self, data: bytes) -> Any:
        """A fold from its stored bytes (one of `UNFIT` when they do not fit)."""
        return self.fold_type.from_stored(self._decoder.decode(data))

    def checked(self, fold: Any) -> bytes | None:
        """The bytes of `fold` if they decode back to an equal fold, else None (and the
        game's folds are not stored again in this process)."""
        if self.broken:
            return None
        try:
            data = self.encode(fold)
        except ValueError as error:  # a fold not ready to be stored (it says why)
            log.warning("%s information set not stored: %s", self.game, error)
            return None
        try:
            same = self.decode(data) == fold
        except UNFIT:
            same = False
        if not same:
            log.warning("%s information sets do not round-trip; not stored", self.game)
            self.broken = True
            return None
        return data


def _source(module: Any) -> bytes:
    try:
        return Path(module.__file__ or "").read_bytes()
    except OSError:  # no source installed: the layout's fingerprint alone
        return b""


@functools.cache
def fold_codec(game: str) -> FoldCodec | None:
    """The codec of a game's folds, or None when they are not kept in the store."""
    begin = getattr(views_for(game), "knowledge_fold", None)
    if begin is None:
        return None
    fold_type = type(begin())
    return FoldCodec(game, fold_type) if hasattr(fold_type, "Stored") else None


def viewer_key(viewer: Viewer) -> str:
    """The stored name of a viewer's entitlement (what its redacted log depends on)."""
    seats = ",".join(str(s) for s in sorted(viewer.seats))
    return f"{'referee' if viewer.referee else 'seats'}:{seats}"


class Found(msgspec.Struct, frozen=True):
    """A stored fold at `seq`, folded at the chain hash `hash` (still to be checked)."""

    seq: int
    hash: str
    fold: Any


class KeptKnowledge:
    """One (stream, viewer)'s folds in the store."""

    def __init__(self, store: EventStore, codec: FoldCodec, stream: str, viewer: Viewer) -> None:
        self._store, self._codec, self._stream = store, codec, stream
        self._viewer = viewer_key(viewer)

    def nearest(self, seq: int) -> Found | None:
        """The stored fold nearest at or before `seq` that decodes (None: none)."""
        key = self._codec.version_key
        try:
            row = self._store.knowledge_checkpoint(self._stream, self._viewer, key, seq)
        except (DBAPIError, StoreError) as error:
            log.debug("information sets of %s not read: %s", self._stream, error)
            return None
        if row is None:
            return None
        try:
            return Found(row.seq, row.hash, self._codec.decode(row.state))
        except UNFIT as error:
            log.warning("information set %s@%d does not decode (%s)", self._stream, row.seq, error)
            self.drop(row.seq)
            return None

    def holds(self, seq: int, digest: str) -> bool:
        """The store already holds this viewer's fold of seqs 1..`seq` at chain hash
        `digest` (folding and writing it again would change nothing)."""
        key = self._codec.version_key
        try:
            found = self._store.knowledge_checkpoint_hash(self._stream, self._viewer, key, seq)
        except (DBAPIError, StoreError) as error:
            log.debug("information sets of %s not read: %s", self._stream, error)
            return False
        return found == digest

    def keep(self, seq: int, digest: str, fold: Any) -> None:
        """Store the fold of seqs 1..`seq` (chain hash `digest`), if the store takes it."""
        data = self._codec.checked(fold)
        if data is None:
            return
        key = self._codec.version_key
        try:
            self._store.save_knowledge_checkpoint(
                self._stream, self._viewer, key, seq, digest, data
            )
        except (DBAPIError, StoreError) as error:
            log.debug("information set %s@%d not stored: %s", self._stream, seq, error)

    def drop(self, seq: int) -> None:
        """Forget the stored fold at `seq` (it did not match the chain or did not decode)."""
        key = self._codec.version_key
        try:
            self._store.drop_knowledge_checkpoint(self._stream, self._viewer, key, seq)
        except (DBAPIError, StoreError) as error:
            log.debug("information set %s@%d not dropped: %s", self._stream, seq, error)


def kept_knowledge(
    store: EventStore, game: str, stream: str, viewer: Viewer
) -> KeptKnowledge | None:
    """Where a viewer's folds of a game are kept in the store (None: the game's are not)."""
    codec = fold_codec(game)
    return KeptKnowledge(store, codec, stream, viewer) if codec is not None else None
