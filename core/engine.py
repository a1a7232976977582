"""The engine: request → kernel → append → fold, with nothing written when a step fails.

What a request derives is decided by `core/kernel.py`, the same code the audit re-runs;
the engine adds only what needs I/O: loading the state, the caller's version check, the
clock, and the append. Current states are cached per game, so a move reads only the events
appended since the cached version instead of replaying the whole game.
"""

from __future__ import annotations

import secrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec

from skald.core import kernel
from skald.core.codec import decoder_for, encode_event, event_tag
from skald.core.errors import CorruptRecord, IllegalMove, NotFound, VersionConflict
from skald.core.kernel import Batch, Move, Redo, Request, Undo
from skald.core.rules import Rules, get_rules
from skald.core.seats import check_player_names, resolve_seat
from skald.core.secrecy import RandomHex, sealed_key
from skald.core.state import GameState, fold
from skald.core.store import EventStore, StoredRecord
from skald.events.envelope import SYSTEM, Envelope, seal_envelope

__all__ = ["CorruptRecord", "Engine", "resolve_seat", "to_act", "to_envelope"]
to_act = kernel.to_act

Clock = Callable[[], datetime]


# Kept inside a tuple so that test clocks (freezegun) patching module-level `datetime`
# names leave it alone: recorded times are always plain datetimes, which encode everywhere.
_PLAIN_DATETIME = (datetime,)


