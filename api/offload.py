"""`offload(fn, ...)`: run blocking work (the store, the engine) off the event loop.

Every route and dependency that blocks goes through this one helper, on one thread pool
per process. It is `loop.run_in_executor` on a plain `ThreadPoolExecutor`, not starlette's
`run_in_threadpool`: anyio's hop (a capacity limiter, a cancel scope, a queue and a
condition per call) cost about 50 µs of CPU per call on this machine against about 33 µs
for this one, and a decision makes one hop. The pool has anyio's default size (40
threads), and the caller's context variables go along, as with anyio.

A request cancelled while its work runs (the client left) stops waiting at once; the work
itself finishes in its thread, as under anyio, where an append that started completes.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

_POOL = ThreadPoolExecutor(max_workers=40, thread_name_prefix="skald-work")


async def offload(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """`fn(*args, **kwargs)` in the process's worker pool, awaited without blocking the loop."""
    context = contextvars.copy_context()
    work = partial(context.run, fn, *args, **kwargs)
    return await asyncio.get_running_loop().run_in_executor(_POOL, work)
