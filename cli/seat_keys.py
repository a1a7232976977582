"""The seat keys the command line holds: one Ed25519 key per game and seat, made on first
use, kept in the user's data folder (platformdirs: `~/.local/share/skald/seat-keys/` on
Linux; `SKALD_KEYS` names another folder), readable by the user alone.

`skald move`, `undo` and `redo` sign each decision with the seat's key (core/identity.py);
the first signed decision registers the key in the game's log. A seat whose key was made
by another client (the web table, a script) cannot be played from here: its decisions
would go unsigned, and the service refuses them.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import platformdirs

from skald.core.errors import Forbidden
from skald.core.identity import Signing, public_key, sign_decision
from skald.projections.table import Table


def keys_folder() -> Path:
    """Where the seat keys are kept."""
    named = os.environ.get("SKALD_KEYS")
    return Path(named) if named else Path(platformdirs.user_data_dir("skald")) / "seat-keys"


def seat_secret(game_id: str, seat: int, make: bool) -> bytes | None:
    """The seat's key (its 32-byte seed), made now if `make` and there is none yet."""
    path = keys_folder() / game_id / f"seat-{seat}.ed25519"
    if path.exists():
        return bytes.fromhex(path.read_text(encoding="ascii").strip())
    if not make:
        return None
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    secret = secrets.token_bytes(32)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="ascii") as file:
        file.write(secret.hex() + "\n")
    return secret


def signing_for(
    table: Table, game_id: str, seat: int, action: str, notation: str = ""
) -> tuple[str, Signing]:
    """The decision's text as the log keeps it and the seat's signature over it: the key
    this machine holds for the seat (made now if the seat has none registered yet)."""
    legal = table.legal_now(game_id, seat)
    registered = dict(legal.keys).get(seat, "")
    secret = seat_secret(game_id, seat, make=not registered)
    if secret is None or (registered and public_key(secret) != registered):
        player = table.players(game_id)[seat]
        raise Forbidden(
            f"{player}'s seat signs with a key this machine does not hold "
            f"({registered[:16]}…, made by another client): play the seat from that client"
        )
    text = table.decision_text(game_id, seat, action, notation)
    kind = "move" if action == "move" else action
    signing = sign_decision(
        secret, game_id, seat, legal.seq, legal.head, kind, text, register=not registered
    )
    return text, signing
