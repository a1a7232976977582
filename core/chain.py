"""Checking a stored stream: gapless seqs, the hash chain, decodable events, commitments.

`verify_records` names the first bad seq and why. A changed byte anywhere in a stored
event shows up as one of: an undecodable payload, a hash that no longer matches the
redacted canonical bytes, or a hidden value that no longer matches its commitment.

A receipt check (`verify_receipt`) tells three kinds of failure apart by fields of the
report, not by the wording of its reason: the log is at fault (`bad_seq` names the first
bad seq, or with `bounded` only the latest seq a rewrite can lie at or before), the receipt
is (`receipt_problem`: it is for another game, its signature does not match its
contents, or its seq is below 1, which no log has; no seq of the log is blamed), or the
receipt is genuine but signed by a key the store does not hold (`other_key`).
`require_intact` is the guard before signing a head: a receipt certifies the log, so none
is signed for a chain that does not verify.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

import msgspec

from skald.core.codec import decoder_for, encode_event, event_tag
from skald.core.errors import CorruptRecord
from skald.core.signing import Receipt, fingerprint, signature_valid
from skald.core.store import StoredRecord, StreamInfo
from skald.events.envelope import GENESIS, chain_hash
from skald.events.secret import secrets_in

# How a receipt check begins its reason when the signed head differs from the stored one
# (the report's `bounded` says so too: test that, not this text).
REWRITTEN = "history was rewritten at or before seq"

# `ChainReport.receipt_problem`: what is wrong with the receipt itself.
RECEIPT_OTHER_GAME = "other_game"
RECEIPT_ALTERED = "altered"
RECEIPT_NO_SEQ = "no_seq"  # a seq below 1: no log has a head there to certify


class ChainReport(msgspec.Struct, frozen=True, kw_only=True):
    """The result of a verification: ok, or the first bad seq and the reason."""

    stream: str
    checked: int
    ok: bool
    bad_seq: int | None = None
    reason: str = ""
    head: str = GENESIS
    # A receipt check only: the receipt is genuine but signed by a key this store does not
    # hold (not "tampered": the store may have been moved without its key).
    other_key: bool = False
    # A receipt check only: the receipt itself is wrong (RECEIPT_OTHER_GAME: it is for
    # another game; RECEIPT_ALTERED: its signature does not match its contents;
    # RECEIPT_NO_SEQ: its seq is below 1, where no log has a head). Nothing
    # is said about the log, and `bad_seq` is None.
    receipt_problem: str = ""
    # A receipt check only: the signed head differs from the stored one at `bad_seq`, the
    # receipt's seq, while the chain is intact (every later hash recomputed): the rewrite
    # lies at or before `bad_seq`, and only the audit names the exact seq.
    bounded: bool = False
    # For a partial copy (imported with --partial from a record cut short): that it is one,
    # in plain words. The chain it verifies is the copy's, never the whole game's.
    partial: str = ""


def verify_records(stream: str, game: str, records: Sequence[StoredRecord]) -> ChainReport:
    """Check every record of a game's stream in order; stop at the first bad one."""
    return check_records(stream, records, decoder_for(game))


def check_records(
    stream: str, records: Sequence[StoredRecord], decoder: msgspec.json.Decoder[Any]
) -> ChainReport:
    """Check every record in order (seq, prev hash, canonical bytes, tag, hash), decoding
    with `decoder` (any stream kind: games, tournaments); stop at the first bad one."""
    prev_hash = GENESIS
    for expected_seq, record in enumerate(records, start=1):
        problem = _problem(decoder, record, expected_seq, prev_hash)
        if problem:
            return ChainReport(
                stream=stream,
                checked=expected_seq - 1,
                ok=False,
                bad_seq=expected_seq,
                reason=problem,
                head=prev_hash,
            )
        prev_hash = record.hash
    return ChainReport(stream=stream, checked=len(records), ok=True, head=prev_hash)


HeaderCheck = Callable[[StreamInfo, Sequence[StoredRecord]], str]


def verify_stream(
    info: StreamInfo,
    records: Sequence[StoredRecord],
    decoder: msgspec.json.Decoder[Any] | None = None,
    header: HeaderCheck | None = None,
) -> ChainReport:
    """`verify_records`, plus the stream's header row checked against its events: the
    game and players are those the first event created, the creation time is its time,
    and the version is the last seq. So no stored byte of a game goes unchecked. Another
    kind of stream (core/stream_check.py) gives its own `decoder` and `header` check.

    The first bad seq is named: a header that disagrees with the first event is seq 1; a
    version past the last stored event means events were lost at the end, named by the
    first missing seq (the stored ones are checked first, so an earlier bad one wins); a
    version short of the last event names the first event past it."""
    problem = (header or _header_problem)(info, records)
    if problem:
        return ChainReport(
            stream=info.id,
            checked=0,
            ok=False,
            bad_seq=1,
            reason=f"the stream header disagrees with its events: {problem}",
        )
    report = check_records(info.id, records, decoder or decoder_for(info.kind))
    if not report.ok or info.version == report.checked:
        return report
    last = report.checked
    said = f"the stream header's version is {info.version}, but the last stored event is"
    if info.version > last:
        missing = (
            f"seq {last + 1}" if info.version == last + 1 else f"seqs {last + 1}–{info.version}"
        )
        return ChainReport(
            stream=info.id,
            checked=last,
            ok=False,
            bad_seq=last + 1,
            reason=f"{said} seq {last}: {missing} missing (deleted from the end of the "
            f"log, or the header's version was changed)",
            head=report.head,
        )
    return ChainReport(
        stream=info.id,
        checked=info.version,
        ok=False,
        bad_seq=info.version + 1,
        reason=f"{said} seq {last}: the events from seq {info.version + 1} on lie "
        f"past the header's version (appended behind its back, or the version was changed)",
        head=records[info.version - 1].hash if info.version > 0 else GENESIS,
    )


