"""Signing keys: the public keys that signed a store's receipts (`signing_keys`). A store
keeps one key, so a server started elsewhere never mints a second one and calls old
receipts forged; `core/signing.py` decides which key, the store records it.
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa

from skald.core.store.base import StoreBase
from skald.core.store.schema import signing_keys


class SigningKeys(StoreBase):
    """The store's signing keys (a part of `EventStore`); a backend supplies
    `_lock_signing_keys`."""

    def _lock_signing_keys(self, conn: sa.Connection) -> None:
        """Inside a write transaction that records a key: make processes recording one at
        the same moment take their turns, so the first writer wins."""
        raise NotImplementedError

    def signing_keys(self) -> list[str]:
        """The public keys (hex) that sign this store's receipts, oldest first."""
        query = sa.select(signing_keys.c.public_key).order_by(signing_keys.c.created_at)
        with self.engine.connect() as conn:
            return [row.public_key for row in conn.execute(query)]

    def record_signing_key(self, public_key: str) -> list[str]:
        """Record `public_key` as this store's signing key unless one is recorded already;
        return the recorded keys (the first writer wins when processes start together)."""
        with self._queued(), self._writer.begin() as conn:
            self._lock_signing_keys(conn)
            found = [row.public_key for row in conn.execute(sa.select(signing_keys.c.public_key))]
            if not found:
                conn.execute(
                    signing_keys.insert().values(
                        public_key=public_key, created_at=datetime.now(UTC)
                    )
                )
                found = [public_key]
        return found
