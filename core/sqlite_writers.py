"""Where a SQLite store's writers take their turn, and how store work on an event loop
avoids waiting for them.

`WriterQueue`: threads of this process queue on a lock, processes on an advisory lock of a
file beside the database; `EventStore` runs every SQLite write inside it. `NEVER_WAIT` is
set (to a `NoWaiting`) while the service does store work on its event loop
(`EventStore.never_waiting`): then the queue is tried without blocking, and a would-be wait
raises `WouldWait` before anything is written.
"""

from __future__ import annotations

import contextlib
import contextvars
import fcntl
import os
import threading

from skald.core.errors import WouldWait

BRIEF_WAIT = 0.005  # seconds an event loop may wait for a writer of its own process


class NoWaiting:
    """The state of one `EventStore.never_waiting` block: whether a write committed in it.
    Before that, nothing waits (a would-be wait raises `WouldWait` and nothing was
    written, so the work may be done again); after it, a write still never waits (the
    only later write, a snapshot, is skipped) while reads wait as usual, so `WouldWait`
    never follows a commit."""

    committed = False


# Set while the service does store work on its event loop (`EventStore.never_waiting`).
NEVER_WAIT: contextvars.ContextVar[NoWaiting | None] = contextvars.ContextVar(
    "skald_never_wait", default=None
)


class WriterQueue:
    """Where a SQLite store's writers wait their turn: threads of this process on a lock,
    processes (several `skald serve` workers, the CLI) on an advisory lock of a file beside
    the database (`DB-lock`, 0600). Both wake a waiter the moment the writer is done; SQLite's
    own busy handler, which still guards every write, sleeps up to 100 ms between tries, and
    made a second worker slower than one. A store whose folder cannot hold the lock file
    (read-only) queues its threads only."""

    def __init__(self, path: str | None) -> None:
        self._threads = threading.Lock()
        self._path = None if path is None else f"{path}-lock"
        self._file: int | None = None

    def _lock_file(self) -> int | None:
        if self._file is None and self._path is not None:
            try:
                self._file = os.open(self._path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError:  # no lock file here (read-only folder): SQLite's locking holds
                return None
        return self._file

    def __enter__(self) -> None:
        self._acquire(wait=NEVER_WAIT.get() is None)

    def _acquire(self, wait: bool) -> None:
        # Never waiting, a writer of this process (a thread's short transaction) is still
        # worth a few milliseconds: giving up would redo the whole request in a thread.
        if not self._threads.acquire(timeout=-1 if wait else BRIEF_WAIT):
            raise WouldWait("a writer of this process holds the store")
        file = self._lock_file()
        if file is None:
            return
        try:
            fcntl.flock(file, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._threads.release()
            raise WouldWait("a writer of another process holds the store") from None
        except OSError:  # the lock file went away: SQLite's own locking still holds
            pass

    def __exit__(self, *_exc: object) -> None:
        if self._file is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._file, fcntl.LOCK_UN)
        self._threads.release()

    def busy(self) -> bool:
        """Whether a writer of another process holds the queue now, or one of this process
        holds it longer than a brief wait (a hint: it may change the next moment)."""
        try:
            self._acquire(wait=False)
        except WouldWait:
            return True
        self.__exit__()
        return False

    def close(self) -> None:
        """Close the lock file (opened again by the next write)."""
        with self._threads:
            if self._file is not None:
                with contextlib.suppress(OSError):
                    os.close(self._file)
                self._file = None