def _header_problem(info: StreamInfo, records: Sequence[StoredRecord]) -> str:
    """A header that disagrees with the first event (the version is checked after the
    events, by `verify_stream`)."""
    if not records:
        return "the stream has no events"
    try:
        created = msgspec.json.decode(records[0].payload)
    except msgspec.DecodeError:
        return ""  # the chain check names the undecodable event
    if not isinstance(created, dict):
        return ""
    if created.get("game") != info.kind:
        return f"game {info.kind!r}, but the first event created {created.get('game')!r}"
    if info.title != ", ".join(created.get("players") or ()):
        return f"players {info.title!r}, but the first event seated {created.get('players')}"
    if info.created_at != records[0].recorded_at:
        return "the creation time is not the first event's"
    return ""


def _problem(
    decoder: msgspec.json.Decoder[Any], record: StoredRecord, expected_seq: int, prev_hash: str
) -> str:
    if record.seq != expected_seq:
        return f"expected seq {expected_seq}, found {record.seq} (a gap or reordering)"
    if record.prev_hash != prev_hash:
        return "prev_hash does not match the previous event's hash"
    try:
        event = decoder.decode(record.payload)
    except msgspec.DecodeError as error:
        return f"the stored event cannot be decoded: {error}"
    if encode_event(event) != record.payload:
        return "the stored event is not in canonical form (bytes were changed)"
    if event_tag(event) != record.kind:
        return f"stored kind {record.kind!r} does not match the event's tag {event_tag(event)!r}"
    recomputed = chain_hash(
        prev_hash, record.stream, record.seq, record.recorded_at, record.actor, event
    )
    if recomputed != record.hash:
        return "hash mismatch: the event or its envelope was changed after it was written"
    for secret in secrets_in(event):
        if not secret.known:
            return f"the stored event lacks the hidden value for {secret.commitment[:12]}…"
        if not secret.verifies():
            return f"a hidden value does not match its commitment {secret.commitment[:12]}…"
    return ""


def verify_receipt(
    info: StreamInfo,
    records: Sequence[StoredRecord],
    receipt: Receipt,
    trusted_keys: Collection[str] | None = None,
) -> ChainReport:
    """Prove the stored log extends what a seat was shown in `receipt` (signed by one of
    `trusted_keys` when given: a valid signature by another key is reported as such)."""
    stream = info.id
    # The signature first: an altered receipt's game field proves nothing either.
    if not signature_valid(receipt):
        return ChainReport(
            stream=stream,
            checked=0,
            ok=False,
            receipt_problem=RECEIPT_ALTERED,
            reason="the receipt's signature does not match its contents: the receipt was altered",
        )
    if receipt.stream != stream:
        return ChainReport(
            stream=stream,
            checked=0,
            ok=False,
            receipt_problem=RECEIPT_OTHER_GAME,
            reason=f"the receipt is for game {receipt.stream}, not {stream}",
        )
    if receipt.seq < 1:
        # Signed or not, no head exists before seq 1: nothing is certified, nothing blamed.
        return ChainReport(
            stream=stream,
            checked=0,
            ok=False,
            receipt_problem=RECEIPT_NO_SEQ,
            reason=f"the receipt is for seq {receipt.seq}, but a log's seqs begin at 1",
        )
    if trusted_keys is not None and receipt.public_key not in trusted_keys:
        held = ", ".join(f"{fingerprint(key)}…" for key in trusted_keys) or "none"
        return ChainReport(
            stream=stream,
            checked=0,
            ok=False,
            bad_seq=None,
            other_key=True,
            reason=f"signed by another key: the receipt's key is "
            f"{fingerprint(receipt.public_key)}…, this store's is "
            f"{held} (was the store moved without its key?)",
        )
    report = verify_stream(info, records)
    if not report.ok:
        return report
    if report.checked < receipt.seq:
        return ChainReport(
            stream=stream,
            checked=report.checked,
            ok=False,
            bad_seq=report.checked + 1,
            reason=f"the store has lost events: the receipt covers seq "
            f"{receipt.seq}, the store ends at {report.checked}",
        )
    head_then = records[receipt.seq - 1].hash
    if head_then != receipt.head:
        return ChainReport(
            stream=stream,
            checked=report.checked,
            ok=False,
            bad_seq=receipt.seq,
            bounded=True,
            reason=f"{REWRITTEN} {receipt.seq}: the head there is {head_then[:12]}…, "
            f"the receipt signed {receipt.head[:12]}…; the chain itself is intact (every "
            f"later hash was recomputed), so the receipt only bounds where: "
            f"`skald audit {stream}` finds the exact seq",
        )
    return report


def require_intact(report: ChainReport) -> ChainReport:
    """`report` when the chain verified; else CorruptRecord naming its first bad seq (a
    receipt certifies the log, so none is signed for a chain that does not verify)."""
    if report.ok:
        return report
    seq = report.bad_seq if report.bad_seq is not None else report.checked + 1
    raise CorruptRecord(
        seq, f"the log does not verify, so no receipt is signed for it: {report.reason}"
    )
