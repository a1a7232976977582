"""The annotations of a game as a reader lists them (`GET /games/ID/annotations`), and the
names a listing gives streams and authors: one place, for the route and for the live
channel's notes digest (which must change exactly when the listing does)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from skald.core.history.notes import anchor_of, visible_note
from skald.core.history.streams import variation_number
from skald.events.envelope import Envelope
from skald.events.history import Annotated


def short_stream(stream: str, game_id: str) -> str:
    """`game` for the game's own stream, `vN` for a variation."""
    if stream == game_id:
        return "game"
    number = variation_number(stream)
    return f"v{number}" if number is not None else stream


def author_name(author: int, players: Sequence[str]) -> str:
    """A seat's name, or `referee`."""
    return players[author] if 0 <= author < len(players) else "referee"


def annotation_items(
    notes: Iterable[Envelope[Any]], game_id: str, players: Sequence[str]
) -> list[dict[str, Any]]:
    """The annotations among a notes stream's envelopes (redacted for the reader), oldest
    first: a note the reader may not read says only who wrote it (`sealed`), and where
    when that is public (a note written before private anchors were sealed)."""
    items = []
    for envelope in notes:
        event = envelope.event
        if not isinstance(event, Annotated):
            continue
        anchor = anchor_of(event)
        stream = None if anchor is None else short_stream(anchor[0], game_id)
        move = None if anchor is None else anchor[1]
        note = visible_note(event)
        item: dict[str, Any] = {
            "seq": envelope.seq,
            "at": None if anchor is None else str(move) if stream == "game" else f"{stream}@{move}",
            "stream": stream,
            "move": move,
            "author": author_name(event.author, players),
            "audience": event.audience,
            "sealed": note is None,
        }
        if note is not None:
            item["comment"] = note.comment
            item["glyph"] = note.glyph
            item["marks"] = [
                {"shape": m.shape, "at": m.at, "to": m.to, "colour": m.colour, "label": m.label}
                for m in note.marks
            ]
        items.append(item)
    return items
