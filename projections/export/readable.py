"""The readable exports' content, once: a flat list of blocks that `markdown` and `html`
only format.

Blocks: the decisions of the game in order (numbered by seq, with the seat and the move in
the game's notation, or `hidden` with the commitment), each followed by the notes the
viewer may see and the variations branching there (nested, indented); a board diagram
after every decision annotated with markup, after every decision that closes an act
(Beowulf), a day (Beast) or a feast (Hägar), and at the end of the game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from skald.core.codec import event_tag
from skald.core.history.notes import mark_words, visible_note
from skald.events.envelope import Envelope
from skald.events.history import Mark
from skald.projections.export.model import (
    SECTION_ENDS,
    Bundle,
    anchor_owner,
    decisions,
    seat_name,
    short_id,
    started,
)
from skald.projections.export.text import result_of, tags

Board = Callable[[str, int, Sequence[Mark], str], str]
"""`board(stream, seq, marks, caption) -> svg`: the viewer's board after a seq."""


class Block(msgspec.Struct, frozen=True, kw_only=True):
    """One piece of a readable export."""

    kind: str  # move | note | board | open | close
    depth: int
    text: str = ""
    detail: str = ""
    svg: str = ""


class _Walker:
    def __init__(self, bundle: Bundle, board: Board, comments: bool, variations: bool) -> None:
        self.bundle = bundle
        self.board = board
        self.notes: dict[str, list[Any]] = {}
        if comments:
            for envelope in bundle.annotations():
                if visible_note(envelope.event) is not None:
                    self.notes.setdefault(envelope.event.stream, []).append(envelope.event)
        self.children: dict[str, list[Sequence[Envelope[Any]]]] = {}
        if variations:
            for variation in bundle.variations:
                self.children.setdefault(started(variation).parent, []).append(variation)

    def stream(self, stream: str, envelopes: Sequence[Envelope[Any]], depth: int) -> list[Block]:
        found = decisions(envelopes, self.bundle.created.scheme)
        seqs = [d.seq for d in found]
        blocks = self._after(stream, seqs, 0, depth)
        ends = [env.seq for env in envelopes if event_tag(env.event) in SECTION_ENDS]
        for index, decision in enumerate(found):
            last = found[index + 1].seq - 1 if index + 1 < len(found) else envelopes[-1].seq
            words = decision.words or f"hidden ({decision.hidden})"
            who = self.bundle.players[decision.seat]
            blocks.append(
                Block(kind="move", depth=depth, text=f"{decision.seq}. {who}", detail=words)
            )
            blocks += self._after(stream, seqs, decision.seq, depth)
            closing = [seq for seq in ends if decision.seq <= seq <= last]
            if closing:
                caption = f"after {decision.seq}: end of a {_section(self.bundle.game)}"
                blocks.append(self._board(stream, last, (), caption, depth))
        if envelopes:
            caption = f"{'end of the game' if depth == 0 else 'end of the variation'}"
            blocks.append(self._board(stream, envelopes[-1].seq, (), caption, depth))
        return blocks

    def _board(
        self, stream: str, seq: int, marks: Sequence[Mark], caption: str, depth: int
    ) -> Block:
        svg = self.board(stream, seq, marks, caption)
        return Block(kind="board", depth=depth, text=caption, svg=svg)

    def _after(self, stream: str, seqs: list[int], owner: int, depth: int) -> list[Block]:
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
            blocks.append(self._board(stream, max(owner, 1), marks, f"markup at {owner}", depth))
        for variation in self.children.get(stream, ()):
            start = started(variation)
            if anchor_owner(seqs, start.at) == owner:
                kind = "hypothetical" if start.hypothetical else "actual"
                head = (
                    f"Variation {short_id(variation[0].stream, self.bundle.id)} "
                    f"“{start.name}” after {start.at}, by "
                    f"{seat_name(self.bundle.players, start.author)} ({kind}, seed {start.seed})"
                )
                blocks.append(Block(kind="open", depth=depth + 1, text=head))
                blocks += self.stream(variation[0].stream, variation, depth + 1)
                blocks.append(Block(kind="close", depth=depth + 1))
        return blocks


def _section(game: str) -> str:
    return {"beowulf": "act", "beast": "day", "hagar": "feast"}.get(game, "round")


def title_of(bundle: Bundle) -> str:
    """The heading of a readable export."""
    return f"{bundle.title}: {', '.join(bundle.players)} ({bundle.id})"


def header_pairs(bundle: Bundle) -> list[tuple[str, str]]:
    """The tag pairs people read (the key itself stays in the importable forms)."""
    return [(name, value) for name, value in tags(bundle) if name not in ("Key", "KeySalt")]


def blocks(
    bundle: Bundle, board: Board, comments: bool = True, variations: bool = True
) -> list[Block]:
    """Every block of the readable export, in order."""
    walker = _Walker(bundle, board, comments, variations)
    found = walker.stream(bundle.id, bundle.game_events, 0)
    found.append(Block(kind="result", depth=0, text=result_of(bundle)))
    return found
