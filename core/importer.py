"""`skald import`: bring in a game played elsewhere and replay it through the rules.

Two formats. A JSON-lines log as `skald log --as referee --json` writes it: it must end
with its end line (`{"end": {"seq", "head", "version"}}`: its last seq and hash, and the
game's version when it was written), whose head is the log's last and whose version is
that seq (a whole game, not a cut or a `--to` range); the chain and commitments are
checked and every decision is re-derived with the revealed seed. A log without its end,
or with any anomaly, is refused naming the seq and nothing is stored, as for every other
record; a whole one is stored under the log's own stream id (its hashes and receipts stay
valid). With `partial` (`skald import --partial`) a log cut short imports as the
decisions before the cut, marked as a partial copy that can never be continued
(`core/provenance.py`); an anomaly is refused all the same. A log of a partial copy carries
the mark in its end line and imports only so. Or the game's notation, one move
a line, after a header (`# game: beowulf`, `# players: Ann, Bob`, `# seed: S`, optional
`# option: K=V` lines); a line may start with `NAME:` to say who moves, otherwise the only
seat to act moves. Play stops at the first illegal line, which is reported with its rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from skald.core.chain import ChainReport, verify_records
from skald.core.codec import envelope_decoder_for, to_record
from skald.core.engine import Engine, resolve_seat, to_act
from skald.core.errors import AlreadyStored, Forbidden, IllegalMove, InvalidNotation, NotFound
from skald.core.kernel import request_of
from skald.core.provenance import PartialCopy, Provenance, encode, partial_words
from skald.core.rederive import ENDS_EARLY, Finding, rederive
from skald.core.rules import get_rules
from skald.core.store import EventStore, StoredRecord
from skald.events.common import GameCreated, MoveMade
from skald.events.envelope import Envelope


class ImportResult(msgspec.Struct, frozen=True, kw_only=True):
    """What an import stored and the first anomaly, if any."""

    id: str
    format: str
    total: int
    accepted: int
    finding: Finding | None = None
    partial: PartialCopy | None = None
    """Set when the game was imported as a partial copy (`--partial`)."""

    @property
    def clean(self) -> bool:
        """True when everything was accepted."""
        return self.finding is None


ACCEPTED = (
    "a referee log (`skald log --as referee --json`), a notation file (a '# game: ...' "
    "header, then one move a line) or an export (`skald export --format jsonl|text`)"
)


def import_text(engine: Engine, text: str, partial: bool = False) -> ImportResult:
    """Import a log or a notation file (told apart by the first non-blank character);
    `partial`: a log cut short imports as a partial copy (a notation file has no end, so
    it is whole or refused)."""
    stripped = text.lstrip()
    if not stripped:
        raise InvalidNotation(f"the file is empty; skald import reads {ACCEPTED}")
    if stripped.startswith("{"):
        return import_jsonl(engine, text, partial)
    if partial:
        raise InvalidNotation(
            "--partial: a notation file has no end mark, so it imports whole or not at all "
            "(drop --partial); nothing was imported"
        )
    return import_notation(engine, text)


def _game_of(first_line: str) -> str:
    try:
        head = msgspec.json.decode(first_line)
        game = head["event"]["game"]
    except (msgspec.DecodeError, KeyError, TypeError, RecursionError):
        raise InvalidNotation(
            "line 1: a log starts with the skald.game_created envelope, "
            "as `skald log --as referee --json` writes it"
        ) from None
    if not isinstance(game, str):
        raise InvalidNotation("line 1: the game name must be a string")
    return game


class LogEnd(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The end line of a JSON-lines log: its last seq and head, the game's version then,
    and, for a log of a partial copy, its mark."""

    seq: int
    head: str
    version: int
    partial: PartialCopy | None = None


class _EndLine(msgspec.Struct, frozen=True, kw_only=True):
    end: LogEnd


def end_line(
    envelopes: Sequence[Envelope[Any]], version: int, partial: PartialCopy | None = None
) -> str:
    """The end line of a log of `envelopes` of a game at `version` (none for no events);
    `partial`: the game's partial-copy mark, which the log keeps."""
    last = envelopes[-1]
    end = LogEnd(seq=last.seq, head=last.hash, version=version, partial=partial)
    return msgspec.json.encode(_EndLine(end=end)).decode()


class ParsedLog(msgspec.Struct, frozen=True, kw_only=True):
    """A decoded JSON-lines log, its stored form, and what checking it found."""

    game: str
    stream: str
    lines: int
    envelopes: tuple[Envelope[Any], ...]
    records: tuple[StoredRecord, ...]
    chain: ChainReport
    finding: Finding | None
    complete_through: int = 0
    unsupported: str = ""
    end: LogEnd | None = None


def read_jsonl(text: str, partial: bool = False) -> ParsedLog:
    """Decode and check a referee JSON-lines log: chain, commitments, rules re-derivation.

    A log under rules this build cannot re-derive is refused (IllegalMove naming them).
    `partial`: a last line cut inside (it does not decode) is dropped."""
    log = read_jsonl_unchecked(without_cut_line(text) if partial else text)
    if log.unsupported:
        raise IllegalMove(
            f"cannot import this log: {log.unsupported}; nothing was imported "
            "(`skald audit` and `verify` still read it where it is)"
        )
    return log


