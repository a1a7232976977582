"""Where a game's chance and salts come from (secrecy scheme 2), and seat entropy.

Every game gets a `GameKey` with 256 bits the service draws (`secrets`), committed in
`skald.game_created` under a random salt and revealed after the game:
- salts: `salt_root = HMAC(key, "skald/salts/v2")`, scoped by the seq of the decision that
  seals them (see `core/rng.py`). The key is never derived from anything a creator chooses,
  so no commitment can be tested against guesses, and two games never share a salt.
- draws: from the key, mixed with the creator's seed when one was given: fair against
  everyone, the creator included, and unguessable whatever the seed. Only when the creator
  asks for a reproducible game do the draws come from the seed alone and the deal name
  (the game id unless games were asked to share a deal, as every table of a duplicate
  round does): the same seed in two games then still gives two deals unless they share
  one. Such a game says `seed_chosen` in its header, and the audit claims no fairness
  against the creator (and anyone who guesses a weak seed can recompute its deal: that is
  what reproducible means).
- seat entropy (`entropy=seats`) is commit-then-reveal: every seat first sends
  `entropy commit SHA256HEX` (the sha256 of its text), then, once all have committed,
  `entropy reveal TEXT`. Nobody, the creator included, sees another seat's text before
  fixing its own, so no seat can grind the deal. The revealed texts are mixed into the
  draw root before the first draw.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
from collections.abc import Callable

from skald.core.errors import IllegalMove
from skald.core.rng import Rng
from skald.events.common import GameKey
from skald.events.secret import Secret, canonical, seal

SCHEME = 2
ENTROPY_MIN_LENGTH = 16
ENTROPY_PREFIX = "entropy "
"""How a seat's entropy is sent, as a move: `entropy commit HEX`, `entropy reveal TEXT`."""
COMMIT = "commit"
REVEAL = "reveal"


RandomHex = Callable[[int], str]
"""Where fresh randomness comes from: `secrets.token_hex` (tests may inject a seeded one)."""


def sealed_key(
    seed: str | None = None,
    deal: str | None = None,
    reproducible: bool = False,
    random_hex: RandomHex = secrets.token_hex,
) -> Secret[GameKey]:
    """A fresh key (256 bits of the service's randomness, plus a chosen seed if any), as a
    Secret nobody sees until the reveal, committed under a random 128-bit salt."""
    if (reproducible or deal is not None) and seed is None:
        raise IllegalMove("a reproducible game (or a shared deal) needs a chosen seed")
    key = GameKey(
        key=random_hex(32), seed=seed, deal=deal, reproducible=reproducible or deal is not None
    )
    return seal(key, frozenset(), random_hex(16))


def draw_root(key: GameKey, game_id: str, entropy: tuple[tuple[int, str], ...] = ()) -> bytes:
    """The key of every random draw in a game."""
    if key.seed is None:
        root = bytes.fromhex(key.key)
    elif not key.reproducible:
        root = hmac.new(
            bytes.fromhex(key.key), b"seed\x00" + key.seed.encode(), hashlib.sha256
        ).digest()
    else:
        seed_key = hashlib.sha256(b"skald/seed/v2\x00" + key.seed.encode()).digest()
        deal = key.deal if key.deal is not None else game_id
        root = hmac.new(seed_key, b"deal\x00" + deal.encode(), hashlib.sha256).digest()
    if entropy:
        root = hmac.new(root, canonical(sorted(entropy)), hashlib.sha256).digest()
    return root


def salt_root(key: GameKey) -> bytes:
    """The key of every salt in a game: from the service's randomness only."""
    return hmac.new(bytes.fromhex(key.key), b"skald/salts/v2", hashlib.sha256).digest()


def game_rng(key: GameKey, game_id: str, entropy: tuple[tuple[int, str], ...], scope: int) -> Rng:
    """The chance source for the decision logged at seq `scope`."""
    draws, salts = _roots(key, game_id, entropy)
    return Rng(draws, salts, scope)


@functools.lru_cache(maxsize=1024)
def _roots(key: GameKey, game_id: str, entropy: tuple[tuple[int, str], ...]) -> tuple[bytes, bytes]:
    # A game's two roots never change once its entropy is in: derived once, not on every
    # decision (four HMACs); the last 1,024 games' roots are kept.
    return draw_root(key, game_id, entropy), salt_root(key)


def legacy_rng(seed: str, entropy: tuple[tuple[int, str], ...]) -> Rng:
    """Scheme 1 (games created before scheme 2): everything from the seed, unscoped."""
    if not entropy:
        return Rng(seed.encode())
    return Rng(hmac.new(seed.encode(), canonical(sorted(entropy)), hashlib.sha256).digest())


def entropy_commitment(text: str) -> str:
    """The commitment a seat sends before revealing `text`: sha256 of its UTF-8 bytes."""
    return hashlib.sha256(text.encode()).hexdigest()
