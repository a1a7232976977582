"""`offload(fn, ...)`: run blocking work (the store, the engine) off the event loop.

Every route and dependency that blocks goes through this one helper, on one thread pool
per process. It is `loop.run_in_executor` on a plain `ThreadPoolExecutor`, not starlette's
`run_in_threadpool`: anyio's hop (a capacity limiter, a cancel scope, a queue and a
condition per call) cost about 50 µs of CPU per call on this machine against about 33 µs
for this one, and a decision makes one hop. The pool has anyio's default size (40
threads), and the caller's context variables go along, as with anyio.

A request cancelled while its work runs (the client left) stops waiting at once; the work
itself finishes in its thread, as under anyio, where an append that started completes.

`on_table(table, fn, ...)` is for the routes of a decision (move, undo, redo, the summary,
the legal moves, the view): on a SQLite store whose writers' queue is free the work runs
right on the event loop, because it is brief (a local file, no round trips) and the hop
itself costs more: measured in-process, a stubbed POST /moves took 306 µs with the hop and
143 µs without. Otherwise (every PostgreSQL request: each statement waits for the server)
it goes to a pool of its own with few threads, `SKALD_DECISION_THREADS` (default two per
core, shared among the server's workers: `skald serve --workers N` gives each worker its
share, at least 2): threads waiting on the database contend for the interpreter, and at
32 clients on PostgreSQL one worker with 4 threads gave 929-951 decisions/s at 1.0 ms of
server CPU each against 703-884 with 8 and 801 with 16 (380-480/s at 2.0-2.5 ms with the
40 of the general pool, in an earlier round). Slow work (audits, exports) stays in the
general pool, so it never holds up a decision.
"""

from __future__ import annotations

import asyncio
import contextvars
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from skald.core.errors import WouldWait

if TYPE_CHECKING:
    from skald.projections.table import Table

P = ParamSpec("P")
T = TypeVar("T")

_POOL = ThreadPoolExecutor(max_workers=40, thread_name_prefix="skald-work")


def default_decision_threads(workers: int = 1) -> int:
    """Two decision threads per core this process may run on, shared among `workers`
    worker processes, and at least 2."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(2, 2 * (cores or 1) // max(workers, 1))


_DECISIONS = ThreadPoolExecutor(
    max_workers=int(os.environ.get("SKALD_DECISION_THREADS") or default_decision_threads()),
    thread_name_prefix="skald-decide",
)


async def offload(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """`fn(*args, **kwargs)` in the process's worker pool, awaited without blocking the loop."""
    return await _run_in(_POOL, fn, *args, **kwargs)


async def _run_in(
    pool: ThreadPoolExecutor, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs
) -> T:
    context = contextvars.copy_context()
    work = partial(context.run, fn, *args, **kwargs)
    return await asyncio.get_running_loop().run_in_executor(pool, work)


async def on_table(table: Table, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """`fn(*args, **kwargs)` at once when the table's store answers at once, else offloaded.
    At once, no store call may wait for a lock (a writer the queue does not see, such as
    another program, may hold SQLite's): it raises `WouldWait` before writing anything, and
    the work is done again with the hop."""
    return await _on_table(table.answers_at_once(), table, fn, *args, **kwargs)


async def reading(table: Table, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """`on_table` for work that reads (the live channel's heads and updates): on SQLite at
    once even while a writer holds the queue, as WAL readers never wait for writers (a
    read that would wait, or a write on the way, raises `WouldWait`: then with the hop).
    Sending these to threads whenever a decision was being written there made the channel's
    frames wait for the interpreter behind them: from 2 clients on, 8-33 ms a decision."""
    return await _on_table(table.reads_at_once(), table, fn, *args, **kwargs)


async def _on_table(
    at_once: bool, table: Table, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs
) -> T:
    if at_once:
        with table.never_waiting() as block:
            try:
                return fn(*args, **kwargs)
            except WouldWait:
                if block.committed:  # cannot happen (see NoWaiting); never do work twice
                    raise
    return await _run_in(_DECISIONS, fn, *args, **kwargs)
