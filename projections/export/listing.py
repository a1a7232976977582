"""The annotations of a game as a reader lists them (`GET /games/ID/annotations`), and the
names a listing gives streams and authors: one place, for the route and for the live
channel's notes digest (which must change exactly when the listing does)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from skald.core.history.notes import visible_note
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
    first: a note the reader may not read says only who wrote it and where (`sealed`)."""
    items = []
    for envelope in notes:
        event = envelope.event
        if not isinstance(event, Annotated):
            continue
        stream = short_stream(event.stream, game_id)
        note = visible_note(event)
        item: dict[str, Any] = {
            "seq": envelope.seq,
            "at": str(event.seq) if stream == "game" else f"{stream}@{event.seq}",
            "stream": stream,
            "move": event.seq,
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
