"""Reading the text export back (the grammar is in `projections/export/text.py`).

`parse_text` turns a text export into tags, the game's decisions, the variations (each
with its own decisions) and the annotations; errors are InvalidNotation naming the line.
Replaying what it read is the facade's job.
"""

from __future__ import annotations

import re

import msgspec

from skald.core.errors import InvalidNotation
from skald.core.history.notes import parse_glyph, parse_mark
from skald.events.history import AUDIENCES, Note
from skald.projections.export.text import MAGIC, end_counts

_TAG = re.compile(r'\[(?P<name>[A-Za-z0-9]+) "(?P<value>(?:[^"\\]|\\.)*)"\]')
_DECISION = re.compile(r"(?P<seq>[1-9][0-9]*)\. (?P<rest>.+)")
_ANNOTATION = re.compile(r"\{@(?:(?P<var>v[1-9][0-9]*):)?(?P<seq>[1-9][0-9]*) (?P<rest>.*)\}")
_VARIATION = re.compile(
    r'\( (?P<var>v[1-9][0-9]*) "(?P<name>(?:[^"\\]|\\.)*)" from '
    r"(?:(?P<parent>v[1-9][0-9]*):)?(?P<at>[1-9][0-9]*) by (?P<author>.+) "
    r'seed "(?P<seed>(?:[^"\\]|\\.)*)" (?P<kind>hypothetical|actual)'
)
_MARK = re.compile(r"\[%(?P<words>[^\]]*)\]")


class ParsedDecision(msgspec.Struct, frozen=True):
    """A numbered decision: its seq, seat and words (`undo`, `redo` or notation)."""

    line: int
    seq: int
    seat: int
    words: str


class ParsedNote(msgspec.Struct, frozen=True):
    """An annotation: anchor (short stream id, `` for the game), author, audience, note."""

    line: int
    stream: str
    seq: int
    author: int
    audience: str
    note: Note


class ParsedVariation(msgspec.Struct, frozen=True):
    """A variation block."""

    line: int
    id: str
    name: str
    parent: str
    at: int
    author: int
    seed: str
    hypothetical: bool
    decisions: list[ParsedDecision]


class ParsedText(msgspec.Struct, frozen=True):
    """A whole text export."""

    tags: dict[str, str]
    decisions: list[ParsedDecision]
    variations: list[ParsedVariation]
    notes: list[ParsedNote]
    whole: bool = True
    """False for a record cut short, read with `partial` (its end line missing or wrong)."""

    @property
    def players(self) -> tuple[str, ...]:
        """Seat names from the Seat0..SeatN tags."""
        names: list[str] = []
        while f"Seat{len(names)}" in self.tags:
            names.append(self.tags[f"Seat{len(names)}"])
        return tuple(names)


def unquote(text: str) -> str:
    """The value of a quoted tag or name."""
    return re.sub(r"\\(.)", r"\1", text)


def unescape_comment(text: str) -> str:
    """A comment from its one-line form."""
    return re.sub(r"\\(.)", lambda m: "\n" if m[1] == "n" else m[1], text)


def _who(text: str, players: tuple[str, ...], number: int) -> tuple[int, str]:
    """The author or seat a line starts with (longest name first), and the rest."""
    for name in sorted((*players, "referee"), key=len, reverse=True):
        if text == name or text.startswith(name + " ") or text.startswith(name + ": "):
            seat = -1 if name == "referee" else players.index(name)
            return seat, text[len(name) :]
    raise InvalidNotation(f"line {number}: {text[:40]!r} does not start with a player's name")


def _decision(match: re.Match[str], players: tuple[str, ...], number: int) -> ParsedDecision:
    seat, rest = _who(match["rest"], players, number)
    if seat < 0 or not rest.startswith(": ") or not rest[2:].strip():
        raise InvalidNotation(f"line {number}: a decision is 'SEQ. SEAT: MOVE'")
    words = rest[2:]
    if words.startswith("<hidden "):
        raise InvalidNotation(
            f"line {number}: a hidden decision cannot be replayed: import a full-"
            "information export (the referee's, or anyone's after the game under reveal=end)"
        )
    words = {"<undo>": "undo", "<redo>": "redo"}.get(words, words)
    return ParsedDecision(number, int(match["seq"]), seat, words)


_NOTE_BODY = re.compile(
    r" (?P<audience>[a-z]+)(?: (?P<glyph>!!|\?\?|!\?|\?!|!|\?|unclear|good:[0-9]+))?"
    r"(?P<marks>(?: \[%[^\]]*\])*)(?:: (?P<comment>.*))?"
)


