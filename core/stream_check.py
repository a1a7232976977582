"""Checking any stored stream by the rules of its own kind: `skald verify ID` for every id
the store holds, never a false alarm on a stream that is not a game.

- a game: its chain and commitments, its header against its creation (core/chain.py);
- its notes stream `G~notes`: the same chain over notes events; its header names the game
  `G`, which must exist;
- a variation `G~vN`: the same chain over its start and the game's events; its header
  names the variation, its start names the game's rules, and its parent (the game `G` or
  another variation of it) exists and reaches the seq the variation branches after;
- a tournament: its own check (core/tournament/stream.py).

A header that disagrees is seq 1, as for games; the events are checked one by one after it.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from skald.core import chain
from skald.core.errors import NotFound
from skald.core.history.streams import (
    NOTES_KIND,
    VARIATION_KIND,
    notes_decoder,
    variation_decoder,
    variation_number,
)
from skald.core.store import EventStore, StoredRecord, StreamInfo
from skald.core.tournament import stream as tournament_stream
from skald.events.history import VariationStarted


def verify_any(
    store: EventStore, stream_id: str, records: Sequence[StoredRecord]
) -> chain.ChainReport:
    """The check of `stream_id`'s stored `records` by the rules of the stream's kind."""
    info = store.info(stream_id)
    if info.kind == tournament_stream.KIND:
        return tournament_stream.verify(info, records)
    if info.kind == NOTES_KIND:
        return chain.verify_stream(info, records, notes_decoder(), _notes_header(store))
    if info.kind == VARIATION_KIND:
        game = _game_of_variation(store, stream_id)
        if game is None:
            return _orphan(info, "its game does not exist")
        return chain.verify_stream(
            info, records, variation_decoder(game), _variation_header(store, game)
        )
    return chain.verify_stream(info, records)


def _orphan(info: StreamInfo, why: str) -> chain.ChainReport:
    return chain.ChainReport(
        stream=info.id,
        checked=0,
        ok=False,
        bad_seq=1,
        reason=f"the stream header disagrees with its events: {why}",
    )


def _base(stream_id: str) -> str:
    return stream_id.partition("~")[0]


def _kind_of(store: EventStore, stream_id: str) -> str | None:
    try:
        return store.info(stream_id).kind
    except NotFound:
        return None


def _game_of_variation(store: EventStore, stream_id: str) -> str | None:
    """The game (its rules' name) whose variation `stream_id` is, None if there is none."""
    if variation_number(stream_id) is None:
        return None
    kind = _kind_of(store, _base(stream_id))
    return None if kind is None or kind.startswith("skald.") or kind == "tournament" else kind


def _common(info: StreamInfo, records: Sequence[StoredRecord]) -> str:
    if not records:
        return "the stream has no events"
    if info.created_at != records[0].recorded_at:
        return "the creation time is not the first event's"
    return ""


def _notes_header(store: EventStore) -> chain.HeaderCheck:
    def check(info: StreamInfo, records: Sequence[StoredRecord]) -> str:
        game = _base(info.id)
        if info.id != f"{game}~notes" or info.title != game:
            return f"a notes stream of {info.title!r} under the id {info.id}"
        if _kind_of(store, game) is None:
            return f"its game {game} does not exist"
        return _common(info, records)

    return check


def _variation_header(store: EventStore, game: str) -> chain.HeaderCheck:
    def check(info: StreamInfo, records: Sequence[StoredRecord]) -> str:
        problem = _common(info, records)
        if problem:
            return problem
        try:
            started = variation_decoder(game).decode(records[0].payload)
        except msgspec.DecodeError:
            return ""  # the record check names it
        if not isinstance(started, VariationStarted):
            return "the first event does not start a variation"
        base = _base(info.id)
        if started.game != game or info.title != started.name:
            return "the stream header disagrees with the variation's start"
        if started.parent != base and (
            _base(started.parent) != base or variation_number(started.parent) is None
        ):
            return f"its parent {started.parent} is neither game {base} nor one of its variations"
        parent_at = store.version(started.parent)
        if parent_at < started.at:
            return f"it branches after seq {started.at} of {started.parent}, which " + (
                "does not exist" if parent_at == 0 else f"ends at seq {parent_at}"
            )
        return ""

    return check
