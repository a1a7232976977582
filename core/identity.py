"""Who made each decision: its author, and the seat's own signature (DESIGN.md "Tamper
evidence": identity).

A seat may hold its own Ed25519 key (the web table makes one in the browser, the CLI in the
user's data folder, an API client its own). Its first signed decision registers the key
(`SeatSigned.key`: that decision is signed by the key it registers); from then on every
decision the seat's player makes must be signed, or it is refused and nothing is written.
A decision made for the seat by someone else (a bot the organiser set there, the organiser)
says so in its author (`Author`) and may be unsigned: it then reads as theirs, never as the
player's. So no server, ours included, can put a move in a player's mouth: the record shows
it unsigned and by whom, and a signed decision it dropped or reordered breaks the heads the
later signatures name.

What a seat signs (UTF-8, lines joined by `\\n`):

    skald/decision/1
    game GAME_ID
    seat SEAT
    seq SEQ           the game's seq the seat saw (its decision is logged from SEQ + 1 on)
    head HEAD         the chain hash at SEQ
    kind KIND         move, undo or redo (entropy is a move: `entropy commit HEX`, ...)
    digest DIGEST     sha512 hex of `NONCE + "\\n" + TEXT`
    key KEY           the seat's public key, hex

TEXT is the move's notation as `legal` lists it (the empty text for undo and redo); NONCE is
fresh hex the seat draws for the decision, so the digest and signature say nothing of a
hidden move: the log keeps the nonce public for a public move and sealed like the move for
a hidden one, so everyone can check the digest once the move is shown.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Sequence
from typing import Any

import msgspec
from nacl.exceptions import BadSignatureError
from nacl.signing import SigningKey, VerifyKey

from skald.core.errors import Forbidden, InvalidNotation
from skald.core.rng import Rng
from skald.core.secrecy import COMMIT, ENTROPY_PREFIX, REVEAL
from skald.core.state import GameState
from skald.events.common import (
    Author,
    DecisionRedone,
    DecisionUndone,
    EntropyAdded,
    EntropyCommitted,
    MoveMade,
    SeatSigned,
)
from skald.events.envelope import Envelope
from skald.events.secret import seal

DOMAIN = "skald/decision/1"
AUTHOR_KINDS = ("player", "bot", "organiser")
_HEX = re.compile(r"(?:[0-9a-f]{2})+")
NONCE_SALT = "seat-nonce"


class Signing(msgspec.Struct, frozen=True, kw_only=True):
    """A seat's signature as a client sends it with its decision (all hex): the nonce is
    plain here; the log seals it when the move is hidden."""

    digest: str
    signature: str
    nonce: str
    key: str = ""


def move_digest(nonce: str, text: str) -> str:
    """sha512 hex of the nonce and the decision's text."""
    return hashlib.sha512(f"{nonce}\n{text}".encode()).hexdigest()


def decision_message(
    game_id: str, seat: int, seq: int, head: str, kind: str, digest: str, key: str
) -> bytes:
    """The bytes a seat signs for one decision (see the module's doc)."""
    lines = (
        DOMAIN,
        f"game {game_id}",
        f"seat {seat}",
        f"seq {seq}",
        f"head {head}",
        f"kind {kind}",
        f"digest {digest}",
        f"key {key}",
    )
    return "\n".join(lines).encode()


def sign_decision(
    secret: bytes,
    game_id: str,
    seat: int,
    seq: int,
    head: str,
    kind: str,
    text: str,
    register: bool,
) -> Signing:
    """What a seat's client sends with a decision: `secret` is its Ed25519 seed (32 bytes);
    `register` on the seat's first signed decision (it carries the public key)."""
    signer = SigningKey(secret)
    key = signer.verify_key.encode().hex()
    nonce = secrets.token_hex(32)
    digest = move_digest(nonce, text)
    message = decision_message(game_id, seat, seq, head, kind, digest, key)
    signature = signer.sign(message).signature.hex()
    return Signing(digest=digest, signature=signature, nonce=nonce, key=key if register else "")


def public_key(secret: bytes) -> str:
    """The public key (hex) of an Ed25519 seed."""
    return SigningKey(secret).verify_key.encode().hex()


def signature_good(key: str, message: bytes, signature: str) -> bool:
    """Whether `signature` (hex) is `key`'s (hex) over `message`."""
    try:
        VerifyKey(bytes.fromhex(key)).verify(message, bytes.fromhex(signature))
    except (BadSignatureError, ValueError, TypeError):
        return False
    return True


def seat_key(state: GameState, seat: int) -> str:
    """The key `seat` registered, or the empty text."""
    return dict(state.seat_keys).get(seat, "")


def decision_kind(event: Any) -> str:
    """move, undo or redo: what a decision's first event says the seat did."""
    if isinstance(event, DecisionUndone):
        return "undo"
    if isinstance(event, DecisionRedone):
        return "redo"
    return "move"


def decision_text(event: Any, scheme: int) -> str | None:
    """The text of a logged decision, as its seat sent it in notation and signed it: a
    move's notation (None while a hidden move is not shown), entropy as `entropy commit
    HEX` or `entropy reveal TEXT` (scheme 1: `entropy TEXT`), the empty text for undo and
    redo; None for an event that is no decision."""
    match event:
        case MoveMade(move=move, hidden_move=hidden):
            if move is not None:
                return move
            return hidden.value if hidden is not None and hidden.known else None
        case EntropyCommitted(commitment=commitment):
            return f"{ENTROPY_PREFIX}{COMMIT} {commitment}"
        case EntropyAdded(entropy=entropy):
            return f"{ENTROPY_PREFIX}{REVEAL + ' ' if scheme >= 2 else ''}{entropy}"
        case DecisionUndone() | DecisionRedone():
            return ""
    return None


