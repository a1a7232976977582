r"""The text export: a plain-text annotated history in the spirit of PGN and SGF.

Grammar (UTF-8; one item a line; leading spaces only indent nested variations):

    file        = magic NL { tag NL } NL { body-line NL } end NL
    end         = "% end: " N " decisions, " N " annotations, " N " variations"
                  ; the game's decision lines, every annotation and variation above it
    magic       = "% skald text 1; charset=UTF-8"
    tag         = "[" NAME " " QUOTED "]"         ; QUOTED escapes \" and \\
    body-line   = decision | annotation | variation-open | variation-close
    decision    = SEQ ". " SEAT ": " ( NOTATION | "<undo>" | "<redo>"
                                     | "<hidden " COMMITMENT ">" )
    annotation  = "{@" [ VAR ":" ] SEQ " " AUTHOR " " AUDIENCE [ " " GLYPH ]
                  { " [%" MARK "]" } [ ": " COMMENT ] "}"
    variation-open  = "( " VAR " " QUOTED " from " [ VAR ":" ] SEQ " by " AUTHOR
                      " seed " QUOTED " " ( "hypothetical" | "actual" )
    variation-close = ")"

SEQ is the seq of the decision's first event in its stream (the game, or the variation:
its seq 1 is its start), so an anchor names exactly one event; SEAT and AUTHOR are player
names (`referee` for the referee); NOTATION is the game's own notation (`skald legal`);
a hidden decision the viewer may not see is `<hidden COMMITMENT>` with the full sha256.
VAR is a variation's short id (`v2`); AUDIENCE is public, seat or referee; GLYPH is one of
`! ? !! ?? !? ?! unclear good:N`; MARK is `circle AT COLOUR`, `cross AT COLOUR`,
`arrow FROM TO COLOUR` or `label AT COLOUR TEXT`; COMMENT escapes `\\`, `\{`, `\}` and
newlines as `\n`. An annotation follows the decision it is anchored in (the last decision
at or before its seq; before the first decision, at the top of its stream); a variation
follows the decision it branches after, annotations first, in the order they were made.

Tags: Game, Title, RulesVersion, Event (a tournament game's tournament name, else `?`),
Site, Date (YYYY.MM.DD, the game's creation day, UTC), Round (`?` when unknown, as in
PGN), Table (only for a tournament game), Id, Seat0..SeatN, Options (`k=v`, space
separated), Result (`*` while the game runs), SeedCommitment (the commitment to the game's
key, public from the first event), SeedChosen (yes: a reproducible game), Viewer, and only
when the viewer sees the key (the referee; everyone after the game under reveal=end) Key
(its canonical JSON) and KeySalt: with those, `skald import` replays the game. A partial
copy (`skald import --partial`) has a Partial tag after Result, saying so in plain words
("a partial copy: the record was cut after decision 91 …"): its export imports only as a
partial copy again.

The end line is the record's end mark: an import refuses a file without it, or whose
counts or [Result] disagree with what it holds and replays to (a file cut short).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import msgspec

from skald.core.history.notes import mark_words, placed, visible_note
from skald.core.provenance import partial_words
from skald.events.envelope import Envelope
from skald.events.history import Annotated, Note
from skald.projections.export.model import (
    Bundle,
    anchor_owner,
    decisions,
    seat_name,
    short_id,
    started,
)

MAGIC = "% skald text 1; charset=UTF-8"
UNKNOWN = "?"
_DECISION_AT_TOP = re.compile(r"[0-9]+\. ")
_END = re.compile(r"% end: ([0-9]+) decisions, ([0-9]+) annotations, ([0-9]+) variations")


def quote(text: str) -> str:
    """A tag or name value in double quotes."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def escape_comment(text: str) -> str:
    """A comment safe between braces on one line."""
    return text.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}").replace("\n", "\\n")


def result_of(bundle: Bundle) -> str:
    """The Result tag: `*` while the game runs, else scores and the termination."""
    return result_text(bundle.players, bundle.outcome)


def result_text(players: Sequence[str], outcome: Any) -> str:
    """The Result tag of a game with these players and outcome (None: it runs)."""
    if outcome is None:
        return "*"
    scores = ", ".join(
        f"{name} {score}" for name, score in zip(players, outcome.scores, strict=False)
    )
    winners = " & ".join(players[seat] for seat in outcome.winners)
    return f"{scores}; winner {winners or 'none'} ({outcome.termination})"


# The end mark: the last line, counting what came before it, so a text export cut short
# anywhere (at a line or inside one) is told from a whole one.
END = "% end: "


def end_line(body: Sequence[str]) -> str:
    """The end line of a body: its game decisions, annotations and variations."""
    decisions = sum(1 for line in body if _DECISION_AT_TOP.match(line))
    notes = sum(1 for line in body if line.lstrip().startswith("{@"))
    variations = sum(1 for line in body if line.lstrip().startswith("( "))
    return f"{END}{decisions} decisions, {notes} annotations, {variations} variations"


