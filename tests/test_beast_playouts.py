"""Random legal Beast games for 2, 3 and 4 players reach an outcome; through the real
engine and store, replaying the log gives the live state at every decision."""

from __future__ import annotations

import random

import pytest

from core.beast.state import BeastState
from core.chain import verify_records
from core.engine import Engine
from core.errors import IllegalMove, InvalidNotation
from core.rules import get_rules
from core.state import GameState, fold
from core.store import EventStore
from tests.test_beast_support import BeastGame

RULES = get_rules("beast")


def random_game(players: int, seed: int, **options: str) -> BeastGame:
    """Play a random legal game to its end; every command's notation round-trips."""
    game = BeastGame(players, seed=f"playout/{seed}", **options)
    rnd = random.Random(seed)
    for _ in range(20_000):
        if RULES.outcome(game.state) is not None:
            return game
        seat = game.seat()
        legal = list(RULES.legal(game.state, seat))
        assert legal, f"seat {seat} must act but has no legal command"
        command = rnd.choice(legal)
        assert RULES.parse(RULES.format(command)) == command
        game.do(RULES.format(command), seat=seat)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_reach_an_outcome(players: int) -> None:
    for seed in range(12):
        game = random_game(players, seed)
        outcome = RULES.outcome(game.state)
        assert outcome is not None
        assert outcome.termination in ("days_passed", "beast_killed", "settlers_killed")
        assert set(outcome.winners) in ({0}, set(game.state.hunter_seats))


@pytest.mark.parametrize(("players", "options"), [
    (2, {"setup": "first"}),
    (3, {"contract": "blood-moon", "beast": "Hogbad", "hunters": "Torvald,Sigrun"}),
    (4, {"contract": "drowned-harvest", "beast": "Mara", "hunters": "Varja,Iona,Sigrun"}),
    (3, {"contract": "northern-settlements", "beast": "Esmeria"}),
    (2, {"beast": "Bolgin"}),
    (4, {"beast": "Raaga", "setup": "first"}),
])
def test_every_contract_and_character_plays_to_an_outcome(players: int,
                                                          options: dict[str, str]) -> None:
    for seed in range(3):
        assert RULES.outcome(random_game(players, seed, **options).state) is not None


def test_bad_options_and_bad_notation_are_named() -> None:
    with pytest.raises(IllegalMove, match="contract='nowhere'"):
        BeastGame(3, contract="nowhere")
    with pytest.raises(IllegalMove, match="unknown character 'Grendel'"):
        BeastGame(3, beast="Grendel")
    with pytest.raises(IllegalMove, match="3 players need 2 different hunters"):
        BeastGame(3, hunters="Helga")
    with pytest.raises(InvalidNotation, match="'jump N': unknown command 'jump' at word 1"):
        RULES.parse("jump N")
    with pytest.raises(InvalidNotation, match="word 2"):
        RULES.parse("search")


def _live_game(engine: Engine, players: int, seed: int) -> tuple[str, dict[int, BeastState]]:
    state = engine.create("beast", [f"P{i}" for i in range(players)], seed=f"engine/{seed}")
    game_id = state.id
    live = {state.version: state.rules}
    rnd = random.Random(seed)
    while state.outcome is None:
        seat = min(RULES.to_act(state.rules))
        command = rnd.choice(list(RULES.legal(state.rules, seat)))
        engine.execute(game_id, seat, RULES.format(command))
        state = engine.load(game_id)
        live[state.version] = state.rules
    return game_id, live


@pytest.mark.parametrize("players", [2, 3, 4])
def test_engine_games_replay_to_the_live_state_and_verify(players: int) -> None:
    engine = Engine(EventStore("sqlite://"))
    game_id, live = _live_game(engine, players, seed=players)
    replayed: GameState | None = None
    checked = 0
    for envelope in engine.envelopes(game_id):
        replayed = fold(RULES, replayed, envelope)
        if envelope.seq in live:
            assert replayed.rules == live[envelope.seq], f"seq {envelope.seq}"
            checked += 1
    assert replayed is not None and replayed.outcome is not None
    assert checked == len(live)
    report = verify_records(game_id, "beast", engine.store.read(game_id))
    assert report.ok, report.reason
