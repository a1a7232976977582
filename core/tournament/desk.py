"""The tournament desk: the one facade the CLI and API use for tournaments.

It appends to the tournament's stream and reaches games only through a `GameDesk` (the
Table satisfies it), so nothing here touches a game's engine or state. Each write checks
first and appends one batch, or raises and writes nothing to the tournament (a round's
games are created before its pairing is appended; should that append lose a race, they
stay unlinked, and nobody holds their tokens). Every read of a tournament's stream,
for presenting it or for a write, checks its hash chain first (`envelopes`): a stream
that fails the check is refused naming the seq, so nothing is shown or written from it;
only `verify` reads it unchecked, to say where it breaks.

The desk reads and appends; what each write checks and builds is in its own module below
it: core/tournament/registration.py (creation, late registration, withdrawal), rounds.py
(pairing a round and creating its games), results.py (taking results in), disputes.py
(disputes and rulings), evidence.py (recorded results against their games); games.py is
how it reaches games, words.py how things read in words.

Decisions where the issue was silent:
- Default table size: 4 (each game allows it); `table_size` overrides, within the game's
  player counts. Round 1 of a Swiss event is drawn (from the seed, else the tournament
  id); later rounds follow the standings (core/tournament/standing.py).
- Round robin: with two-player tables, the circle method (rounds up to n-1, n when odd),
  each round seated with the rounds left in view so first seats (Beast: the Beast) end
  evenly spread, everyone first equally often when the schedule allows it
  (core/tournament/orient.py); with larger tables, rounds are paired repeat-free while
  that is possible.
- Duplicate: tables all of the preferred size (the rest sit out with a bye); each round
  draws a fresh secret seed used only in its games' keys, shared through `deal`; its games
  are `reveal=referee`, so no deal shows before the round ends; verdicts are attached
  (the desk auditing as referee) once every table of the round has finished. A table
  replayed by a ruling gets a fresh deal (`ROUND-DEAL/table-K/replay-M`, its own secret
  seed), never the round's: its seats have played that one, and every table's play opens
  once the round is over. Its result counts in the standings like any table's; the seat
  comparison, which compares tables that played one deal, leaves it out and says so
  (projections/tournament/standings.py `seat_comparison`).
- Swiss games with a tournament seed get seed SEED/rROUND/tTABLE, mixed with each game's
  own key (the tournament seed orders pairings, it never fixes a deal).
- A result whose chain fails or whose audit finds anomalies is held (counts nothing) until
  the referee rules; an open dispute leaves the result standing until the ruling.
- A final table (`final_table` K) is paired after the last round: the top K at one table.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime

import msgspec

from skald.core.chain import ChainReport
from skald.core.codec import to_record
from skald.core.errors import IllegalMove, NotFound, VersionConflict
from skald.core.provenance import Provenance, encode, signer_kind, signer_words
from skald.core.provenance import decode as decode_provenance
from skald.core.store import EventStore, StoredRecord, StreamInfo
from skald.core.tournament import disputes, registration, results, stream
from skald.core.tournament.evidence import with_evidence
from skald.core.tournament.games import GameDesk
from skald.core.tournament.results import TakenIn
from skald.core.tournament.rounds import next_round
from skald.core.tournament.state import TournamentState, evolve, fold
from skald.events.envelope import GENESIS, SYSTEM, Envelope
from skald.events.tournament import (
    TIEBREAKS,
    AuditAttached,
    DisputeOpened,
    DisputeSettled,
    PlayerRegistered,
    PlayerWithdrawn,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
    TournamentEvent,
)

# Imported `as` themselves, they stay importable from here, where the API, the CLI and the
# projections have found them: GameDesk, DEFAULT_TABLE_SIZE, MAX_ROUNDS, TABLE_ID_LIKE, plural.


def utc_now() -> datetime:
    """The default clock."""
    return datetime.now(UTC)


class Tournaments:
    """Creates, pairs, records and settles tournaments kept in one store."""

    def __init__(
        self, store: EventStore, games: GameDesk, clock: Callable[[], datetime] = utc_now
    ) -> None:
        self._store = store
        self._games = games
        self._clock = clock

    # -- reading -------------------------------------------------------------------------

    @property
    def store(self) -> EventStore:
        """The store the tournaments are kept in."""
        return self._store

    def listing(self, limit: int = 50, offset: int = 0) -> list[StreamInfo]:
        """Tournaments' stream headers, newest first (the title is the tournament's name)."""
        return self._store.list_streams(kind=stream.KIND, limit=limit, offset=offset)

    def seat_of(
        self, tournament: str, player: str, round_number: int | None = None
    ) -> tuple[int, int, str, int]:
        """(round, table, game, seat) of `player`'s table in round `round_number` (None:
        the latest; the game is the one at the table now, a replay's after a ruling);
        NotFound when it has none there (not paired, a bye, withdrawn before the round)."""
        state = self.state(tournament)
        rounds = [r for r in state.rounds if round_number is None or r.round == round_number]
        if not rounds:
            which = "round" if round_number is None else f"round {round_number}"
            raise NotFound(f"tournament {tournament} has no {which} paired")
        current = rounds[-1]
        for table in current.tables:
            if player in table.seats:
                return current.round, table.table, table.game, table.seats.index(player)
        raise NotFound(f"{player!r} has no table in round {current.round}")

    def envelopes(self, tournament: str) -> list[Envelope[TournamentEvent]]:
        """The tournament's events in order (nothing in them is secret), from records that
        passed `verify` in the same read: every read that presents the tournament or
        builds on it (summary, standings, exports, pairing, results, every write) comes
        through here, so none of them works from a doctored stream. `stream.BrokenChain`
        (a CorruptRecord: CLI exit 9, HTTP 500 `corrupt_record`) names the first bad seq
        and why; NotFound when there is no such tournament."""
        for _attempt in range(2):  # a write landing between the header and the rows
            report, records = self._checked(tournament)
            if report.ok:
                return [stream.to_envelope(record) for record in records]
        raise stream.BrokenChain(tournament, report)

    def state(self, tournament: str) -> TournamentState:
        """The tournament folded from its checked stream (`envelopes`)."""
        return fold(tournament, (env.event for env in self.envelopes(tournament)))

    def verify(self, tournament: str) -> ChainReport:
        """Check the tournament's stream: header, chain, every record (the one read that
        works on a broken stream: it says where it breaks), then every recorded result
        against its game (core/tournament/evidence.py): the first that disagrees is named."""
        report, records = self._checked(tournament)
        if not report.ok:
            return report
        return with_evidence(report, [stream.to_envelope(r) for r in records], self._games)

    def _checked(self, tournament: str) -> tuple[ChainReport, list[StoredRecord]]:
        """The stream's records, read once, and their check (header, chain, records)."""
        info = self._info(tournament)
        records = self._store.read(tournament)
        return stream.verify(info, records), records

    def header(self, tournament: str) -> StreamInfo:
        """The tournament's stream header (its name is the title); NotFound if none."""
        return self._info(tournament)

    def _info(self, tournament: str) -> StreamInfo:
        info = self._store.info(tournament) if self._store.version(tournament) else None
        if info is None or info.kind != stream.KIND:
            raise NotFound(f"no tournament with id {tournament!r}")
        return info

    def open_games(self, tournament: str) -> list[tuple[int, int, str]]:
        """(round, table, game) of the current round's games not finished yet."""
        state = self.state(tournament)
        if not state.rounds:
            return []
        current = state.rounds[-1]
        return [
            (current.round, table.table, table.game)
            for table in current.tables
            if table.result is None and self._games.summary(table.game).outcome is None
        ]

    # -- writing -------------------------------------------------------------------------

    def create(
        self,
        game: str,
        players: Sequence[str],
        rounds: int,
        format: str = "swiss",
        table_size: int | None = None,
        seed: str | None = None,
        options: Mapping[str, str] | None = None,
        points: Sequence[int] = (6, 4, 2, 0),
        bye_points: int | None = None,
        tiebreaks: Sequence[str] = TIEBREAKS,
        final_table: int = 0,
        name: str | None = None,
        tournament_id: str | None = None,
    ) -> str:
        """Create a tournament and return its id."""
        created = registration.check_creation(
            game,
            tuple(p.strip() for p in players),
            rounds,
            format,
            table_size,
            seed,
            dict(options or {}),
            tuple(points),
            bye_points,
            tuple(tiebreaks),
            final_table,
            name,
        )
        tournament = tournament_id or secrets.token_hex(8)
        if self._store.version(tournament):
            raise VersionConflict(f"stream {tournament} exists already", 1)
        self._append(tournament, None, [(created, stream.ORGANISER)])
        return tournament

    def register(self, tournament: str, player: str) -> PlayerRegistered:
        """Register a late player (Swiss and duplicate only), paired from the next round."""
        state = self.state(tournament)
        event = registration.registered(state, player)
        self._append(tournament, state, [(event, stream.ORGANISER)])
        return event

    def withdraw(self, tournament: str, player: str, reason: str = "") -> PlayerWithdrawn:
        """Withdraw a player: not paired any more; past results stay."""
        state = self.state(tournament)
        event = registration.withdrawn(state, player, reason)
        self._append(tournament, state, [(event, stream.ORGANISER)])
        return event

    def pair(self, tournament: str) -> RoundPaired:
        """Pair the next round, create its games and link them to its tables (from a
        stream that passed its chain check: standings never come from forged results)."""
        state = self.state(tournament)
        event = next_round(state, self._games)
        self._append(tournament, state, [(event, stream.ORGANISER)])
        return event

    def collect(self, tournament: str) -> list[ResultRecorded | AuditAttached]:
        """Take in every finished game's result, checked, and any verdict now revealed
        (`take_in`'s events)."""
        return self.take_in(tournament).events

    def take_in(self, tournament: str) -> TakenIn:
        """Take in every finished game's result, checked, and any verdict now revealed. A
        duplicate round's results wait until every table of the round has finished: the
        stream is public, and one table's scores tell the others about their shared deal
        (core/tournament/seclusion.py keeps the games themselves apart meanwhile); its
        finished tables are listed as `waiting` meanwhile, read with the same outcomes."""
        state = self.state(tournament)
        taken = results.taken_in(state, self._games)
        if taken.events:
            self._append(tournament, state, [(event, SYSTEM) for event in taken.events])
        return taken

    def dispute(self, tournament: str, game: str, player: str, reason: str) -> DisputeOpened:
        """A player seated at the game's table disputes its recorded result."""
        state = self.state(tournament)
        event = disputes.opened(state, game, player, reason)
        self._append(tournament, state, [(event, player)])
        return event

    def settle(
        self,
        tournament: str,
        game: str,
        ruling: str,
        reason: str,
        ranking: Sequence[Sequence[str]] | None = None,
    ) -> DisputeSettled:
        """The referee rules on a disputed or held result: stands, adjusted (to `ranking`,
        groups of player names, best first) or replayed (a new game at the same table)."""
        state = self.state(tournament)
        event = disputes.settled(state, self._games, game, ruling, reason, ranking)
        self._append(tournament, state, [(event, stream.REFEREE)])
        return event

    def import_jsonl(self, text: str) -> str:
        """Store a tournament from its exported stream (`export --format jsonl`), checked:
        the chain must verify, the id must be new here. Returns its id; who signed its head
        is kept with it (`head_signer`)."""
        parsed = stream.read_export(text)
        envelopes = parsed.envelopes
        records = [to_record(env) for env in envelopes]
        tournament = records[0].stream
        try:
            state = fold(tournament, (env.event for env in envelopes))
        except ValueError as error:
            raise IllegalMove(str(error)) from None
        created = envelopes[0].event
        assert isinstance(created, TournamentCreated)  # fold checked it
        header = StreamInfo(
            id=tournament,
            kind=stream.KIND,
            version=records[-1].seq,
            created_at=records[0].recorded_at,
            title=stream.title_of(created),
        )
        report = with_evidence(stream.verify(header, records), envelopes, self._games)
        if not report.ok:
            raise IllegalMove(
                f"the export does not verify at seq {report.bad_seq}: {report.reason}; "
                "nothing was imported"
            )
        if self._store.version(tournament):
            raise VersionConflict(f"stream {tournament} exists already", state.version)
        self._store.append(
            tournament,
            records,
            0,
            kind=stream.KIND,
            title=stream.title_of(created),
            provenance=encode(Provenance(head_signer=parsed.head_signer)),
        )
        return tournament

    def head_signer(self, tournament: str) -> HeadSigner:
        """Who signed the tournament's head: created here (this store signs its exports),
        or, for an imported one, this store's key, another store's (its fingerprint) or
        nobody (an unsigned head, which anyone could have re-hashed)."""
        self._info(tournament)
        key = decode_provenance(self._store.provenance(tournament)).head_signer
        keys = self._store.signing_keys()
        return HeadSigner(kind=signer_kind(key, keys), key=key or "", words=signer_words(key, keys))

    def _append(
        self,
        tournament: str,
        state: TournamentState | None,
        batch: Sequence[tuple[TournamentEvent, str]],
    ) -> None:
        after = 0 if state is None else state.version
        head = GENESIS if state is None else self._store.read(tournament, after, after)[0].hash
        if state is not None:  # the batch must fold: the reducer trusts what is stored
            for event, _actor in batch:
                state = evolve(state, event)
        records = stream.seal(tournament, after, head, batch, _plain(self._clock()))
        created = batch[0][0]
        title = stream.title_of(created) if isinstance(created, TournamentCreated) else ""
        self._store.append(tournament, records, after, kind=stream.KIND, title=title)


class HeadSigner(msgspec.Struct, frozen=True, kw_only=True):
    """Who signed a tournament's head: `kind` created_here, this_store, another_store or
    unsigned; `key` the public key of an imported signed head; `words` in plain words."""

    kind: str
    key: str
    words: str


def _plain(moment: datetime) -> datetime:
    moment = moment.astimezone(UTC)
    return datetime(
        moment.year,
        moment.month,
        moment.day,
        moment.hour,
        moment.minute,
        moment.second,
        moment.microsecond,
        tzinfo=UTC,
    )
