"""Beast's `possible` read on from a kept fold (projections/knowledge/cache.py) answers what
the whole redacted log read from seq 1 answers: forward, back to an earlier `at`, for each
viewer apart, and after the stream under a kept fold was replaced."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from skald.core.engine import Engine
from skald.core.store import EventStore
from skald.events.envelope import Envelope
from skald.events.viewer import SPECTATOR, Viewer
from skald.projections.knowledge import cache as knowledge_cache
from skald.projections.knowledge.cache import possible_at
from skald.projections.knowledge.possible import possible_for
from skald.projections.table import Table


def _played(tmp_path: Path, seed: str, decisions: int) -> list[Envelope[Any]]:
    """A 4-player Beast game of random decisions: its full envelopes."""
    store = EventStore(f"sqlite:///{tmp_path}/{seed}.db")
    table = Table(Engine(store))
    game_id = table.create("beast", ["A", "B", "C", "D"], seed=seed, reproducible=True)
    rnd = random.Random(seed)
    for _ in range(decisions):
        turn = table.turn(game_id)
        if turn.outcome is not None or not turn.to_act:
            break
        seat = turn.to_act[0]
        table.move(game_id, seat, rnd.choice(sorted(table.legal(game_id, seat))), turn.seq)
    envelopes = Engine(store).envelopes(game_id)
    store.dispose()
    return envelopes


def _reader(log: list[Envelope[Any]]) -> Any:
    def read(first: int, last: int) -> Sequence[Envelope[Any]]:
        return [e for e in log if first <= e.seq <= last]

    return read


HUNTERS = Viewer("hunters", frozenset({1, 2, 3}))


def test_reading_on_answers_what_the_whole_log_answers(tmp_path: Path) -> None:
    """Forward in uneven steps, back to earlier seqs (below every kept fold too), and two
    viewers of one game asking in turn: each answer is the `possible` of the log to that
    seq, and the kept folds are used (a repeated seq is the very same answer)."""
    log = _played(tmp_path, "cache", 160)
    knowledge_cache.forget()
    read = _reader(log)
    seqs = [40, 41, 90, 91, 150, len(log), 100, 12, len(log)]
    for seq in seqs:
        for viewer in (HUNTERS, SPECTATOR):
            answer = possible_at("beast", "g", viewer, seq, read)
            assert answer == possible_for("beast", log[:seq], viewer), (viewer.name, seq)
    again = possible_at("beast", "g", HUNTERS, len(log), read)
    assert again is possible_at("beast", "g", HUNTERS, len(log), read)


def test_a_replaced_stream_is_read_from_seq_one(tmp_path: Path) -> None:
    """A kept fold whose envelope no longer has its hash (the store was replaced under
    it) is dropped: the answer is the new stream's, read from seq 1."""
    first, second = _played(tmp_path, "one", 80), _played(tmp_path, "two", 80)
    knowledge_cache.forget()
    seq = min(len(first), len(second)) - 5
    possible_at("beast", "g", HUNTERS, seq - 20, _reader(first))
    answer = possible_at("beast", "g", HUNTERS, seq, _reader(second))
    assert answer == possible_for("beast", second[:seq], HUNTERS)
    assert answer != possible_for("beast", first[:seq], HUNTERS)