def end_counts(line: str) -> tuple[int, int, int] | None:
    """(decisions, annotations, variations) of an end line, None if it is not one."""
    match = _END.fullmatch(line)
    return (int(match[1]), int(match[2]), int(match[3])) if match else None


def tags(bundle: Bundle) -> list[tuple[str, str]]:
    """The tag pairs, in order."""
    created = bundle.created
    played = bundle.occasion
    pairs = [
        ("Game", bundle.game),
        ("Title", bundle.title),
        ("RulesVersion", created.rules_version),
        ("Event", played.event if played else UNKNOWN),
        ("Site", UNKNOWN),
        ("Date", bundle.created_at.strftime("%Y.%m.%d")),
        ("Round", str(played.round) if played else UNKNOWN),
        *([("Table", str(played.table))] if played else []),
        ("Id", bundle.id),
    ]
    pairs += [(f"Seat{index}", name) for index, name in enumerate(bundle.players)]
    pairs += [
        ("Options", " ".join(f"{key}={value}" for key, value in created.options)),
        ("Result", result_of(bundle)),
        *([("Partial", partial_words(bundle.partial))] if bundle.partial else []),
        ("SeedCommitment", created.key.commitment if created.key else UNKNOWN),
        ("SeedChosen", "yes" if created.seed_chosen else "no"),
        ("Viewer", bundle.viewer),
    ]
    if created.key is not None and created.key.known:
        pairs.append(("Key", msgspec.json.encode(created.key.get()).decode()))
        pairs.append(("KeySalt", created.key.salt or ""))
    return pairs


def annotation_line(bundle: Bundle, event: Annotated, note: Note) -> str:
    """One annotation in text form."""
    var = short_id(event.stream, bundle.id)
    parts = [f"{{@{var + ':' if var else ''}{event.seq}"]
    parts.append(seat_name(bundle.players, event.author))
    parts.append(event.audience)
    if note.glyph:
        parts.append(note.glyph)
    parts += [f"[%{mark_words(mark)}]" for mark in note.marks]
    text = " ".join(parts)
    if note.comment is not None:
        text += ": " + escape_comment(note.comment)
    return text + "}"


class _Writer:
    def __init__(self, bundle: Bundle, comments: bool, variations: bool) -> None:
        self.bundle = bundle
        self.notes: dict[str, list[tuple[int, str]]] = defaultdict(list)
        if comments:
            for envelope in bundle.annotations():
                note = visible_note(envelope.event)
                if note is not None:
                    event = placed(envelope.event)
                    line = annotation_line(bundle, event, note)
                    self.notes[event.stream].append((event.seq, line))
        self.children: dict[str, list[Sequence[Envelope[Any]]]] = defaultdict(list)
        if variations:
            for variation in bundle.variations:
                self.children[started(variation).parent].append(variation)

    def stream(self, stream: str, envelopes: Sequence[Envelope[Any]], depth: int) -> list[str]:
        pad = "  " * depth
        found = decisions(envelopes, self.bundle.created.scheme)
        seqs = [d.seq for d in found]
        lines = self._after(stream, seqs, 0, depth)
        for decision in found:
            words = decision.words or f"<hidden {decision.hidden}>"
            name = self.bundle.players[decision.seat]
            lines.append(f"{pad}{decision.seq}. {name}: {words}")
            lines += self._after(stream, seqs, decision.seq, depth)
        return lines

    def _after(self, stream: str, seqs: list[int], owner: int, depth: int) -> list[str]:
        pad = "  " * depth
        lines = [pad + line for seq, line in self.notes[stream] if anchor_owner(seqs, seq) == owner]
        for variation in self.children[stream]:
            start = started(variation)
            if anchor_owner(seqs, start.at) == owner:
                lines += self.variation(variation, depth)
        return lines

    def variation(self, variation: Sequence[Envelope[Any]], depth: int) -> list[str]:
        pad = "  " * depth
        start = started(variation)
        bundle = self.bundle
        parent = short_id(start.parent, bundle.id)
        head = (
            f"{pad}( {short_id(variation[0].stream, bundle.id)} {quote(start.name)} from "
            f"{parent + ':' if parent else ''}{start.at} by "
            f"{seat_name(bundle.players, start.author)} seed {quote(start.seed)} "
            f"{'hypothetical' if start.hypothetical else 'actual'}"
        )
        body = self.stream(variation[0].stream, variation, depth + 1)
        return [head, *body, f"{pad})"]


def write_text(bundle: Bundle, comments: bool = True, variations: bool = True) -> str:
    """The text export of `bundle` (see the module docstring for the grammar)."""
    lines = [MAGIC, *(f"[{name} {quote(value)}]" for name, value in tags(bundle)), ""]
    body = _Writer(bundle, comments, variations).stream(bundle.id, bundle.game_events, 0)
    lines += [*body, end_line(body)]
    return "\n".join(lines) + "\n"
