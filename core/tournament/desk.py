"""The tournament desk: the one facade the CLI and API use for tournaments.

It appends to the tournament's stream and reaches games only through a `GameDesk` (the
Table satisfies it), so nothing here touches a game's engine or state. Each write checks
first and appends one batch, or raises and writes nothing to the tournament (a round's
games are created before its pairing is appended; should that append lose a race, they
stay unlinked, and nobody holds their tokens). Every read of a tournament's stream,
for presenting it or for a write, checks its hash chain first (`envelopes`): a stream
that fails the check is refused naming the seq, so nothing is shown or written from it;
only `verify` reads it unchecked, to say where it breaks.

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
  (projections/standings.py `seat_comparison`).
- Swiss games with a tournament seed get seed SEED/rROUND/tTABLE, mixed with each game's
  own key (the tournament seed orders pairings, it never fixes a deal).
- A result whose chain fails or whose audit finds anomalies is held (counts nothing) until
  the referee rules; an open dispute leaves the result standing until the ruling.
- A final table (`final_table` K) is paired after the last round: the top K at one table.
"""

from __future__ import annotations

import itertools
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime

import msgspec

from skald.core import kernel
from skald.core.chain import ChainReport
from skald.core.codec import to_record
from skald.core.errors import Forbidden, IllegalMove, InvalidOption, NotFound, VersionConflict
from skald.core.provenance import Provenance, encode, signer_kind, signer_words
from skald.core.provenance import decode as decode_provenance
from skald.core.rules import Rules, get_rules
from skald.core.seats import check_player_names, has_control, name_problem
from skald.core.secrecy import sealed_key
from skald.core.store import EventStore, StoredRecord, StreamInfo
from skald.core.tournament import pairing, stream
from skald.core.tournament.evidence import result_problem
from skald.core.tournament.games import GameDesk as GameDesk  # also imported from here
from skald.core.tournament.standing import ranked, tallies
from skald.core.tournament.state import RoundState, TableState, TournamentState, evolve, fold
from skald.events.common import Outcome
from skald.events.envelope import GENESIS, SYSTEM, Envelope
from skald.events.tournament import (
    FORMATS,
    RULINGS,
    TIEBREAKS,
    AuditAttached,
    DisputeOpened,
    DisputeSettled,
    PlayerRegistered,
    PlayerWithdrawn,
    ResultRecorded,
    RoundPaired,
    SeatedTable,
    TournamentCreated,
    TournamentEvent,
)
from skald.events.viewer import REFEREE, SPECTATOR

DEFAULT_TABLE_SIZE = 4
MAX_ROUNDS = 100


class WaitingTable(msgspec.Struct, frozen=True, kw_only=True):
    """A duplicate round's table whose game is over and whose result waits for the
    round's other tables (`playing`: the tables still playing)."""

    round: int
    table: int
    game: str
    playing: tuple[int, ...]

    def words(self) -> str:
        """`round 1, table 1 has finished; its result is taken in once table 2 has too`."""
        tables = ", ".join(map(str, self.playing))
        other = f"table {tables} has" if len(self.playing) == 1 else f"tables {tables} have"
        return (
            f"round {self.round}, table {self.table} has finished; a duplicate round's "
            f"results are taken in together, once {other} finished too"
        )


class TakenIn(msgspec.Struct, frozen=True, kw_only=True):
    """What taking results in did: the events appended, and the tables still waiting."""

    events: list[ResultRecorded | AuditAttached]
    waiting: list[WaitingTable]


