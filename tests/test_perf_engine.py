"""What the engine's speed rests on, as behaviour (figures are `skald bench`'s job):
a move on a cache hit reads nothing, a stale cache is caught by the compare-and-set, and
each statement of the hot path is the one expected."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa

from skald.core.engine import Engine
from skald.core.errors import Forbidden, VersionConflict
from skald.core.store import EventStore


@pytest.fixture
def traced(tmp_path: object) -> Iterator[tuple[EventStore, list[str]]]:
    """A SQLite store whose every executed statement is recorded (SQLite's own trace,
    hooked on each new connection through a SQLAlchemy event listener)."""
    store = EventStore(f"sqlite:///{tmp_path}/traced.db")
    statements: list[str] = []

    @sa.event.listens_for(store.engine, "connect")
    def _trace(dbapi_connection: object, _record: object) -> None:
        dbapi_connection.set_trace_callback(statements.append)  # type: ignore[attr-defined]

    store.engine.dispose()  # every later connection is a traced one
    yield store, statements
    store.dispose()


def to_move(engine: Engine, game_id: str) -> tuple[int, str]:
    state = engine.load(game_id)
    seat = sorted(engine.rules_of(game_id).to_act(state.rules))[0]
    return seat, "bet 1"


def test_a_move_on_a_cache_hit_reads_nothing(traced: tuple[EventStore, list[str]]) -> None:
    store, statements = traced
    engine = Engine(store, snapshot_every=0)
    game_id = engine.create("toy", ["Ann", "Bob"], seed="s").id
    seat, move = to_move(engine, game_id)
    version = engine.load(game_id).version
    statements.clear()
    engine.execute(game_id, seat, move, expected_version=version)
    assert [" ".join(text.split()[:2]) for text in statements] == [
        "BEGIN IMMEDIATE",
        "UPDATE streams",
        "INSERT INTO",  # the move's marker
        "INSERT INTO",  # the bet
        "COMMIT",
    ]
    statements.clear()
    assert engine.load(game_id).version == version + 2  # the marker and the bet
    assert [" ".join(text.split()[:5]) for text in statements] == [
        "SELECT version FROM streams WHERE"  # one cheap check, no events read
    ]


def test_a_stale_cache_is_caught_by_the_compare_and_set(store: EventStore) -> None:
    ours, theirs = Engine(store), Engine(store)  # two processes on one store
    game_id = ours.create("toy", ["Ann", "Bob"], seed="s").id
    before = ours.load(game_id).version
    seat, move = to_move(theirs, game_id)
    theirs.execute(game_id, seat, move, expected_version=before)
    after = theirs.load(game_id).version
    # The caller saw the old head too: the 409 names the store's head, nothing is written.
    with pytest.raises(VersionConflict) as conflict:
        ours.execute(game_id, 0, "bet 1", expected_version=before)
    assert conflict.value.current == after
    assert store.version(game_id) == after
    # A caller who saw the new head is served, though our cache was behind.
    assert ours.cached(game_id) is None or ours.cached(game_id).version == after
    seat, move = to_move(theirs, game_id)
    ours.execute(game_id, seat, move, expected_version=after)
    assert store.version(game_id) > after
    assert ours.load(game_id) == theirs.load(game_id)


def test_no_expected_version_rederives_once_from_the_store(store: EventStore) -> None:
    ours, theirs = Engine(store), Engine(store)
    game_id = ours.create("toy", ["Ann", "Bob"], seed="s").id
    ours.load(game_id)
    seat, move = to_move(theirs, game_id)
    theirs.execute(game_id, seat, move)  # now it is the other seat's turn
    other = to_move(theirs, game_id)[0]
    assert other != seat
    # Our cache still says it is `seat`'s turn: the refusal is checked against the store,
    # and the move of the seat whose turn it really is goes through.
    ours.execute(game_id, other, "bet 1")
    assert ours.load(game_id) == theirs.load(game_id)
    with pytest.raises(Forbidden):
        ours.execute(game_id, other, "bet 1")  # really not its turn now
