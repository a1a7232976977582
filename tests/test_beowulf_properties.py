"""Beowulf through the engine and a real store: properties over random games.

- random games of 2, 3 and 4 players always reach an outcome, and verify;
- replay from the log equals the live state at every seq;
- undo then redo returns the same state;
- a seat's view and log do not change when only what is hidden from that seat changes
  (other hands of the same act colour, the pile order, hidden values behind commitments).
"""

from __future__ import annotations

import random

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.beowulf.data import tile
from core.beowulf.state import BeowulfState
from core.engine import Engine
from core.rules import get_rules
from core.state import fold
from core.store import EventStore
from events.secret import Secret, redact, secrets_in
from events.viewer import SPECTATOR, Viewer, seat_viewer
from projections.autoplay import autoplay
from projections.beowulf import view
from projections.table import Table

RULES = get_rules("beowulf")
FAST = settings(max_examples=12, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture])


def fresh_table() -> Table:
    return Table(Engine(EventStore("sqlite://")))


def play_partway(table: Table, players: int, seed: int, decisions: int) -> str:
    """A game with `decisions` random legal decisions played."""
    names = ["Ann", "Bob", "Cid", "Dag"][:players]
    game_id = table.create("beowulf", names, seed=f"prop-{seed}")
    rnd = random.Random(seed)
    for _ in range(decisions):
        shown = table.show(game_id, SPECTATOR)
        if shown.outcome is not None:
            break
        seat = shown.to_act[0]
        table.move(game_id, seat, rnd.choice(table.legal(game_id, seat)))
    return game_id


def test_random_games_of_every_size_reach_an_outcome_and_verify() -> None:
    table = fresh_table()
    for players in (2, 3, 4):
        for game in range(3):
            result = autoplay(table, "beowulf", players, seed=f"end-{players}-{game}",
                              bot_seed=game)
            assert result.outcome is not None and result.outcome.termination == "completed"
            assert len(result.outcome.scores) == players
            assert sorted(s for group in result.outcome.ranking for s in group) == list(
                range(players))
            assert table.verify(result.id).ok


@given(players=st.integers(2, 4), seed=st.integers(0, 10_000))
@FAST
def test_replay_equals_live_state_at_every_seq(players: int, seed: int) -> None:
    table = fresh_table()
    engine = table.engine
    game_id = play_partway(table, players, seed, 0)
    live = {engine.load(game_id).version: engine.load(game_id)}
    rnd = random.Random(seed)
    while len(live) < 60 and engine.load(game_id).outcome is None:
        seat = table.show(game_id, SPECTATOR).to_act[0]
        table.move(game_id, seat, rnd.choice(table.legal(game_id, seat)))
        if rnd.random() < 0.2 and engine.load(game_id).undo:
            table.undo(game_id, seat)
        live[engine.load(game_id).version] = engine.load(game_id)
    state = None
    for envelope in engine.envelopes(game_id):
        state = fold(RULES, state, envelope)
        if envelope.seq in live:
            assert state == live[envelope.seq]
    spot = rnd.choice(sorted(live))
    assert engine.load(game_id, at=spot) == live[spot]


@given(players=st.integers(2, 4), seed=st.integers(0, 10_000), depth=st.integers(1, 120))
@FAST
def test_undo_then_redo_returns_the_same_state(players: int, seed: int, depth: int) -> None:
    table = fresh_table()
    game_id = play_partway(table, players, seed, depth)
    engine = table.engine
    state = engine.load(game_id)
    if not state.undo:
        return  # the last decision was a draw or an act change: nothing may be undone
    author = state.undo[-1].seat
    table.undo(game_id, author)
    assert engine.load(game_id).rules != state.rules
    table.redo(game_id, author)
    assert engine.load(game_id).rules == state.rules


def perturb_hidden(state: BeowulfState, viewer: Viewer, rnd: random.Random) -> BeowulfState:
    """Shuffle the pile and trade hidden hand tiles with pile tiles of the same act colour."""
    pile = list(state.pile)
    rnd.shuffle(pile)
    hands = [list(hand) for hand in state.hands]
    for seat, hand in enumerate(hands):
        if viewer.sees(frozenset({seat})):
            continue
        for index, held in enumerate(hand):
            same_back = [i for i, t in enumerate(pile) if tile(t).act == tile(held).act]
            if same_back:
                swap = rnd.choice(same_back)
                hand[index], pile[swap] = pile[swap], held
    return msgspec.structs.replace(state, pile=tuple(pile),
                                   hands=tuple(tuple(hand) for hand in hands))


@given(players=st.integers(2, 4), seed=st.integers(0, 10_000), depth=st.integers(0, 150),
       viewer_seat=st.integers(-1, 3))
@FAST
def test_a_view_ignores_what_is_hidden_from_it(players: int, seed: int, depth: int,
                                               viewer_seat: int) -> None:
    table = fresh_table()
    game_id = play_partway(table, players, seed, depth)
    state = table.engine.load(game_id).rules
    viewer = SPECTATOR if viewer_seat < 0 else seat_viewer(viewer_seat % players)
    rnd = random.Random(seed)
    for _ in range(3):
        other = perturb_hidden(state, viewer, rnd)
        assert view(other, viewer) == view(state, viewer)


def swap_hidden_values(value: object, viewer: Viewer, rnd: random.Random) -> object:
    """Replace every value hidden from `viewer` by garbage, keeping its commitment."""
    if isinstance(value, Secret):
        if viewer.sees(value.audience):
            return value
        return msgspec.structs.replace(value, value=f"x{rnd.random()}", salt="ff" * 16)
    if isinstance(value, msgspec.Struct):
        changes = {name: swap_hidden_values(getattr(value, name), viewer, rnd)
                   for name in value.__struct_fields__}
        return msgspec.structs.replace(value, **changes)
    if isinstance(value, tuple):
        return tuple(swap_hidden_values(item, viewer, rnd) for item in value)
    return value


@given(seed=st.integers(0, 10_000), viewer_seat=st.integers(-1, 2))
@FAST
def test_a_log_ignores_what_is_hidden_from_it(seed: int, viewer_seat: int) -> None:
    table = fresh_table()
    game_id = play_partway(table, 3, seed, 40)
    viewer = SPECTATOR if viewer_seat < 0 else seat_viewer(viewer_seat)
    envelopes = table.engine.envelopes(game_id)
    changed = [swap_hidden_values(env, viewer, random.Random(seed)) for env in envelopes]
    assert changed != envelopes
    assert [redact(env, viewer) for env in changed] == [redact(env, viewer) for env in envelopes]
    shown = table.log(game_id, viewer)
    others_hands = [s for env in shown for s in secrets_in(env.event)
                    if not viewer.sees(s.audience)]
    assert others_hands and all(not s.known for s in others_hands)
