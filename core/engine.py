"""The engine: request → kernel → append → fold, with nothing written when a step fails.

What a request derives is decided by `core/kernel.py`, the same code the audit re-runs;
the engine adds only what needs I/O: loading the state, the caller's version check, the
clock, and the append.

Current states are cached per game (LRU). A move on a cache hit reads nothing: it derives
from the cached state and appends with a compare-and-set on that state's version. If
another process appended meanwhile, the compare-and-set fails: the entry is dropped, and
the move either answers the 409 the caller's `expected_version` calls for, or (no
expected version) is derived once more from the fresh state. A caller's expected version
that differs from the cached one, or a rule refusal derived from a cached state, first
checks the store's version (one primary-key lookup) in case the cache is behind. Reads of
the current state (`load`) make that one version check and fold only the events appended
since; facts that never change (players, game, creation time) come from the cache alone.
Cold loads and loads at an earlier seq start from the nearest verified snapshot
(`core/snapshots.py`); snapshots are written every `snapshot_every` events.
"""

from __future__ import annotations

import logging
import re
import secrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec
from sqlalchemy.exc import DBAPIError

from skald.core import kernel
from skald.core.codec import decode_record, decoder_for, to_record
from skald.core.errors import (
    CorruptRecord,
    IllegalMove,
    NotFound,
    SkaldError,
    StoreError,
    VersionConflict,
    WouldWait,
)
from skald.core.kernel import Batch, Move, Redo, Request, Undo
from skald.core.memo import Memo
from skald.core.provenance import PartialCopy, Provenance, refuse_partial
from skald.core.provenance import decode as decode_provenance
from skald.core.rules import Rules, get_rules
from skald.core.seats import check_player_names, resolve_seat
from skald.core.secrecy import RandomHex, sealed_key
from skald.core.snapshots import codec_for
from skald.core.state import GameState, fold, fold_event
from skald.core.store import EventStore, FoldRow, StoredRecord
from skald.core.tournament.stream import KIND as TOURNAMENT_KIND
from skald.events.common import GameCreated
from skald.events.envelope import SYSTEM, Envelope, seal_envelope

__all__ = ["Acted", "CorruptRecord", "Engine", "resolve_seat", "to_act", "to_envelope"]
to_act = kernel.to_act

Clock = Callable[[], datetime]
log = logging.getLogger(__name__)
SNAPSHOT_EVERY = 50
"""Events between snapshots: a cold load folds at most about this many events."""
_HEADERS_KEPT = 65536
_HISTORY_PART = re.compile(r"notes|v[1-9][0-9]*")


def _history_part(stream: str) -> bool:
    """Whether `stream` has the shape of a game's notes or variation stream id."""
    _, tilde, part = stream.partition("~")
    return bool(tilde) and _HISTORY_PART.fullmatch(part) is not None


def _history_words(stream: str) -> str:
    """What asking for a game's notes or variation stream as a game is told (the same
    whether that stream exists or not)."""
    base, _, part = stream.partition("~")
    what = "the notes" if part == "notes" else f"variation {part}"
    return (
        f"{stream!r} is {what} of game {base}, not a game: ask for the game; its notes and "
        "variations come with it"
    )


# Kept inside a tuple so that test clocks (freezegun) patching module-level `datetime`
# names leave it alone: recorded times are always plain datetimes, which encode everywhere.
_PLAIN_DATETIME = (datetime,)


def plain_utc(moment: datetime) -> datetime:
    """An aware UTC datetime of the builtin class, whatever the clock handed us."""
    if moment.tzinfo is UTC and type(moment) is _PLAIN_DATETIME[0]:
        return moment  # already one (the default clock's): nothing to rebuild
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
    return decode_record(record, decoder_for(game))


class Acted(msgspec.Struct, frozen=True):
    """What a request appended, and the state right after it."""

    envelopes: list[Envelope[Any]]
    state: GameState