def check_author(by: Author | None) -> None:
    """Raise InvalidNotation for an author kind nobody can be."""
    if by is not None and by.kind not in AUTHOR_KINDS:
        raise InvalidNotation(f"author {by.kind!r}: one of {', '.join(AUTHOR_KINDS)}")


def attach(
    state: GameState,
    seat: int,
    event: Any,
    by: Author | None,
    signing: Signing | None,
    rng: Rng | None,
    text: str,
) -> Any:
    """The decision's first event with its author and the seat's signature, after checking
    the signature against the seat's key (or the key it registers); raises Forbidden, and
    nothing is written, when a decision the seat's player makes is unsigned at a seat that
    signs, when the signature does not verify, or when a key is registered twice."""
    check_author(by)
    author = None if by is None or by == Author() else by
    registered = seat_key(state, seat)
    name = state.players[seat]
    if signing is None:
        if registered and author is None:
            raise Forbidden(
                f"{name}'s seat signs its decisions with its own key; this one is not "
                "signed (send it from the seat's own client, or as a bot's or the "
                "organiser's decision, which the record then shows as theirs)"
            )
        return _with(event, author, None)
    for field in ("digest", "signature", "nonce", *(("key",) if signing.key else ())):
        if not _HEX.fullmatch(getattr(signing, field)):
            raise InvalidNotation(f"signed.{field}: lowercase hex expected")
    if signing.key and registered:
        raise Forbidden(
            f"{name}'s seat registered its key already ({registered[:16]}…); a seat's key "
            "is registered once"
        )
    key = registered or signing.key
    if not key:
        raise Forbidden(
            f"{name}'s seat has no key registered: its first signed decision carries the "
            "public key (signed.key)"
        )
    if move_digest(signing.nonce, text) != signing.digest:
        raise Forbidden(
            "the signed digest is not sha512 of the nonce and this decision's notation: "
            "sign the move as `legal` lists it"
        )
    kind = decision_kind(event)
    message = decision_message(
        state.id, seat, state.version, state.last_hash, kind, signing.digest, key
    )
    if not signature_good(key, message, signing.signature):
        raise Forbidden(
            f"the signature does not verify with {name}'s key for this game at seq "
            f"{state.version} (head {state.last_hash[:16]}…): was it made for another "
            "game, seat or seq? Read the game again and sign anew"
        )
    hidden = getattr(event, "hidden_move", None)
    stored = SeatSigned(
        digest=signing.digest,
        signature=signing.signature,
        key=signing.key,
        nonce="" if hidden is not None else signing.nonce,
        sealed_nonce=(
            seal(signing.nonce, hidden.audience, rng.salt(NONCE_SALT))
            if hidden is not None and rng is not None
            else None
        ),
    )
    return _with(event, author, stored)


def _with(event: Any, by: Author | None, signed: SeatSigned | None) -> Any:
    if by is None and signed is None:
        return event
    return msgspec.structs.replace(event, by=by, signed=signed)


def signing_of(event: Any) -> Signing | None:
    """The signature a logged decision carries, as its seat sent it (None: unsigned, or a
    hidden move's nonce not shown)."""
    signed: SeatSigned | None = getattr(event, "signed", None)
    if signed is None:
        return None
    nonce: str | None = signed.nonce
    if signed.sealed_nonce is not None:
        nonce = signed.sealed_nonce.value if signed.sealed_nonce.known else None
    if nonce is None:
        return None
    return Signing(digest=signed.digest, signature=signed.signature, nonce=nonce, key=signed.key)


def registered_keys(events: Sequence[Any]) -> dict[int, str]:
    """Each seat's key, as the decisions among `events` registered them."""
    keys: dict[int, str] = {}
    for event in events:
        signed = getattr(event, "signed", None)
        if signed is not None and signed.key:
            keys.setdefault(event.seat, signed.key)
    return keys


def recorded_problem(
    envelope: Envelope[Any], keys: dict[int, str], player: str, scheme: int
) -> str | None:
    """What is wrong with the seat signature a logged decision carries (None: nothing),
    from the record alone: the head and seq the seat signed are the decision's `prev_hash`
    and the seq before it; `keys` holds the seats' keys registered before it."""
    event = envelope.event
    signed = event.signed
    registered = keys.get(event.seat, "")
    if signed is None:
        by = event.by
        if registered and (by is None or by.kind == "player"):
            return (
                f"{player}'s seat signs its decisions, but this one, told as {player}'s, "
                "is not signed"
            )
        return None
    if signed.key and registered:
        return f"{player}'s seat registers a second key"
    key = registered or signed.key
    if not key:
        return f"{player}'s signature names no key (the seat registered none)"
    message = decision_message(
        envelope.stream,
        event.seat,
        envelope.seq - 1,
        envelope.prev_hash,
        decision_kind(event),
        signed.digest,
        key,
    )
    nonce = signed.nonce or (
        signed.sealed_nonce.value if signed.sealed_nonce and signed.sealed_nonce.known else None
    )
    text = decision_text(event, scheme)
    if nonce is not None and text is not None and move_digest(nonce, text) != signed.digest:
        return f"{player}'s signed digest is not that of this decision's move"
    if not signature_good(key, message, signed.signature):
        return (
            f"{player}'s signature does not verify with the seat's key for this game, seq and head"
        )
    return None
