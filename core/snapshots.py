"""Snapshots: a game's folded state every N events and where a chapter (an act, a day, a
round: `Rules.chapter`) begins, kept beside its stream as a cache.

A cold load (a cache miss, another process's game, `?at=SEQ`) reads the nearest snapshot at
or before the wanted seq and folds only the tail, instead of replaying from seq 1. A
snapshot is never a source of truth: the audit's re-derivation and the chain verification
read the events alone, and the engine trusts a snapshot only when

- it was folded by this code: its version key joins the game's rules version and a
  fingerprint of the state's type and of the folding code's source (the game's package
  and the engine's fold); a change to any makes every old snapshot invisible, and the
  next save of that stream deletes them, so they are rebuilt from the events;
- its chain hash equals the stored event's hash at its seq (read with the tail), so it
  belongs to this very chain; a mismatch drops the snapshot and replays from seq 1;
- it decodes, typed, into the game's state (msgspec msgpack; no pickle: a database row
  never runs code), and its own seq and hash agree with the row it was found under.

Before a snapshot is written it is decoded again and compared with the state it was
encoded from; a game whose state does not round-trip is never snapshotted (its cold loads
replay from seq 1, correct but slower).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import sys
import typing
from pathlib import Path
from typing import Any, Generic, TypeVar

import msgspec

from skald.core.rules import get_rules
from skald.core.state import GameState, UndoEntry
from skald.events.common import GameKey, Outcome
from skald.events.secret import Secret

log = logging.getLogger(__name__)

S = TypeVar("S")
FORMAT = "2"
"""Bump when the layout below changes."""


class _Undo(msgspec.Struct, Generic[S], frozen=True, array_like=True):
    seat: int
    before: S
    after: S | None = None


class _Snapshot(msgspec.Struct, Generic[S], frozen=True, array_like=True):
    id: str
    game: str
    players: tuple[str, ...]
    options: tuple[tuple[str, str], ...]
    scheme: int
    rules_version: str
    version: int
    last_hash: str
    key: Secret[GameKey] | None  # scheme 2
    seed: Secret[str] | None  # scheme 1 keyed everything by the seed itself
    rules: S
    undo: tuple[_Undo[S], ...]
    redo: tuple[_Undo[S], ...]
    outcome: Outcome | None
    entropy_commitments: tuple[tuple[int, str], ...]
    entropy: tuple[tuple[int, str], ...]
    seat_keys: tuple[tuple[int, str], ...] = ()


class SnapshotCodec:
    """Encodes and decodes one game's engine states; `version_key` names the code."""

    def __init__(self, game: str, state_type: Any) -> None:
        layout = _Snapshot[state_type]
        self.game = game
        self._encoder = msgspec.msgpack.Encoder()
        self._decoder: msgspec.msgpack.Decoder[Any] = msgspec.msgpack.Decoder(layout)
        schema = msgspec.json.encode(msgspec.json.schema(layout))
        fingerprint = hashlib.sha256(schema + _code_of(game)).hexdigest()[:16]
        self.version_key = f"{get_rules(game).version}/{fingerprint}/{FORMAT}"
        self.broken = False

    def encode(self, state: GameState) -> bytes:
        """The stored bytes of a state."""
        scheme2 = isinstance(state.key.value, GameKey)
        return self._encoder.encode(
            _Snapshot(
                id=state.id,
                game=state.game,
                players=state.players,
                options=state.options,
                scheme=state.scheme,
                rules_version=state.rules_version,
                version=state.version,
                last_hash=state.last_hash,
                key=state.key if scheme2 else None,
                seed=None if scheme2 else state.key,
                rules=state.rules,
                undo=tuple(_Undo(e.seat, e.before, e.after) for e in state.undo),
                redo=tuple(_Undo(e.seat, e.before, e.after) for e in state.redo),
                outcome=state.outcome,
                entropy_commitments=state.entropy_commitments,
                entropy=state.entropy,
                seat_keys=state.seat_keys,
            )
        )

    def decode(self, data: bytes) -> GameState:
        """A state from its stored bytes (msgspec.DecodeError when they do not fit)."""
        snap = self._decoder.decode(data)
        key = snap.key if snap.key is not None else snap.seed
        if key is None:
            raise msgspec.DecodeError("a snapshot without its game key")
        return GameState(
            id=snap.id,
            game=snap.game,
            players=snap.players,
            options=snap.options,
            key=key,
            rules=snap.rules,
            scheme=snap.scheme,
            rules_version=snap.rules_version,
            version=snap.version,
            last_hash=snap.last_hash,
            undo=tuple(UndoEntry(e.seat, e.before, e.after) for e in snap.undo),
            redo=tuple(UndoEntry(e.seat, e.before, e.after) for e in snap.redo),
            outcome=snap.outcome,
            entropy_commitments=snap.entropy_commitments,
            entropy=snap.entropy,
            seat_keys=snap.seat_keys,
        )

    def checked(self, state: GameState) -> bytes | None:
        """The bytes of `state` if they decode back to an equal state, else None (and the
        game is not snapshotted again in this process)."""
        if self.broken:
            return None
        data = self.encode(state)
        try:
            same = self.decode(data) == state
        except (msgspec.DecodeError, msgspec.ValidationError, TypeError):
            same = False
        if not same:
            log.warning("%s states do not round-trip; snapshots are off for it", self.game)
            self.broken = True
            return None
        return data


def _code_of(game: str) -> bytes:
    """The source of the code that folds a game's states: the modules and data files of
    the game's package (a reducer, its data and helpers) and the engine's own fold. A
    change to any of them makes old snapshots invisible, so a fix to a reducer that leaves
    the rules version and the state type alone still rebuilds them."""
    rules_module = sys.modules[type(get_rules(game)).__module__]
    source = Path(rules_module.__file__ or "")
    files = [source]
    if rules_module.__name__.endswith(".rules"):  # a game's package: its modules and data
        files = sorted([*source.parent.glob("*.py"), *source.parent.glob("*.toml")])
    files.append(Path(__file__).with_name("state.py"))
    digest = hashlib.sha256()
    for file in files:
        try:
            digest.update(file.read_bytes())
        except OSError:  # no source installed: the type's fingerprint alone
            continue
    return digest.digest()


@functools.cache
def codec_for(game: str) -> SnapshotCodec | None:
    """The snapshot codec of a game, or None when its state type cannot be typed."""
    rules = get_rules(game)
    try:
        state_type = typing.get_type_hints(type(rules).initial)["return"]
        return SnapshotCodec(game, state_type)
    except (KeyError, NameError, TypeError, ValueError) as error:
        log.warning("no snapshots for %s: %s", game, error)
        return None