class Engine:
    """Runs games stored in one EventStore."""

    def __init__(
        self,
        store: EventStore,
        clock: Clock = utc_now,
        cache_size: int = 256,
        random_hex: RandomHex = secrets.token_hex,
        snapshot_every: int = SNAPSHOT_EVERY,
    ) -> None:
        self.store = store
        self.clock = clock
        self.random_hex = random_hex
        self.snapshot_every = snapshot_every
        self._cache: OrderedDict[str, GameState] = OrderedDict()
        self._cache_size = cache_size
        self._headers: Memo[str, tuple[str, datetime]] = Memo(_HEADERS_KEPT)
        self._players: Memo[str, tuple[str, ...]] = Memo(_HEADERS_KEPT)
        self._provenance: Memo[str, Provenance] = Memo(_HEADERS_KEPT)
        self._lock = threading.Lock()

    # -- reading -----------------------------------------------------------------------

    def game_of(self, game_id: str) -> str:
        """The game name of a stream (it never changes: asked of the store once). A game's
        notes or variation stream is not a game: NotFound names the game it belongs to."""
        # A variation's or the notes' id of a game is answered from its shape, the same
        # whether that stream exists or not (and as fast): its existence would count the
        # variations the others opened.
        if _history_part(game_id) and self._is_game(game_id.partition("~")[0]):
            raise NotFound(_history_words(game_id))
        game = self._header(game_id)[0]
        if "~" in game_id and game.startswith("skald."):
            raise NotFound(_history_words(game_id))
        if game == TOURNAMENT_KIND:
            raise NotFound(
                f"{game_id} is a tournament, not a game: see `skald tournament standings "
                f"{game_id}` (`skald verify` checks its chain)"
            )
        return game

    def _is_game(self, stream: str) -> bool:
        """Whether `stream` is a game's (not a history stream's or a tournament's)."""
        try:
            kind = self._header(stream)[0]
        except NotFound:
            return False
        return not kind.startswith("skald.") and kind != TOURNAMENT_KIND

    def created_at(self, game_id: str) -> datetime:
        """When a stream was created (asked of the store once, with its game)."""
        return self._header(game_id)[1]

    def _header(self, game_id: str) -> tuple[str, datetime]:
        def read() -> tuple[str, datetime]:
            info = self.store.info(game_id)
            return info.kind, info.created_at

        return self._headers.fetch(game_id, read)

    def players_of(self, game_id: str) -> tuple[str, ...]:
        """A game's players in seat order, from its cached state or its first event alone
        (they never change): asking who plays never replays the game, so a log that does
        not replay can still be verified and audited over HTTP."""
        cached = self.cached(game_id)
        if cached is not None:
            return cached.players

        def read() -> tuple[str, ...]:
            game = self.game_of(game_id)
            first = self.store.read(game_id, 1, 1)
            created = to_envelope(first[0], game).event if first else None
            if not isinstance(created, GameCreated):
                raise CorruptRecord(1, "the stream does not begin with the game's creation")
            return created.players

        return self._players.fetch(game_id, read)

    def provenance(self, game_id: str) -> Provenance:
        """Where an imported stream came from (`core/provenance.py`; empty when it was not
        imported). Kept once the stream exists: its record never changes."""
        kept = self._provenance.get(game_id)
        if kept is not None:
            return kept
        found = decode_provenance(self.store.provenance(game_id))
        if found.partial is not None or self.store.version(game_id):
            self._provenance.put(game_id, found)
        return found

    def partial_copy(self, game_id: str) -> PartialCopy | None:
        """The game's partial-copy mark (None: a whole game)."""
        return self.provenance(game_id).partial

    def rules_of(self, game_id: str) -> Rules:
        """The rules a stream is played by."""
        return get_rules(self.game_of(game_id))

    def envelopes(
        self, game_id: str, from_seq: int = 1, to_seq: int | None = None
    ) -> list[Envelope[Any]]:
        """Full (unredacted) envelopes in a range; callers redact before anything leaves."""
        game = self.game_of(game_id)
        return [to_envelope(r, game) for r in self.store.read(game_id, from_seq, to_seq)]

    def load(self, game_id: str, at: int | None = None) -> GameState:
        """The state after seq `at` (default: the latest), from the cache where possible."""
        cached = self.cached(game_id)
        if at is not None:
            if at < 1:
                raise NotFound(f"seq {at} does not exist: seqs start at 1")
            if cached is not None and cached.version == at:
                return cached
            game = self.game_of(game_id)
            return self._replay(get_rules(game), game, game_id, None, at)
        if cached is not None:
            stored = self.store.version(game_id)
            if stored == cached.version:
                return cached
            if stored < cached.version:  # the store was replaced under us
                self.forget(game_id)
                cached = None
        game = self.game_of(game_id)
        state = self._replay(get_rules(game), game, game_id, cached, None)
        self._remember(game_id, state)
        return state

    def peek(self, game_id: str) -> GameState:
        """The cached state without asking the store whether it is current (loaded on a
        miss): for what never changes in a game (its players, its game, its options)."""
        return self.cached(game_id) or self.load(game_id)

    def cached(self, game_id: str) -> GameState | None:
        """The cached state of a game, or None (no I/O)."""
        with self._lock:
            return self._cache.get(game_id)

    def forget(self, game_id: str) -> None:
        """Drop a game's cached state (another process moved it on)."""
        with self._lock:
            self._cache.pop(game_id, None)

    def _replay(
        self, rules: Rules, game: str, game_id: str, state: GameState | None, to_seq: int | None
    ) -> GameState:
        start = state.version + 1 if state else 1
        rows: list[FoldRow] | None = None
        snapshot_seq = 0
        if state is None:
            state, rows = self._from_snapshot(game, game_id, to_seq)
            snapshot_seq = state.version if state else 0
        if rows is None:
            rows = self.store.read_folded(game_id, start, to_seq)
        decoder = decoder_for(game)
        for row in rows:
            try:
                event = decoder.decode(row.payload)
            except msgspec.DecodeError as error:
                raise CorruptRecord(row.seq, f"undecodable event: {error}") from None
            state = fold_event(rules, state, game_id, row.seq, row.hash, event)
        if state is None or (to_seq is not None and state.version < to_seq):
            last = state.version if state else 0
            raise NotFound(f"game {game_id} has no seq {to_seq} (last seq is {last})")
        if self.snapshot_every and state.version - snapshot_seq >= self.snapshot_every:
            self._save_snapshot(state)
        return state

    def _from_snapshot(
        self, game: str, game_id: str, to_seq: int | None
    ) -> tuple[GameState | None, list[FoldRow] | None]:
        """The nearest verified snapshot at or before `to_seq` and the rows after it.

        Snapshots past the stream's last event (its tail was deleted, or the events were
        restored without their snapshots) are skipped and dropped, with one warning."""
        codec = codec_for(game) if self.snapshot_every else None
        if codec is None:
            return None, None
        below, past_end = to_seq, None
        while True:
            found = self.store.snapshot(game_id, codec.version_key, below)
            if found is None:
                return None, None
            rows = self.store.read_folded(game_id, found.seq, to_seq)
            if rows:
                break
            past_end = past_end or found.seq
            self._drop_snapshot(game_id, codec.version_key, found.seq)
            below = found.seq - 1
        if past_end is not None:
            log.warning(
                "game %s: the store holds a snapshot at seq %d, past the game's last event: "
                "events were removed from its end (a later receipt names the first missing "
                "seq: skald verify --receipt)",
                game_id,
                past_end,
            )
        try:
            state = codec.decode(found.state)
        except (msgspec.DecodeError, msgspec.ValidationError) as error:
            log.warning("snapshot %s@%d does not decode (%s): replaying", game_id, found.seq, error)
            state = None
        if (
            state is None
            or rows[0].seq != found.seq
            or rows[0].hash != found.hash
            or (state.version, state.last_hash, state.id) != (found.seq, found.hash, game_id)
        ):
            log.warning("snapshot %s@%d does not match the chain: dropped", game_id, found.seq)
            self._drop_snapshot(game_id, codec.version_key, found.seq)
            return None, None
        return state, rows[1:]

    def _drop_snapshot(self, game_id: str, version_key: str, seq: int) -> None:
        """Forget a snapshot that cannot be used; a store that refuses (read-only, a
        writer elsewhere while on the event loop) keeps it, and the next load skips it
        again."""
        try:
            self.store.drop_snapshot(game_id, version_key, seq)
        except (DBAPIError, StoreError, WouldWait) as error:
            log.debug("snapshot %s@%d not dropped: %s", game_id, seq, error)

    def _save_snapshot(self, state: GameState) -> None:
        """Keep a snapshot of `state`; a store that refuses (read-only, full) only logs."""
        codec = codec_for(state.game)
        data = codec.checked(state) if codec is not None else None
        if codec is None or data is None:
            return
        try:
            self.store.save_snapshot(
                state.id, codec.version_key, state.version, state.last_hash, data
            )
        except WouldWait as error:  # on the event loop, a writer elsewhere: skipped, as meant
            log.debug("snapshot of %s@%d not saved: %s", state.id, state.version, error)
        except (DBAPIError, StoreError) as error:
            log.warning("snapshot of %s@%d not saved: %s", state.id, state.version, error)

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
        state = self._append(
            rules, game_id, None, batch, expected_version=0, kind=game, title=", ".join(players)
        )[-1][1]
        # Made here, not imported: its provenance is known without a read.
        self._provenance.put(game_id, Provenance())
        return state

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
        return self.act(game_id, seat, request, expected_version).envelopes

    def decision_text(self, game_id: str, seat: int, request: Request) -> str:
        """The text `seat` signs for `request` now (core/identity.py): derived as `act`
        would, after the same checks, and nothing written."""
        state = self.load(game_id)
        partial = self.partial_copy(game_id)
        if partial is not None:
            raise refuse_partial(game_id, partial)
        return kernel.decision_text(get_rules(state.game), state, seat, request)

    def act(
        self, game_id: str, seat: int, request: Request, expected_version: int | None = None
    ) -> Acted:
        """`request`, also returning the state after the append (for the answer)."""
        state = self.cached(game_id)
        checked = state is None
        if state is None or (expected_version is not None and expected_version != state.version):
            state, checked = self.load(game_id), True  # our copy may be behind the store
        if expected_version is not None and expected_version != state.version:
            raise VersionConflict(
                f"game {game_id} is at seq {state.version}, not "
                f"{expected_version}; reload and try again",
                state.version,
            )
        partial = self.partial_copy(game_id)
        if partial is not None:
            raise refuse_partial(game_id, partial)
        rules = get_rules(state.game)
        try:
            batch = kernel.derive(rules, state, seat, request)
        except SkaldError:
            if checked or self.load(game_id).version == state.version:
                raise
            return self.act(game_id, seat, request, expected_version)  # it was behind
        try:
            sealed = self._append(rules, game_id, state, batch)
        except VersionConflict:
            self.forget(game_id)
            if expected_version is not None or checked:
                raise
            return self.act(game_id, seat, request, expected_version)  # once, from the store
        return Acted([env for env, _ in sealed], sealed[-1][1])

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
        chapter = rules.chapter(state.rules) if state else None
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
        records = [to_record(env) for env, _ in sealed]
        base = expected_version if expected_version is not None else (sealed[0][0].seq - 1)
        self.store.append(game_id, records, base, kind=kind, title=title)
        final = sealed[-1][1]
        self._remember(game_id, final)
        every = self.snapshot_every
        if every and (
            final.version // every != base // every
            or (chapter is not None and rules.chapter(final.rules) != chapter)
        ):
            self._save_snapshot(final)  # every N events, and where an act/day/round begins
        return sealed
