"""A tournament's stream in the store: encoding, the hash chain, decoding and verification.

Stored like a game's (core/store/, kind `tournament`) and chained the same way
(events/envelope.py), so one check covers both: every record is checked by the same
per-record rule as a game's (`core.chain`), and the header row against the first event.
`BrokenChain` is what a reader gets instead of a record that fails that check.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import msgspec

from skald.core import chain
from skald.core.codec import decode_record, to_record
from skald.core.errors import CorruptRecord, InvalidNotation
from skald.core.signing import Receipt, signature_valid
from skald.core.store import StoredRecord, StreamInfo
from skald.events.envelope import GENESIS, Envelope, seal_envelope
from skald.events.tournament import TournamentCreated, TournamentEvent

KIND = "tournament"
ORGANISER = "organiser"
REFEREE = "referee"

decoder: msgspec.json.Decoder[TournamentEvent] = msgspec.json.Decoder(TournamentEvent)
envelope_decoder: msgspec.json.Decoder[Envelope[TournamentEvent]] = msgspec.json.Decoder(
    Envelope[TournamentEvent]
)


class BrokenChain(CorruptRecord):
    """A tournament's stored stream fails its check (`verify`): nothing is shown or
    written from it. One line naming the seq and the reason, pointing to `skald
    tournament verify`."""

    def __init__(self, tournament: str, report: chain.ChainReport) -> None:
        seq = report.bad_seq if report.bad_seq is not None else report.checked + 1
        super().__init__(seq, report.reason)
        self.args = (
            f"tournament {tournament} is TAMPERED at seq {seq}: {report.reason}; "
            f"refusing to show it or write to it (see `skald tournament verify {tournament}`)",
        )
        self.report = report


def seal(
    stream: str,
    after: int,
    head: str,
    batch: Sequence[tuple[TournamentEvent, str]],
    recorded_at: datetime,
) -> list[StoredRecord]:
    """The records of `batch` (event, actor) appended after seq `after` with hash `head`."""
    records = []
    for seq, (event, actor) in enumerate(batch, start=after + 1):
        sealed = seal_envelope(stream, seq, recorded_at, actor, event, head)
        records.append(to_record(sealed))
        head = sealed.hash
    return records


def to_envelope(record: StoredRecord) -> Envelope[TournamentEvent]:
    """Decode one stored record."""
    envelope: Envelope[TournamentEvent] = decode_record(record, decoder, "tournament event")
    return envelope


def title_of(created: TournamentCreated) -> str:
    """The stream header's title: the tournament's name."""
    return created.name


def verify(info: StreamInfo, records: Sequence[StoredRecord]) -> chain.ChainReport:
    """Check the header against the first event, then every record and the chain."""
    problem = _header_problem(info, records)
    if problem:
        return chain.ChainReport(
            stream=info.id, checked=0, ok=False, bad_seq=1, reason=problem, head=GENESIS
        )
    return chain.check_records(info.id, records, decoder)  # the per-record rule games use


def _header_problem(info: StreamInfo, records: Sequence[StoredRecord]) -> str:
    if not records:
        return "the tournament has no events"
    try:
        created = decoder.decode(records[0].payload)
    except msgspec.DecodeError:
        return ""  # the record check names it
    if not isinstance(created, TournamentCreated):
        return "the first event does not create the tournament"
    if info.kind != KIND or info.title != title_of(created):
        return "the stream header disagrees with the tournament's creation"
    if info.created_at != records[0].recorded_at:
        return "the creation time is not the first event's"
    if info.version != records[-1].seq:
        return f"version {info.version}, but the last event is seq {records[-1].seq}"
    return ""


class _End(msgspec.Struct, frozen=True, kw_only=True):
    seq: int
    head: str


class _EndLine(msgspec.Struct, frozen=True, kw_only=True):
    end: _End | None = None
    receipt: Receipt | None = None


def end_mark(envelopes: Sequence[Envelope[TournamentEvent]], receipt: Receipt | None) -> str:
    """The last line of an export: the signed head, or the head unsigned."""
    if receipt is not None:
        return msgspec.json.encode(_EndLine(receipt=receipt)).decode()
    last = envelopes[-1]
    return msgspec.json.encode({"end": _End(seq=last.seq, head=last.hash)}).decode()


class ParsedExport(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament export's envelopes and who signed its head ("" when unsigned)."""

    envelopes: list[Envelope[TournamentEvent]]
    head_signer: str


def read_export(text: str) -> ParsedExport:
    """`parse_jsonl`, with the public key that signed the export's head ("": unsigned)."""
    envelopes = parse_jsonl(text)
    lines = [line for line in text.splitlines() if line.strip()]
    end = _end_of(lines[-1])
    receipt = end.receipt if end is not None else None
    return ParsedExport(
        envelopes=envelopes, head_signer=receipt.public_key if receipt is not None else ""
    )


def parse_jsonl(text: str) -> list[Envelope[TournamentEvent]]:
    """Envelopes from an export (one JSON object per line, its end mark last);
    InvalidNotation names the line, or says the export is not whole (cut short)."""
    lines = [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
    end = _end_of(lines[-1][1]) if lines else None
    envelopes = []
    for number, line in lines[:-1] if end is not None else lines:
        try:
            envelopes.append(envelope_decoder.decode(line))
        except msgspec.DecodeError as error:
            raise InvalidNotation(f"line {number}: not a tournament event: {error}") from None
    if not envelopes:
        raise InvalidNotation("the file holds no tournament events")
    _check_end(end, envelopes)
    return envelopes


def _end_of(line: str) -> _EndLine | None:
    if not line.lstrip().startswith(('{"end"', '{"receipt"')):
        return None  # an envelope (or not JSON): read as one
    try:
        return msgspec.json.decode(line, type=_EndLine)
    except msgspec.DecodeError:
        return None


def _check_end(end: _EndLine | None, envelopes: Sequence[Envelope[TournamentEvent]]) -> None:
    """InvalidNotation unless the end mark is the stream's last head (signed: validly)."""
    last = envelopes[-1]
    if end is None or (end.end is None and end.receipt is None):
        raise InvalidNotation(
            "the tournament export has no end mark (its last line, the signed head): it was "
            "cut short; nothing was imported"
        )
    if end.receipt is not None:
        receipt = end.receipt
        if receipt.stream != last.stream or not signature_valid(receipt):
            raise InvalidNotation(
                "the tournament export's signed head is not valid for it; nothing was imported"
            )
        at = (receipt.seq, receipt.head)
    else:
        assert end.end is not None
        at = (end.end.seq, end.end.head)
    if at != (last.seq, last.hash):
        raise InvalidNotation(
            f"the tournament export's end mark is at seq {at[0]}, but its last event is seq "
            f"{last.seq}: it is not whole; nothing was imported"
        )
