"""Invariants of every reachable Beast position, over random games (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from skald.core.beast.data import pieces
from skald.core.beast.mechanics import MOVEMENT_DECK, TRAPS_PER_ZONE
from skald.core.beast.state import BEAST, BeastState
from skald.core.beast.supply import (
    ANCIENT_POWERS,
    GRUDGE_VALUE,
    HABITAT_TOKENS,
    TRAIL_TOKENS,
    UPGRADE_TOKENS,
    WATCHTOWERS,
)
from skald.core.rules import get_rules
from tests.test_beast_support import BeastGame

RULES = get_rules("beast")


def check(state: BeastState) -> None:
    """What must hold in every position."""
    if not state.hands:
        return
    beast = state.beast
    if state.active:
        assert beast.location == state.active[-1].location
    elif not state.winner:
        assert beast.location == state.standee
    assert set(state.trailed) <= set(range(len(state.active)))
    assert all(state.active[i].direction != "X" for i in state.trailed)
    for direction, count in MOVEMENT_DECK.items():
        assert sum(1 for c in state.active if c.direction == direction) <= count
    for card in state.active:
        assert card.location in state.board.locations
    assert len(state.towers) <= WATCHTOWERS
    assert len(set(state.towers)) == len(state.towers)
    for zone in state.board.zones:
        assert sum(1 for z, _ in state.traps if z == zone) <= TRAPS_PER_ZONE
    assert sum(h.powers for h in state.hands) <= ANCIENT_POWERS
    assert len(state.trailed) <= TRAIL_TOKENS
    assert len(state.habitats) + len(state.traps) <= HABITAT_TOKENS
    assert sum(h.grudges for h in state.hands) <= GRUDGE_VALUE
    assert sum(len(h.upgrades) for h in state.hands) <= UPGRADE_TOKENS
    for index, hand in enumerate(state.hands):
        assert hand.grudges >= 0
        assert hand.powers >= 0
        if index != BEAST and hand.dead:
            assert hand.location == ""
            assert hand.extras == ()
        elif not state.winner and (index == BEAST or hand.location):
            assert hand.wounds < state.max_health(index)
    for piece in state.pieces:
        if piece.alive:
            assert piece.wounds < pieces()[piece.kind].health
    if state.phase == "day" and not state.frames and not state.winner:
        assert len(state.slots) < 2


@settings(max_examples=12, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10_000))
def test_random_positions_keep_the_invariants(players: int, seed: int) -> None:
    game = BeastGame(players, seed=f"property/{seed}")
    rnd = random.Random(seed)
    while RULES.outcome(game.state) is None:
        check(game.state)
        seat = game.seat()
        command = rnd.choice(list(RULES.legal(game.state, seat)))
        game.do(RULES.format(command), seat=seat)
    check(game.state)