def read_jsonl_unchecked(text: str) -> ParsedLog:
    """`read_jsonl` without refusing other rules: `unsupported` says when it could not
    re-derive (for reading old logs, not for importing them)."""
    lines = [line for line in text.splitlines() if line.strip()]
    end = _end_of(lines[-1]) if lines else None
    if end is not None:
        lines.pop()
    if not lines:
        raise InvalidNotation("the log is empty")
    game = _game_of(lines[0])
    get_rules(game)
    decoder = envelope_decoder_for(game)
    envelopes: list[Envelope[Any]] = []
    finding: Finding | None = None
    for number, line in enumerate(lines, start=1):
        try:
            envelope = decoder.decode(line)
        except (msgspec.DecodeError, RecursionError) as error:
            finding = Finding(
                seq=number, rule="undecodable log line", detail=str(error) or type(error).__name__
            )
            break
        if envelopes and envelope.stream != envelopes[0].stream:
            finding = Finding(
                seq=number,
                rule="a log holds one game",
                detail=f"line {number} belongs to game {envelope.stream!r}, not "
                f"{envelopes[0].stream!r}",
            )
            break
        envelopes.append(envelope)
    stream = envelopes[0].stream if envelopes else ""
    records = tuple(to_record(envelope) for envelope in envelopes)
    chain = verify_records(stream, game, records)
    if not chain.ok and chain.bad_seq is not None:
        finding = _earliest(
            finding, Finding(seq=chain.bad_seq, rule="hash chain", detail=chain.reason)
        )
    derived = rederive(game, envelopes)
    if derived.findings:
        finding = _earliest(finding, derived.findings[0])
    return ParsedLog(
        game=game,
        stream=stream,
        lines=len(lines),
        envelopes=tuple(envelopes),
        records=records,
        chain=chain,
        finding=finding,
        complete_through=derived.complete_through,
        unsupported=derived.unsupported,
        end=end,
    )


def without_cut_line(text: str) -> str:
    """`text` without its last line when that line was cut inside (it is not JSON: a JSON
    object cut anywhere never decodes); a record cut at a line is unchanged."""
    lines = text.splitlines(keepends=True)
    while lines and not lines[-1].strip():
        lines.pop()
    if lines:
        try:
            msgspec.json.decode(lines[-1])
        except (msgspec.DecodeError, RecursionError):
            lines.pop()
    return "".join(lines)


def decisions_in(envelopes: Sequence[Envelope[Any]]) -> int:
    """How many decisions (moves, undos, redos, entropy) a game's envelopes hold."""
    created = envelopes[0].event if envelopes else None
    scheme = created.scheme if isinstance(created, GameCreated) else 1
    count = 0
    for envelope in envelopes:
        event = envelope.event
        if isinstance(event, MoveMade) and event.move is None:
            count += 1  # a hidden move (its notation revealed or not)
        elif request_of(event, scheme) is not None:
            count += 1
    return count


def _end_of(line: str) -> LogEnd | None:
    """The end mark on a log's last line, or None when that line is not one."""
    if '"end"' not in line or '"stream"' in line:
        return None
    try:
        return msgspec.json.decode(line, type=_EndLine).end
    except (msgspec.DecodeError, RecursionError):
        return None


def _require_whole(log: ParsedLog) -> None:
    """InvalidNotation unless the log ends with its end line, at its last record, of the
    whole game: the end mark that tells a log cut short from a whole one."""
    end = log.end
    if end is not None and end.partial is not None:
        raise InvalidNotation(
            f"the log is of {partial_words(end.partial)}: import it with --partial to keep "
            "it as one; nothing was imported"
        )
    if end is None:
        raise InvalidNotation(
            'the log has no end line (`skald log --json` ends with {"end": ...}): it was '
            "cut short; nothing was imported"
        )
    last = log.envelopes[-1] if log.envelopes else None
    if last is None or (end.seq, end.head) != (last.seq, last.hash):
        raise InvalidNotation(
            f"the log's end line is at seq {end.seq}, but its last event is seq "
            f"{last.seq if last else 0}: it is not whole; nothing was imported"
        )
    if end.version != end.seq:
        raise InvalidNotation(
            f"the log holds seqs 1–{end.seq} of a game at seq {end.version}: a part of it, "
            "not the whole; nothing was imported"
        )


