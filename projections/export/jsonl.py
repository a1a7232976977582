"""The jsonl export: the canonical, lossless form of an annotated history.

Line 1 is a header `{"format": "skald-history", "version": 1, "game", "id", "viewer",
"full"}` (a partial copy's also has `"partial": {"decisions", "seq", "of"}`, its mark: such
an export imports only as a partial copy again); then one envelope a line, exactly as the
store chains it (redacted for the viewer: a sealed value keeps its commitment, so every
chain still verifies), the notes stream excepted, which is the viewer's copy
(`HistoryStore.notes_for`: only the notes it may read, chained anew): the game's stream,
then its notes stream (`ID~notes`), then each variation (`ID~vN`) the viewer may see, in
order. Then `{"kept_receipt": {...}}` for each
receipt a player kept and asked to embed (`skald export --receipt FILE`), which every
verifier checks the record extends. Last, the end mark: `{"receipt": {...}}`, the
exporting service's signed head of the game, so a seat can prove its copy genuine without
anyone's secrets (signed by the exporting store's key; everything before it re-exports
byte for byte after an import), or, from a store that holds no signing key,
`{"end": {"seq", "head"}}`, the same head unsigned. Nothing follows the end mark: an import
refuses a file without it, or with a line after it (a file cut short anywhere, a kept
receipt included, has no end mark). Exports written before kept receipts moved in front
of the end mark (they followed it, so a file cut among them looked whole) are refused
with a line saying so: export the game again.

Every line is written in canonical form (`events.secret.canonical`: object keys in their
declared order, sets sorted), so a verifier that keeps the key order of a line re-derives
each hash from the JSON alone (`verify_skald.py`, the README's "Checking an export
yourself").
"""

from __future__ import annotations

from typing import Any

import msgspec

from skald.core.codec import envelope_decoder_for
from skald.core.errors import InvalidNotation
from skald.core.history.streams import NOTES_KIND, VARIATION_KIND, envelope_decoder, notes_id
from skald.core.importer import without_cut_line
from skald.core.provenance import PartialCopy
from skald.core.signing import Receipt
from skald.events.envelope import Envelope
from skald.events.secret import canonical
from skald.projections.export.model import Bundle

FORMAT = "skald-history"
VERSION = 1


class Header(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The first line of a jsonl export."""

    format: str
    version: int
    game: str
    id: str
    viewer: str
    full: bool
    partial: PartialCopy | None = None


class Trailer(msgspec.Struct, frozen=True, kw_only=True):
    """The line after the envelopes: the signed head."""

    receipt: Receipt


class End(msgspec.Struct, frozen=True, kw_only=True):
    """The game's last seq and head: the unsigned end mark."""

    seq: int
    head: str


class EndLine(msgspec.Struct, frozen=True, kw_only=True):
    """The last line of an export from a store without a signing key."""

    end: End


class KeptReceipt(msgspec.Struct, frozen=True, kw_only=True):
    """A line after the signed head: a receipt a player kept, embedded in the export."""

    kept_receipt: Receipt


class ParsedJsonl(msgspec.Struct, frozen=True, kw_only=True):
    """A decoded jsonl export: its header, streams in order, and receipt."""

    header: Header
    game: list[Envelope[Any]]
    notes: list[Envelope[Any]]
    variations: list[list[Envelope[Any]]]
    receipt: Receipt | None
    end: End | None = None
    kept_receipts: tuple[Receipt, ...] = ()


def write_jsonl(bundle: Bundle, comments: bool = True, variations: bool = True) -> str:
    """The jsonl export of `bundle`."""
    header = Header(
        format=FORMAT,
        version=VERSION,
        game=bundle.game,
        id=bundle.id,
        viewer=bundle.viewer,
        full=bundle.full,
        partial=bundle.partial,
    )
    lines = [canonical(header)]
    lines += [canonical(env) for env in bundle.game_events]
    if comments:
        lines += [canonical(env) for env in bundle.notes]
    if variations:
        for variation in bundle.variations:
            lines += [canonical(env) for env in variation]
    lines += [canonical(KeptReceipt(kept_receipt=kept)) for kept in bundle.kept_receipts]
    if bundle.receipt is not None:
        lines.append(canonical(Trailer(receipt=bundle.receipt)))
    else:
        last = bundle.game_events[-1]
        lines.append(canonical(EndLine(end=End(seq=last.seq, head=last.hash))))
    return "".join(line.decode() + "\n" for line in lines)


def is_jsonl_export(text: str) -> bool:
    """True when `text` starts like a jsonl export (not a plain referee log)."""
    first = text.lstrip().partition("\n")[0]
    return first.startswith("{") and f'"format":"{FORMAT}"' in first.replace(" ", "")


def read_jsonl(text: str, partial: bool = False) -> ParsedJsonl:
    """Decode a jsonl export; raises InvalidNotation naming the first bad line
    (`partial`: a last line cut inside is dropped first)."""
    lines = (without_cut_line(text) if partial else text).splitlines()
    try:
        header = msgspec.json.decode(lines[0], type=Header)
    except (msgspec.DecodeError, IndexError):
        raise InvalidNotation("line 1: a jsonl export starts with its header") from None
    if header.format != FORMAT or header.version != VERSION:
        raise InvalidNotation(f"line 1: not a {FORMAT} version {VERSION} export")
    game_decoder = envelope_decoder_for(header.game)
    parsed = ParsedJsonl(header=header, game=[], notes=[], variations=[], receipt=None)
    receipt, end, kept = None, None, []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            fields = msgspec.json.decode(line, type=dict[str, Any])
            stream = fields.get("stream")
            if (receipt is not None or end is not None) and "kept_receipt" in fields:
                raise InvalidNotation(
                    f"line {number}: a kept receipt after the end mark: an export written "
                    "before kept receipts came in front of the end mark, where a file cut "
                    "among them cannot be told from a whole one; export the game again"
                )
            if receipt is not None or end is not None:
                raise InvalidNotation(
                    f"line {number}: nothing may follow the end mark (the game's signed "
                    "head); nothing was imported"
                )
            if "kept_receipt" in fields:
                kept.append(msgspec.json.decode(line, type=KeptReceipt).kept_receipt)
            elif kept and stream is not None:
                raise InvalidNotation(
                    f"line {number}: an event after the kept receipts (they come just before "
                    "the end mark)"
                )
            elif stream is None and "end" in fields:
                end = msgspec.json.decode(line, type=EndLine).end
            elif stream is None:
                receipt = msgspec.json.decode(line, type=Trailer).receipt
            elif stream == header.id:
                parsed.game.append(game_decoder.decode(line))
            elif stream == notes_id(header.id):
                parsed.notes.append(envelope_decoder(NOTES_KIND, header.game).decode(line))
            else:
                envelope = envelope_decoder(VARIATION_KIND, header.game).decode(line)
                if not parsed.variations or parsed.variations[-1][0].stream != stream:
                    parsed.variations.append([])
                parsed.variations[-1].append(envelope)
        except (msgspec.DecodeError, RecursionError) as error:
            raise InvalidNotation(f"line {number}: {error}") from None
    return msgspec.structs.replace(parsed, receipt=receipt, end=end, kept_receipts=tuple(kept))
