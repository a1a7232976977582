"""Live updates: waking Server-Sent-Event streams when their game gets new events.

Each process keeps the waiting streams per game. Three things wake them: an append made by
this process (`publish`), a PostgreSQL notification of an append made by any process
(`core.feed`), and a poll timer (SQLite has no notifications; on PostgreSQL the timer is
a safety net for notifications lost while reconnecting). A wake-up is only a hint: the
stream then reads the log from its last seq, redacted for its viewer, so nothing is lost,
repeated or reordered whichever way it was woken.

Wire format: one SSE message per event, `id:` its seq (so a reconnecting client's
Last-Event-ID resumes right after it), `data:` the envelope as `GET /log` returns it.
Comment lines keep idle connections open. The stream ends after the game's last event.
When the database fails mid-stream (an outage, a restart), the stream sends one
`event: error` message (`data: {"error": "store_unavailable", "message"}`, with a
`retry:` hint) and ends cleanly; the client reconnects with Last-Event-ID and resumes
right after the last event it received.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import msgspec
from sqlalchemy.exc import DBAPIError

from skald.api.offload import offload
from skald.core.errors import StoreError
from skald.core.feed import listen_for_appends
from skald.core.history.streams import notes_id, variation_game
from skald.core.store import EventStore, describe_db_error
from skald.events.common import GameFinished
from skald.events.envelope import Envelope
from skald.events.viewer import Viewer
from skald.projections.table import Table


class LiveFeed:
    """Per-process registry of streams waiting for a game's next events."""

    def __init__(self, store: EventStore, poll_interval: float | None = None) -> None:
        self.store = store
        self.notifies = store.dialect == "postgresql"
        self.poll_interval = poll_interval or (2.0 if self.notifies else 0.2)
        self._waiters: defaultdict[str, set[asyncio.Event]] = defaultdict(set)
        self._heads: dict[str, int] = {}  # the highest seq published, of streams waited on
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread: int | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.listening = threading.Event()

    def start(self) -> None:
        """Bind to the running event loop; on PostgreSQL, start listening for appends."""
        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        if self.notifies and self._thread is None:
            self._thread = threading.Thread(
                target=listen_for_appends,
                name="skald-listen",
                daemon=True,
                args=(
                    self.store.url,
                    self.publish,
                    self._stop,
                    self.listening,
                ),
            )
            self._thread.start()

    def stop(self) -> None:
        """Stop listening."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None

    def publish(
        self, stream: str, version: int | None = None, heard: asyncio.Event | None = None
    ) -> None:
        """Wake the streams waiting on `stream` (`version`: its seq now, when known); safe
        from any thread. Nothing to do (no hop to the loop) when none waits: a stream
        registers before it reads the store, and a publish comes after the append
        committed, so none misses an append. `heard`: a waiter that already knows (it is
        not woken; on the loop's thread only). An append to a variation wakes what waits
        on its game's notes stream (`GAME~notes`: the game's annotated history)."""
        game = variation_game(stream)
        if game is not None:
            stream, version = notes_id(game), None
        loop = self._loop
        if stream not in self._waiters or loop is None or loop.is_closed():
            return
        if threading.get_ident() == self._loop_thread:
            self._wake(stream, version, heard)  # on the loop: no wake-up through its pipe
        else:
            loop.call_soon_threadsafe(self._wake, stream, version)

    def _wake(self, stream: str, version: int | None, heard: asyncio.Event | None = None) -> None:
        waiters = self._waiters.get(stream)
        if not waiters:
            return
        if version is not None and version > self._heads.get(stream, 0):
            self._heads[stream] = version
        for waiter in waiters:
            if waiter is not heard:
                waiter.set()

    def head(self, stream: str) -> int | None:
        """The highest seq published for `stream` while it was waited on (a hint: the
        store may be further on; None: none was said)."""
        return self._heads.get(stream)

    @contextmanager
    def subscription(
        self, stream: str, waiter: asyncio.Event | None = None
    ) -> Iterator[asyncio.Event]:
        """An event set when `stream` may have new events (register before reading):
        `waiter`, or a new one."""
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
            self._loop_thread = threading.get_ident()
        waiter = waiter or asyncio.Event()
        self._waiters[stream].add(waiter)
        try:
            yield waiter
        finally:
            self._waiters[stream].discard(waiter)
            if not self._waiters[stream]:
                del self._waiters[stream]
                self._heads.pop(stream, None)


RETRY_MS = 2000
log = logging.getLogger(__name__)


def sse_error(message: str) -> bytes:
    """The message that ends a stream the store failed under."""
    data = msgspec.json.encode({"error": "store_unavailable", "message": message})
    return b"event: error\nretry: %d\ndata: %s\n\n" % (RETRY_MS, data)


def sse_message(envelope: Envelope[Any]) -> bytes:
    """One envelope as an SSE message."""
    return b"id: %d\ndata: %s\n\n" % (envelope.seq, msgspec.json.encode(envelope))


async def event_stream(
    table: Table,
    feed: LiveFeed,
    game_id: str,
    viewer: Viewer,
    after: int,
    disconnected: Callable[[], Awaitable[bool]],
    keepalive: float = 15.0,
) -> AsyncIterator[bytes]:
    """The game's events after seq `after` as `viewer` sees them, then live ones, until
    the game ends, the client goes away, or the store fails (then an error event)."""
    try:
        async for chunk in _events(table, feed, game_id, viewer, after, disconnected, keepalive):
            yield chunk
    except (DBAPIError, StoreError) as error:
        text = describe_db_error(error) if isinstance(error, DBAPIError) else str(error)
        log.warning("live stream of %s ended: the store failed: %s", game_id, text)
        yield sse_error("the event store is unavailable; reconnect with Last-Event-ID to resume")


async def _events(
    table: Table,
    feed: LiveFeed,
    game_id: str,
    viewer: Viewer,
    after: int,
    disconnected: Callable[[], Awaitable[bool]],
    keepalive: float,
) -> AsyncIterator[bytes]:
    # Client departures are checked at least every second: a write to a closed connection
    # would only fail at the next keep-alive.
    last, caught_up = after, False
    slice_ = min(feed.poll_interval, 1.0)
    yield b": skald events for %s\n\n" % game_id.encode()
    while True:
        with feed.subscription(game_id) as woken:
            batch = await offload(table.log, game_id, viewer, last + 1)
            if batch:
                for envelope in batch:
                    yield sse_message(envelope)
                last = batch[-1].seq
                if isinstance(batch[-1].event, GameFinished):
                    return
                continue
            if not caught_up:  # resumed after the end of a finished game: nothing will come
                caught_up = True
                if (await offload(table.turn, game_id)).outcome is not None:
                    return
            waited = 0.0
            while not woken.is_set() and waited < feed.poll_interval:
                if await disconnected():
                    return
                try:
                    await asyncio.wait_for(woken.wait(), slice_)
                except TimeoutError:
                    waited += slice_
                    if waited % keepalive < slice_:
                        yield b": keep-alive\n\n"
