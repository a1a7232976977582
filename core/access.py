"""Seat and referee tokens: bearer secrets handed out once at game creation, kept as hashes.

A token is 32 random bytes (url-safe text); the store keeps only its SHA-256, so a leaked
database does not let anyone act for a seat. A plain hash is enough because the tokens
are random, not passwords. A grant names the game and the seat it speaks for (`None`:
the referee). Grants never change, so each process caches the ones it has looked up.
Tokens are issued right after the game's first append (the foreign key needs the stream);
should that second transaction fail the game exists without tokens and nobody can act
in it, which is safe.
"""

from __future__ import annotations

import hashlib
import secrets
import threading

import msgspec

from skald.core.store import EventStore


class Grant(msgspec.Struct, frozen=True):
    """What a token lets its bearer do: act for `seat` in `game_id` (seat None: referee)."""

    game_id: str
    seat: int | None

    @property
    def referee(self) -> bool:
        """True for the referee's token."""
        return self.seat is None


class IssuedTokens(msgspec.Struct, frozen=True):
    """The plain tokens of a new game, returned once and never stored."""

    seats: tuple[str, ...]
    referee: str


def token_hash(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


class TokenStore:
    """Issues and checks the bearer tokens of games kept in one EventStore."""

    def __init__(self, store: EventStore, cache_size: int = 4096) -> None:
        self._store = store
        self._cache: dict[str, Grant] = {}
        self._cache_size = cache_size
        self._lock = threading.Lock()

    def issue(self, game_id: str, seats: int) -> IssuedTokens:
        """New tokens for every seat and the referee of `game_id`."""
        issued = IssuedTokens(
            seats=tuple(secrets.token_urlsafe(32) for _ in range(seats)),
            referee=secrets.token_urlsafe(32),
        )
        hashes: list[tuple[str, int | None]] = [
            (token_hash(token), seat) for seat, token in enumerate(issued.seats)
        ]
        hashes.append((token_hash(issued.referee), None))
        self._store.add_tokens(game_id, hashes)
        return issued

    def grant(self, game_id: str, token: str) -> Grant | None:
        """The grant of `token` in `game_id`, or None when it is not one of that game's."""
        found = self.lookup(token)
        return found if found is not None and found.game_id == game_id else None

    def lookup(self, token: str) -> Grant | None:
        """The grant of `token` in whichever game issued it, or None."""
        digest = token_hash(token)
        with self._lock:
            cached = self._cache.get(digest)
        if cached is None:
            found = self._store.token(digest)
            if found is None:
                return None
            cached = Grant(game_id=found[0], seat=found[1])
            with self._lock:
                if len(self._cache) >= self._cache_size:
                    self._cache.clear()
                self._cache[digest] = cached
        return cached
