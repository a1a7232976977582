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
    """The annotations in a reader's copy of the notes stream (`HistoryStore.notes_for`:
    only the notes it may read, numbered in its copy), oldest first. A note it may not
    read is not in its copy; one that slipped in is left out here too, never listed as a
    placeholder (that would count another's private notes)."""
    items = []
    for envelope in notes:
        event = envelope.event
        if not isinstance(event, Annotated):
            continue
        anchor, note = anchor_of(event), visible_note(event)
        if anchor is None or note is None:
            continue
        stream, move = short_stream(anchor[0], game_id), anchor[1]
        items.append(
            {
                "seq": envelope.seq,
                "at": str(move) if stream == "game" else f"{stream}@{move}",
                "stream": stream,
                "move": move,
                "author": author_name(event.author, players),
                "audience": event.audience,
                "comment": note.comment,
                "glyph": note.glyph,
                "marks": [
                    {"shape": m.shape, "at": m.at, "to": m.to, "colour": m.colour, "label": m.label}
                    for m in note.marks
                ],
            }
        )
    return items
