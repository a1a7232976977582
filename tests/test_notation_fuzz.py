"""Every game's notation parser, fed any text, parses or raises InvalidNotation (issue 11).

`str.isdigit()` took `'²'` that `int()` then refused (HTTP 500); a 5,000-digit number
passed Python's int limit. The properties: arbitrary text (every Unicode category,
whitespace and control characters, huge numbers, number-like words after each verb) never
raises anything else, and `parse(format(c)) == c` for every legal command of random play.
"""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skald.core.errors import InvalidNotation
from skald.core.rng import Rng
from skald.core.rules import BUILTIN_GAMES, get_rules
from skald.events.common import GameCreated
from skald.events.secret import seal

GAMES = sorted(BUILTIN_GAMES)
PLAYERS = {"beowulf": 3, "beast": 3, "hagar": 3}
VERBS = (
    "choose",
    "attack beast +",
    "attack Helga +",
    "shoot",
    "jettison",
    "rob",
    "force 1",
    "force",
    "play",
    "cash",
    "counsel",
    "place",
    "swap",
    "remove",
    "step",
    "draft",
    "walk",
    "sail",
    "odin",
    "announce",
    "start",
    "trap",
    "copy",
    "take",
    "Wolf1 step",
)
ODD_NUMBERS = (
    "²",
    "¹",
    "٣",
    "５",
    "Ⅻ",
    "𝟘",
    "1_000",
    "0x1",
    "-1",
    "+1",
    "1e3",
    "9" * 5000,
    "1" * 20,
    " ",
    "\x00",
    "\n1",
    "1\n",
    "\u00a0",
    "½",
)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def parses_or_says_why(game: str, text: str) -> None:
    with contextlib.suppress(InvalidNotation):
        get_rules(game).parse(text)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("verb", VERBS)
@pytest.mark.parametrize("number", ODD_NUMBERS)
def test_odd_digits_after_every_verb_are_bad_notation_not_a_crash(
    game: str, verb: str, number: str
) -> None:
    parses_or_says_why(game, f"{verb} {number}")
    parses_or_says_why(game, f"{verb}{number}")


@pytest.mark.parametrize("text", ["choose ²", "attack beast +²", "choose " + "9" * 5000])
def test_the_reported_beast_inputs_are_invalid_notation(text: str) -> None:
    with pytest.raises(InvalidNotation):
        get_rules("beast").parse(text)


@pytest.mark.parametrize(
    "text", ["shoot ²", "jettison ²", "rob ¹", "force 1 ¹", "jettison " + "9" * 5000, "rob ٣"]
)
def test_the_reported_hagar_inputs_are_invalid_notation(text: str) -> None:
    with pytest.raises(InvalidNotation):
        get_rules("hagar").parse(text)


@pytest.mark.parametrize(
    "text",
    [
        "play ²3 C3",
        "play +3 C²",
        "play ٣ C3",
        "cash +1$٣",
        "play +3 C١",
        "place thane C" + "9" * 5000,
    ],
)
def test_beowulf_reads_ascii_digits_only(text: str) -> None:
    with pytest.raises(InvalidNotation):
        get_rules("beowulf").parse(text)


@pytest.mark.parametrize("game", GAMES)
@given(text=st.text(st.characters(codec=None, categories=None), max_size=40))
@SETTINGS
def test_any_text_parses_or_is_invalid_notation(game: str, text: str) -> None:
    parses_or_says_why(game, text)


@pytest.mark.parametrize("game", GAMES)
@given(
    verb=st.sampled_from(VERBS),
    words=st.lists(
        st.one_of(
            st.sampled_from(ODD_NUMBERS),
            st.integers(-(10**30), 10**30).map(str),
            st.text(st.characters(categories=["Nd", "No", "Nl", "Zs", "Cc", "Cf"]), max_size=6),
        ),
        max_size=3,
    ),
)
@SETTINGS
def test_verbs_with_any_numbers_parse_or_are_invalid_notation(
    game: str, verb: str, words: list[str]
) -> None:
    parses_or_says_why(game, " ".join((verb, *words)))


def random_commands(game: str, seed: int, decisions: int = 400) -> list[Any]:
    """The legal commands offered along one random game (all of them, not just those played)."""
    rules = get_rules(game)
    players = tuple(f"p{i}" for i in range(PLAYERS[game]))
    created = GameCreated(game=game, players=players, seed=seal("s", frozenset(), "00" * 16))
    rng = Rng(f"fuzz/{seed}".encode())
    state = rules.initial(created)
    for event in rules.start(state, rng):
        state = rules.evolve(state, event)
    rnd, offered = random.Random(seed), []
    for _ in range(decisions):
        if rules.outcome(state) is not None or not rules.to_act(state):
            break
        seat = rnd.choice(sorted(rules.to_act(state)))
        legal = list(rules.legal(state, seat))
        offered += legal
        for event in rules.decide(state, seat, rnd.choice(legal), rng):
            state = rules.evolve(state, event)
    return offered


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", range(3))
def test_every_legal_command_round_trips(game: str, seed: int) -> None:
    rules = get_rules(game)
    offered = random_commands(game, seed)
    assert len(offered) > 50
    for command in offered:
        assert rules.parse(rules.format(command)) == command
