"""The engine: command → decide → append → evolve, with nothing written when a step fails.

The engine does the checks every game shares (the game exists, it is not over, the
caller's version is current, it is the seat's turn, the undo policy) once; rules only
know their game. Current states are cached per game, so a move reads only the events
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

from core.codec import decoder_for, encode_event, event_tag
from core.errors import Forbidden, IllegalMove, InvalidNotation, NotFound, VersionConflict
from core.rng import Rng, salt
from core.rules import Rules, get_rules
from core.state import GameState, effective_seed, fold
from core.store import EventStore, StoredRecord
from events.common import (
    DecisionRedone,
    DecisionUndone,
    EntropyAdded,
    GameCreated,
    GameFinished,
    MoveMade,
)
from events.envelope import SYSTEM, Envelope, seal_envelope
from events.secret import seal

Clock = Callable[[], datetime]
UNDO_POLICIES = ("author", "anyone", "off")
REVEAL_POLICIES = ("end", "referee")
ENTROPY_POLICIES = ("off", "seats")
ENTROPY_PREFIX = "entropy "


# Kept inside a tuple so that test clocks (freezegun) patching module-level `datetime`
# names leave it alone: recorded times are always plain datetimes, which encode everywhere.
_PLAIN_DATETIME = (datetime,)


def plain_utc(moment: datetime) -> datetime:
    """An aware UTC datetime of the builtin class, whatever the clock handed us."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return _PLAIN_DATETIME[0](moment.year, moment.month, moment.day, moment.hour,
                              moment.minute, moment.second, moment.microsecond, tzinfo=UTC)


def utc_now() -> datetime:
    """The default clock."""
    return datetime.now(UTC)


def resolve_seat(players: Sequence[str], text: str | int) -> int:
    """A seat from a player name or a 0-based index; NotFound names the choices."""
    if isinstance(text, int) or (isinstance(text, str) and text.isdigit()):
        index = int(text)
        if 0 <= index < len(players):
            return index
    elif text in players:
        return players.index(text)
    choices = ", ".join(f"{i}={name}" for i, name in enumerate(players))
    raise NotFound(f"no seat {text!r} in this game (seats: {choices})")


def to_envelope(record: StoredRecord, game: str) -> Envelope[Any]:
    """Decode one stored record."""
    try:
        event = decoder_for(game).decode(record.payload)
    except msgspec.DecodeError as error:
        raise CorruptRecord(record.seq, f"undecodable event: {error}") from None
    return Envelope(stream=record.stream, seq=record.seq, recorded_at=record.recorded_at,
                    actor=record.actor, event=event, prev_hash=record.prev_hash, hash=record.hash)


def to_act(rules: Rules, state: GameState) -> frozenset[int]:
    """The seats that may act now: entropy owers first, then whoever the rules say."""
    if state.outcome is not None:
        return frozenset()
    return state.awaiting_entropy or rules.to_act(state.rules)


