"""The live channel's notes frames: telling a page that what it may read of the game's
annotations and variations changed, so it reads them again (no polling).

A channel whose hello asks for them (`"notes": true`) holds a digest of what its viewer may
read of the game's annotated history (`Table.notes_digest`), taken before its welcome. When
the game's notes or variation streams may have changed (an append heard of, a poll that
finds their seqs moved, the game's end, which may open variations to everyone), the digest
is taken again for each viewer among the game's channels, and a channel is sent
`{"type": "notes"}` only when its viewer's digest is not the one it holds. So a note or a
variation hidden from a viewer sends it nothing: a seat cannot count what it may not read
by the frames it gets. A sealed note (one its viewer may not read) is listed by the
annotations route with its author and anchor, so it changes the digest like any note.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any, Protocol

from skald.api.offload import offload, reading
from skald.events.viewer import Viewer

NOTES_FRAME = '{"type":"notes"}'


class NotesReader(Protocol):
    """A channel following the notes: its viewer, its digest, and how it is sent a frame."""

    notes: str | None

    @property
    def viewer(self) -> Viewer: ...

    def push(self, text: str, close: tuple[int, str] | None = None) -> None: ...


class AlsoWakes(asyncio.Event):
    """An event that, when set, also sets another: the watch waits on one event for the
    game's appends and its notes', and knows from this one that the notes were heard of."""

    def __init__(self, also: asyncio.Event) -> None:
        super().__init__()
        self.also = also

    def set(self) -> None:
        """Set this event and the other."""
        super().set()
        self.also.set()


class NotesWatch:
    """One game's notes, followed for the channels that asked: the seqs of its history
    streams last seen, and whether the digests are due to be taken again."""

    def __init__(self, table: Any, game_id: str) -> None:
        self.table, self.game_id = table, game_id
        self.versions: tuple[tuple[str, int], ...] | None = None
        self.due = False

    def look(self) -> None:
        """Take the digests again at the next round, even if no stream moved (a channel
        joined, the game ended)."""
        self.due = True

    async def round(self, channels: Iterable[NotesReader], polled: bool) -> None:
        """Send a notes frame to each following channel whose viewer may now read
        something else. `polled`: the history streams' seqs are read first (a poll, an
        append heard of), and the digests taken only if they moved or `look` was called."""
        readers = [channel for channel in channels if channel.notes is not None]
        if not readers:
            self.versions = None  # none follows: the next one starts afresh
            return
        if polled:
            versions = await reading(self.table, self.table.history_versions, self.game_id)
            if versions != self.versions:
                self.versions, self.due = versions, True
        if not self.due:
            return
        self.due = False
        viewers = list({channel.viewer for channel in readers})
        digests = dict(zip(viewers, await offload(self._digests, viewers), strict=True))
        for channel in readers:
            digest = digests[channel.viewer]
            if channel.notes is not None and channel.notes != digest:
                channel.notes = digest
                channel.push(NOTES_FRAME)

    def _digests(self, viewers: list[Viewer]) -> list[str]:
        return [self.table.notes_digest(self.game_id, viewer) for viewer in viewers]
