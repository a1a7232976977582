"""Seat tokens: the bearer tokens of a game's seats and referee, kept as SHA-256 hashes
(`seat_tokens`), each with the stream and seat it speaks for. `core/access.py` issues and
checks them; the store only keeps and finds the hashes.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from skald.core.store.base import StoreBase
from skald.core.store.schema import seat_tokens


class SeatTokens(StoreBase):
    """The store's seat tokens (a part of `EventStore`)."""

    def add_tokens(self, stream: str, hashes: Sequence[tuple[str, int | None]]) -> None:
        """Store token hashes for `stream`, each with the seat it speaks for (None: referee)."""
        rows = [
            {"token_hash": digest, "stream_id": stream, "seat": seat} for digest, seat in hashes
        ]
        with self._queued(), self._writer.begin() as conn:
            conn.execute(seat_tokens.insert(), rows)

    def token(self, digest: str) -> tuple[str, int | None] | None:
        """The stream and seat of a token hash, or None when no game issued it."""
        query = sa.select(seat_tokens.c.stream_id, seat_tokens.c.seat).where(
            seat_tokens.c.token_hash == digest
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None else (row.stream_id, row.seat)
