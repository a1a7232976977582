"""Where the Beast model was wider than a careful viewer's pen-and-paper deduction
(issue 23: `possible` must be exact for the rules as implemented), one test per case,
each on a seeded playout (tests/test_beast_knowledge.py `playout`):

- a "then" card's effect skipped by the hidden Beast: the engine offers the skip only
  when the effect has nothing to act on (core/beast/effects.py `effect_commands`), so the
  hunters learn that no target lay within its reach.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from skald.core.beast.commands import Skip
from skald.core.beast.effects import effect_commands
from skald.core.beast.setup import HUNTER_SEATS
from skald.core.beast.state import BEAST, BeastState
from skald.events.beast import EffectProgressed
from skald.events.common import MoveMade
from skald.events.viewer import SPECTATOR, Viewer
from tests.test_beast_knowledge import assert_among, known, playout, states

replace = msgspec.structs.replace


def hunters(players: int) -> Viewer:
    """The hunters' team."""
    return Viewer("hunters", frozenset(HUNTER_SEATS[players]))


def beast_at(state: BeastState, location: str) -> BeastState:
    """`state` with the Beast on `location` (nothing else changed)."""
    beast = replace(state.hands[BEAST], location=location)
    return replace(state, hands=(beast, *state.hands[1:]))


def where(log: list[Any], viewer: Viewer) -> set[str]:
    """The locations `possible` gives the Beast."""
    shares = known(log, viewer).beast
    assert shares is not None
    return {location for location, _ in shares}


SKIPS = [
    # 3 players, seed 0: the Beast (unseen since its last reveal) plays Charge (move 1,
    # then attack at its location) and skips the attack. Before the skip it may be on
    # A3, A4 or B3; a bear is on A4 and a boar on B3, where the attack could not have
    # been skipped. Only A3 is left.
    pytest.param(3, 0, 71, {"A3"}, id="3p-seq71"),
    # the same game later: 8 locations before the skip, 2 after
    pytest.param(3, 0, 739, {"C3", "E3"}, id="3p-seq739"),
    # 4 players, seed 0: 9 locations before the skip, 4 after
    pytest.param(4, 0, 434, {"C1", "C2", "C3", "D3"}, id="4p-seq434"),
]


@pytest.mark.parametrize(("players", "seed", "seq", "left"), SKIPS)
@pytest.mark.parametrize("spectator", [False, True], ids=["hunters", "spectator"])
def test_a_skipped_then_attack_says_nothing_was_in_reach(
    players: int, seed: int, seq: int, left: set[str], spectator: bool
) -> None:
    """The hidden Beast's decision is nothing but the end of its "then" card's attack (a
    skip): exactly the locations that `possible` gave before it where the engine offers
    that skip remain (the others would have shown an attack, a reveal, in the log)."""
    log = playout(players, seed, False, 700)[:seq]
    assert isinstance(log[-2], MoveMade)
    assert isinstance(log[-1], EffectProgressed)
    before = dict(states(log))[seq - 1]
    frame = before.frames[-1]
    assert (frame.card, frame.mode, before.hidden) == ("Charge", "then", True)
    assert frame.effects[log[-1].index].op == "attack"
    viewer = SPECTATOR if spectator else hunters(players)
    earlier = where(log[:-1], viewer)
    skippable = {loc for loc in earlier if Skip() in effect_commands(beast_at(before, loc))}
    assert len(earlier) > len(skippable)  # the skip tells the viewer something
    assert where(log, viewer) == skippable == left
    assert_among(dict(states(log))[seq], known(log, viewer), "after the skip")
