"""Annotated histories for the CLI and the API: annotate, open variations, export, import.

Who sees what. The effective viewer is the Table's (`Table._effective`: after the game,
the reveal policy may show everything). Notes are redacted like any hidden value, and a
note the viewer may not read is left out of its copy of the notes stream altogether
(`HistoryStore.notes_for`: the notes it reads, chained anew, so nothing counts the rest). A
variation is seen by its author's seat (the referee's only by the referee) and, after the
game under reveal=end, by everyone; a seat may branch and anchor only in what it sees.
Whether a viewer sees a variation is decided from its author, which its number tells
(`core.history.variations.sees_author`), before anything of it is read: every read here
(listing, exports, the live channel's digest, one variation by number) costs what its
reader may see, and answers and times a missing variation as it does another's.
A variation by a viewer who does not see everything is `hypothetical`: its hidden values are
drawn afresh from its seed (`core/history/variations.py`).

Anchors (`--at`, `--from`): `SEQ` (a seq of the game), or `vN@SEQ` (of variation N).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec

from skald.core.chain import require_intact, verify_stream
from skald.core.codec import to_record
from skald.core.engine import Engine, to_envelope
from skald.core.errors import Forbidden, IllegalMove, InvalidNotation, InvalidOption, NotFound
from skald.core.history.notes import anchor_of, annotation, author_of, build_note
from skald.core.history.service import HistoryStore
from skald.core.history.streams import (
    chain_problem,
    no_variation,
    variation_game,
    variation_id,
    variation_number,
)
from skald.core.history.variations import author_seats, rederive, sees_variation
from skald.core.importer import cut_finding_dropped, cut_mark, decisions_in
from skald.core.importer import read_jsonl as read_game_log
from skald.core.provenance import PartialCopy, Provenance, encode, partial_from_words, partial_words
from skald.core.rules import get_rules
from skald.core.seats import printable
from skald.core.signing import Receipt, Signer, signature_valid
from skald.core.state import GameState
from skald.core.store import EventStore, copy_streams
from skald.events.common import GameKey
from skald.events.envelope import Envelope
from skald.events.history import REFEREE_AUTHOR, SAMPLED, Annotated, Mark, VariationStarted
from skald.events.secret import redact
from skald.events.viewer import SPECTATOR, Viewer
from skald.projections.export import FORMATS
from skald.projections.export.grammar import ParsedText, parse_text
from skald.projections.export.html import write_html
from skald.projections.export.jsonl import ParsedJsonl, is_jsonl_export, read_jsonl, write_jsonl
from skald.projections.export.listing import annotation_items
from skald.projections.export.markdown import write_markdown
from skald.projections.export.markup import marked_board
from skald.projections.export.model import Bundle
from skald.projections.export.occasion import occasion
from skald.projections.export.text import MAGIC, result_text, write_text
from skald.projections.knowledge.possible import believer
from skald.projections.registry import views_for

Effective = Callable[[GameState, Viewer], Viewer]
_ANCHOR = re.compile(r"(?:v(?P<var>[1-9][0-9]*)@)?(?P<seq>[1-9][0-9]*)")
MAX_NAME = 64


class HistoryImport(msgspec.Struct, frozen=True, kw_only=True):
    """What importing an export did: stored a playable game, or verified a redacted copy."""

    id: str
    format: str
    stored: bool
    events: int
    annotations: int
    variations: int
    receipt: str = ""
    partial: PartialCopy | None = None
    """Set when the game was stored as a partial copy (`--partial`)."""


def is_history_export(text: str) -> bool:
    """True for a jsonl or text export (other inputs are the plain import's)."""
    return is_jsonl_export(text) or text.removeprefix("\ufeff").startswith(MAGIC)


class Histories:
    """Annotated histories of the games in one store."""

    def __init__(self, engine: Engine, effective: Effective, signer: Signer | None = None) -> None:
        self._engine = engine
        self._effective = effective
        self._signer = signer
        self._store = HistoryStore(engine, believer)

    # -- anchors and visibility --------------------------------------------------------

    def _anchor(
        self, state: GameState, text: str, viewer: Viewer
    ) -> tuple[str, int, VariationStarted | None]:
        """The stream and seq `text` names, with the variation's start (None: the game)."""
        match = _ANCHOR.fullmatch(text.strip())
        if match is None:
            raise InvalidNotation(f"anchor {text!r}: a seq (12) or a variation's seq (v2@5)")
        if match["var"] is None:
            return state.id, int(match["seq"]), None
        stream = variation_id(state.id, int(match["var"]))
        return stream, int(match["seq"]), self._start(state, viewer, int(match["var"]))

    def _start(self, state: GameState, viewer: Viewer, number: int) -> VariationStarted:
        """The start of variation `number` if `viewer` may see it; else NotFound, in the
        same words and as fast whether it does not exist or is another's."""
        envelopes = self._store.visible_variation(state.id, number, self._effective(state, viewer))
        if envelopes is None:
            raise no_variation(variation_id(state.id, number))
        start = envelopes[0].event
        assert isinstance(start, VariationStarted)
        return start

    def _audience_at(
        self,
        state: GameState,
        stream: str,
        start: VariationStarted | None,
        author: int,
        asked: str | None,
    ) -> str:
        """The audience of a note at `stream` (a variation: `start`): `asked`, or the widest
        its anchor allows."""
        if start is None or _sees(self._effective(state, SPECTATOR), start):  # all see it
            return asked or "public"
        narrowest = "referee" if author == REFEREE_AUTHOR else "seat"
        if asked == "public":
            short = stream.removeprefix(f"{state.id}~")
            who = "the referee" if not start.seats else "its author's side and the referee"
            raise InvalidOption(
                f"--audience public: variation {short} is seen only by {who}, so a note in "
                f"it cannot be public (use {narrowest})"
            )
        return asked or narrowest

    # -- writing -----------------------------------------------------------------------

    def annotate(
        self,
        game_id: str,
        viewer: Viewer,
        at: str,
        comment: str | None = None,
        glyph: str | None = None,
        marks: Sequence[str] = (),
        audience: str | None = None,
    ) -> Envelope[Any]:
        """Add an annotation by `viewer` at `at`; returns it as `viewer` is given it (in
        its copy of the notes stream, `HistoryStore.note_for`). A note is
        never seen by more than its anchor: in a variation that not everyone may see, it
        is for the author's seat (the referee: for the referee) unless `audience` says
        referee, and `public` is refused; elsewhere the default is `public`."""
        state = self._store.game(game_id)
        author = author_of(viewer)
        note = build_note(comment, glyph, marks, len(state.players))
        stream, seq, start = self._anchor(state, at, viewer)
        audience = self._audience_at(state, stream, start, author, audience)
        anchored = self._store.state_at(game_id, stream, seq)
        event = annotation(
            state.game,
            anchored.rules,
            author,
            (stream, seq),
            note,
            audience,
            self._engine.random_hex,
            within=None if start is None else start.seats,
        )
        envelope = self._store.annotate(game_id, event)
        return self._store.note_for(game_id, self._effective(state, viewer), envelope)

    def variation(
        self,
        game_id: str,
        viewer: Viewer,
        start_at: str,
        moves: Sequence[str],
        name: str = "",
        seed: str | None = None,
    ) -> str:
        """Open a variation by `viewer` after `start_at`, play `moves`; return its id."""
        if len(name) > MAX_NAME or printable(name) != name:
            raise InvalidNotation(f"--name: at most {MAX_NAME} characters, no control characters")
        state = self._store.game(game_id)
        author = author_of(viewer, "open a variation")
        effective = self._effective(state, viewer)
        parent, at, parent_start = self._anchor(state, start_at, viewer)
        inherited = parent_start is not None and parent_start.hypothetical
        start = VariationStarted(
            game=state.game,
            parent=parent,
            at=at,
            author=author,
            seats=author_seats(author),
            seed=seed if seed is not None else secrets.token_hex(8),
            hypothetical=inherited or not effective.referee,
            name=name,
            worlds=SAMPLED,
        )
        return self._store.open_variation(game_id, start, moves)[0].stream

    def extend(self, game_id: str, viewer: Viewer, stream: str, moves: Sequence[str]) -> int:
        """Play more moves at the end of a variation the viewer may see (`vN` or its id);
        returns its last seq."""
        short = stream.removeprefix(f"{game_id}~")
        if not re.fullmatch(r"v[1-9][0-9]*", short):
            raise InvalidNotation(f"variation {stream!r}: write v2 (or GAME~v2)")
        state = self._store.game(game_id)
        full_id = variation_id(game_id, int(short[1:]))
        start = self._start(state, viewer, int(short[1:]))
        if author_of(viewer) != start.author:
            raise Forbidden(f"only the author of {short} may play on in it; branch with --from")
        self._store.extend(game_id, full_id, moves)
        return self._engine.store.version(full_id)

    # -- reading -----------------------------------------------------------------------

    def variation_log(self, game_id: str, viewer: Viewer, number: int) -> list[Envelope[Any]]:
        """Variation `number`'s events as `viewer` may see them (`GET /games/ID/log?
        variation=vN`); NotFound when there is none it may see, in the same words whether
        it does not exist or belongs to another side (nobody counts the others')."""
        state = self._store.game(game_id)
        effective = self._effective(state, viewer)
        envelopes = self._store.visible_variation(game_id, number, effective)
        if envelopes is None:
            raise no_variation(variation_id(game_id, number))
        return [redact(env, effective) for env in envelopes]

    def bundle(self, game_id: str, viewer: Viewer) -> Bundle:
        """Everything `viewer` may see of the game's annotated history."""
        state = self._store.game(game_id)
        effective = self._effective(state, viewer)
        variations = [
            tuple(redact(env, effective) for env in envelopes)
            for envelopes in _parents_first(
                game_id, self._store.visible_variations(game_id, effective)
            )
        ]
        store = self._engine.store
        info, records = store.info(game_id), store.read(game_id)  # read once: shown and signed
        receipt = None
        if self._signer is not None:  # signed only for a chain that verifies (and replayed)
            report = require_intact(verify_stream(info, records))
            receipt = self._signer.receipt(game_id, report.checked, report.head)
        return Bundle(
            id=game_id,
            game=state.game,
            title=get_rules(state.game).title,
            viewer=viewer.name,
            full=effective.referee,
            players=state.players,
            created_at=info.created_at,
            outcome=state.outcome,
            game_events=tuple(redact(to_envelope(r, state.game), effective) for r in records),
            notes=tuple(self._store.notes_for(game_id, effective)),
            variations=tuple(variations),
            receipt=receipt,
            occasion=occasion(self._engine.store, game_id),
            partial=self._engine.partial_copy(game_id),
        )

    def notes_digest(self, game_id: str, viewer: Viewer) -> str:
        """A digest of what `viewer` may read of the game's annotations and variations (the
        annotations as listed, each visible variation's id and last seq): it changes exactly
        when what the viewer may read does, so a note or a variation hidden from it leaves
        it as it was. The live channel compares it, and never sends it."""
        state = self._store.game(game_id)
        effective = self._effective(state, viewer)
        notes = self._store.notes_for(game_id, effective)
        shown = [
            (envelopes[0].stream, envelopes[-1].seq)
            for envelopes in self._store.visible_variations(game_id, effective)
        ]
        listed = [annotation_items(notes, game_id, state.players), shown, effective.referee]
        return hashlib.sha256(msgspec.json.encode(listed)).hexdigest()

    def export(
        self,
        game_id: str,
        viewer: Viewer,
        format: str,
        comments: bool = True,
        variations: bool = True,
        kept_receipts: Sequence[Receipt] = (),
    ) -> str:
        """The export of the game for `viewer` in `format` (jsonl, text, md, html), with
        the receipts players kept embedded (jsonl, html; each genuine and for this game, or
        InvalidNotation: one the log does not extend is embedded, and verifies as such)."""
        if format not in FORMATS:
            raise InvalidNotation(f"--format {format!r}: one of {', '.join(FORMATS)}")
        for number, kept in enumerate(kept_receipts, start=1):
            problem = _kept_receipt_problem(kept, game_id)
            if problem:
                raise InvalidNotation(f"RECEIPT INVALID: receipt {number} {problem}")
        bundle = self.bundle(game_id, viewer)
        bundle = msgspec.structs.replace(bundle, kept_receipts=tuple(kept_receipts))
        if format == "jsonl":
            return write_jsonl(bundle, comments, variations)
        if format == "text":
            return write_text(bundle, comments, variations)
        board = self._board(game_id, viewer)
        if format == "md":
            return write_markdown(bundle, board, comments, variations)
        sign = self._signer.sign if self._signer is not None else None
        return write_html(bundle, board, comments, variations, sign)

    def _board(
        self, game_id: str, viewer: Viewer
    ) -> Callable[[str, int, Sequence[Mark], str], str]:
        state = self._store.game(game_id)
        effective = self._effective(state, viewer)
        views = views_for(state.game)

        def draw(stream: str, seq: int, marks: Sequence[Mark], caption: str) -> str:
            at = self._store.state_at(game_id, stream, seq)
            view = msgspec.to_builtins(views.view(at.rules, effective))
            return marked_board(state.game, view, state.players, marks, caption)

        return draw

    # -- importing ---------------------------------------------------------------------

    def import_export(self, text: str, partial: bool = False) -> HistoryImport:
        """Import a jsonl or text export: a full-information one is stored as a playable
        game (everything re-derived first); a redacted jsonl one is verified only.
        `partial`: an export cut short is stored as the game's decisions before the cut
        and the annotations on them, marked as a partial copy (variations are not kept)."""
        if is_jsonl_export(text):
            return self._import_jsonl(read_jsonl(text, partial), partial)
        return self._import_text(parse_text(text, partial), partial)

    def _import_jsonl(self, parsed: ParsedJsonl, partial: bool = False) -> HistoryImport:
        streams = [parsed.game, parsed.notes, *parsed.variations]
        for envelopes in streams:
            problem = chain_problem(envelopes)
            if problem is not None:
                stream = envelopes[0].stream if envelopes else "?"
                raise IllegalMove(f"{stream}: seq {problem[0]}: {problem[1]}; nothing was imported")
        cut = False
        try:
            receipt = _check_receipt(parsed)
        except InvalidNotation:
            if not (partial and parsed.header.full):
                raise
            receipt, cut = "", True
        if parsed.header.partial is not None and not cut:
            if not partial:
                raise InvalidNotation(
                    f"the export is of {partial_words(parsed.header.partial)}: import it "
                    "with --partial to keep it as one; nothing was imported"
                )
            cut = True
        notes = sum(1 for env in parsed.notes if env.event.__class__.__name__ == "Annotated")
        result = HistoryImport(
            id=parsed.header.id,
            format="jsonl",
            stored=parsed.header.full,
            events=len(parsed.game),
            annotations=notes,
            variations=len(parsed.variations),
            receipt=receipt,
        )
        if not parsed.header.full:
            return result
        game_log = "".join(msgspec.json.encode(env).decode() + "\n" for env in parsed.game)
        log = read_game_log(game_log)
        finding = cut_finding_dropped(log) if cut else log.finding
        if finding is not None:
            raise IllegalMove(f"game seq {finding.seq}: {finding.rule}; nothing was imported")
        records, mark = log.records, None
        if cut:
            records = log.records[: log.complete_through]
            mark = cut_mark(log.envelopes[: len(records)], None)
            if parsed.header.partial is not None:
                mark = msgspec.structs.replace(mark, of=parsed.header.partial.of)
            kept_notes = _notes_before(parsed.notes, log.stream, mark.seq)
            parsed = msgspec.structs.replace(parsed, notes=kept_notes, variations=[])
            result = msgspec.structs.replace(
                result,
                events=len(records),
                annotations=len(kept_notes),
                variations=0,
                partial=mark,
            )
        with _scratch(self._engine) as scratch:
            scratch.store.append(
                log.stream,
                records,
                0,
                kind=log.game,
                title=_title(log),
                provenance=encode(Provenance(partial=mark)) if mark else "",
            )
            history = HistoryStore(scratch, believer)
            if parsed.notes:
                note_records = [to_record(env) for env in parsed.notes]
                scratch.store.append(
                    note_records[0].stream, note_records, 0, kind="skald.notes", title=log.stream
                )
            for variation in parsed.variations:
                self._check_variation(history, log.stream, log.game, variation)
                start = variation[0].event
                variation_records = [to_record(env) for env in variation]
                scratch.store.append(
                    variation_records[0].stream,
                    variation_records,
                    0,
                    kind="skald.variation",
                    title=start.name,
                )
            self._copy(scratch.store)
        return result

    def _check_variation(
        self, history: HistoryStore, game_id: str, game: str, variation: Sequence[Envelope[Any]]
    ) -> None:
        start = variation[0].event
        if not isinstance(start, VariationStarted):
            raise IllegalMove(f"{variation[0].stream}: a variation starts with its start event")
        stream = variation[0].stream
        number = variation_number(stream) if variation_game(stream) == game_id else None
        if number is None or history.author_of_number(game_id, number) != start.author:
            # Who may see a variation is told by its number (or its note) before it is read.
            raise IllegalMove(
                f"{stream}: not a variation of {game_id} numbered as its author's (nor noted "
                "as its author's in the notes); nothing was imported"
            )
        parent = history.state_at(game_id, start.parent, start.at)
        base = history.base_of(game_id, game, parent, start, variation[0])
        problem = rederive(get_rules(game), base, variation[1:])
        if problem:
            raise IllegalMove(f"{variation[0].stream}: {problem}; nothing was imported")

    def _import_text(self, parsed: ParsedText, partial: bool = False) -> HistoryImport:
        tags = parsed.tags
        carried = partial_from_words(tags["Partial"]) if "Partial" in tags else None
        if carried is not None and not partial:
            raise InvalidNotation(
                f"the text export is of {tags['Partial']}: import it with --partial to keep "
                "it as one; nothing was imported"
            )
        cut = partial and (carried is not None or not parsed.whole)
        if cut:  # the game's decisions and the notes on them; no variations
            parsed = msgspec.structs.replace(
                parsed, variations=[], notes=[n for n in parsed.notes if not n.stream]
            )
        if "Key" not in tags or "KeySalt" not in tags:
            raise InvalidNotation(
                "the text export has no [Key] tag: a redacted export cannot be replayed "
                "(import its jsonl export to verify it); nothing was imported"
            )
        try:
            key = msgspec.json.decode(tags["Key"], type=GameKey)
            day = datetime.strptime(tags.get("Date", ""), "%Y.%m.%d").replace(tzinfo=UTC)
        except (msgspec.DecodeError, ValueError) as error:
            raise InvalidNotation(f"[Key] or [Date] tag: {error}") from None
        fresh = iter((key.key, tags["KeySalt"]))
        options = dict(
            word.split("=", 1) for word in tags.get("Options", "").split() if "=" in word
        )
        with _scratch(self._engine, clock=lambda: day, random_hex=_then_random(fresh)) as scratch:
            game_id = scratch.create(
                tags["Game"],
                parsed.players,
                seed=key.seed,
                options=options,
                game_id=tags["Id"],
                deal=key.deal,
                reproducible=key.reproducible,
            ).id
            for decision in parsed.decisions:
                _replay_decision(scratch, game_id, decision)
            mark = None
            if cut:
                kept = scratch.envelopes(game_id, 1, scratch.load(game_id).version)
                mark = PartialCopy(
                    decisions=decisions_in(kept),
                    seq=kept[-1].seq,
                    of=carried.of if carried is not None else None,
                )
                parsed = msgspec.structs.replace(
                    parsed, notes=[n for n in parsed.notes if n.seq <= mark.seq]
                )
            else:
                _check_result(tags.get("Result", ""), scratch.load(game_id))
            history = Histories(scratch, lambda state, viewer: viewer)
            parents = {v.id: v.parent for v in parsed.variations}

            def depth(short: str) -> int:
                parent = parents.get(short, "")
                return 0 if not parent or parent not in parents else 1 + depth(parent)

            # A parent before its branches (a branch may carry the lower number).
            for variation in sorted(parsed.variations, key=lambda v: (depth(v.id), int(v.id[1:]))):
                history._import_variation(game_id, variation)
            for note in parsed.notes:
                stream = variation_id(game_id, int(note.stream[1:])) if note.stream else game_id
                state = history._store.state_at(game_id, stream, note.seq)
                event = annotation(
                    state.game,
                    state.rules,
                    note.author,
                    (stream, note.seq),
                    note.note,
                    note.audience,
                    secrets.token_hex,
                    within=history._store.started(stream, state.game).seats
                    if note.stream
                    else None,
                )
                history._store.annotate(game_id, event)
            marked = {game_id: encode(Provenance(partial=mark))} if mark else {}
            self._copy(scratch.store, marked)
        return HistoryImport(
            id=game_id,
            format="text",
            stored=True,
            events=len(parsed.decisions),
            annotations=len(parsed.notes),
            variations=len(parsed.variations),
            partial=mark,
        )

    def _import_variation(self, game_id: str, variation: Any) -> None:
        state = self._store.game(game_id)
        parent = variation_id(game_id, int(variation.parent[1:])) if variation.parent else game_id
        start = VariationStarted(
            game=state.game,
            parent=parent,
            at=variation.at,
            author=variation.author,
            seats=author_seats(variation.author),
            seed=variation.seed,
            hypothetical=variation.hypothetical,
            name=variation.name,
            worlds=SAMPLED,
        )
        moves = [f"{state.players[d.seat]}: {d.words}" for d in variation.decisions]
        try:
            self._store.open_variation(game_id, start, moves, number=int(variation.id[1:]))
        except (IllegalMove, InvalidNotation, Forbidden, NotFound) as error:
            raise type(error)(f"line {variation.line} ({variation.id}): {error}") from None

    def _copy(self, scratch: EventStore, marked: dict[str, str] | None = None) -> None:
        """Copy every stream of a scratch store into this store (`core.store.copy_streams`)."""
        copy_streams(scratch, self._engine.store, marked)


def _replay_decision(engine: Engine, game_id: str, decision: Any) -> None:
    from skald.core.history.service import request_for

    state = engine.load(game_id)
    if decision.seq != state.version + 1:
        raise InvalidNotation(
            f"line {decision.line}: decision {decision.seq} should be {state.version + 1} "
            "(the game's events between decisions are derived, not written)"
        )
    name = state.players[decision.seat]
    try:
        seat, request = request_for(
            get_rules(state.game), state, f"{name}: {decision.words}", decision.line
        )
        engine.request(game_id, seat, request)
    except (IllegalMove, InvalidNotation, Forbidden, NotFound) as error:
        raise type(error)(f"line {decision.line}: {error}; nothing was imported") from None


class _scratch:
    """An in-memory engine the import plays into before anything reaches the store."""

    def __init__(self, engine: Engine, **overrides: Any) -> None:
        self.engine = Engine(
            EventStore("sqlite://"),
            clock=overrides.get("clock", engine.clock),
            random_hex=overrides.get("random_hex", engine.random_hex),
        )

    def __enter__(self) -> Engine:
        return self.engine

    def __exit__(self, *exc: object) -> None:
        self.engine.store.dispose()


def _then_random(first: Iterator[str]) -> Callable[[int], str]:
    def draw(size: int) -> str:
        return next(first, None) or secrets.token_hex(size)

    return draw


def _parents_first(
    game_id: str, variations: list[list[Envelope[Any]]]
) -> list[list[Envelope[Any]]]:
    """Variations by depth (a parent before its branches), then by number: not in opening
    order, which an import does not keep (it re-opens them as it reads them, under the same
    numbers), so the export of an import is the export."""
    parents = {v[0].stream: v[0].event.parent for v in variations}

    def depth(stream: str) -> int:
        return 0 if parents.get(stream, game_id) == game_id else 1 + depth(parents[stream])

    return sorted(
        variations, key=lambda v: (depth(v[0].stream), variation_number(v[0].stream) or 0)
    )


def _notes_before(
    notes: Sequence[Envelope[Any]], game_id: str, last_seq: int
) -> list[Envelope[Any]]:
    """The notes stream's longest prefix of annotations on the game's seqs up to
    `last_seq` (a prefix of a chain verifies; what follows rests on what was cut)."""
    kept = []
    for envelope in notes:
        event = envelope.event
        anchor = anchor_of(event) if isinstance(event, Annotated) else None
        if anchor is None or anchor[0] != game_id or anchor[1] > last_seq:
            break
        kept.append(envelope)
    return kept


def _sees(viewer: Viewer, start: Any) -> bool:
    return sees_variation(viewer, start)


def _title(log: Any) -> str:
    return ", ".join(log.envelopes[0].event.players)


def _check_result(said: str, state: Any) -> None:
    """The [Result] tag must be what the decisions replay to: the end mark's other half."""
    replayed = result_text(state.players, state.outcome)
    if said != replayed:
        raise InvalidNotation(
            f"the text export's [Result] is {said!r}, but its decisions replay to "
            f"{replayed!r}: it is not whole; nothing was imported"
        )


def _kept_receipt_problem(receipt: Receipt, game_id: str) -> str:
    """What is wrong with a receipt to embed in an export ("" when nothing is)."""
    if not signature_valid(receipt):
        return "does not match its signature (altered after signing)"
    if receipt.stream != game_id:
        return f"is for game {receipt.stream}, not {game_id}"
    return ""


def _check_receipt(parsed: ParsedJsonl) -> str:
    """What the signed head proves: it is the export's end mark, so an export without it,
    or whose head is not the game's last, was cut short (InvalidNotation); IllegalMove when
    it proves nothing."""
    receipt, last = parsed.receipt, len(parsed.game)
    if receipt is None and parsed.end is not None:
        if parsed.end.seq != last or not parsed.game or parsed.game[-1].hash != parsed.end.head:
            raise InvalidNotation(
                f"the jsonl export's end mark is at game seq {parsed.end.seq}, but the game "
                f"it holds ends at seq {last}: it is not whole; nothing was imported"
            )
        return ""
    if receipt is None:
        raise InvalidNotation(
            "the jsonl export has no end: its last line, the game's (signed) head, is "
            "missing (the file was cut short); nothing was imported"
        )
    if receipt.stream != parsed.header.id or not signature_valid(receipt):
        raise IllegalMove(
            "the receipt's signature is not valid for this game; nothing was imported"
        )
    if (
        not 1 <= receipt.seq <= len(parsed.game)
        or parsed.game[receipt.seq - 1].hash != receipt.head
    ):
        raise IllegalMove(
            f"the receipt signs another head at seq {receipt.seq}; nothing was imported"
        )
    if receipt.seq != last:
        raise InvalidNotation(
            f"the jsonl export ends at game seq {len(parsed.game)}, but its signed head is "
            f"at seq {receipt.seq}: the record is not whole; nothing was imported"
        )
    return f"head at seq {receipt.seq} signed by {receipt.public_key[:16]}…"