def import_jsonl(engine: Engine, text: str, partial: bool = False) -> ImportResult:
    """Import a whole referee JSON-lines log, or nothing: a log without its end line, or
    with an anomaly, is refused naming it. `partial`: a log cut short imports as the
    decisions before the cut, marked as a partial copy (an anomaly is refused still)."""
    log = read_jsonl(text, partial)
    if log.stream and engine.store.version(log.stream):
        raise AlreadyStored(f"game {log.stream} is already in the store; nothing was imported")
    finding = cut_finding_dropped(log) if partial else log.finding
    if finding is not None:
        raise IllegalMove(
            f"REJECTED at seq {finding.seq}: {finding.rule}"
            + (f" ({finding.detail})" if finding.detail else "")
            + "; nothing was imported"
        )
    accepted = log.records[: log.complete_through]
    mark = None
    try:
        _require_whole(log)
        if len(accepted) != len(log.records):
            raise InvalidNotation(
                f"the log ends inside a decision (after seq {log.complete_through}): it is "
                "not whole; nothing was imported"
            )
    except InvalidNotation:
        if not partial:
            raise
        mark = cut_mark(log.envelopes[: len(accepted)], log.end)
    title = ", ".join(log.envelopes[0].event.players)
    provenance = encode(Provenance(partial=mark)) if mark is not None else ""
    engine.store.append(log.stream, accepted, 0, kind=log.game, title=title, provenance=provenance)
    return ImportResult(
        id=log.stream,
        format="jsonl",
        total=log.lines,
        accepted=len(accepted),
        finding=finding,
        partial=mark,
    )


def cut_finding_dropped(log: ParsedLog) -> Finding | None:
    """The log's finding, unless it only says the log was cut inside a decision (then
    None: a partial import keeps the whole decisions before it)."""
    finding = log.finding
    if finding is not None and finding.rule == ENDS_EARLY and finding.seq > log.complete_through:
        return None
    return finding


def cut_mark(kept: Sequence[Envelope[Any]], end: LogEnd | None) -> PartialCopy:
    """The partial-copy mark of the game events `kept` of a record cut short (`end`: its
    end line, when the record had one: a log of a partial copy carries the mark there).
    InvalidNotation when nothing whole is left: not even the game's creation."""
    if not kept:
        raise InvalidNotation(
            "--partial: the record was cut before the game's first whole decision batch; "
            "nothing was imported"
        )
    carried = end.partial if end is not None else None
    return PartialCopy(
        decisions=decisions_in(kept),
        seq=kept[-1].seq,
        of=carried.of if carried is not None else None,
    )


def _earliest(current: Finding | None, new: Finding) -> Finding:
    return new if current is None or new.seq < current.seq else current


def _header(lines: list[str]) -> tuple[dict[str, str], dict[str, str], list[tuple[int, str]]]:
    header: dict[str, str] = {}
    options: dict[str, str] = {}
    moves: list[tuple[int, str]] = []
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text:
            continue
        if text.startswith("#"):
            key, sep, value = text.lstrip("#").partition(":")
            key, value = key.strip().lower(), value.strip()
            if sep and key == "option":
                name, eq, setting = value.partition("=")
                name = name.strip()
                if not eq or not name:
                    raise InvalidNotation(f"line {number}: option {value!r}: expected K=V")
                if name in options:  # which one would count?
                    raise InvalidNotation(f"line {number}: option {name!r} is given twice")
                options[name] = setting.strip()
            elif sep and key in ("game", "players", "seed"):
                header[key] = value
            continue
        moves.append((number, text))
    for key in ("game", "players"):
        if key not in header:
            raise InvalidNotation(f"the notation file has no '# {key}: ...' header line")
    return header, options, moves


def import_notation(engine: Engine, text: str) -> ImportResult:
    """Play a notation file move by move into a new game; stored only if every line plays.

    The moves are played into a scratch in-memory store first and copied over in one
    append at the end, so a file that fails at any line leaves nothing behind."""
    header, options, moves = _header(text.splitlines())
    players = [name.strip() for name in header["players"].split(",") if name.strip()]
    scratch = Engine(EventStore("sqlite://"), clock=engine.clock, random_hex=engine.random_hex)
    try:
        state = scratch.create(header["game"], players, seed=header.get("seed"), options=options)
        rules = get_rules(state.game)
        for number, line in moves:
            state = scratch.load(state.id)
            try:
                seat, move = _seat_and_move(rules, state, line, number)
                scratch.execute(state.id, seat, move)
            except (InvalidNotation, IllegalMove, NotFound, Forbidden) as error:
                raise type(error)(
                    f"line {number} ({line}): {error}; nothing was imported"
                ) from None
        records = scratch.store.read(state.id)
        engine.store.append(state.id, records, 0, kind=state.game, title=", ".join(players))
    finally:
        scratch.store.dispose()
    return ImportResult(id=state.id, format="notation", total=len(moves), accepted=len(moves))


def _seat_and_move(rules: Any, state: Any, line: str, number: int) -> tuple[int, str]:
    name, sep, rest = line.partition(":")
    if sep and name.strip() in state.players:
        return resolve_seat(state.players, name.strip()), rest.strip()
    if sep and name.strip() and " " not in name.strip():  # 'NAME: move' (no notation has ':')
        raise NotFound(
            f"line {number}: no seat {name.strip()!r} (seats: {', '.join(state.players)})"
        )
    waiting = sorted(to_act(rules, state))
    if len(waiting) != 1:
        raise NotFound(
            f"line {number}: say who moves ('NAME: move'); waiting for "
            f"{', '.join(state.players[s] for s in waiting) or 'nobody'}"
        )
    return waiting[0], line