class CorruptRecord(IllegalMove):
    """A stored record that cannot be decoded."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(f"seq {seq}: {reason}")
        self.seq = seq


class Engine:
    """Runs games stored in one EventStore."""

    def __init__(self, store: EventStore, clock: Clock = utc_now, cache_size: int = 256) -> None:
        self.store = store
        self.clock = clock
        self._cache: OrderedDict[str, GameState] = OrderedDict()
        self._cache_size = cache_size
        self._lock = threading.Lock()

    # -- reading -----------------------------------------------------------------------

    def game_of(self, game_id: str) -> str:
        """The game name of a stream."""
        return self.store.info(game_id).kind

    def rules_of(self, game_id: str) -> Rules:
        """The rules a stream is played by."""
        return get_rules(self.game_of(game_id))

    def envelopes(self, game_id: str, from_seq: int = 1, to_seq: int | None = None
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

    def _replay(self, rules: Rules, game: str, game_id: str, state: GameState | None,
                to_seq: int | None) -> GameState:
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

    def create(self, game: str, players: Sequence[str], seed: str | None = None,
               options: Mapping[str, str] | None = None, game_id: str | None = None
               ) -> GameState:
        """Start a new game: creation event plus the rules' opening events, one batch."""
        rules = get_rules(game)
        players = tuple(p.strip() for p in players)
        if not rules.min_players <= len(players) <= rules.max_players:
            raise IllegalMove(f"{rules.title} takes {rules.min_players} to "
                              f"{rules.max_players} players, not {len(players)}")
        if any(not p for p in players) or len(set(players)) != len(players):
            raise IllegalMove(f"player names must be non-empty and distinct: {list(players)}")
        options = dict(options or {})
        if options.get("undo", "author") not in UNDO_POLICIES:
            raise IllegalMove(f"undo policy must be one of {', '.join(UNDO_POLICIES)}")
        if options.get("entropy", "off") not in ENTROPY_POLICIES:
            raise IllegalMove(f"entropy policy must be one of {', '.join(ENTROPY_POLICIES)}")
        if options.get("reveal", "end") not in REVEAL_POLICIES:
            raise IllegalMove(f"reveal policy must be one of {', '.join(REVEAL_POLICIES)}")
        seed = seed if seed is not None else secrets.token_hex(32)
        game_id = game_id or uuid.uuid4().hex[:16]
        seed_bytes = seed.encode()
        created = GameCreated(
            game=game, players=players, options=tuple(sorted(options.items())),
            seed=seal(seed, frozenset(), salt(seed_bytes, "seed")),
            rules_version=rules.version,
        )
        state = GameState(id=game_id, game=game, players=players, options=created.options,
                          seed=created.seed, rules=rules.initial(created))
        # With entropy=seats the opening draws wait until every seat has mixed in its own.
        opening = () if state.awaiting_entropy else rules.start(state.rules, Rng(seed_bytes))
        actors = [SYSTEM] * (1 + len(opening))
        envelopes = self._append(rules, game_id, None, (created, *opening), actors,
                                 expected_version=0, kind=game, title=", ".join(players))
        return envelopes[-1][1]

    def execute(self, game_id: str, seat: int, command: Any,
                expected_version: int | None = None) -> list[Envelope[Any]]:
        """Play one decision for `seat`; `command` is a command or its notation."""
        state, rules = self._writable(game_id, expected_version)
        waiting = to_act(rules, state)
        if seat not in waiting:
            raise Forbidden(f"it is not {state.players[seat]}'s turn "
                            f"(waiting for {self._names(state, waiting)})")
        if state.awaiting_entropy:
            return self._add_entropy(rules, state, seat, command)
        if isinstance(command, str):
            command = rules.parse(command)
        rng = Rng(state.seed_bytes())
        events = rules.decide(state.rules, seat, command, rng)
        hidden = rules.hide_move(state.rules, seat, command, rng)
        marker = MoveMade(seat=seat, move=None if hidden else rules.format(command),
                          hidden_move=hidden)
        batch = (marker, *events)
        return [env for env, _ in self._append(rules, game_id, state, batch,
                                               [str(seat)] * len(batch))]

    def _add_entropy(self, rules: Rules, state: GameState, seat: int, command: Any
                     ) -> list[Envelope[Any]]:
        if not isinstance(command, str) or not command.startswith(ENTROPY_PREFIX) or \
                not command.removeprefix(ENTROPY_PREFIX).strip():
            raise InvalidNotation(f"{command!r}: this table waits for each seat's entropy; "
                                  f"send '{ENTROPY_PREFIX}TEXT' with any text of your own")
        text = command.removeprefix(ENTROPY_PREFIX).strip()
        events: list[Any] = [EntropyAdded(seat=seat, entropy=text)]
        if state.awaiting_entropy == {seat}:
            mixed = (*state.entropy, (seat, text))
            events += rules.start(state.rules, Rng(effective_seed(state.seed.get(), mixed)))
        actors = [str(seat)] + [SYSTEM] * (len(events) - 1)
        return [env for env, _ in self._append(rules, state.id, state, events, actors)]

    def undo(self, game_id: str, seat: int, expected_version: int | None = None
             ) -> list[Envelope[Any]]:
        """Take back the last decision, if the table's policy lets `seat` do so."""
        state, rules = self._writable(game_id, expected_version)
        if not state.undo:
            raise IllegalMove("nothing to undo: the last decision revealed information or "
                              "used chance (a draw, a roll), and cannot be taken back")
        author = state.undo[-1].seat
        self._check_policy(state, seat, author, "undo")
        event = DecisionUndone(seat=seat, author=author)
        return [env for env, _ in self._append(rules, game_id, state, (event,), [str(seat)])]

    def redo(self, game_id: str, seat: int, expected_version: int | None = None
             ) -> list[Envelope[Any]]:
        """Re-apply the last undone decision while nothing else has happened since."""
        state, rules = self._writable(game_id, expected_version)
        if not state.redo:
            raise IllegalMove("nothing to redo: no decision was undone since the last move")
        self._check_policy(state, seat, state.redo[-1].seat, "redo")
        event = DecisionRedone(seat=seat)
        return [env for env, _ in self._append(rules, game_id, state, (event,), [str(seat)])]

    def _check_policy(self, state: GameState, seat: int, author: int, verb: str) -> None:
        policy = state.option("undo", "author")
        if policy == "off":
            raise Forbidden(f"this table does not allow {verb}")
        if policy == "author" and seat != author:
            raise Forbidden(f"only {state.players[author]}, who made that decision, may "
                            f"{verb} it (table policy: author)")

    def _writable(self, game_id: str, expected_version: int | None
                  ) -> tuple[GameState, Rules]:
        state = self.load(game_id)
        if expected_version is not None and expected_version != state.version:
            raise VersionConflict(f"game {game_id} is at seq {state.version}, not "
                                  f"{expected_version}; reload and try again", state.version)
        if state.outcome is not None:
            raise IllegalMove(f"game {game_id} is over; nothing more can be played")
        return state, get_rules(state.game)

    @staticmethod
    def _names(state: GameState, seats: frozenset[int]) -> str:
        return ", ".join(state.players[s] for s in sorted(seats)) or "nobody"

    def _append(self, rules: Rules, game_id: str, state: GameState | None,
                events: Sequence[Any], actors: Sequence[str], expected_version: int | None = None,
                kind: str = "", title: str = "") -> list[tuple[Envelope[Any], GameState]]:
        """Seal, fold and store a batch; finish the game when the rules say it is over."""
        now = plain_utc(self.clock())
        version = state.version if state else 0
        prev_hash = state.last_hash if state else "0" * 64
        sealed: list[tuple[Envelope[Any], GameState]] = []
        pending = list(zip(events, actors, strict=True))
        while pending:
            event, actor = pending.pop(0)
            envelope = seal_envelope(game_id, version + 1, now, actor, event, prev_hash)
            state = fold(rules, state, envelope)
            sealed.append((envelope, state))
            version, prev_hash = envelope.seq, envelope.hash
            if not pending and state.outcome is None:
                outcome = rules.outcome(state.rules)
                if outcome is not None:
                    pending.append((GameFinished(outcome=outcome), SYSTEM))
        records = [
            StoredRecord(stream=game_id, seq=env.seq, recorded_at=env.recorded_at,
                         actor=env.actor, kind=event_tag(env.event),
                         payload=encode_event(env.event), prev_hash=env.prev_hash, hash=env.hash)
            for env, _ in sealed
        ]
        base = expected_version if expected_version is not None else (
            sealed[0][0].seq - 1)
        self.store.append(game_id, records, base, kind=kind, title=title)
        self._remember(game_id, sealed[-1][1])
        return sealed
