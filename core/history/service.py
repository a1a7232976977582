"""The history streams of the games in one store: read them, annotate, open and play
variations, and store imported ones.

Callers decide who is looking (`projections/export/facade.py` applies the reveal policy);
this module checks anchors, derives events, and appends each stream in one transaction.
The game's own stream is only ever read.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from skald.core.engine import Engine, plain_utc
from skald.core.errors import Forbidden, IllegalMove, NotFound, SkaldError, VersionConflict
from skald.core.history import variations
from skald.core.history.notes import outside_copy, reader_copy
from skald.core.history.streams import (
    NOTES_KIND,
    VARIATION_KIND,
    append,
    author_numbers,
    decode,
    head_of,
    no_variation,
    notes_decoder,
    notes_id,
    number_author,
    variation_decoder,
    variation_game,
    variation_id,
    variation_name,
    variation_number,
)
from skald.core.history.variations import sees_author, sees_variation
from skald.core.importer import _seat_and_move
from skald.core.kernel import Move, Redo, Request, Undo
from skald.core.refusal import refusal_for
from skald.core.rules import get_rules
from skald.core.state import GameState
from skald.events.envelope import GENESIS, Envelope, seal_envelope
from skald.events.history import (
    REFEREE_AUTHOR,
    SAMPLED,
    Annotated,
    VariationNoted,
    VariationStarted,
)
from skald.events.viewer import REFEREE, Viewer

UNDO_WORD = "undo"
REDO_WORD = "redo"
NOTE_ATTEMPTS = 8
"""How many times a note is appended after the notes stream's head while others' appends
overtake it (each time it read the head again)."""


class HistoryStore:
    """Reads and writes the notes and variation streams of a store's games."""

    def __init__(
        self,
        engine: Engine,
        believe_for: Callable[[str], variations.Believe],
        random_hex: Callable[[int], str] = secrets.token_hex,
    ) -> None:
        self.engine = engine
        self.store = engine.store
        self.believe_for = believe_for
        self.random_hex = random_hex

    # -- reading -----------------------------------------------------------------------

    def game(self, game_id: str) -> GameState:
        """The game's current state (NotFound for an unknown game)."""
        return self.engine.load(game_id)

    def notes(self, game_id: str) -> list[Envelope[Any]]:
        """The notes stream's full envelopes (none yet: empty). For the store's own use:
        a reader is given its copy (`notes_for`)."""
        stream = notes_id(game_id)
        if not self.store.version(stream):
            return []
        return [decode(r, notes_decoder()) for r in self.store.read(stream)]

    def notes_for(self, game_id: str, viewer: Viewer) -> list[Envelope[Any]]:
        """The notes stream as `viewer` (pass the effective viewer) is given it: the
        records it may read, chained anew (`core.history.notes.reader_copy`)."""
        return [shown for _seq, shown in self._copy(game_id, viewer, self.notes(game_id))]

    def note_for(self, game_id: str, viewer: Viewer, stored: Envelope[Any]) -> Envelope[Any]:
        """A note just appended (`stored`) as `viewer` (its author, the effective viewer)
        is answered: its envelope in the viewer's copy, or, for a note it may not read
        back, sealed outside any chain (`outside_copy`)."""
        copy = self._copy(game_id, viewer, self.notes(game_id))
        shown = next((env for seq, env in copy if seq == stored.seq), None)
        return shown if shown is not None else outside_copy(stored, viewer)

    def _copy(
        self, game_id: str, viewer: Viewer, envelopes: list[Envelope[Any]]
    ) -> list[tuple[int, Envelope[Any]]]:
        noted = {
            variation_number(e.event.variation): e.event.author
            for e in envelopes
            if isinstance(e.event, VariationNoted)
        }
        players = len(self.engine.players_of(game_id))

        def sees_stream(stream: str) -> bool:
            """The game's stream, or a variation by an author whose variations `viewer`
            sees (told by its number or its record, as `author_of_number`)."""
            if stream == game_id:
                return True
            number = variation_number(stream)
            if number is None or variation_game(stream) != game_id:
                return False
            return sees_author(viewer, noted.get(number, number_author(number, players)))

        return reader_copy(envelopes, viewer, sees_stream)

    def variation_ids(self, game_id: str, viewer: Viewer = REFEREE) -> list[str]:
        """The game's variations by authors `viewer` may see (`sees_author`; the referee:
        all): those the notes stream records (variations opened before per-author
        numbering, and imported ones numbered otherwise), then each such author's in turn
        (the referee's first), found by their numbers.

        A variation numbered by `author_numbers` is not recorded in the notes
        stream, which every reader of the game may read: its count there would tell
        everyone how many variations the others opened, however they are numbered. Nor is
        another author's number looked up: the time of a read would count them."""
        noted = self._noted(game_id)
        found = [n.variation for n in noted if sees_author(viewer, n.author)]
        taken = {variation_number(n.variation) or 0 for n in noted}
        players = len(self.engine.players_of(game_id))
        for author in (REFEREE_AUTHOR, *range(players)):
            if not sees_author(viewer, author):
                continue
            for number in author_numbers(author, players, taken):
                stream = variation_id(game_id, number)
                if not self.store.version(stream):
                    break
                found.append(stream)
        return found

    def visible_variations(self, game_id: str, viewer: Viewer) -> list[list[Envelope[Any]]]:
        """The full envelopes of each variation `viewer` may see (`sees_variation`; pass
        the effective viewer), in `variation_ids` order. Only those are read: the cost is
        the viewer's variations', plus the notes stream (public) and one lookup per author
        it may see."""
        game = self.engine.game_of(game_id)
        shown = []
        for stream in self.variation_ids(game_id, viewer):
            envelopes = self.variation(stream, game)
            if sees_variation(viewer, envelopes[0].event):
                shown.append(envelopes)
        return shown

    def visible_variation(
        self, game_id: str, number: int, viewer: Viewer
    ) -> list[Envelope[Any]] | None:
        """Variation `number`'s full envelopes if `viewer` may see it (pass the effective
        viewer), else None: the same None, as fast, whether it does not exist or is
        another's, since its author is told by its number (or its note) before anything
        of it is looked up."""
        if not sees_author(viewer, self.author_of_number(game_id, number)):
            return None
        stream = variation_id(game_id, number)
        if not self.store.version(stream):
            return None
        envelopes = self.variation(stream, self.engine.game_of(game_id))
        return envelopes if sees_variation(viewer, envelopes[0].event) else None

    def author_of_number(self, game_id: str, number: int) -> int:
        """Who opened (or would open) variation `number`: its note's author when the notes
        stream records it, else the author whose numbers hold it (`number_author`)."""
        noted = {variation_number(n.variation): n.author for n in self._noted(game_id)}
        if number in noted:
            return noted[number]
        return number_author(number, len(self.engine.players_of(game_id)))

    def _noted(self, game_id: str) -> list[VariationNoted]:
        return [e.event for e in self.notes(game_id) if isinstance(e.event, VariationNoted)]

    def variation(self, stream: str, game: str) -> list[Envelope[Any]]:
        """A variation's full envelopes (NotFound when there is none)."""
        if not self.store.version(stream):
            raise no_variation(stream)
        return [decode(r, variation_decoder(game)) for r in self.store.read(stream)]

    def started(self, stream: str, game: str) -> VariationStarted:
        """The start event of a variation."""
        event = self.variation(stream, game)[0].event
        assert isinstance(event, VariationStarted)
        return event

    def state_at(self, game_id: str, stream: str, seq: int | None = None) -> GameState:
        """The state of the game or of one of its variations after `seq` (default: now)."""
        if stream == game_id:
            return self.engine.load(game_id, seq)
        game = self.engine.game_of(game_id)
        envelopes = self.variation(stream, game)
        last = len(envelopes)
        if seq is not None and not 1 <= seq <= last:
            raise NotFound(
                f"variation {variation_name(stream)} of this game has no seq {seq} "
                f"(its seqs are 1 to {last})"
            )
        return self._replay(game_id, game, envelopes[: seq or last])

    def _replay(self, game_id: str, game: str, envelopes: Sequence[Envelope[Any]]) -> GameState:
        started = envelopes[0].event
        parent = self.state_at(game_id, started.parent, started.at)
        base = self.base_of(game_id, game, parent, started, envelopes[0])
        return variations.replay(get_rules(game), base, envelopes[1:])

    def base_of(
        self,
        game_id: str,
        game: str,
        parent: GameState,
        started: VariationStarted,
        first: Envelope[Any],
    ) -> GameState:
        """A variation's base state; a hypothetical one's hidden part drawn from the
        author's information set over the parent's log up to the start."""

        def log() -> list[Envelope[Any]]:
            return self.log_to(game_id, started.parent, started.at)

        return variations.base_state(parent, started, first, self.believe_for(game), log)

    def log_to(self, game_id: str, stream: str, seq: int) -> list[Envelope[Any]]:
        """The full envelopes that lead to `seq` of the game or of a variation: the game's
        from seq 1 (a variation's: its parent's up to its start, then its own moves)."""
        if stream == game_id:
            return self.engine.envelopes(game_id, 1, seq)
        envelopes = self.variation(stream, self.engine.game_of(game_id))
        started = envelopes[0].event
        return [*self.log_to(game_id, started.parent, started.at), *envelopes[1:seq]]

    # -- writing -----------------------------------------------------------------------

    def annotate(self, game_id: str, event: Annotated) -> Envelope[Any]:
        """Append one annotation to the game's notes stream."""
        return self._append_notes(game_id, [(event, _actor(event.author))])[0]

    def _append_notes(self, game_id: str, events: list[tuple[Any, str]]) -> list[Envelope[Any]]:
        """Append to the notes stream after its head. A note rests on nothing written
        before it, so one that another append overtook goes after that one: the conflict
        is never answered, since it would name the stream's length, and so count the
        notes the writer may not read."""
        for _attempt in range(NOTE_ATTEMPTS):
            now = plain_utc(self.engine.clock())
            head = head_of(self.notes(game_id))
            try:
                return append(self.store, notes_id(game_id), head, events, now, NOTES_KIND, game_id)
            except VersionConflict:
                continue
        raise VersionConflict(
            "the game's notes were being written by others all along; nothing was written: "
            "send it again",
            self.store.version(game_id),
        )

    def open_variation(
        self,
        game_id: str,
        start: VariationStarted,
        moves: Sequence[str],
        number: int | None = None,
    ) -> list[Envelope[Any]]:
        """Open the author's next variation (`number`: that one, on import) and play
        `moves` in it ('NAME: move' says who moves; `undo`/`redo` take back); nothing is
        written if any move fails."""
        game = self.engine.game_of(game_id)
        players = len(self.engine.players_of(game_id))
        taken = {variation_number(n.variation) or 0 for n in self._noted(game_id)}
        own = next(
            n
            for n in author_numbers(start.author, players, taken)
            if not self.store.version(variation_id(game_id, n))
        )
        number = own if number is None else number
        stream = variation_id(game_id, number)
        if self.store.version(stream):
            raise IllegalMove(f"variation v{number} exists already")
        now = plain_utc(self.engine.clock())
        first = append_preview(stream, start, now)
        parent = self.state_at(game_id, start.parent, start.at)
        rules = get_rules(game)
        state = self.base_of(game_id, game, parent, start, first)
        sealed = [first]
        for number_in, line in enumerate(moves, start=1):
            batch, state = play_line(rules, state, line, number_in, start, now)
            sealed.extend(batch)
        append(
            self.store,
            stream,
            (0, GENESIS),
            [(env.event, env.actor) for env in sealed],
            now,
            VARIATION_KIND,
            start.name,
        )
        if number != own:  # imported under a number the author's would not find
            self._note_variation(game_id, start, stream)
        return sealed

    def _note_variation(self, game_id: str, start: VariationStarted, stream: str) -> None:
        noted = VariationNoted(
            variation=stream, parent=start.parent, at=start.at, author=start.author
        )
        self._append_notes(game_id, [(noted, _actor(start.author))])

    def extend(self, game_id: str, stream: str, moves: Sequence[str]) -> list[Envelope[Any]]:
        """Play more moves at the end of a variation; nothing is written if any fails."""
        game = self.engine.game_of(game_id)
        state = self.state_at(game_id, stream)
        rules = get_rules(game)
        now = plain_utc(self.engine.clock())
        sealed: list[Envelope[Any]] = []
        start = self.started(stream, game)
        if start.hypothetical and start.worlds != SAMPLED:
            raise Forbidden(
                "this variation was opened before hidden values were drawn from what its "
                "author could know; branch a new one from it (--from) to play on"
            )
        for number, line in enumerate(moves, start=1):
            batch, state = play_line(rules, state, line, number, start, now)
            sealed.extend(batch)
        if sealed:
            head = (sealed[0].seq - 1, sealed[0].prev_hash)
            events = [(env.event, env.actor) for env in sealed]
            append(self.store, stream, head, events, now, VARIATION_KIND)
        return sealed


