"""`possible` kept per game and viewer (`projections.knowledge.cache`) is the cold fold.

Over random and greedy playouts of 6-player Hägar and of 2- and 4-player Beowulf, for
every viewer (each seat, a spectator), the answer going on from a kept checkpoint equals
the whole redacted log folded from seq 1 (`knowledge.possible_for`), whichever way the
seqs are asked: in order as a poller does after each move, at random as a replay's `?at=`
does (earlier and later than the checkpoints, on them and between them), and again at a
seq already asked.
A stream that is not the one the checkpoints were folded from (another game's events under
the same id) is folded again from its own events. Through the Table, `possible` at `at`
is the cold fold of the log up to `at`.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from skald.events.envelope import Envelope
from skald.events.viewer import Viewer
from skald.projections.knowledge import cache as knowledge_cache
from skald.projections.knowledge.cache import CHECKPOINT_EVERY, possible_at
from skald.projections.knowledge.possible import possible_for
from skald.projections.table import Table
from tests.test_information_sets import Playout, playout, viewers

CASES = (
    ("hagar", 6, 1, "random"),
    ("hagar", 6, 2, "greedy"),
    ("beowulf", 2, 3, "greedy"),
    ("beowulf", 4, 4, "random"),
)


@pytest.fixture(autouse=True)
def no_checkpoints() -> Iterator[None]:
    knowledge_cache.forget()
    yield
    knowledge_cache.forget()


@functools.cache
def played(game: str, players: int, seed: int, bot: str) -> Playout:
    return playout(game, players, seed, bot, limit=600)


def reader(log: Sequence[Envelope[Any]]) -> knowledge_cache.Read:
    def read(from_seq: int, to_seq: int) -> Sequence[Envelope[Any]]:
        return log[from_seq - 1 : to_seq]

    return read


def cold(game: str, log: Sequence[Envelope[Any]], viewer: Viewer, seq: int) -> Any:
    return possible_for(game, log[:seq], viewer)


def asked_seqs(length: int, rnd: random.Random) -> list[int]:
    """Seqs in order (a poller), then at random (a replay), then some again."""
    polled = list(range(2, length + 1, max(1, length // 40)))
    replayed = rnd.sample(range(2, length + 1), min(30, length - 1))
    edges = [CHECKPOINT_EVERY, CHECKPOINT_EVERY + 1, 2 * CHECKPOINT_EVERY - 1]
    return [*polled, *replayed, *[s for s in edges if s <= length], *polled[::7]]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}-{c[3]}")
def test_kept_fold_equals_the_cold_fold(case: tuple[str, int, int, str]) -> None:
    game, players, seed, bot = case
    play = played(game, players, seed, bot)
    assert len(play.log) > 2 * CHECKPOINT_EVERY, "the playout is too short to reach a checkpoint"
    rnd = random.Random(seed)
    compared = 0
    for viewer in viewers(players):
        for seq in asked_seqs(len(play.log), rnd):
            kept = possible_at(game, play.game_id, viewer, seq, reader(play.log))
            assert kept == cold(game, play.log, viewer, seq), f"{game} seq {seq} as {viewer.name}"
            compared += 1
    assert compared > 100


def test_few_checkpoints_and_few_lines_kept_still_give_the_cold_fold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With two checkpoints a line (the spacing doubles past them) and two lines in all
    (the least recently asked let go), every answer is still the cold fold's."""
    monkeypatch.setattr(knowledge_cache, "MAX_CHECKPOINTS", 2)
    monkeypatch.setattr(knowledge_cache, "LINES_KEPT", 2)
    play = played("hagar", 6, 1, "random")
    rnd = random.Random(5)
    for seq in asked_seqs(len(play.log), rnd)[::3]:
        for viewer in viewers(6)[::2]:
            kept = possible_at("hagar", play.game_id, viewer, seq, reader(play.log))
            assert kept == cold("hagar", play.log, viewer, seq), f"seq {seq} as {viewer.name}"
    assert len(knowledge_cache._LINES) == 2
    assert all(len(line.grid) <= 2 for line in knowledge_cache._LINES.values())


def test_the_viewers_of_one_game_are_kept_apart() -> None:
    play = played("hagar", 6, 1, "random")
    seq = len(play.log)
    answers = {}
    for viewer in viewers(6):
        answers[viewer.name] = possible_at("hagar", play.game_id, viewer, seq, reader(play.log))
    for viewer in reversed(viewers(6)):
        again = possible_at("hagar", play.game_id, viewer, seq, reader(play.log))
        assert again == answers[viewer.name] == cold("hagar", play.log, viewer, seq)
    assert len({a.pieces for a in answers.values()}) > 1, "every viewer knew the same"


def test_another_stream_under_the_same_id_is_folded_from_its_own_events() -> None:
    first, other = played("hagar", 6, 1, "random"), played("hagar", 6, 2, "greedy")
    viewer = viewers(6)[0]
    seq = min(len(first.log), len(other.log))
    possible_at("hagar", "same-id", viewer, seq, reader(first.log))
    answer = possible_at("hagar", "same-id", viewer, seq, reader(other.log))
    assert answer == cold("hagar", other.log, viewer, seq)
    assert answer != cold("hagar", first.log, viewer, seq)


def test_the_table_answers_as_it_stood_at_each_seq() -> None:
    play = played("hagar", 6, 2, "greedy")
    table = Table(play.engine)
    last = len(play.log)
    for seq in (last, 3, last - 1, CHECKPOINT_EVERY + 7, last // 2, last):
        for viewer in (viewers(6)[1], viewers(6)[-1]):
            shown = table.possible(play.game_id, viewer, at=seq)
            assert shown.seq == seq
            assert shown.possible == cold("hagar", play.log, viewer, seq), f"seq {seq}"
