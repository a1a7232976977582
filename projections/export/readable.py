"""The readable exports' content, once: a flat list of blocks that `markdown` and `html`
only format.

Blocks: what happened before the first decision, told (the deal); the decisions of the
game in order (numbered by seq, with the player's name and colour or role, the move in the
game's notation or `hidden decision`, and its events told in the game's words by the
narrative, as the viewer may see them), each followed by the notes the viewer may see and
the variations branching there (nested, indented); a board diagram after every decision
annotated with markup (drawn after the decision's events, captioned with that decision),
at the final position of every act (Beowulf: before its scoring clears the board), day
(Beast) or feast (Hägar), and at the end of the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from skald.core.codec import event_tag
from skald.core.history.notes import mark_words, placed, visible_note
from skald.events.common import MoveMade
from skald.events.envelope import Envelope
from skald.events.history import Mark
from skald.projections.audit.authors import authorship_lines, seat_authors
from skald.projections.export.model import (
    SECTION_ENDS,
    Bundle,
    anchor_owner,
    decisions,
    seat_name,
    short_id,
    started,
)
from skald.projections.export.text import tags
from skald.projections.narrative import Narrator, end_sentence

CLEARING = ("beowulf.tiles_betrayed", "beowulf.figure_scored")
"""Events at a section's end that take pieces off the board (drawn before them)."""
CLEARS_BOARD = ("beowulf.act_ended",)
"""Section ends that clear the board themselves (drawn before them)."""

Board = Callable[[str, int, Sequence[Mark], str], str]
"""`board(stream, seq, marks, caption) -> svg`: the viewer's board after a seq."""


class Block(msgspec.Struct, frozen=True, kw_only=True):
    """One piece of a readable export."""

    kind: str  # story | move | note | board | open | close | authors | result
    depth: int
    text: str = ""
    detail: str = ""
    svg: str = ""
    story: str = ""
    """A move's events told in the game's words, for the reader."""


class _Walker:
    def __init__(self, bundle: Bundle, board: Board, comments: bool, variations: bool) -> None:
        self.bundle = bundle
        self.board = board
        self.notes: dict[str, list[Any]] = {}
        if comments:
            for envelope in bundle.annotations():
                if visible_note(envelope.event) is not None:
                    event = placed(envelope.event)
                    self.notes.setdefault(event.stream, []).append(event)
        self.children: dict[str, list[Sequence[Envelope[Any]]]] = {}
        self.lines: dict[str, Sequence[Envelope[Any]]] = {bundle.id: bundle.game_events}
        if variations:
            for variation in bundle.variations:
                self.children.setdefault(started(variation).parent, []).append(variation)
                self.lines[variation[0].stream] = variation

    def _narrator(self, stream: str, envelopes: Sequence[Envelope[Any]]) -> Narrator:
        """A narrator that has read what came before `stream` (a variation's parent line
        up to where it branches)."""
        narrator = Narrator(self.bundle.game, self.bundle.players)
        if stream != self.bundle.id and envelopes:
            start = started(envelopes)
            parent = self.lines.get(start.parent, self.bundle.game_events)
            narrator.prime(env for env in parent if env.seq <= start.at)
        return narrator

    def stream(self, stream: str, envelopes: Sequence[Envelope[Any]], depth: int) -> list[Block]:
        narrator = self._narrator(stream, envelopes)
        told = {env.seq: narrator.sentence(env.event) for env in envelopes}
        found = decisions(envelopes, self.bundle.created.scheme)
        seqs = [d.seq for d in found]
        opening = [told[env.seq] for env in envelopes if not seqs or env.seq < seqs[0]]
        blocks = [Block(kind="story", depth=depth, text=" ".join(opening))] if opening else []
        blocks += self._after(stream, seqs, 0, 0, "", depth)
        ends = [env.seq for env in envelopes if event_tag(env.event) in SECTION_ENDS]
        closed = False
        for index, decision in enumerate(found):
            last = found[index + 1].seq - 1 if index + 1 < len(found) else envelopes[-1].seq
            words = decision.words or "hidden decision"
            who = narrator.actor(str(decision.seat))
            story = " ".join(
                told[env.seq]
                for env in envelopes
                if decision.seq < env.seq <= last and not isinstance(env.event, MoveMade)
            )
            blocks.append(
                Block(
                    kind="move",
                    depth=depth,
                    text=f"{decision.seq}. {who}",
                    detail=words,
                    story=story,
                )
            )
            move = f"{decision.seq}. {who}: {words}"
            blocks += self._after(stream, seqs, decision.seq, last, move, depth)
            closed = False
            for seq in (seq for seq in ends if decision.seq <= seq <= last):
                shown = final_position(envelopes, seq)
                caption = f"{told[seq]} Final position, after {move}"
                blocks.append(self._board(stream, shown, (), caption, depth))
                closed = True
        if envelopes and not closed:  # a game that ends with its section shows it once
            caption = f"{'End of the game' if depth == 0 else 'End of the variation'}"
            blocks.append(self._board(stream, envelopes[-1].seq, (), caption, depth))
        return blocks

    def _board(
        self, stream: str, seq: int, marks: Sequence[Mark], caption: str, depth: int
    ) -> Block:
        svg = self.board(stream, seq, marks, caption)
        return Block(kind="board", depth=depth, text=caption, svg=svg)

    def _after(
        self, stream: str, seqs: list[int], owner: int, last: int, move: str, depth: int
    ) -> list[Block]:
        """The notes and variations anchored in decision `owner` (its events end at
        `last`; `move` says it in words), with one board for the notes' markup."""
        blocks = []
        marks: list[Mark] = []
        for event in self.notes.get(stream, ()):
            if anchor_owner(seqs, event.seq) != owner:
                continue
            note = visible_note(event)
            assert note is not None
            who = f"{seat_name(self.bundle.players, event.author)} ({event.audience})"
            pieces = [note.glyph or "", note.comment or ""]
            pieces += [f"[{mark_words(mark)}]" for mark in note.marks]
            blocks.append(
                Block(kind="note", depth=depth, text=who, detail=" ".join(p for p in pieces if p))
            )
            marks += note.marks
        if marks:
            caption = f"Markup after {move}" if move else "Markup before the first move"
            blocks.append(self._board(stream, max(last, 1), marks, caption, depth))
        for variation in self.children.get(stream, ()):
            start = started(variation)
            if anchor_owner(seqs, start.at) == owner:
                kind = "hypothetical" if start.hypothetical else "actual"
                head = (
                    f"Variation {short_id(variation[0].stream, self.bundle.id)} "
                    f"“{start.name}” after {start.at}, by "
                    f"{seat_name(self.bundle.players, start.author)} ({kind})"
                )
                blocks.append(Block(kind="open", depth=depth + 1, text=head))
                blocks += self.stream(variation[0].stream, variation, depth + 1)
                blocks.append(Block(kind="close", depth=depth + 1))
        return blocks


