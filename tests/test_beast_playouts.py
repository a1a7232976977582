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