def _waiting(paired: RoundState, finished: Mapping[str, Outcome | None]) -> list[WaitingTable]:
    """A duplicate round's finished tables without a result while others still play."""
    playing = tuple(t.table for t in paired.tables if finished[t.game] is None)
    return [
        WaitingTable(round=paired.round, table=t.table, game=t.game, playing=playing)
        for t in paired.tables
        if finished[t.game] is not None and t.result is None
    ]


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
        return _with_evidence(report, [stream.to_envelope(r) for r in records], self._games)

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
        created = check_creation(
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
        player = player.strip()
        problem = name_problem(player)
        if problem:
            raise IllegalMove(problem)
        known = next((p for p in state.players if p.casefold() == player.casefold()), None)
        if known is not None:
            raise IllegalMove(f"{player!r} is registered already (as {known!r})")
        if state.config.format == "round-robin" and state.rounds:
            raise IllegalMove("a round robin takes no player once it has started")
        event = PlayerRegistered(player=player)
        self._append(tournament, state, [(event, stream.ORGANISER)])
        return event

    def withdraw(self, tournament: str, player: str, reason: str = "") -> PlayerWithdrawn:
        """Withdraw a player: not paired any more; past results stay."""
        state = self.state(tournament)
        if player not in state.active:
            raise NotFound(f"no active player {player!r} in tournament {tournament}")
        event = PlayerWithdrawn(player=player, reason=reason)
        self._append(tournament, state, [(event, stream.ORGANISER)])
        return event

    def pair(self, tournament: str) -> RoundPaired:
        """Pair the next round, create its games and link them to its tables (from a
        stream that passed its chain check: standings never come from forged results)."""
        state = self.state(tournament)
        final = self._next_is_final(state)
        number = len(state.rounds) + 1
        groups, byes = (
            self._final_table(state) if final else _pairing(state, number, self._sizes(state))
        )
        deal = f"{tournament}/round-{number}" if state.config.format == "duplicate" else None
        deal_seed = secrets.token_hex(32) if deal else None
        tables = tuple(
            SeatedTable(
                table=k,
                game=self._new_game(state, number, k, seats, deal, deal_seed),
                seats=seats,
            )
            for k, seats in enumerate(groups, start=1)
        )
        event = RoundPaired(round=number, tables=tables, byes=byes, deal=deal, final=final)
        self._append(tournament, state, [(event, stream.ORGANISER)])
        return event

    def _next_is_final(self, state: TournamentState) -> bool:
        if state.rounds and not state.rounds[-1].complete:
            waiting = [t.table for t in state.rounds[-1].tables if t.outcome is None]
            tables = "table " if len(waiting) == 1 else "tables "
            verb = " has" if len(waiting) == 1 else " have"
            raise IllegalMove(
                f"round {state.rounds[-1].round} is not over: {tables}"
                f"{', '.join(map(str, waiting))}{verb} no result that counts yet"
            )
        if len(state.rounds) < state.config.rounds:
            return False
        if state.config.final_table and not any(r.final for r in state.rounds):
            if len(state.active) < state.config.final_table:
                raise IllegalMove("fewer active players than seats at the final table")
            return True
        called = f'the tournament "{state.config.name}"' if state.config.name else "this tournament"
        if state.config.rounds == 1:
            raise IllegalMove(f"the one round of {called} is paired")
        raise IllegalMove(f"all {state.config.rounds} rounds of {called} are paired")

    def _sizes(self, state: TournamentState) -> list[int]:
        rules = get_rules(state.config.game)
        exact = state.config.format == "duplicate"
        return pairing.table_sizes(
            len(state.active), state.config.table_size, rules.min_players, exact
        )

    def _final_table(self, state: TournamentState) -> tuple[list[tuple[str, ...]], tuple[()]]:
        active = set(state.active)
        top = [p for _, p in ranked(state) if p in active][: state.config.final_table]
        return [pairing.seat_order(top, history(state), top)], ()

    def _new_game(
        self,
        state: TournamentState,
        number: int,
        table: int,
        seats: Sequence[str],
        deal: str | None,
        deal_seed: str | None,
        suffix: str = "",
    ) -> str:
        config = state.config
        seed = deal_seed
        if seed is None and config.seed is not None:
            seed = f"{config.seed}/r{number}/t{table}{suffix}"
        return self._games.create(
            config.game,
            seats,
            seed=seed,
            options=dict(config.options),
            game_id=table_game_id(state.id, number, table, suffix),
            deal=deal,
            reproducible=deal is not None,
        )

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
        batch: list[ResultRecorded | AuditAttached] = []
        waiting: list[WaitingTable] = []
        for paired in state.rounds:
            finished = {t.game: self._games.summary(t.game).outcome for t in paired.tables}
            revealed = paired.deal is None or all(o is not None for o in finished.values())
            if not revealed:
                waiting += _waiting(paired, finished)
            for table in paired.tables:
                outcome = finished[table.game]
                if table.result is None and outcome is not None and revealed:
                    batch.append(self._result(paired, table, outcome))
                elif table.result is not None and not table.verdict and revealed:
                    verdict = self._verdict(paired, table.game)
                    if verdict:
                        batch.append(
                            AuditAttached(
                                round=paired.round,
                                table=table.table,
                                game=table.game,
                                verdict=verdict,
                            )
                        )
        if batch:
            self._append(tournament, state, [(event, SYSTEM) for event in batch])
        return TakenIn(events=batch, waiting=waiting)

    def _result(self, paired: RoundState, table: TableState, outcome: Outcome) -> ResultRecorded:
        report = self._games.verify(table.game)
        chain = "ok" if report.ok else f"seq {report.bad_seq}: {report.reason}"
        if report.ok and tuple(self._games.summary(table.game).players) != table.seats:
            chain = "the game's players are not the table's"
        return ResultRecorded(
            round=paired.round,
            table=table.table,
            game=table.game,
            outcome=outcome,
            chain=chain,
            head=report.head,
            verdict=self._verdict(paired, table.game),
        )

    def _verdict(self, paired: RoundState, game: str) -> str:
        try:
            # A duplicate round's games stay sealed (reveal=referee); the desk reveals the
            # verdicts once the whole round is over. Other games: once public.
            return self._games.audit(game, REFEREE if paired.deal else SPECTATOR).verdict
        except Forbidden:
            return ""

    def dispute(self, tournament: str, game: str, player: str, reason: str) -> DisputeOpened:
        """A player seated at the game's table disputes its recorded result."""
        state = self.state(tournament)
        paired, table = self._table(state, game)
        if player not in table.seats:
            raise Forbidden(f"{player!r} did not play {game}; only its seats may dispute it")
        if table.result is None:
            raise IllegalMove(f"{game} has no recorded result to dispute")
        if table.dispute is not None:
            raise IllegalMove(f"{game} is disputed already")
        event = DisputeOpened(
            round=paired.round,
            table=table.table,
            game=game,
            player=player,
            reason=_reason(reason),
        )
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
        paired, table = self._table(state, game)
        if ruling not in RULINGS:
            raise InvalidOption(f"ruling {ruling!r}: must be one of {', '.join(RULINGS)}")
        if table.dispute is None and not table.held:
            raise IllegalMove(f"{game} has no open dispute and no held result to rule on")
        outcome = replay = deal = None
        if ruling == "adjusted":
            outcome = _adjusted(table, ranking)
        elif ranking:
            raise InvalidOption("a ranking is given only with the ruling 'adjusted'")
        if ruling == "replayed":
            replay, deal = self._replay(state, paired, table)
        event = DisputeSettled(
            round=paired.round,
            table=table.table,
            game=game,
            ruling=ruling,  # type: ignore[arg-type]  # checked against RULINGS above
            reason=_reason(reason),
            outcome=outcome,
            replay=replay,
            deal=deal,
        )
        self._append(tournament, state, [(event, stream.REFEREE)])
        return event

    def _replay(
        self, state: TournamentState, paired: RoundState, table: TableState
    ) -> tuple[str, str | None]:
        """A new game for the table, and in a duplicate round the fresh deal it plays. Not
        the round's deal: the table's seats have played it (and after the round every
        table's play opens), so dealt again it would hold no secret from them."""
        number = len(table.replaced) + 1
        deal = deal_seed = None
        if paired.deal is not None:
            deal = f"{paired.deal}/table-{table.table}/replay-{number}"
            deal_seed = secrets.token_hex(32)
        game = self._new_game(
            state,
            paired.round,
            table.table,
            table.seats,
            deal,
            deal_seed,
            suffix=f".replay{number}",
        )
        return game, deal

    def _table(self, state: TournamentState, game: str) -> tuple[RoundState, TableState]:
        found = state.table_of(game)
        if found is None:
            raise NotFound(f"game {game!r} is not at a table of tournament {state.id}")
        return found

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
        report = _with_evidence(stream.verify(header, records), envelopes, self._games)
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


def _with_evidence(
    report: ChainReport, envelopes: Sequence[Envelope[TournamentEvent]], games: GameDesk
) -> ChainReport:
    """`report` of a chain, or, where it held, the first result its game contradicts."""
    if not report.ok:
        return report
    problem = result_problem(envelopes, games)
    if problem is None:
        return report
    return msgspec.structs.replace(report, ok=False, bad_seq=problem[0], reason=problem[1])


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


def _reason(reason: str) -> str:
    reason = reason.strip()
    if not reason:
        raise IllegalMove("give a reason")
    return reason


def _adjusted(table: TableState, ranking: Sequence[Sequence[str]] | None) -> Outcome:
    if not ranking:
        raise InvalidOption("an adjusted result needs the new ranking, e.g. 'Bob>Ann=Cid'")
    named = [name for group in ranking for name in group]
    if sorted(named) != sorted(table.seats):
        raise InvalidOption(f"the ranking must name each of {', '.join(table.seats)} exactly once")
    seats = tuple(tuple(sorted(table.seats.index(n) for n in group)) for group in ranking)
    before = table.result.outcome if table.result is not None else None
    return Outcome(
        termination="adjusted",
        ranking=seats,
        scores=before.scores if before else (0,) * len(table.seats),
        tiebreaks=before.tiebreaks if before else (),
    )


def history(state: TournamentState) -> pairing.History:
    """What pairing needs from the rounds played so far."""
    found = tallies(state)
    return pairing.History(
        met={p: dict(t.met) for p, t in found.items()},
        first_seats={p: t.first_seats for p, t in found.items()},
        seat_sums={p: t.seat_sum for p, t in found.items()},
        byes={p: t.byes for p, t in found.items()},
    )


def _pairing(
    state: TournamentState, number: int, sizes: list[int]
) -> tuple[list[tuple[str, ...]], tuple[str, ...]]:
    config, past = state.config, history(state)
    if config.format == "round-robin" and config.table_size == 2:
        field = [p if p in state.active else None for p in state.players]
        scheduled = pairing.round_robin(field, number - 1, config.rounds, past)
        return list(scheduled.tables), scheduled.byes
    active = set(state.active)
    if number == 1 or config.format == "round-robin":
        order = list(state.active)
        if config.format != "round-robin":
            random.Random(f"{config.seed or state.id}/draw").shuffle(order)
    else:
        order = [p for _, p in ranked(state) if p in active]
    result = pairing.pair(order, sizes, past)
    if config.format == "round-robin" and any(
        past.meetings(p, table) for table in result.tables for p in table
    ):
        raise IllegalMove(
            f"round robin does not fit: round {number} cannot seat "
            f"{len(order)} players at tables of {config.table_size} without a repeat"
        )
    return list(result.tables), result.byes


def check_creation(
    game: str,
    players: tuple[str, ...],
    rounds: int,
    format: str,
    table_size: int | None,
    seed: str | None,
    options: dict[str, str],
    points: tuple[int, ...],
    bye_points: int | None,
    tiebreaks: tuple[str, ...],
    final_table: int,
    name: str | None,
) -> TournamentCreated:
    """The creation event, or the first problem with the request (nothing is written)."""
    rules = get_rules(game)
    if format not in FORMATS:
        raise InvalidOption(f"format {format!r}: must be one of {', '.join(FORMATS)}")
    size = table_size if table_size is not None else min(DEFAULT_TABLE_SIZE, rules.max_players)
    if not rules.min_players <= size <= rules.max_players:
        raise InvalidOption(
            f"table size {size}: {rules.title} takes {rules.min_players} to "
            f"{rules.max_players} players"
        )
    check_player_names(players)
    if name is not None and has_control(name):  # as a player name is (core.seats)
        raise InvalidOption(f"tournament name {name.strip()!r} holds a control character")
    if len(players) < rules.min_players or (format == "duplicate" and len(players) < size):
        raise IllegalMove(f"{plural(len(players), 'player')} cannot fill a table of {size}")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidOption(f"rounds {rounds}: must be 1 to {MAX_ROUNDS}")
    if format == "round-robin" and size == 2:
        most = len(players) - 1 + len(players) % 2
        if rounds > most:
            raise InvalidOption(
                f"a round robin of {len(players)} players has {plural(most, 'round')}"
            )
    if len(points) < 2 or any(a < b for a, b in itertools.pairwise(points)):
        raise InvalidOption("points by placing: two or more numbers, best place first, none rising")
    if any(p < 0 for p in points) or (bye_points is not None and bye_points < 0):
        raise InvalidOption("points cannot be negative")
    unknown = [t for t in tiebreaks if t not in TIEBREAKS]
    if unknown or len(set(tiebreaks)) != len(tiebreaks):
        raise InvalidOption(
            f"tie-breaks: each at most once, from {', '.join(TIEBREAKS)} "
            f"(got {', '.join(tiebreaks)})"
        )
    if final_table and not rules.min_players <= final_table <= min(rules.max_players, len(players)):
        raise InvalidOption(f"final table of {final_table}: not a legal table here")
    options = _table_options(rules, options, format, size)
    return TournamentCreated(
        name=(name or default_name(format, rules.title)).strip(),
        game=game,
        format=format,  # type: ignore[arg-type]  # checked against FORMATS above
        rounds=rounds,
        table_size=size,
        players=players,
        options=tuple(sorted(options.items())),
        points=points,
        bye_points=bye_points if bye_points is not None else _mean(points),
        tiebreaks=tiebreaks,
        final_table=final_table,
        seed=seed,
    )


TABLE_ID_LIKE = "%.r%.t%"
"""An SQL LIKE pattern every tournament table's id matches (see `table_game_id`)."""


def table_game_id(tournament: str, number: int, table: int, suffix: str = "") -> str:
    """The id of round `number`'s table `table` of `tournament` (`T.r2.t3`; a replay or
    the final table adds its suffix)."""
    return f"{tournament}.r{number}.t{table}{suffix}"


FORMAT_WORDS = {"swiss": "Swiss", "round-robin": "Round robin", "duplicate": "Duplicate"}
"""Each format as a title reads it."""


def default_name(format: str, title: str) -> str:
    """A tournament's name when none is given: its format, then its game's title
    ("Swiss, Beowulf: The Movie Board Game")."""
    return f"{FORMAT_WORDS.get(format, format)}, {title}"


def _mean(points: Sequence[int]) -> int:
    return round(sum(points) / len(points))


def _table_options(rules: Rules, options: dict[str, str], format: str, size: int) -> dict[str, str]:
    """The games' options, checked now (a bad one would only fail at pairing otherwise)."""
    if format == "duplicate":
        if options.get("reveal", "referee") != "referee":
            raise InvalidOption("a duplicate round keeps its deal sealed: reveal must be referee")
        options = {**options, "reveal": "referee"}
    names = tuple(f"Seat{i}" for i in range(size))
    key = sealed_key(seed="options-check", reproducible=True)
    kernel.creation(rules, "options-check", names, options, key)
    return options


def plural(count: int, noun: str) -> str:
    """`1 round`, `3 rounds`."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
