"""Every contract and character plays to an outcome; bad options and bad notation are named.
(Random playouts, replay and undo for every game are the conformance suite's.)"""

from __future__ import annotations

import pytest

from skald.core.errors import InvalidNotation, InvalidOption
from skald.core.rules import get_rules
from tests.test_beast_support import BeastGame, random_game

RULES = get_rules("beast")


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {"setup": "first"}),
        (3, {"contract": "blood-moon", "beast": "Hogbad", "hunters": "Torvald,Sigrun"}),
        (4, {"contract": "drowned-harvest", "beast": "Mara", "hunters": "Varja,Iona,Sigrun"}),
        (3, {"contract": "northern-settlements", "beast": "Esmeria"}),
        (2, {"beast": "Bolgin"}),
        (4, {"beast": "Raaga", "setup": "first"}),
    ],
)
def test_every_contract_and_character_plays_to_an_outcome(
    players: int, options: dict[str, str]
) -> None:
    for seed in range(3):
        assert RULES.outcome(random_game(players, seed, **options).state) is not None


def test_bad_options_and_bad_notation_are_named() -> None:
    with pytest.raises(InvalidOption, match="contract='nowhere'"):
        BeastGame(3, contract="nowhere")
    with pytest.raises(InvalidOption, match="unknown character 'Grendel'"):
        BeastGame(3, beast="Grendel")
    with pytest.raises(InvalidOption, match="3 players need 2 different hunters"):
        BeastGame(3, hunters="Helga")
    with pytest.raises(InvalidNotation, match="'jump N': unknown command 'jump' at word 1"):
        RULES.parse("jump N")
    with pytest.raises(InvalidNotation, match="word 2"):
        RULES.parse("search")


def test_nobody_is_to_act_on_a_dead_hunters_turn_between_its_events() -> None:
    """A 4-player greedy game (tests/test_beast_knowledge.py `playout`, seed 8): hunter 3
    is dead (no location) when hunter 2 ends its turn (seq 1398, the first TurnEnded); the
    same decision ends hunter 3's turn at once (the second TurnEnded). Between the two,
    `legal` for hunter 3's seat asked for its flees from no location (KeyError: ''); now
    nobody is to act there and `legal` answers no command for every seat, as between any
    two events of one decision where no seat decides."""
    from tests.test_beast_knowledge import playout, states

    log = playout(4, 8, True, 1400)[:1398]
    state = dict(states(log))[1398]
    assert [type(e).__name__ for e in log[-3:]] == ["TurnEnded", "MoveMade", "TurnEnded"]
    assert (state.phase, state.turn, state.hands[3].dead) == ("day", 3, True)
    assert not state.hands[3].location
    assert RULES.to_act(state) == frozenset()
    assert all(list(RULES.legal(state, seat)) == [] for seat in range(4))
