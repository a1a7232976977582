"""What a piece leaving a collector's card tells the other Vikings (issue 9, item 6).

Pieces on a collector's card lie face down; a Byzantine chest is taken face up at the camp,
so everyone knows who holds one and, from the public loading order, where it lay on his
card. A published slot number then said whether the jettisoned, robbed or forced piece was
that chest. The attack: compare what a third Viking's log shows when the chest goes and
when another piece goes; the two must not differ (commitments aside, which bind different
values by construction and are compared as placeholders).

The Bay of Biscay and the North Sea, as in tests/test_hagar_moves.py and test_hagar_fate.py:
    channel-3 ── biscay-1 ── biscay-2 (storm) ── biscay-3        north-2 ── north-3
"""

from __future__ import annotations

import re
from typing import Any

from skald.core.hagar.data import chests
from skald.core.hagar.state import HagarState, Leg, Throw
from skald.core.rng import Rng
from skald.events.common import MoveMade
from skald.events.hagar import FateDrawn, LootForced, LootJettisoned, LootRobbed
from skald.events.secret import canonical, redact, secrets_in
from skald.events.viewer import Viewer
from tests.test_hagar_support import RULES, aboard, on_foot, random_playout, table

HEX = re.compile(rb'"[0-9a-f]{64}"')
CHEST, WEAPONS, CHEESE = chests()[0], 1, 30
THIRD = Viewer("viking2", frozenset({2}))


def decision(state: HagarState, text: str, seed: bytes = b"leak") -> tuple[HagarState, list[Any]]:
    """One decision as the engine logs it: the marker (notation hidden or not), its events."""
    rng, seat, command = Rng(seed), state.turn, RULES.parse(text)
    hidden = RULES.hide_move(state, seat, command, rng)
    events = RULES.decide(state, seat, command, rng)
    for event in events:
        state = RULES.evolve(state, event)
    return state, [MoveMade(seat=seat, move=None if hidden else text, hidden_move=hidden), *events]


def seen_by(log: list[Any], viewer: Viewer) -> bytes:
    return HEX.sub(b'"#"', canonical([redact(event, viewer) for event in log]))


def stormy(cargo: tuple[int, ...]) -> HagarState:
    thrown = Throw(seat=0, faces=(1, 3), points=2, waves=8, lightning=0)
    state = table(
        [aboard("biscay-1", cargo=cargo), aboard("fjord-east"), aboard("fjord-west")],
        phase="move",
        leg=Leg(mode="any", points=2, waves=8),
        throw=thrown,
    )
    state, _ = decision(state, "sail biscay-2")
    assert state.phase == "storm"
    return state


def test_the_others_cannot_tell_whether_the_storm_took_the_chest() -> None:
    chest_gone, chest_log = decision(stormy((CHEST, WEAPONS)), "jettison 1")
    other_gone, other_log = decision(stormy((CHEST, WEAPONS)), "jettison 2")
    assert chest_gone.vikings[0].cargo == (WEAPONS,)
    assert chest_gone.removed == (CHEST,)
    assert other_gone.vikings[0].cargo == (CHEST,)
    assert other_gone.removed == (WEAPONS,)
    for log in (chest_log, other_log):
        jettisoned = next(e for e in log if isinstance(e, LootJettisoned))
        assert jettisoned.slot is None
        assert jettisoned.piece.audience == frozenset({0})
        assert log[0].move is None
        assert log[0].hidden_move.audience == frozenset({0})
    for viewer in (Viewer("viking1", frozenset({1})), THIRD):
        assert seen_by(chest_log, viewer) == seen_by(other_log, viewer)
    owner = Viewer("viking0", frozenset({0}))
    assert seen_by(chest_log, owner) != seen_by(other_log, owner)


def met_at_sea() -> HagarState:
    state = table(
        [aboard("north-2"), aboard("north-3", cargo=(CHEST, WEAPONS)), aboard("fjord-east")],
        phase="move",
        leg=Leg(mode="any", waves=1),
    )
    state, _ = decision(state, "sail north-3")
    assert state.phase == "ambush"
    return state


def test_a_third_viking_cannot_tell_whether_the_robber_drew_the_chest() -> None:
    robbed: dict[int, tuple[HagarState, list[Any]]] = {}
    for n in range(40):  # chance draws the piece: find both
        state, log = decision(met_at_sea(), "rob 1", seed=f"draw/{n}".encode())
        robbed.setdefault(state.vikings[0].cargo[0], (state, log))
    assert set(robbed) == {CHEST, WEAPONS}
    (chest_state, chest_log), (other_state, other_log) = robbed[CHEST], robbed[WEAPONS]
    assert chest_state.vikings[1].cargo == (WEAPONS,)
    assert other_state.vikings[1].cargo == (CHEST,)
    for log in (chest_log, other_log):
        event = next(e for e in log if isinstance(e, LootRobbed))
        assert event.slot is None
        assert event.piece.audience == frozenset({0, 1})
    assert seen_by(chest_log, THIRD) == seen_by(other_log, THIRD)


def test_a_third_viking_cannot_tell_which_piece_was_forced() -> None:
    def forced(text: str) -> tuple[HagarState, list[Any]]:
        state = table(
            [
                on_foot("de-2", "hamburg-port", carried=(CHEST, CHEESE)),
                on_foot("de-1", "danzig-port"),
                aboard("fjord-east"),
            ],
            phase="move",
            leg=Leg(mode="any", points=1),
        )
        state, _ = decision(state, "walk de-1")
        return decision(state, text)

    chest_state, chest_log = forced("force 1 1")
    cheese_state, cheese_log = forced("force 1 2")
    assert chest_state.vikings[1].carried == (CHEST,)
    assert cheese_state.vikings[1].carried == (CHEESE,)
    for log in (chest_log, cheese_log):
        event = next(e for e in log if isinstance(e, LootForced))
        assert event.slot is None
        assert log[0].move is None
    assert seen_by(chest_log, THIRD) == seen_by(cheese_log, THIRD)


def test_version_1_events_with_a_slot_still_replay() -> None:
    # A stored version 1 log names the slot; the reducer still follows it.
    state = stormy((CHEST, WEAPONS))
    _, log = decision(state, "jettison 2")
    new = next(e for e in log if isinstance(e, LootJettisoned))
    old = LootJettisoned(seat=0, slot=1, piece=new.piece)
    assert RULES.evolve(state, old) == RULES.evolve(state, new)


def test_every_event_that_shows_a_piece_to_a_viking_is_a_barrier() -> None:
    """Random play: plunder, roadside loot, drops, storms, robbing and forcing all seal a
    piece to some Viking, and a fate card is shown to all: none of it can be undone."""
    seen: set[str] = set()
    for bot in range(3):
        game = random_playout(3, f"barrier/{bot}", bot)
        for event in game.events:
            shows = any(secret.audience for secret in secrets_in(event))
            if shows or isinstance(event, FateDrawn):
                seen.add(type(event).__name__)
                assert event.barrier, event
    assert {"CityPlundered", "FateDrawn", "LootRobbed"} <= seen