def final_position(envelopes: Sequence[Envelope[Any]], end: int) -> int:
    """The seq whose position closes a section ending at `end`: before the scoring that
    clears the board (Beowulf's Betrayal and figure scoring), so its last position shows."""
    by_seq = {env.seq: env for env in envelopes}
    seq = end
    while seq - 1 in by_seq and event_tag(by_seq[seq - 1].event) in CLEARING:
        seq -= 1
    return seq - 1 if seq != end or event_tag(by_seq[end].event) in CLEARS_BOARD else end


def title_of(bundle: Bundle) -> str:
    """The heading of a readable export."""
    return f"{bundle.title}: {', '.join(bundle.players)} ({bundle.id})"


def header_pairs(bundle: Bundle) -> list[tuple[str, str]]:
    """The tag pairs people read (the key itself stays in the importable forms): seats with
    their colour or role, options as `name: value`."""
    narrator = Narrator(bundle.game, bundle.players)
    pairs = []
    for name, value in tags(bundle):
        if name in ("Key", "KeySalt"):
            continue
        if name.startswith("Seat") and name[4:].isdigit():
            value = narrator.actor(name[4:])
        elif name == "Options":
            value = ", ".join(option.replace("=", ": ", 1) for option in value.split())
        pairs.append((name, value))
    return pairs


def blocks(
    bundle: Bundle, board: Board, comments: bool = True, variations: bool = True
) -> list[Block]:
    """Every block of the readable export, in order."""
    walker = _Walker(bundle, board, comments, variations)
    found = [  # a game without a board drawing has no diagrams
        block
        for block in walker.stream(bundle.id, bundle.game_events, 0)
        if block.kind != "board" or block.svg
    ]
    authors, _ = seat_authors(bundle.game_events, bundle.players)
    found += [Block(kind="authors", depth=0, text=line) for line in authorship_lines(authors)]
    found.append(Block(kind="result", depth=0, text=_result_words(bundle)))
    return found


def _result_words(bundle: Bundle) -> str:
    """The readable export's last line: how the game ended as its log says it (the text
    export's Result tag keeps its machine form: imports check it)."""
    if bundle.outcome is None:
        return "the game is not over"
    return end_sentence(bundle.game, bundle.players, bundle.outcome)