def _note(match: re.Match[str], players: tuple[str, ...], number: int) -> ParsedNote:
    author, rest = _who(match["rest"], players, number)
    body = _NOTE_BODY.fullmatch(rest)
    if body is None or body["audience"] not in AUDIENCES:
        raise InvalidNotation(
            f"line {number}: an annotation is '{{@SEQ AUTHOR AUDIENCE [GLYPH] [%MARK]...: "
            f"COMMENT}}' (audiences: {', '.join(AUDIENCES)})"
        )
    glyph = None if body["glyph"] is None else parse_glyph(body["glyph"], len(players))
    marks = tuple(parse_mark(m["words"]) for m in _MARK.finditer(body["marks"]))
    comment = body["comment"]
    note = Note(
        comment=None if comment is None else unescape_comment(comment), glyph=glyph, marks=marks
    )
    return ParsedNote(number, match["var"] or "", int(match["seq"]), author, body["audience"], note)


def _tags(lines: list[str]) -> tuple[dict[str, str], int]:
    """The tag pairs after the magic line, and the index of the first body line."""
    if lines[0].rstrip("\r") != MAGIC:
        raise InvalidNotation(f"line 1: a text export starts with {MAGIC!r}")
    tags: dict[str, str] = {}
    index = 1
    while index < len(lines) and lines[index].rstrip("\r"):
        match = _TAG.fullmatch(lines[index].rstrip("\r"))
        if match is None:
            raise InvalidNotation(f'line {index + 1}: expected a tag [Name "value"]')
        tags[match["name"]] = unquote(match["value"])
        index += 1
    for needed in ("Game", "Id", "Seat0"):
        if needed not in tags:
            raise InvalidNotation(f"the text export has no [{needed} ...] tag")
    return tags, index + 1


def _variation(match: re.Match[str], players: tuple[str, ...], number: int) -> ParsedVariation:
    author, rest = _who(match["author"], players, number)
    if rest:
        raise InvalidNotation(f"line {number}: unknown author {match['author']!r}")
    return ParsedVariation(
        number,
        match["var"],
        unquote(match["name"]),
        match["parent"] or "",
        int(match["at"]),
        author,
        unquote(match["seed"]),
        match["kind"] == "hypothetical",
        [],
    )


def parse_text(text: str, partial: bool = False) -> ParsedText:
    """Read a text export; raises InvalidNotation naming the first bad line. `partial`:
    a record cut short is read as far as it goes (`whole` False): a last line cut inside
    (no line break after it, and not a whole end line) is dropped, a variation left open is
    closed, and a missing or disagreeing end line is no error."""
    lines = text.removeprefix("\ufeff").split("\n")
    if partial and lines[-1].strip() and end_counts(lines[-1].strip()) is None:
        lines.pop()  # cut inside its last line: what it said is not known
    if not lines:
        raise InvalidNotation(f"line 1: a text export starts with {MAGIC!r}")
    tags, first = _tags(lines)
    parsed = ParsedText(tags=tags, decisions=[], variations=[], notes=[])
    players = parsed.players
    stack: list[list[ParsedDecision]] = [parsed.decisions]
    end: tuple[int, int, int] | None = None
    for number, raw in enumerate(lines[first:], start=first + 1):
        line = raw.strip()
        if not line:
            continue
        if end is not None:
            raise InvalidNotation(f"line {number}: nothing may follow the end line")
        if (counted := end_counts(line)) is not None:
            end = counted
        elif line == ")":
            if len(stack) == 1:
                raise InvalidNotation(f"line {number}: ')' closes no variation")
            stack.pop()
        elif match := _VARIATION.fullmatch(line):
            variation = _variation(match, players, number)
            parsed.variations.append(variation)
            stack.append(variation.decisions)
        elif match := _ANNOTATION.fullmatch(line):
            parsed.notes.append(_note(match, players, number))
        elif match := _DECISION.fullmatch(line):
            stack[-1].append(_decision(match, players, number))
        else:
            raise InvalidNotation(
                f"line {number}: {line[:60]!r} is not a decision, annotation or variation"
            )
    return _checked_end(parsed, end, open_variations=len(stack) - 1, partial=partial)


def _checked_end(
    parsed: ParsedText, end: tuple[int, int, int] | None, open_variations: int, partial: bool
) -> ParsedText:
    """`parsed` when its end line counts what it holds (InvalidNotation otherwise; with
    `partial`, `parsed` marked not whole)."""
    held = (len(parsed.decisions), len(parsed.notes), len(parsed.variations))
    if partial and (open_variations or end != held):
        return msgspec.structs.replace(parsed, whole=False)
    if open_variations:
        raise InvalidNotation("the text export ends inside a variation (a ')' is missing)")
    if end is None:
        raise InvalidNotation(
            "the text export has no end line ('% end: …', its last line): it was cut "
            "short; nothing was imported"
        )
    if end != held:
        raise InvalidNotation(
            f"the text export's end line counts {end[0]} decisions, {end[1]} annotations, "
            f"{end[2]} variations, but it holds {held[0]}, {held[1]}, {held[2]}: it is not "
            "whole; nothing was imported"
        )
    return parsed
