"""A careful forger's tools, for testing that audits catch what hashes alone cannot:
change events in a log, then recompute every hash after the change so the chain is intact."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from skald.core.importer import end_line
from skald.core.provenance import PartialCopy
from skald.core.store import EventStore, events
from skald.events.common import GameFinished, Outcome
from skald.events.envelope import GENESIS, Envelope, seal_envelope

Doctor = Callable[[Envelope[Any]], Envelope[Any]]


def rehash(envelopes: Sequence[Envelope[Any]]) -> list[Envelope[Any]]:
    """The same events, renumbered in list order, with a freshly computed chain."""
    prev, result = GENESIS, []
    for seq, envelope in enumerate(envelopes, start=1):
        sealed = seal_envelope(
            envelope.stream, seq, envelope.recorded_at, envelope.actor, envelope.event, prev
        )
        result.append(sealed)
        prev = sealed.hash
    return result


def forge(
    envelopes: Sequence[Envelope[Any]], seq: int, change: Callable[[Any], Any]
) -> list[Envelope[Any]]:
    """Replace the event at `seq` by `change(event)` and re-hash the chain."""
    doctored = [
        msgspec.structs.replace(env, event=change(env.event)) if env.seq == seq else env
        for env in envelopes
    ]
    return rehash(doctored)


def write_back(store: EventStore, envelopes: Sequence[Envelope[Any]]) -> None:
    """Overwrite a stored stream's rows with forged envelopes (same seqs)."""
    with store.engine.begin() as conn:
        for env in envelopes:
            conn.execute(
                events.update()
                .where(events.c.stream_id == env.stream, events.c.seq == env.seq)
                .values(
                    payload=msgspec.json.encode(env.event).decode(),
                    prev_hash=env.prev_hash,
                    hash=env.hash,
                )
            )


def jsonl(
    envelopes: Sequence[Envelope[Any]], partial: PartialCopy | None = None, *, ended: bool = True
) -> str:
    """A log as `skald log --as referee --json` writes it (its end line last; `partial`:
    a partial copy's mark, which its end line keeps; `ended=False`: without the end line,
    as the audit fixtures were written before it)."""
    lines = [msgspec.json.encode(env).decode() for env in envelopes]
    if envelopes and ended:
        lines.append(end_line(envelopes, envelopes[-1].seq, partial))
    return "".join(line + "\n" for line in lines)


def flip_the_winner(store: EventStore, full_log: Sequence[Envelope[Any]]) -> Outcome:
    """Rewrite a finished game's outcome (its last event) so the ranking is reversed, and
    store the re-hashed log: the chain holds, only an audit can tell. Returns the honest
    outcome."""
    last = full_log[-1]
    assert isinstance(last.event, GameFinished)
    honest = last.event.outcome
    flipped = msgspec.structs.replace(honest, ranking=tuple(reversed(honest.ranking)))
    write_back(
        store, forge(full_log, last.seq, lambda e: msgspec.structs.replace(e, outcome=flipped))
    )
    return honest


def tamper_first_result(path: Path, tid: str) -> int:
    """Swap the ranking of the first stored result, as a forger with sqlite3 would."""
    with sqlite3.connect(path) as conn:
        seq, payload = conn.execute(
            "SELECT seq, payload FROM events WHERE stream_id = ? AND kind = ? ORDER BY seq",
            (tid, "tournament.result_recorded"),
        ).fetchone()
        event = msgspec.json.decode(payload)
        event["outcome"]["ranking"] = list(reversed(event["outcome"]["ranking"]))
        forged = msgspec.json.encode(event).decode()
        assert forged != payload
        conn.execute(
            "UPDATE events SET payload = ? WHERE stream_id = ? AND seq = ?", (forged, tid, seq)
        )
    conn.close()
    return int(seq)


def copy_games(source: EventStore, target: EventStore, tournament: str) -> None:
    """Copy the game streams a tournament's rounds link to from `source` into `target`
    (a tournament imports only into a store that holds its games)."""
    for info in source.list_streams(limit=10_000):
        if info.id.startswith(f"{tournament}.r"):
            target.append(info.id, source.read(info.id), 0, kind=info.kind, title=info.title)
