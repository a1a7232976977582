"""Beowulf notation: parse(format(c)) == c, and bad syntax names the input."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skald.core.beowulf.commands import (
    CashTreasure,
    Command,
    Counsel,
    Draw,
    Keep,
    Pass,
    PlaceFigure,
    PlayTile,
    Refill,
    Remove,
    Skip,
    Swap,
)
from skald.core.beowulf.data import KINDS, catalog
from skald.core.beowulf.rules import BeowulfRules
from skald.core.errors import InvalidNotation
from tests.beowulf_support import Game

RULES = BeowulfRules()
squares = st.builds(lambda c, r: f"{c}{r}", st.sampled_from("ABCDEFGHIJKL"), st.integers(1, 12))
faces = st.sampled_from(sorted({t.face for t in catalog().values()}))
commands: st.SearchStrategy[Command] = st.one_of(
    st.builds(PlaceFigure, st.sampled_from(KINDS), squares),
    st.builds(PlayTile, faces, squares),
    st.builds(CashTreasure, faces),
    st.builds(Counsel, faces, squares, squares),
    st.builds(Swap, squares, squares),
    st.builds(Remove, squares),
    st.sampled_from([Draw(), Skip(), Pass(), Refill(), Keep()]),
)


@given(commands)
def test_round_trip_of_any_command(command: Command) -> None:
    assert RULES.parse(RULES.format(command)) == command


@settings(max_examples=10, deadline=None)
@given(st.integers(2, 4), st.integers(0, 10_000))
def test_round_trip_of_every_legal_command_in_a_game(players: int, seed: int) -> None:
    game = Game(players=players, seed=f"notation/{seed}")
    rnd = random.Random(seed)
    for _ in range(60):
        legal = list(RULES.legal(game.state, min(RULES.to_act(game.state))))
        for command in legal:
            assert RULES.parse(RULES.format(command)) == command
        game.move(RULES.format(rnd.choice(legal)))


def test_parse_is_lenient_about_case_and_signs() -> None:
    assert RULES.parse("PLACE Thane c3") == PlaceFigure("thane", "C3")
    assert RULES.parse("play 3 a1") == PlayTile("+3", "A1")
    assert RULES.parse("cash 1$3") == CashTreasure("+1$3")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "jump",
        "place dragon A1",
        "play +3",
        "play +3q A1",
        "swap A1",
        "remove 11",
        "draw now",
        "play +3 A0",
    ],
)
def test_bad_syntax_names_the_input(text: str) -> None:
    with pytest.raises(InvalidNotation) as error:
        RULES.parse(text)
    assert repr(text) in str(error.value)
