"""How the service's answers leave the process: one socket write per response.

uvicorn writes a response's status line and headers, then its body, each with its own
`transport.write`; on a socket each is a system call that wakes the client (on loopback,
the kernel also runs the receiving side's work in the writer's call). `CoalescedWrites`
holds the writes made while one event-loop callback runs and sends them as one, at the
end of that callback: the head and body of an answer leave together. A streamed answer
(the live feed) leaves chunk by chunk as before, each at most one loop turn later; a
client that half-closes after its request (`shutdown(SHUT_WR)`, `nc -N`) still gets the
answer written before its end arrived, as with plain uvicorn. Held bytes never pass
`HOLD_LIMIT`: a larger write goes at once, so the socket's own buffer and uvicorn's flow
control (which pauses a response while the client reads slowly) work as they did.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

HOLD_LIMIT = 64 * 1024  # bytes held for the loop's next turn, at most


class CoalescedWrites:
    """A transport whose writes are gathered until the event loop's next turn, then sent
    in one write. Everything else is the wrapped transport's; closing sends what is held
    first, aborting drops it."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._held: list[bytes] = []
        self._held_bytes = 0

    def write(self, data: bytes) -> None:
        if not self._held:
            self._loop.call_soon(self.send_held)
        self._held.append(data)
        self._held_bytes += len(data)
        if self._held_bytes > HOLD_LIMIT:
            self.send_held()

    def writelines(self, chunks: Iterable[bytes]) -> None:
        self.write(b"".join(chunks))

    def send_held(self) -> None:
        """Send what is held now: at the loop's next turn, past `HOLD_LIMIT`, and when the
        client half-closes (the transport is closed right after; later, it would be gone)."""
        held, self._held, self._held_bytes = self._held, [], 0
        if held and not self._transport.is_closing():
            self._transport.write(held[0] if len(held) == 1 else b"".join(held))

    def write_eof(self) -> None:
        self.send_held()
        self._transport.write_eof()

    def close(self) -> None:
        self.send_held()
        self._transport.close()

    def abort(self) -> None:
        self._held, self._held_bytes = [], 0
        self._transport.abort()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)
