"""Copying a SQLite write-ahead log back into its database from a thread of its own.

In WAL mode SQLite checkpoints inside a commit: the writer whose commit takes the log past
`wal_autocheckpoint` pages copies the log into the database and syncs the file before its
commit returns. On the service that writer is a request on the event loop, so every few
hundred decisions one of them stalled every other request for milliseconds (measured:
appends of three records, median 47 µs, p99 4.1 ms, p99.9 14 ms; the stalls were two
thirds of all time spent appending).

`WalCheckpointer` moves that work off the request path: after every `every` write
transactions it wakes a thread that runs `PRAGMA wal_checkpoint(PASSIVE)` on a connection
of its own. A passive checkpoint never waits for readers or writers (it copies what it can
and the next one copies the rest), and SQLite's sqlite3 module releases the GIL while it
runs, so requests go on meanwhile. The store's connections keep an automatic checkpoint
as a backstop at `BACKSTOP_PAGES`, far above what the thread lets the log reach, so a log
still stays bounded if the thread cannot keep up or dies. The thread starts at the first
wake-up (a process that writes little never starts one) and stops when the store is
disposed or collected.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from contextlib import AbstractContextManager

log = logging.getLogger(__name__)

BACKSTOP_PAGES = 8000  # ~32 MiB of log at 4 KiB pages: the in-commit checkpoint of last resort
WRITES_PER_CHECKPOINT = 100
RESTART_PAGES = 2000  # a decision writes ~4 pages: a checkpoint every ~400 pages


class WalCheckpointer:
    """Checkpoints the WAL of the SQLite file `path` from a daemon thread, every `every`
    write transactions reported by `wrote()`."""

    def __init__(
        self,
        path: str,
        writers: AbstractContextManager[None],
        every: int = WRITES_PER_CHECKPOINT,
        restart_pages: int = RESTART_PAGES,
    ) -> None:
        self._path = path
        self._writers = writers
        self._restart_pages = restart_pages
        self._every = every
        self._writes = 0
        self._wake = threading.Event()
        self._stopped = False
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self.checkpoints = 0  # completed passes (for tests and diagnostics)

    def wrote(self) -> None:
        """Count one committed write transaction; wake the thread every `every` of them.
        (Unlocked: a count lost between threads only delays a checkpoint by one write.)"""
        self._writes += 1
        if self._writes < self._every:
            return
        self._writes = 0
        if self._thread is None:
            self._start()
        self._wake.set()

    def _start(self) -> None:
        with self._start_lock:
            if self._thread is not None or self._stopped:
                return
            self._thread = threading.Thread(
                target=self._run, name=f"skald-checkpoint:{self._path}", daemon=True
            )
            self._thread.start()

    def _run(self) -> None:
        try:
            connection = sqlite3.connect(self._path, isolation_level=None, timeout=30)
        except sqlite3.Error as error:
            log.warning("no WAL checkpoints from a thread for %s: %s", self._path, error)
            return
        try:
            while True:
                self._wake.wait()
                self._wake.clear()
                if self._stopped:
                    return
                try:
                    self._checkpoint(connection)
                except sqlite3.Error as error:  # the backstop still bounds the log
                    log.warning("WAL checkpoint of %s failed: %s", self._path, error)
        finally:
            connection.close()

    def _checkpoint(self, connection: sqlite3.Connection) -> None:
        ((_busy, pages, _copied),) = connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        self.checkpoints += 1
        if pages >= self._restart_pages:
            # Writers went on during the pass, so the log was never wholly copied when the
            # next one began, and only then does SQLite start the log over. With the
            # writers held, the few pages since are copied and the next writer restarts it.
            with self._writers:
                connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def close(self) -> None:
        """Stop the thread (after the pass it may be in)."""
        self._stopped = True
        self._wake.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=10)
