"""Events of annotated histories: annotations, and the variations they index.

Annotations live in a stream of their own per game (`<game id>~notes`), never in the
game's chain. Each `Annotated` event has an author (a seat, or the referee), an anchor (a
seq of the game or of a variation stream) and a `Note`: a comment, a glyph and markup. A
note for everyone is plain (`public`); a note for the author's seat (its team in Beast) or
for the referee alone is a `Secret` (`private`) whose audience is those seats (empty: the
referee), so the generic redaction hides it from everyone else and the stream's chain,
taken over commitments, still verifies from any viewer's copy.

A variation is a stream of its own (`<game id>~vN`) that starts with `VariationStarted`
and continues with the game's own events, derived by the decision kernel. Variations
opened before per-author numbering (and imported ones numbered otherwise) are recorded in
the notes stream (`VariationNoted`); the others are found by their numbers, so the notes
stream, which every reader may read, does not count them.
"""

from __future__ import annotations

import msgspec

from skald.events.base import Event
from skald.events.secret import Secret

GLYPHS = ("!", "?", "!!", "??", "!?", "?!", "unclear")
"""Move glyphs (PGN's $1–$6, and SGF's unclear); "good for seat N" is written `good:N`."""
SHAPES = ("circle", "cross", "label", "arrow")
COLOURS = ("red", "green", "blue", "yellow", "black", "white")
AUDIENCES = ("public", "seat", "referee")


class Mark(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One piece of board markup: a shape at a cell or location (an arrow to `to`)."""

    shape: str
    at: str
    to: str | None = None
    colour: str = "red"
    label: str | None = None


class Note(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What an annotation says: any of a comment, a glyph and markup."""

    comment: str | None = None
    glyph: str | None = None
    marks: tuple[Mark, ...] = ()


class Anchor(msgspec.Struct, frozen=True):
    """Where a note is anchored: seq `seq` of `stream` (the game's or a variation's)."""

    stream: str
    seq: int


class Annotated(Event, frozen=True, tag="history.annotated"):
    """`author` (a seat index, or -1 for the referee) annotated seq `seq` of `stream`.

    A private note's anchor is as private as what it says (`anchor`, sealed for the same
    seats; `stream` is then the game's and `seq` 0): where a note lies would tell the
    others of a variation they do not see. Notes written before that have `anchor` None
    and their anchor in `stream` and `seq` (`core.history.notes.anchor_of` reads both)."""

    author: int
    stream: str
    seq: int
    audience: str
    public: Note | None = None
    private: Secret[Note] | None = None
    anchor: Secret[Anchor] | None = None


class VariationNoted(Event, frozen=True, tag="history.variation_noted"):
    """A variation stream was opened on this game (listed here, played in its own stream)."""

    variation: str
    parent: str
    at: int
    author: int


class VariationStarted(Event, frozen=True, tag="history.variation_started"):
    """A variation of `parent` after seq `at` by `author`, seen from `seats` (the author's
    team; empty: the referee), who alone see it while the game runs. `hypothetical`: what
    they could not see was drawn afresh from `seed` (every later draw is from `seed` too):
    `worlds="sampled"`, from their information set (the game's `sample`, computed from the
    author's redacted log); `""`, a variation stored before information sets, whose draw
    was `perturb_hidden`'s (replayed as it was, never opened or extended anew)."""

    barrier = True
    game: str
    parent: str
    at: int
    author: int
    seats: frozenset[int]
    seed: str
    hypothetical: bool
    name: str = ""
    worlds: str = ""


REFEREE_AUTHOR = -1
SAMPLED = "sampled"
"""`VariationStarted.worlds` of every variation opened now: hidden values from `sample`."""
NotesEvent = Annotated | VariationNoted
