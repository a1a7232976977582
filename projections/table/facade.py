"""The Table: the one facade through which games are played and read by the CLI and API.

The engine is private to it: callers get summaries, lists, views, logs, legal moves, the
audit, receipts and imports from the Table, never the engine or the store. Everything it
returns is already projected for its viewer: views via the game's `view(state, viewer)`,
logs and move results via the generic redaction; summaries hold public facts only. After
the game, the reveal policy (table option `reveal`: `end`, the default, or `referee`)
decides whether every viewer sees every hidden value and the key.

A seat's legal moves at a state are kept per process (`core.memo.Memo`), keyed by the
game, the state's seq and chain hash and the seat: a decision's answer computes the acting
seat's, `GET /legal` then finds them, and pollers asking again at one state cost a lookup.
A game's creation time comes from the engine, which reads a stream's header once.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, TypeVar

import msgspec

from skald.core.chain import ChainReport, require_intact, verify_receipt
from skald.core.engine import (
    Acted,
    CorruptRecord,
    Engine,
    to_envelope,
)
from skald.core.errors import Forbidden, InvalidNotation, SkaldError
from skald.core.identity import Signing
from skald.core.importer import ImportResult, import_text
from skald.core.kernel import (
    Move,
    Redo,
    Request,
    Undo,
    redo_event,
    undo_event,
)
from skald.core.memo import Memo
from skald.core.provenance import PartialCopy, partial_words
from skald.core.rules import game_names
from skald.core.seats import resolve_seat
from skald.core.signing import Receipt, Signer, SigningKeyError
from skald.core.sqlite_writers import NoWaiting
from skald.core.state import GameState, presenting
from skald.core.store import StoredRecord, StreamInfo
from skald.core.stream_check import verify_any
from skald.core.tournament.rounds import TABLE_ID_LIKE
from skald.events.common import Author
from skald.events.envelope import Envelope
from skald.events.secret import redact
from skald.events.viewer import REFEREE, SPECTATOR, Viewer, seat_viewer
from skald.projections.audit.report import AuditReport, build_audit
from skald.projections.export.facade import Histories
from skald.projections.knowledge.cache import possible_at
from skald.projections.knowledge.possible import describe_possible
from skald.projections.knowledge.store import kept_knowledge
from skald.projections.narrative import Narrated, Narrator
from skald.projections.registry import views_for
from skald.projections.table.answers import (
    Decision,
    GameListing,
    GameSummary,
    LegalNow,
    NotHeld,
    PossibleView,
    TableView,
    Turn,
    Update,
)
from skald.projections.table.projected import (
    effective_viewer,
    legal_moves,
    take_back,
    update_for,
    view_of,
    waiting_seats,
)

log = logging.getLogger(__name__)


Marked = TypeVar("Marked", TableView, ChainReport, AuditReport)
"""An answer that says when its game is a partial copy (its `partial` field)."""


class Table:
    """Plays and reads games, projecting every payload for its viewer."""

    CACHED = 4096  # entries of each answer kept (see the module's doc)

    def __init__(self, engine: Engine, signer: Signer | None = None) -> None:
        self._engine = engine
        self._signer = signer
        self._sqlite = engine.store.dialect == "sqlite"
        self._legal_at: Memo[tuple[str, int, str, int], list[str]] = Memo(self.CACHED)
        # What this process's decisions appended: (game, new seq) -> (seq before, envelopes),
        # so the viewers following the game read them without asking the store.
        self._appended: Memo[tuple[str, int], tuple[int, list[Envelope[Any]]]] = Memo(self.CACHED)
        self._receipts: Memo[tuple[str, int, str], Receipt] = Memo(self.CACHED)

    @property
    def store_url(self) -> str:
        """Where the games are kept (password hidden)."""
        return self._engine.store.url

    def answers_at_once(self) -> bool:
        """Whether the store's reads and appends are brief right now (`EventStore.
        answers_at_once`): then a request may do the engine's work without a thread."""
        return self._engine.store.answers_at_once()

    def reads_at_once(self) -> bool:
        """Whether reads here never wait for a writer (SQLite's WAL readers; not on
        PostgreSQL, where every statement waits for the server)."""
        return self._sqlite

    def never_waiting(self) -> AbstractContextManager[NoWaiting]:
        """A block in which the store raises `WouldWait` rather than wait for a lock, until
        a write commits (`EventStore.never_waiting`)."""
        return self._engine.store.never_waiting()

    def signer_or_none(self) -> Signer | None:
        """The signing key loaded at start-up, if any (for what is signed when it can be)."""
        return self._signer

    @property
    def signer(self) -> Signer:
        """The service's signing key, loaded at start-up (`core.signing.open_signer`):
        never created inside a request."""
        if self._signer is None:
            raise SigningKeyError("no signing key was loaded at start-up")
        return self._signer

    # -- who is looking ----------------------------------------------------------------

    def viewer(self, game_id: str, who: str | None) -> Viewer:
        """A viewer from `spectator`, `referee`, a player name or a seat index."""
        if who in (None, "", "spectator"):
            return SPECTATOR
        if who == "referee":
            return REFEREE
        players = self._engine.peek(game_id).players
        seat = resolve_seat(players, who)
        return seat_viewer(seat, players[seat])

    def seat(self, game_id: str, who: str | int) -> int:
        """A seat index from a player name or index."""
        return resolve_seat(self._engine.peek(game_id).players, who)

    def _effective(self, state: GameState, viewer: Viewer) -> Viewer:
        return effective_viewer(state, viewer)

    # -- reading -----------------------------------------------------------------------

    def show(self, game_id: str, viewer: Viewer, at: int | None = None) -> TableView:
        """The game as `viewer` sees it after seq `at` (default: now)."""
        return self._view(game_id, self._engine.load(game_id, at), viewer)

    def _view(self, game_id: str, state: GameState, viewer: Viewer) -> TableView:
        return self._marked(game_id, view_of(game_id, state, viewer, self._to_act(game_id, state)))

    def _to_act(self, game_id: str, state: GameState) -> tuple[int, ...]:
        """The seats to act: nobody in a partial copy (it can never be continued)."""
        return () if self._engine.partial_copy(game_id) is not None else waiting_seats(state)

    def _partial(self, game_id: str) -> str:
        """For a partial copy, that it is one, in plain words; else empty."""
        mark = self._engine.partial_copy(game_id)
        return partial_words(mark) if mark is not None else ""

    def _marked(self, game_id: str, answer: Marked) -> Marked:
        """A view or report with the game's partial-copy mark in words, where it is one."""
        words = self._partial(game_id)
        return msgspec.structs.replace(answer, partial=words) if words else answer

    def show_revealed(self, game_id: str, viewer: Viewer, at: int | None = None) -> TableView:
        """`show`, except that after the game under reveal=end every viewer sees it all, as
        in the log and the audit (a finished game's board shows what was hidden)."""
        return self.show(game_id, self._effective(self._engine.load(game_id), viewer), at)

    def possible(self, game_id: str, viewer: Viewer, at: int | None = None) -> PossibleView:
        """What `viewer` could believe after seq `at` (default: now), computed from its own
        redacted log only, going on from the fold kept for it (`knowledge_cache`, in this
        process or in the store: `knowledge_store`); after
        the game under reveal=end a viewer sees everything, as in `show_revealed`."""
        state = self._engine.load(game_id, at)
        effective = self._effective(self._engine.load(game_id), viewer)

        def read(from_seq: int, to_seq: int) -> list[Envelope[Any]]:
            return self._engine.envelopes(game_id, from_seq, to_seq)

        with presenting(state.version):
            kept = kept_knowledge(self._engine.store, state.game, game_id, effective)
            known = possible_at(state.game, game_id, effective, state.version, read, kept)
        return PossibleView(
            id=game_id,
            game=state.game,
            seq=state.version,
            viewer=effective.name,
            possible=known,
            text=describe_possible(known, state.players),
        )

    def turn(self, game_id: str) -> Turn:
        """Whose decision it is now, without building anyone's view (public facts only)."""
        state = self._engine.load(game_id)
        return Turn(
            seq=state.version,
            to_act=self._to_act(game_id, state),
            outcome=state.outcome,
            head=state.last_hash,
            keys=state.seat_keys,
        )

    def partial_copy(self, game_id: str) -> PartialCopy | None:
        """The game's partial-copy mark (None: a whole game)."""
        return self._engine.partial_copy(game_id)

    def players(self, game_id: str) -> tuple[str, ...]:
        """The players in seat order (NotFound for an unknown game); never replays."""
        return self._engine.players_of(game_id)

    def summary(self, game_id: str) -> GameSummary:
        """The public facts of one game."""
        state = self._engine.load(game_id)
        return GameSummary(
            id=game_id,
            game=state.game,
            players=state.players,
            seq=state.version,
            created_at=self._engine.created_at(game_id),
            to_act=self._to_act(game_id, state),
            outcome=state.outcome,
            partial=self._partial(game_id),
        )

    def games(
        self,
        game: str | None = None,
        limit: int = 50,
        offset: int = 0,
        state: str | None = None,
        tournaments: bool = True,
    ) -> list[GameListing]:
        """Games, newest first, a page at a time (`game`: only that game; `state`:
        "finished" or "to-act", only the games over or with a seat to act; `tournaments`
        False: not the tables of tournaments). `offset` and `limit` count the games that
        pass the filters. Only game streams: tournaments, notes and variations are
        streams of other kinds."""
        without = TABLE_ID_LIKE if not tournaments else None
        if state is None:
            found = self._engine.store.list_streams(
                kind=game, limit=limit, offset=offset, kinds=game_names(), without_like=without
            )
            return [self._listing(info) for info in found]
        chosen: list[GameListing] = []
        skipped, at, chunk = 0, 0, 200
        while len(chosen) < limit:
            found = self._engine.store.list_streams(
                kind=game, limit=chunk, offset=at, kinds=game_names(), without_like=without
            )
            for info in found:
                if not self._in_state(info.id, state):
                    continue
                if skipped < offset:
                    skipped += 1
                    continue
                chosen.append(self._listing(info))
                if len(chosen) == limit:
                    break
            if len(found) < chunk:
                break
            at += chunk
        return chosen

    def _in_state(self, game_id: str, state: str) -> bool:
        try:
            loaded = self._engine.load(game_id)
        except SkaldError:  # a stream this process cannot fold is in no state
            return False
        if state == "finished":
            return loaded.outcome is not None
        return loaded.outcome is None and bool(self._to_act(game_id, loaded))

    @staticmethod
    def _listing(info: StreamInfo) -> GameListing:
        return GameListing(
            id=info.id,
            game=info.kind,
            title=info.title,
            seq=info.version,
            created_at=info.created_at,
        )

    def render(self, table_view: TableView) -> str:
        """A readable rendering of a view, its seats named by the table's players."""
        return views_for(table_view.game).render(table_view.state, table_view.players)

    def log(
        self, game_id: str, viewer: Viewer, from_seq: int = 1, to_seq: int | None = None
    ) -> list[Envelope[Any]]:
        """The events in a range, redacted for `viewer`."""
        state = self._engine.load(game_id)
        effective = self._effective(state, viewer)
        recent = self._recent(game_id, state, from_seq - 1) if to_seq is None else None
        if recent is None:
            recent = self._engine.envelopes(game_id, from_seq, to_seq)
        return [redact(env, effective) for env in recent]

    def _recent(self, game_id: str, state: GameState, after: int) -> list[Envelope[Any]] | None:
        """The envelopes after seq `after` up to `state`, when they are what a decision of
        this process appended (no store read), else None."""
        kept = self._appended.get((game_id, state.version))
        return kept[1] if kept is not None and kept[0] == after else None

    def narrated(
        self, game_id: str, viewer: Viewer, from_seq: int = 1, to_seq: int | None = None
    ) -> list[Narrated]:
        """The events in a range with their sentences for `viewer`: the log is told from
        its first event (a narrator keeps context), the range is returned."""
        summary = self.summary(game_id)
        envelopes = self.log(game_id, viewer, 1, to_seq)
        narrator = Narrator(summary.game, summary.players)
        told = []
        for envelope in envelopes:
            credit = narrator.credit(envelope)  # before the sentence moves the narrator on
            sentence = narrator.sentence(envelope.event)
            if sentence and envelope.seq >= from_seq:
                told.append(Narrated(envelope, credit, sentence))
        return told

    def legal(self, game_id: str, seat: int) -> list[str]:
        """The seat's legal moves in notation (empty when it is not the seat's turn)."""
        return self._legal(game_id, self._engine.load(game_id), seat)

    def legal_now(self, game_id: str, seat: int) -> LegalNow:
        """`legal` with the seq it holds at, from one load of the game."""
        state = self._engine.load(game_id)
        return LegalNow(
            seq=state.version,
            moves=self._legal(game_id, state, seat),
            undo=take_back(state, seat, undo_event),
            redo=take_back(state, seat, redo_event),
            head=state.last_hash,
            keys=state.seat_keys,
        )

    def _legal(self, game_id: str, state: GameState, seat: int) -> list[str]:
        """The moves (shared: not to be changed by the caller); none in a partial copy."""
        if self._engine.partial_copy(game_id) is not None:
            return []
        key = (game_id, state.version, state.last_hash, seat)
        return self._legal_at.fetch(key, lambda: self._compute_legal(state, seat))

    def _compute_legal(self, state: GameState, seat: int) -> list[str]:
        return legal_moves(state, seat)

    def verify(self, game_id: str) -> ChainReport:
        """Check the stored chain and commitments of a game (a partial copy says so)."""
        return self._marked(game_id, self._verify(game_id, self._engine.store.read(game_id)))

    def _verify(self, game_id: str, records: list[StoredRecord]) -> ChainReport:
        return verify_any(self._engine.store, game_id, records)

    def verify_receipt(self, game_id: str, receipt: Receipt) -> ChainReport:
        """Prove the stored log extends what a seat was shown in `receipt`, signed by the
        store's recorded key (or, for a store without one, the loaded key)."""
        trusted = self._engine.store.signing_keys()
        if not trusted and self._signer is not None:
            trusted = [self._signer.public_key]
        return self._marked(
            game_id,
            verify_receipt(
                self._engine.store.info(game_id),
                self._engine.store.read(game_id),
                receipt,
                trusted_keys=trusted,
            ),
        )

    def receipt(self, game_id: str) -> Receipt:
        """A signed receipt for the head the whole chain was just verified up to, once the
        log replays to it (a receipt certifies the log): CorruptRecord naming the first bad
        seq otherwise, and nothing is signed. Never the cached head alone."""
        report = require_intact(self.verify(game_id))
        self.turn(game_id)  # the log replays to its end (a reducer refusing is corrupt)
        return self.signer.receipt(game_id, report.checked, report.head)

    def audit(self, game_id: str, viewer: Viewer) -> AuditReport:
        """The audit report: for everyone after the game (reveal=end), the referee any time.
        A log the engine cannot replay (CorruptRecord) is audited all the same, for the
        referee only (its end cannot be trusted): the report names the seq."""
        state: GameState | None
        try:
            state = self._engine.load(game_id)
        except CorruptRecord:
            if not viewer.referee:
                raise
            state = None
        if state is not None and not self._effective(state, viewer).referee:
            raise Forbidden(
                "the audit is open to everyone after the game (reveal=end) and "
                "to the referee at any time"
            )
        game = state.game if state is not None else self._engine.game_of(game_id)
        records = self._engine.store.read(game_id)
        envelopes = []
        for record in records:
            try:
                envelopes.append(to_envelope(record, game))
            except CorruptRecord:
                break  # the chain report names it; the audit covers the readable prefix
        outcome = state.outcome if state is not None else None
        report = build_audit(game_id, game, envelopes, self._verify(game_id, records), outcome)
        return self._marked(game_id, report)

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
    ) -> str:
        """Create a game and return its id (a fresh random one unless given). A seed is
        mixed with the service's key unless the game is `reproducible` (draws from the seed
        alone); reproducible games with one seed and one `deal` name draw alike."""
        return self._engine.create(
            game,
            players,
            seed=seed,
            options=options,
            game_id=game_id,
            deal=deal,
            reproducible=reproducible,
        ).id

    def histories(self) -> Histories:
        """Annotated histories (notes, variations, exports) of this store's games."""
        return Histories(self._engine, self._effective, self._signer)

    def import_text(self, text: str, partial: bool = False) -> ImportResult:
        """Import a referee log or a notation file (see `core.importer`); `partial`: a log
        cut short as a partial copy."""
        return import_text(self._engine, text, partial)

    def move(
        self,
        game_id: str,
        seat: int,
        notation: str,
        expected_seq: int | None = None,
        by: Author | None = None,
        signing: Signing | None = None,
    ) -> list[Envelope[Any]]:
        """Play a move for `seat` (in notation, or in the words its legal moves are said
        in, as `act` takes it); returns the appended events as that seat sees them. `by`:
        who made it (None: the seat's player); `signing`: the seat's own signature."""
        acted = self._act(game_id, seat, "move", notation, expected_seq, by, signing)
        return self._as_seat(game_id, seat, acted.envelopes)

    def undo(
        self,
        game_id: str,
        seat: int,
        expected_seq: int | None = None,
        by: Author | None = None,
        signing: Signing | None = None,
    ) -> list[Envelope[Any]]:
        """Undo the last decision for `seat`."""
        acted = self._act(game_id, seat, "undo", None, expected_seq, by, signing)
        return self._as_seat(game_id, seat, acted.envelopes)

    def redo(
        self,
        game_id: str,
        seat: int,
        expected_seq: int | None = None,
        by: Author | None = None,
        signing: Signing | None = None,
    ) -> list[Envelope[Any]]:
        """Redo the last undone decision for `seat`."""
        acted = self._act(game_id, seat, "redo", None, expected_seq, by, signing)
        return self._as_seat(game_id, seat, acted.envelopes)

    def decide(
        self,
        game_id: str,
        seat: int,
        action: str,
        notation: str | None = None,
        expected_seq: int | None = None,
        by: Author | None = None,
        signing: Signing | None = None,
    ) -> Decision:
        """Make one decision (`action`: move with `notation`, undo or redo) and answer with
        everything the seat needs next, from the state the append produced (no reload)."""
        acted = self._act(game_id, seat, action, notation, expected_seq, by, signing)
        state = acted.state
        viewer = seat_viewer(seat, state.players[seat])
        effective = self._effective(state, viewer)
        return Decision(
            seq=state.version,
            events=[redact(env, effective) for env in acted.envelopes],
            to_act=waiting_seats(state),
            outcome=state.outcome,
            legal=self._legal(game_id, state, seat),
            view=self._view(game_id, state, viewer),
            head=state.last_hash,
            keys=state.seat_keys,
        )

    def act(
        self,
        game_id: str,
        seat: int,
        action: str,
        notation: str | None = None,
        expected_seq: int | None = None,
        by: Author | None = None,
        signing: Signing | None = None,
    ) -> int:
        """Make one decision, as `decide` does, without projecting anything for anyone: the
        new seq. The viewers following the game then read what they need (`update`)."""
        return self._act(game_id, seat, action, notation, expected_seq, by, signing).state.version

    def _act(
        self,
        game_id: str,
        seat: int,
        action: str,
        notation: str | None,
        expected_seq: int | None,
        by: Author | None = None,
        signing: Signing | None = None,
    ) -> Acted:
        requests: dict[str, Request] = {
            "move": Move(notation, by, signing),
            "undo": Undo(by, signing),
            "redo": Redo(by, signing),
        }
        try:
            acted = self._engine.act(game_id, seat, requests[action], expected_seq)
        except InvalidNotation:
            meant = self._meant(game_id, seat, notation) if action == "move" else None
            if meant is None or signing is not None:  # a signed move names its notation
                raise
            acted = self._engine.act(game_id, seat, Move(meant, by), expected_seq)
        base = acted.envelopes[0].seq - 1
        self._appended.put((game_id, acted.state.version), (base, acted.envelopes))
        return acted

    def decision_text(self, game_id: str, seat: int, action: str, notation: str = "") -> str:
        """The text `seat` signs for a decision (`action`: move with `notation`, in notation
        or in its words; undo; redo): the move as the log will keep it. Nothing is written;
        raises what the decision itself would."""
        requests: dict[str, Request] = {"move": Move(notation), "undo": Undo(), "redo": Redo()}
        try:
            return self._engine.decision_text(game_id, seat, requests[action])
        except InvalidNotation:
            meant = self._meant(game_id, seat, notation) if action == "move" else None
            if meant is None:
                raise
            return self._engine.decision_text(game_id, seat, Move(meant))

    def moves_in_words(self, game_id: str, moves: Sequence[str]) -> dict[str, str]:
        """Each of `moves` whose words, as the game's log says it, are not its notation:
        `play 0# C2` -> `play Throat C2`, `start fjord-west` -> `start Hägar's fjord
        (west)` (the table page's buttons, `skald legal`, a move sent in words)."""
        summary = self.summary(game_id)
        said = Narrator(summary.game, summary.players).common.move_words
        return {move: words for move in moves if (words := said(move)) != move}

    def _meant(self, game_id: str, seat: int, said: object) -> str | None:
        """The legal move of `seat` said in the words `said` (as the table page's buttons
        and the log say it), if exactly one is: a move may be sent as it is read. Only
        asked once the notation failed to parse, so a decision in notation costs nothing
        more; the seat's own legal moves are all it reads."""
        if not isinstance(said, str):
            return None
        worded = self.moves_in_words(game_id, self.legal(game_id, seat))
        meant = [move for move, words in worded.items() if words == said.strip()]
        return meant[0] if len(meant) == 1 else None

    def cached_head(self, game_id: str) -> int | None:
        """The seq of the engine's copy of the game, if it holds one (no I/O)."""
        state = self._engine.cached(game_id)
        return None if state is None else state.version

    def history_versions(self, game_id: str) -> tuple[tuple[str, int], ...]:
        """The last seq of each of the game's notes and variation streams (one read): what
        changes when anyone annotates it or plays in a variation of it."""
        return self._engine.store.versions_under(f"{game_id}~")

    def notes_digest(self, game_id: str, viewer: Viewer) -> str:
        """What `viewer` may read of the game's annotations and variations, as a digest
        (see `Histories.notes_digest`)."""
        return self.histories().notes_digest(game_id, viewer)

    def head(self, game_id: str) -> int:
        """The game's seq now (asks the store; the engine's copy is brought up to it)."""
        return self._engine.load(game_id).version

    def update(
        self, game_id: str, viewer: Viewer, after: int | None, held: bool = False
    ) -> Update | None:
        """What `viewer` needs now that the game is at or past seq `after` (None: it has
        nothing yet; the update then carries no events, only the state now; at `after`
        itself it carries none either: a channel resuming at the head still gets its
        first frame), or None when the game is behind `after`, from the engine's copy of
        the game (read from the store just before, by `head` or a decision). `held`: from
        what this process holds alone, no store read (the copy, and the events of its own
        decision): NotHeld when that is not enough. Built afresh each time: the live
        channel asks once per viewer and head."""
        if held:
            state = self._engine.cached(game_id)
            if state is None:
                raise NotHeld(game_id)
        else:
            state = self._engine.peek(game_id)
        if after is not None and state.version < after:
            return None
        return self._update(game_id, state, viewer, after, held)

    def _update(
        self, game_id: str, state: GameState, viewer: Viewer, after: int | None, held: bool
    ) -> Update:
        envelopes: list[Envelope[Any]] = []
        if after is not None and after < state.version:
            recent = self._recent(game_id, state, after)
            if recent is None and held:
                raise NotHeld(game_id)
            envelopes = recent or self._engine.envelopes(game_id, after + 1, state.version)
        seat = viewer.seat
        legal = None if seat is None else self._legal(game_id, state, seat)
        receipt = self._receipt(game_id, state)
        waiting = self._to_act(game_id, state)
        return update_for(game_id, state, envelopes, viewer, legal, receipt, waiting)

    def _receipt(self, game_id: str, state: GameState) -> Receipt | None:
        key = (game_id, state.version, state.last_hash)
        try:
            return self._receipts.fetch(
                key, lambda: self.signer.receipt(game_id, state.version, state.last_hash)
            )
        except Exception as error:  # the update goes out all the same; GET /receipt later
            log.error("no receipt for %s at seq %d: %s", game_id, state.version, error)
            return None

    def _as_seat(
        self, game_id: str, seat: int, envelopes: list[Envelope[Any]]
    ) -> list[Envelope[Any]]:
        state = self._engine.peek(game_id)  # just appended: the cache holds it
        viewer = self._effective(state, seat_viewer(seat, state.players[seat]))
        return [redact(env, viewer) for env in envelopes]
