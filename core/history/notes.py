"""A game's annotations: parsing what a viewer writes, sealing it for its audience.

Audience rules. `public`: everyone sees the note. `seat`: the author's seat (its team in
Beast, but never more than see the anchor: in a seat's variation, that seat alone) and
the referee; `referee`: the referee alone. A private note is a `Secret` whose audience is
those seats, so the one generic redaction (`events.secret.redact`) decides
who reads it, and after the game the table's reveal policy (`reveal=end`: everyone;
`reveal=referee`: the referee) decides as it does for the game's own hidden values.

A note a reader may not read is not shown to it at all, not even that it exists: the store
keeps every note in the game's one notes stream (its chain is evidence), and a reader is
given its copy of that stream (`reader_copy`): the records it may read, numbered from 1
and chained anew in their order, over the same public bytes. So no seq, hash, count or
placeholder tells it how many notes others wrote or when; a reader who may read every
record (the referee; everyone after the game under reveal=end) is given the stored chain
itself, byte for byte.

Glyphs: `! ? !! ?? !? ?!`, `unclear`, and `good:N` (good for seat N). Markup (one `--mark`
each, the same words the text export writes inside `[%...]`):
`circle AT [COLOUR]`, `cross AT [COLOUR]`, `arrow FROM TO [COLOUR]`,
`label AT [COLOUR] TEXT`; colours: red (default), green, blue, yellow, black, white.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from skald.core.errors import Forbidden, InvalidNotation, InvalidOption
from skald.core.history.locations import check_place, team
from skald.core.history.streams import variation_game
from skald.core.history.variations import sees_author
from skald.core.seats import has_control
from skald.events.envelope import GENESIS, Envelope, seal_envelope
from skald.events.history import (
    AUDIENCES,
    COLOURS,
    GLYPHS,
    REFEREE_AUTHOR,
    SHAPES,
    Anchor,
    Annotated,
    Mark,
    Note,
    VariationNoted,
)
from skald.events.secret import redact, seal, secrets_in
from skald.events.viewer import Viewer

_GOOD = re.compile(r"good:(0|[1-9][0-9]?)")
MAX_COMMENT = 4000


def author_of(viewer: Viewer, doing: str = "annotate") -> int:
    """The author index of a viewer: its seat, or -1 for the referee (`doing` names what a
    spectator was refused)."""
    if viewer.referee:
        return REFEREE_AUTHOR
    if viewer.seat is None:
        raise Forbidden(f"a spectator cannot {doing}: do it as a seat or as the referee")
    return viewer.seat


def parse_glyph(text: str, players: int) -> str:
    """A glyph as written; raises InvalidNotation naming the choices."""
    good = _GOOD.fullmatch(text)
    if text in GLYPHS or (good and int(good[1]) < players):
        return text
    raise InvalidNotation(
        f"glyph {text!r}: one of {' '.join(GLYPHS)} or good:N (N a seat, 0 to {players - 1})"
    )


def parse_mark(spec: str) -> Mark:
    """A mark from its words (see the module docstring); raises InvalidNotation."""
    if "]" in spec or any(ord(c) < 32 for c in spec):
        raise InvalidNotation(f"mark {spec!r}: no ']' or control characters")
    words = spec.split()
    if not words or words[0] not in SHAPES:
        raise InvalidNotation(f"mark {spec!r}: start with one of {', '.join(SHAPES)}")
    shape, rest = words[0], words[1:]
    needed = 2 if shape == "arrow" else 1
    if len(rest) < needed:
        where = "FROM TO" if shape == "arrow" else "AT"
        raise InvalidNotation(f"mark {spec!r}: {shape} needs {where}")
    places, rest = rest[:needed], rest[needed:]
    colour = "red"
    if rest and rest[0] in COLOURS:
        colour, rest = rest[0], rest[1:]
    if shape == "label":
        if not rest:
            raise InvalidNotation(f"mark {spec!r}: a label needs its text")
        return Mark(shape=shape, at=places[0], colour=colour, label=" ".join(rest))
    if rest:
        raise InvalidNotation(
            f"mark {spec!r}: unexpected {' '.join(rest)!r} (colours: {', '.join(COLOURS)})"
        )
    return Mark(shape=shape, at=places[0], to=places[1] if needed == 2 else None, colour=colour)


def mark_words(mark: Mark) -> str:
    """The words of a mark, as `parse_mark` reads them."""
    places = f"{mark.at} {mark.to}" if mark.to else mark.at
    label = f" {mark.label}" if mark.label else ""
    return f"{mark.shape} {places} {mark.colour}{label}"


def build_note(comment: str | None, glyph: str | None, marks: Sequence[str], players: int) -> Note:
    """A note from what a viewer typed; raises InvalidNotation on anything malformed."""
    if comment is not None:
        if not comment.strip():
            raise InvalidNotation("the comment is empty (only blanks)")
        control = next((c for c in comment if c not in "\n\t" and has_control(c)), None)
        if control is not None:
            raise InvalidNotation(
                f"the comment holds a control character (U+{ord(control):04X}); only line "
                "breaks and tabs may be in it"
            )
        if len(comment) > MAX_COMMENT:
            raise InvalidNotation(f"the comment is over {MAX_COMMENT} characters")
    note = Note(
        comment=comment,
        glyph=None if glyph is None else parse_glyph(glyph, players),
        marks=tuple(parse_mark(spec) for spec in marks),
    )
    if note == Note():
        raise InvalidNotation("nothing to annotate: give a comment, a glyph or a mark")
    return note


def check_marks(game: str, rules_state: Any, note: Note) -> None:
    """Raise InvalidNotation unless every mark names places of this board."""
    for mark in note.marks:
        check_place(game, rules_state, mark.at)
        if mark.to is not None:
            check_place(game, rules_state, mark.to)


def annotation(
    game: str,
    rules_state: Any,
    author: int,
    anchor: tuple[str, int],
    note: Note,
    audience: str,
    random_hex: Callable[[int], str],
    within: frozenset[int] | None = None,
) -> Annotated:
    """The event recording `note` by `author` at `anchor`, sealed for its audience.
    `within`: the seats that see the anchor (a variation not everyone sees: its author's
    seat), so that a note for `seat` is sealed for no one else (not the author's team)."""
    if audience not in AUDIENCES:
        raise InvalidOption(f"--audience {audience!r}: one of {', '.join(AUDIENCES)}")
    check_marks(game, rules_state, note)
    stream, seq = anchor
    if audience == "public":
        return Annotated(author=author, stream=stream, seq=seq, audience=audience, public=note)
    if audience == "seat" and author == REFEREE_AUTHOR:
        raise InvalidOption("--audience seat: the referee has no seat (use referee or public)")
    seats = frozenset() if audience == "referee" else team(game, rules_state, author)
    if within is not None:
        seats &= within
    return Annotated(
        author=author,
        stream=variation_game(stream) or stream,
        seq=0,
        audience=audience,
        private=seal(note, seats, random_hex(16)),
        anchor=seal(Anchor(stream, seq), seats, random_hex(16)),
    )


def anchor_of(event: Annotated) -> tuple[str, int] | None:
    """Where a (redacted) annotation is anchored, as (stream, seq); None when that is
    sealed from its reader (a private note's anchor is sealed with it)."""
    if event.anchor is None:
        return event.stream, event.seq
    if event.anchor.known:
        anchor = event.anchor.get()
        return anchor.stream, anchor.seq
    return None


def placed(event: Annotated) -> Annotated:
    """The annotation with its anchor in `stream` and `seq`, for a reader who may read it
    (one who reads the note reads its anchor: they are sealed for the same seats)."""
    anchor = anchor_of(event)
    if anchor is None or event.anchor is None:
        return event
    return msgspec.structs.replace(event, stream=anchor[0], seq=anchor[1], anchor=None)


def visible_note(event: Annotated) -> Note | None:
    """The note a (redacted) annotation shows its reader, or None when it is sealed."""
    if event.public is not None:
        return event.public
    if event.private is not None and event.private.known:
        return event.private.get()
    return None


def readable(event: Any, viewer: Viewer, sees_stream: Callable[[str], bool]) -> bool:
    """Whether `viewer` (the effective viewer) may read a notes stream's event, redacted
    for it: a note whose every hidden value it reads, anchored in a stream it sees
    (`sees_stream`: the game's, or a variation whose author's it sees); a variation's
    record, when it sees its author's variations."""
    if isinstance(event, Annotated):
        anchor = anchor_of(event)
        known = all(secret.known for secret in secrets_in(event))
        return known and anchor is not None and sees_stream(anchor[0])
    if isinstance(event, VariationNoted):
        return sees_author(viewer, event.author)
    return False


def reader_copy(
    envelopes: Sequence[Envelope[Any]], viewer: Viewer, sees_stream: Callable[[str], bool]
) -> list[tuple[int, Envelope[Any]]]:
    """The notes stream as `viewer` (the effective viewer) is given it, from its stored
    envelopes: each record it may read (`readable`), redacted for it and paired with its
    stored seq, numbered from 1 and chained anew (`prev_hash` the hash of the record
    before in the copy; the hash over the same public bytes as the stored one). The copy
    verifies as any chain does and carries nothing of the records left out: not their
    number, nor where they were. Where nothing was left out before a record, it is the
    stored envelope itself (so the copy of a reader who reads them all is the stored
    chain, byte for byte); its hash is computed all the same, so that a copy costs the
    same whatever was left out before."""
    copy: list[tuple[int, Envelope[Any]]] = []
    prev_hash = GENESIS
    for envelope in envelopes:
        shown: Envelope[Any] = redact(envelope, viewer)
        if not readable(shown.event, viewer, sees_stream):
            continue
        seq = len(copy) + 1
        chained = seal_envelope(
            shown.stream, seq, shown.recorded_at, shown.actor, shown.event, prev_hash
        )
        if (envelope.seq, envelope.prev_hash) != (seq, prev_hash):
            shown = chained
        copy.append((envelope.seq, shown))
        prev_hash = shown.hash
    return copy


def outside_copy(envelope: Envelope[Any], viewer: Viewer) -> Envelope[Any]:
    """A note its own author may not read back (a seat's note for the referee alone), as
    it is answered to the author: sealed, and in no chain it is given (seq 0, no hashes),
    so that the answer tells nothing of the stream around it."""
    shown: Envelope[Any] = redact(envelope, viewer)
    return msgspec.structs.replace(shown, seq=0, prev_hash="", hash="")