def plain_utc(moment: datetime) -> datetime:
    """An aware UTC datetime of the builtin class, whatever the clock handed us."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return _PLAIN_DATETIME[0](
        moment.year,
        moment.month,
        moment.day,
        moment.hour,
        moment.minute,
        moment.second,
        moment.microsecond,
        tzinfo=UTC,
    )


def utc_now() -> datetime:
    """The default clock."""
    return datetime.now(UTC)


def to_envelope(record: StoredRecord, game: str) -> Envelope[Any]:
    """Decode one stored record."""
    try:
        event = decoder_for(game).decode(record.payload)
    except msgspec.DecodeError as error:
        raise CorruptRecord(record.seq, f"undecodable event: {error}") from None
    return Envelope(
        stream=record.stream,
        seq=record.seq,
        recorded_at=record.recorded_at,
        actor=record.actor,
        event=event,
        prev_hash=record.prev_hash,
        hash=record.hash,
    )


class Engine:
    """Runs games stored in one EventStore."""

    def __init__(
        self,
        store: EventStore,
        clock: Clock = utc_now,
        cache_size: int = 256,
        random_hex: RandomHex = secrets.token_hex,
    ) -> None:
        self.store = store
        self.clock = clock
        self.random_hex = random_hex
        self._cache: OrderedDict[str, GameState] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    # -- reading -----------------------------------------------------------------------

    def game_of(self, game_id: str) -> str:
        """The game name of a stream."""
        return self.store.info(game_id).kind

    def envelopes(
        self, game_id: str, from_seq: int = 1, to_seq: int | None = None
    ) -> list[Envelope[Any]]:
        """Full (unredacted) envelopes in a range; callers redact before anything leaves."""
        game = self.game_of(game_id)
        return [to_envelope(r, game) for r in self.store.read(game_id, from_seq, to_seq)]

    def load(self, game_id: str, at: int | None = None) -> GameState:
        """The state after seq `at` (default: the latest), from the cache where possible."""
        game = self.game_of(game_id)
        rules = get_rules(game)
        if at is not None:
            if at < 1:
                raise NotFound(f"seq {at} does not exist: seqs start at 1")
            return self._replay(rules, game, game_id, None, at)
        with self._lock:
            cached = self._cache.get(game_id)
        state = self._replay(rules, game, game_id, cached, None)
        self._remember(game_id, state)
        return state

    def _replay(
        self, rules: Rules, game: str, game_id: str, state: GameState | None, to_seq: int | None
    ) -> GameState:
        start = state.version + 1 if state else 1
        for record in self.store.read(game_id, start, to_seq):
            state = fold(rules, state, to_envelope(record, game))
        if state is None or (to_seq is not None and state.version < to_seq):
            last = state.version if state else 0
            raise NotFound(f"game {game_id} has no seq {to_seq} (last seq is {last})")
        return state

    def clear_cache(self) -> None:
        """Forget every cached state (the next load replays from the store)."""
        with self._lock:
            self._cache.clear()

    def _remember(self, game_id: str, state: GameState) -> None:
        with self._lock:
            current = self._cache.get(game_id)
            if current is None or current.version <= state.version:
                self._cache[game_id] = state
            self._cache.move_to_end(game_id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    # -- writing -----------------------------------------------------------------------

    def create(
        self,
        game: str,
        players: Sequence[str],
        seed: str | None = None,
        options: Mapping[str, str] | None = None,
        game_id: str | None = None,
        deal: str | None = None,
        reproducible: bool = False,
    ) -> GameState:
        """Start a new game: creation event plus the rules' opening events, one batch.

        A `seed` is mixed with the service's key; with `reproducible` the draws come from
        the seed alone (the game then says the seed was chosen), and games with one seed
        and one `deal` name draw alike (by default the deal is the game id, so reusing a
        seed never links two games)."""
        rules = get_rules(game)
        players = tuple(p.strip() for p in players)
        if not rules.min_players <= len(players) <= rules.max_players:
            raise IllegalMove(
                f"{rules.title} takes {rules.min_players} to "
                f"{rules.max_players} players, not {len(players)}"
            )
        check_player_names(players)
        if seed is not None and not seed:
            raise IllegalMove(
                "a chosen seed must not be empty (leave it out to let the service draw one)"
            )
        game_id = game_id or uuid.uuid4().hex[:16]
        key = sealed_key(seed, deal, reproducible, self.random_hex)
        created, opening = kernel.creation(rules, game_id, players, dict(options or {}), key)
        batch = ((created, SYSTEM), *opening)
        return self._append(
            rules, game_id, None, batch, expected_version=0, kind=game, title=", ".join(players)
        )[-1][1]

    def execute(
        self, game_id: str, seat: int, command: Any, expected_version: int | None = None
    ) -> list[Envelope[Any]]:
        """Play one decision for `seat`; `command` is a command or its notation."""
        return self.request(game_id, seat, Move(command), expected_version)

    def undo(
        self, game_id: str, seat: int, expected_version: int | None = None
    ) -> list[Envelope[Any]]:
        """Take back the last decision, if the table's policy lets `seat` do so."""
        return self.request(game_id, seat, Undo(), expected_version)

    def redo(
        self, game_id: str, seat: int, expected_version: int | None = None
    ) -> list[Envelope[Any]]:
        """Re-apply the last undone decision while nothing else has happened since."""
        return self.request(game_id, seat, Redo(), expected_version)

    def request(
        self, game_id: str, seat: int, request: Request, expected_version: int | None = None
    ) -> list[Envelope[Any]]:
        """Derive a request through the kernel and append its batch."""
        state = self.load(game_id)
        if expected_version is not None and expected_version != state.version:
            raise VersionConflict(
                f"game {game_id} is at seq {state.version}, not "
                f"{expected_version}; reload and try again",
                state.version,
            )
        rules = get_rules(state.game)
        batch = kernel.derive(rules, state, seat, request)
        return [env for env, _ in self._append(rules, game_id, state, batch)]

    def _append(
        self,
        rules: Rules,
        game_id: str,
        state: GameState | None,
        batch: Batch,
        expected_version: int | None = None,
        kind: str = "",
        title: str = "",
    ) -> list[tuple[Envelope[Any], GameState]]:
        """Seal, fold and store a batch; finish the game when the kernel says it is over."""
        now = plain_utc(self.clock())
        version = state.version if state else 0
        prev_hash = state.last_hash if state else "0" * 64
        sealed: list[tuple[Envelope[Any], GameState]] = []
        pending = list(batch)
        while pending:
            event, actor = pending.pop(0)
            envelope = seal_envelope(game_id, version + 1, now, actor, event, prev_hash)
            state = fold(rules, state, envelope)
            sealed.append((envelope, state))
            version, prev_hash = envelope.seq, envelope.hash
            if not pending:
                finished = kernel.finish(rules, state)
                if finished is not None:
                    pending.append((finished, SYSTEM))
        records = [
            StoredRecord(
                stream=game_id,
                seq=env.seq,
                recorded_at=env.recorded_at,
                actor=env.actor,
                kind=event_tag(env.event),
                payload=encode_event(env.event),
                prev_hash=env.prev_hash,
                hash=env.hash,
            )
            for env, _ in sealed
        ]
        base = expected_version if expected_version is not None else (sealed[0][0].seq - 1)
        self.store.append(game_id, records, base, kind=kind, title=title)
        self._remember(game_id, sealed[-1][1])
        return sealed
