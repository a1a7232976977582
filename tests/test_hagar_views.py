"""Hägar components as data, notation round-trips and errors, and per-viewer views."""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from skald.core.errors import IllegalMove, InvalidNotation
from skald.core.hagar.board import board
from skald.core.hagar.data import cards, chests, pieces, sticks
from skald.core.hagar.state import Leg
from skald.core.rules import get_rules
from skald.events.viewer import REFEREE, SPECTATOR, seat_viewer
from skald.projections.hagar.view import render, view
from skald.projections.registry import views_for
from tests.test_hagar_support import RULES, aboard, on_foot, play, random_playout, table

DATA = Path(__file__).parents[1] / "core" / "hagar"


def test_components_follow_the_rulebook_and_mark_what_is_reconstructed() -> None:
    counts = Counter(p.kind for p in pieces())
    assert len(pieces()) == 39
    assert [counts[k] for k in ("weapons", "gold", "game", "wine")] == [4, 4, 4, 4]
    assert [counts[k] for k in ("clothes", "jewellery", "perfume")] == [3, 3, 3]
    assert [counts[k] for k in ("cheese", "cuckoo-clock", "foreign-woman")] == [4, 4, 3]
    assert [pieces()[c].value for c in chests()] == [8, 8, 8]
    assert all(p.value == 0 for p in pieces() if p.category in ("bad", "woman"))
    assert len(cards()) == 33
    assert {c.kind for c in cards()} >= {"dragon", "odin", "arrow"}
    assert all(0 <= f.points <= 2 for s in sticks() for f in s.faces)
    assert all(any(f.lightning for f in s.faces) for s in sticks())
    assert sum(board().spaces[c].loot for c in board().cities) == 36
    assert len(board().homes) == 2
    assert board().land["camp"] == ("by-2",)
    assert {"paris", "madrid", "zurich", "minsk", "venice"} <= set(board().cities)
    for name in ("board", "loot", "fate", "sticks"):
        with (DATA / f"{name}.toml").open("rb") as handle:
            assert tomllib.load(handle)["reconstructed"] is True


def test_every_space_is_reachable_and_the_sea_has_no_dead_ends() -> None:
    for home in board().homes:
        assert set(board().distances("sail", home)) >= set(board().harbours)
    for space, links in board().water.items():
        if board().kind(space) == "sea":
            assert len(links) >= 2, space
    for harbour in board().harbours:
        assert board().water[harbour]
        assert board().land[harbour]
    for city in board().cities:
        assert any(board().distances("walk", city).get(h) is not None for h in board().harbours)


def test_setup_deals_the_loot_hidden_and_shuffles_the_fate_deck() -> None:
    game = random_playout(2, seed="setup", bot_seed=0, limit=0)
    dealt, shuffled = game.events
    assert dealt.stacks.audience == frozenset()
    assert shuffled.deck.audience == frozenset()
    state = game.state
    assert sorted(p for s in state.stacks for p in s) == [p for p in range(39) if p not in chests()]
    assert [len(state.stack(c)) for c in board().cities] == [
        board().spaces[c].loot for c in board().cities
    ]
    assert state.camp == chests()
    assert sorted(state.deck) == list(range(33))
    assert state.phase == "setup"
    assert set(map(RULES.format, RULES.legal(state, 0))) == {"start fjord-west", "start fjord-east"}
    with pytest.raises(IllegalMove, match="may not start from London harbour"):
        play(state, "start london-port")
    state, _ = play(state, "start fjord-east")
    state, _ = play(state, "start fjord-east")
    assert state.phase == "throw"
    assert state.turn == 0
    assert all(v.aboard and v.ship == "fjord-east" for v in state.vikings)
    assert get_rules("hagar").title.startswith("Hägar")


def test_every_legal_command_round_trips_through_its_notation() -> None:
    game = random_playout(3, seed="notation", bot_seed=2)
    seen = set()
    for state in game.states:
        if RULES.outcome(state) is not None:
            continue
        (seat,) = RULES.to_act(state)
        for command in RULES.legal(state, seat):
            text = RULES.format(command)
            assert RULES.parse(text) == command
            seen.add(text.split()[0])
    assert {"start", "throw", "walk", "sail", "feast"} <= seen


@pytest.mark.parametrize(
    "text",
    [
        "",
        "fly paris",
        "walk",
        "walk atlantis",
        "shoot -1",
        "jettison 0",
        "force 1",
        "announce paris-port",
    ],
)
def test_bad_notation_names_the_input(text: str) -> None:
    with pytest.raises(InvalidNotation) as error:
        RULES.parse(text)
    assert repr(text) in str(error.value)


def test_rule_violations_name_the_input_and_the_position() -> None:
    state = table(
        [aboard("north-6"), aboard("fjord-east")],
        phase="move",
        leg=Leg(mode="any", points=1, waves=7),
    )
    with pytest.raises(IllegalMove) as error:
        play(state, "sail paris-port")
    assert "may not sail to Paris harbour" in str(error.value)
    assert "aboard at North sea 6" in str(error.value)
    assert "paris-port" not in str(error.value)
    assert "north-6" not in str(error.value)
    with pytest.raises(IllegalMove, match=r"may not throw the rune sticks .*not now"):
        play(state, "throw")


def test_views_show_only_the_viewers_own_loot() -> None:
    state = table(
        [
            on_foot("fr-1", "paris-port", carried=(3,), cargo=(4,), home=(5,)),
            aboard("fjord-east", cargo=chests()[:2]),
        ],
        camp=chests()[2:],
        stacks={"paris": (8, 9)},
    )
    mine = view(state, seat_viewer(0))
    assert [h.seat for h in mine.holdings] == [0]
    assert [p.piece for p in mine.holdings[0].carried] == [3]
    assert mine.vikings[1].cargo == 2
    assert mine.stacks is None
    assert mine.deck_order is None
    assert view(state, SPECTATOR).holdings == ()
    referee = view(state, REFEREE)
    assert len(referee.holdings) == 2
    assert referee.stacks is not None
    assert referee.deck_order is not None
    assert len(referee.deck_order) == 33
    text = render(mine, ("Ann", "Bob"))
    assert "on foot at French road 1" in text
    assert "fr-1" not in text
    assert f"Ann's loot: carried 1. {pieces()[3].name} ({pieces()[3].value})" in text
    assert "Byzantine treasure chest" not in text  # Bob's cargo, face down for Ann
    assert "Bob (green): aboard at Hägar's fjord (east)" in text
    assert not re.search(r"\bseat \d|at ;|\b[a-z]+-(port|west|east|\d)\b", text), text
    assert views_for("hagar").render(views_for("hagar").view(state, SPECTATOR), ("Ann", "Bob"))


def test_after_the_feast_everyone_sees_everything() -> None:
    state = table([aboard("fjord-west", home=tuple(range(7))), aboard("fjord-east", cargo=(8,))])
    state, _ = play(state, "feast")
    spectator = view(state, SPECTATOR)
    assert len(spectator.holdings) == 2
    assert spectator.result is not None
    assert "the feast: Ann first" in render(spectator, ("Ann", "Bob"))
