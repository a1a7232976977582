"""Bearer tokens for tournaments, in the same table as games' (core/access.py).

A tournament's tokens are issued on its own stream: the referee's token is the
organiser's, and seat N's token is the N-th registered player's (players keep their
index when others withdraw). A late player gets one token of its own, and a seated player
may be issued a token of the game at its table (a fresh one each time: tokens are kept
only as hashes, so none can be shown twice; earlier ones stay valid).
"""

from __future__ import annotations

import secrets

from skald.core.access import token_hash
from skald.core.store import EventStore


def issue_one(store: EventStore, stream: str, seat: int | None) -> str:
    """A new token speaking for `seat` of `stream` (None: its referee), returned once."""
    token = secrets.token_urlsafe(32)
    store.add_tokens(stream, [(token_hash(token), seat)])
    return token
