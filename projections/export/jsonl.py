"""The jsonl export: the canonical, lossless form of an annotated history.

Line 1 is a header `{"format": "skald-history", "version": 1, "game", "id", "viewer",
"full"}`; then one envelope a line, exactly as the store chains it (redacted for the
viewer: a sealed value keeps its commitment, so every chain still verifies): the game's
stream, then its notes stream (`ID~notes`), then each variation (`ID~vN`) the viewer may
see, in order. The last line is the end mark: `{"receipt": {...}}`, the exporting
service's signed head of the game, so a seat can prove its copy genuine without anyone's
secrets, or, from a store that holds no signing key, `{"end": {"seq", "head"}}`, the same
head unsigned. An import refuses a file without it (a file cut short). The receipt is
signed by the exporting store's key; everything before it re-exports byte for byte after
an import.
"""

from __future__ import annotations

from typing import Any

import msgspec

from skald.core.codec import envelope_decoder_for
from skald.core.errors import InvalidNotation
from skald.core.history.streams import NOTES_KIND, VARIATION_KIND, envelope_decoder, notes_id
from skald.core.signing import Receipt
from skald.events.envelope import Envelope
from skald.projections.export.model import Bundle

FORMAT = "skald-history"
VERSION = 1


class Header(msgspec.Struct, frozen=True, kw_only=True):
    """The first line of a jsonl export."""

    format: str
    version: int
    game: str
    id: str
    viewer: str
    full: bool


class Trailer(msgspec.Struct, frozen=True, kw_only=True):
    """The optional last line: the signed head."""

    receipt: Receipt


class End(msgspec.Struct, frozen=True, kw_only=True):
    """The game's last seq and head: the unsigned end mark."""

    seq: int
    head: str


class EndLine(msgspec.Struct, frozen=True, kw_only=True):
    """The last line of an export from a store without a signing key."""

    end: End


class ParsedJsonl(msgspec.Struct, frozen=True, kw_only=True):
    """A decoded jsonl export: its header, streams in order, and receipt."""

    header: Header
    game: list[Envelope[Any]]
    notes: list[Envelope[Any]]
    variations: list[list[Envelope[Any]]]
    receipt: Receipt | None
    end: End | None = None


def write_jsonl(bundle: Bundle, comments: bool = True, variations: bool = True) -> str:
    """The jsonl export of `bundle`."""
    header = Header(
        format=FORMAT,
        version=VERSION,
        game=bundle.game,
        id=bundle.id,
        viewer=bundle.viewer,
        full=bundle.full,
    )
    lines = [msgspec.json.encode(header)]
    lines += [msgspec.json.encode(env) for env in bundle.game_events]
    if comments:
        lines += [msgspec.json.encode(env) for env in bundle.notes]
    if variations:
        for variation in bundle.variations:
            lines += [msgspec.json.encode(env) for env in variation]
    if bundle.receipt is not None:
        lines.append(msgspec.json.encode(Trailer(receipt=bundle.receipt)))
    else:
        last = bundle.game_events[-1]
        lines.append(msgspec.json.encode(EndLine(end=End(seq=last.seq, head=last.hash))))
    return "".join(line.decode() + "\n" for line in lines)


def is_jsonl_export(text: str) -> bool:
    """True when `text` starts like a jsonl export (not a plain referee log)."""
    first = text.lstrip().partition("\n")[0]
    return first.startswith("{") and f'"format":"{FORMAT}"' in first.replace(" ", "")


def read_jsonl(text: str) -> ParsedJsonl:
    """Decode a jsonl export; raises InvalidNotation naming the first bad line."""
    lines = text.splitlines()
    try:
        header = msgspec.json.decode(lines[0], type=Header)
    except (msgspec.DecodeError, IndexError):
        raise InvalidNotation("line 1: a jsonl export starts with its header") from None
    if header.format != FORMAT or header.version != VERSION:
        raise InvalidNotation(f"line 1: not a {FORMAT} version {VERSION} export")
    game_decoder = envelope_decoder_for(header.game)
    parsed = ParsedJsonl(header=header, game=[], notes=[], variations=[], receipt=None)
    receipt, end = None, None
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        if receipt is not None or end is not None:
            raise InvalidNotation(f"line {number}: nothing may follow the end mark")
        try:
            fields = msgspec.json.decode(line, type=dict[str, Any])
            stream = fields.get("stream")
            if stream is None and "end" in fields:
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
    return msgspec.structs.replace(parsed, receipt=receipt, end=end)
