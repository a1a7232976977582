"""The engine on both backends, through the toy game: decide → append → evolve, errors
that write nothing, undo/redo and barriers, replay at every seq, recorded-at from the clock."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from freezegun import freeze_time

from skald.core.engine import Engine
from skald.core.errors import (
    Forbidden,
    IllegalMove,
    InvalidNotation,
    InvalidOption,
    NotFound,
    VersionConflict,
)
from skald.core.rules import get_rules
from skald.core.state import fold
from skald.core.store import EventStore
from skald.events.secret import secrets_in
from skald.events.viewer import REFEREE, SPECTATOR
from skald.projections.table import Table


@pytest.fixture
def engine(store: EventStore) -> Engine:
    return Engine(store)


def new_game(engine: Engine, **options: str) -> str:
    return engine.create("toy", ["Ann", "Bob"], seed="fixed", options=options).id


def test_create_appends_creation_and_opening_events(engine: Engine) -> None:
    game_id = new_game(engine)
    kinds = [type(env.event).__name__ for env in engine.envelopes(game_id)]
    assert kinds == ["GameCreated", "DeckShuffled", "CardDealt", "CardDealt"]
    assert engine.load(game_id).version == 4


def test_same_seed_and_deal_same_draws_but_nothing_public_shared(engine: Engine) -> None:
    a = engine.create("toy", ["Ann", "Bob"], seed="fixed", deal="round-1").id
    b = engine.create("toy", ["Ann", "Bob"], seed="fixed", deal="round-1").id
    assert engine.load(a).rules == engine.load(b).rules
    commitments = [
        {s.commitment for env in engine.envelopes(g) for s in secrets_in(env.event)} for g in (a, b)
    ]
    assert commitments[0]
    assert not commitments[0] & commitments[1]
    c = engine.create("toy", ["Ann", "Bob"], seed="other", deal="round-1").id
    assert engine.load(c).rules.deck != engine.load(a).rules.deck


def test_same_seed_without_a_shared_deal_deals_apart(engine: Engine) -> None:
    decks = {engine.load(new_game(engine)).rules.deck for _ in range(3)}
    assert len(decks) == 3
    fixed = {
        engine.load(
            engine.create("toy", ["Ann", "Bob"], seed="fixed", game_id=f"g{i}").id
        ).rules.deck
        for i in range(2)
    }
    assert len(fixed) == 2


@pytest.mark.parametrize(
    ("seat", "move", "error"),
    [
        (0, "bet 9", IllegalMove),
        (0, "bett 1", InvalidNotation),
        (1, "bet 1", Forbidden),
    ],
)
def test_failed_commands_write_nothing(
    engine: Engine, seat: int, move: str, error: type[Exception]
) -> None:
    game_id = new_game(engine)
    before = engine.store.read(game_id)
    with pytest.raises(error):
        engine.execute(game_id, seat, move)
    assert engine.store.read(game_id) == before


def test_stale_expected_version_conflicts(engine: Engine) -> None:
    game_id = new_game(engine)
    engine.execute(game_id, 0, "bet 1", expected_version=4)
    with pytest.raises(VersionConflict) as caught:
        engine.execute(game_id, 1, "bet 1", expected_version=4)
    assert caught.value.current == 6
    assert engine.load(game_id).version == 6


def test_two_engines_on_one_store_do_not_overwrite(store: EventStore) -> None:
    first, second = Engine(store), Engine(store)
    game_id = new_game(first)
    second.load(game_id)  # second caches version 4
    first.execute(game_id, 0, "bet 2")
    # second's cache is stale; it must read the tail, so Bob (seat 1) is now to act
    second.execute(game_id, 1, "bet 3")
    assert first.load(game_id).rules.bets == (2, 3)


def test_undo_redo_round_trip(engine: Engine) -> None:
    game_id = new_game(engine)
    engine.execute(game_id, 0, "bet 2")
    before_undo = engine.load(game_id).rules
    engine.undo(game_id, 0)
    assert engine.load(game_id).rules.bets == (0, 0)
    engine.redo(game_id, 0)
    assert engine.load(game_id).rules == before_undo


def test_undo_is_an_event_and_keeps_history(engine: Engine) -> None:
    game_id = new_game(engine)
    engine.execute(game_id, 0, "bet 2")
    engine.undo(game_id, 0)
    kinds = [type(env.event).__name__ for env in engine.envelopes(game_id, 5)]
    assert kinds == ["MoveMade", "BetPlaced", "DecisionUndone"]


def test_undo_stops_at_a_draw(engine: Engine) -> None:
    game_id = new_game(engine)
    engine.execute(game_id, 0, "draw")
    with pytest.raises(IllegalMove, match="cannot be taken back"):
        engine.undo(game_id, 0)


def test_only_the_author_may_undo_by_default(engine: Engine) -> None:
    game_id = new_game(engine)
    engine.execute(game_id, 0, "bet 2")
    before = engine.store.version(game_id)
    with pytest.raises(Forbidden, match="only Ann"):
        engine.undo(game_id, 1)
    assert engine.store.version(game_id) == before


def test_undo_not_after_another_seat_acted(engine: Engine) -> None:
    game_id = new_game(engine)
    engine.execute(game_id, 0, "bet 2")
    engine.execute(game_id, 1, "bet 1")
    with pytest.raises(Forbidden):
        engine.undo(game_id, 0)


def test_anyone_policy_and_off_policy(engine: Engine) -> None:
    anyone = new_game(engine, undo="anyone")
    engine.execute(anyone, 0, "bet 2")
    engine.undo(anyone, 1)
    off = new_game(engine, undo="off")
    engine.execute(off, 0, "bet 2")
    with pytest.raises(Forbidden, match="does not allow"):
        engine.undo(off, 0)


def test_redo_only_while_nothing_else_happened(engine: Engine) -> None:
    game_id = new_game(engine)
    engine.execute(game_id, 0, "bet 2")
    engine.undo(game_id, 0)
    engine.execute(game_id, 0, "bet 3")
    with pytest.raises(IllegalMove, match="nothing to redo"):
        engine.redo(game_id, 0)


def test_replay_equals_live_state_at_every_seq(engine: Engine) -> None:
    game_id = new_game(engine)
    live = {engine.load(game_id).version: engine.load(game_id)}
    for seat, move in [(0, "bet 1"), (1, "draw"), (0, "bet 4")]:
        engine.execute(game_id, seat, move)
        live[engine.load(game_id).version] = engine.load(game_id)
    engine.undo(game_id, 0)
    live[engine.load(game_id).version] = engine.load(game_id)
    rules = get_rules("toy")
    state = None
    for envelope in engine.envelopes(game_id):
        state = fold(rules, state, envelope)
        assert engine.load(game_id, at=envelope.seq) == state
        if envelope.seq in live:
            assert live[envelope.seq] == state


def test_game_finishes_and_refuses_more_moves(engine: Engine) -> None:
    game_id = new_game(engine)
    for turn in range(6):
        engine.execute(game_id, turn % 2, "bet 1")
    state = engine.load(game_id)
    assert state.outcome is not None
    assert state.outcome.termination == "completed"
    assert type(engine.envelopes(game_id)[-1].event).__name__ == "GameFinished"
    with pytest.raises(IllegalMove, match="over"):
        engine.execute(game_id, 0, "bet 1")


def test_unknown_things_are_not_found(engine: Engine) -> None:
    with pytest.raises(NotFound):
        engine.load("missing")
    with pytest.raises(NotFound, match="unknown game"):
        engine.create("chess", ["A", "B"])
    game_id = new_game(engine)
    with pytest.raises(NotFound, match="no seq 99"):
        engine.load(game_id, at=99)


def test_bad_creation_is_refused(engine: Engine) -> None:
    with pytest.raises(IllegalMove, match="2 to 3 players"):
        engine.create("toy", ["Solo"])
    with pytest.raises(IllegalMove, match="distinct"):
        engine.create("toy", ["Ann", "Ann"])
    with pytest.raises(InvalidOption, match="option undo="):
        engine.create("toy", ["Ann", "Bob"], options={"undo": "sometimes"})


def test_recorded_at_comes_from_the_clock(sqlite_store: EventStore) -> None:
    with freeze_time("2026-03-04 05:06:07"):
        engine = Engine(sqlite_store)
        game_id = new_game(engine)
        engine.execute(game_id, 0, "bet 1")
    stamps = {env.recorded_at for env in engine.envelopes(game_id)}
    assert stamps == {datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)}


def test_injected_clock(sqlite_store: EventStore) -> None:
    moment = datetime(2030, 1, 1, tzinfo=UTC)
    engine = Engine(sqlite_store, clock=lambda: moment)
    game_id = new_game(engine)
    assert {env.recorded_at for env in engine.envelopes(game_id)} == {moment}


def test_a_game_goes_on_only_under_the_rules_version_it_was_started_under(
    sqlite_store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server whose rules moved on refuses the next decision of an older game, by name
    and version, and writes nothing; reading, verifying and auditing it still work."""
    table = Table(Engine(sqlite_store))
    game_id = table.create("toy", ["Ann", "Bob"], seed="v")
    seq = table.turn(game_id).seq
    monkeypatch.setattr(get_rules("toy").__class__, "version", "next")
    newer = Table(Engine(sqlite_store))
    for attempt in (lambda: newer.move(game_id, 0, "bet 1"), lambda: newer.undo(game_id, 0)):
        with pytest.raises(IllegalMove, match="started under toy rules version 1; this server"):
            attempt()
    assert newer.turn(game_id).seq == seq
    assert newer.verify(game_id).ok
    assert newer.log(game_id, SPECTATOR)


def test_a_game_of_an_older_version_the_rules_still_play_goes_on_under_it(
    sqlite_store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rules that list the game's version in `older_versions` go on playing it (and its
    audit re-derives it under its own version); a version they do not list is refused."""
    table = Table(Engine(sqlite_store))
    game_id = table.create("toy", ["Ann", "Bob"], seed="v")
    toy = get_rules("toy").__class__
    monkeypatch.setattr(toy, "version", "next")
    monkeypatch.setattr(toy, "older_versions", ("1",))
    newer = Table(Engine(sqlite_store))
    newer.move(game_id, 0, "bet 1")
    assert newer.log(game_id, REFEREE)[0].event.rules_version == "1"
    assert newer.audit(game_id, REFEREE).verdict == "clean"
    monkeypatch.setattr(toy, "older_versions", ("0",))
    with pytest.raises(IllegalMove, match=r"this server plays version next \(and 0\)"):
        Table(Engine(sqlite_store)).move(game_id, 1, "bet 1")
