"""Signed chain heads (Ed25519) and the receipts handed to each seat.

After each move the service signs `(stream, seq, head hash)` and gives the receipt to the
seats. Later, `verify --receipt` proves the stored log still extends what the seat was
shown: the hash at that seq must equal the signed head, and the chain must be intact up to
it, so a rewritten earlier event is caught even if every later hash was recomputed.
The private key lives in a file (SKALD_SIGNING_KEY, default `skald-signing.key` in the
working folder), created with mode 0600 on first use.
"""

from __future__ import annotations

import os
from pathlib import Path

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from core.errors import InvalidNotation
from events.secret import canonical

DEFAULT_KEY_FILE = "skald-signing.key"


class Receipt(msgspec.Struct, frozen=True, kw_only=True):
    """A signed statement: stream `stream` had head `head` at seq `seq`."""

    stream: str
    seq: int
    head: str
    public_key: str
    signature: str

    def signed_bytes(self) -> bytes:
        """The bytes the signature covers."""
        return canonical({"stream": self.stream, "seq": self.seq, "head": self.head})


class Signer:
    """Signs chain heads with the service's Ed25519 key."""

    def __init__(self, key_file: str | Path | None = None) -> None:
        path = Path(key_file or os.environ.get("SKALD_SIGNING_KEY") or DEFAULT_KEY_FILE)
        self.key = _load_or_create(path)
        self.public_key = self.key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()

    def receipt(self, stream: str, seq: int, head: str) -> Receipt:
        """Sign one head."""
        unsigned = Receipt(stream=stream, seq=seq, head=head, public_key=self.public_key,
                           signature="")
        signature = self.key.sign(unsigned.signed_bytes()).hex()
        return msgspec.structs.replace(unsigned, signature=signature)


def _load_or_create(path: Path) -> Ed25519PrivateKey:
    if path.exists():
        return Ed25519PrivateKey.from_private_bytes(bytes.fromhex(path.read_text().strip()))
    key = Ed25519PrivateKey.generate()
    raw = key.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                            serialization.NoEncryption())
    # Written aside, then linked into place: the link is atomic and refuses to replace, so
    # when several workers start at once exactly one key wins and nobody reads half a file.
    draft = path.with_name(f".{path.name}.{os.getpid()}")
    descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        handle.write(raw.hex() + "\n")
    try:
        os.link(draft, path)
    except FileExistsError:
        return _load_or_create(path)
    finally:
        draft.unlink()
    return key


def signature_valid(receipt: Receipt, trusted_key: str | None = None) -> bool:
    """True when the receipt's signature is valid (under `trusted_key` when given)."""
    if trusted_key is not None and receipt.public_key != trusted_key:
        return False
    try:
        public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(receipt.public_key))
        public.verify(bytes.fromhex(receipt.signature), receipt.signed_bytes())
    except (InvalidSignature, ValueError):
        return False
    return True


def load_receipt(data: bytes) -> Receipt:
    """A receipt from its JSON; InvalidNotation when it is not one."""
    try:
        return msgspec.json.decode(data, type=Receipt)
    except msgspec.DecodeError as error:
        raise InvalidNotation(f"not a Skald receipt: {error}") from None