def append_preview(stream: str, start: VariationStarted, now: datetime) -> Envelope[Any]:
    """The sealed first envelope of a variation (what `append` will store)."""
    return seal_envelope(stream, 1, now, _actor(start.author), start, GENESIS)


def play_line(
    rules: Any, state: GameState, line: str, number: int, start: VariationStarted, now: datetime
) -> tuple[list[Envelope[Any]], GameState]:
    """One variation move by `start`'s author: its envelopes and the state after them. A
    refusal reads as the author may see it (`core.refusal`): a move for a seat whose hidden
    values the author cannot see is refused without the rules' reason."""
    seat, request = request_for(rules, state, line, number)
    try:
        return variations.derive(rules, state, seat, request, now)
    except SkaldError as error:
        shown = refusal_for(error, seat, author_viewer(start), state.players, line)
        if shown is error:
            raise
        raise shown from None


def author_viewer(start: VariationStarted) -> Viewer:
    """Who opened a variation, as a viewer (the referee, or the author's team)."""
    return REFEREE if start.author == REFEREE_AUTHOR else Viewer("author", start.seats)


def request_for(rules: Any, state: GameState, line: str, number: int) -> tuple[int, Request]:
    """The seat and request of one variation move ('NAME: move', or the seat to act)."""
    seat, move = _seat_and_move(rules, state, line, number)
    if move == UNDO_WORD:
        return seat, Undo()
    if move == REDO_WORD:
        return seat, Redo()
    return seat, Move(move)


def _actor(author: int) -> str:
    return "referee" if author < 0 else str(author)
