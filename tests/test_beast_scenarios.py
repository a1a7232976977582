"""The rulebook's examples as scenarios, on the reconstructed Drenched Lands map.

These arrange positions by hand to probe edge cases around each example; the examples
themselves are reached through legal play in test_beast_examples.py and
test_beast_examples_items.py.

Drenched Lands (north up; S settlement, F forest, W swamp, C cave, * centre, ~ no land):

        A     B     C     D     E
    1   S     W     ~     F     S        zones: West = columns A-B (+C2),
    2   F     C     W     W     F               East = columns D-E (+C4);
    3   W     F     *     C     W               the centre C3 is in both.
    4   C     W     W     F     C
    5   S     F     ~     W     S
"""

from __future__ import annotations

import pytest

from skald.core.beast.state import BEAST
from skald.core.errors import IllegalMove
from skald.events.beast import (
    BeastRevealed,
    Damaged,
    Searched,
    Step,
    TrailsPlaced,
    TrapTriggered,
)
from skald.events.secret import canonical, redact
from skald.events.viewer import Viewer
from skald.projections.beast.view import beast_view
from tests.test_beast_support import BeastGame, day_one

HUNTERS = Viewer("hunters", frozenset({1, 2}))
BEAST_SEAT = Viewer("beast", frozenset({0}))


def rushed() -> BeastGame:
    """Rulebook 'Example Beast movement': Rush, then No Movement, East, North."""
    game = on_the_centre()
    game.edit_hand(BEAST, actions=("Rush",))
    game.do("play Rush", "step X", "step E", "step N", "end")
    return game


def on_the_centre() -> BeastGame:
    """Day 1, the Beast revealed on the centre (arranged: the opening's two No Movement
    cards taken back, as a reveal there would)."""
    game = day_one(hunters="Iona,Helga")
    assert game.state.active == (Step("X", "C3"), Step("X", "C3"))
    game.edit(active=())
    return game


def test_rush_moves_the_beast_by_hidden_cards_and_leaves_the_standee() -> None:
    game = rushed()
    state = game.state
    # X on C3, E to D3, N to D2: two steps away, the standee still on C3.
    assert state.active == (Step("X", "C3"), Step("E", "D3"), Step("N", "D2"))
    assert state.beast.location == "D2"
    assert state.standee == "C3"
    hunters = beast_view(state, HUNTERS)
    assert hunters.active_count == 3
    assert hunters.active is None
    assert hunters.beast_location is None
    assert hunters.hands[0].location is None
    assert "D2" not in canonical([redact(e, HUNTERS) for e in game.log]).decode()


def test_rush_for_the_beast_stays_in_its_zone() -> None:
    game = day_one(hunters="Iona,Helga", beast_steps=("E",))  # actual D3, East zone only
    game.edit_hand(BEAST, actions=("Rush",))
    game.do("play Rush")
    assert "step W" in game.legal()  # C3 is in the East zone too
    game.do("step W")
    assert "step W" not in game.legal()  # B3 is West: outside
    with pytest.raises(IllegalMove, match=r"'step W' is not legal for seat 0 \(Fangrir\)"):
        game.do("step W")


def test_no_movement_is_not_allowed_beside_a_hunter_or_settler() -> None:
    game = day_one(hunters="Iona,Helga")
    game.edit_hand(BEAST, actions=("Rush",))
    game.edit_hand(1, location="C3")
    game.do("play Rush")
    assert "step X" not in game.legal()
    game.do("step N")  # C2: no hunter, no settler
    assert "step X" in game.legal()


def test_hunter_movement_places_trails_for_matching_cards_but_not_no_movement() -> None:
    game = rushed()
    assert game.state.turn == 1  # Iona's turn
    game.edit_hand(1, location="C2", actions=("Rush",))
    game.do("play Rush")
    events = game.do("step E")  # C2 -> D2: matches card 3 (N)
    assert TrailsPlaced(locations=("D2",)) in events
    assert game.state.trailed == (2,)  # the Beast's state knows which
    events = game.do("step S")  # D2 -> D3: matches card 2 (E)
    assert TrailsPlaced(locations=("D3",)) in events
    assert game.state.trailed == (1, 2)
    view = beast_view(game.state, HUNTERS)
    assert view.trails == (("D2", 1), ("D3", 1))


def test_no_movement_card_never_leaves_a_trail() -> None:
    game = rushed()
    game.edit_hand(1, location="B3", actions=("Rush",))
    game.do("play Rush")
    events = game.do("step E")  # onto C3, the X card
    assert TrailsPlaced(locations=()) in events


def test_beast_moving_over_a_settlement_leaves_a_trail_there_after_moving() -> None:
    game = day_one(hunters="Iona,Helga")
    game.edit_hand(BEAST, actions=("Rush",), location="E2")
    game.edit(standee="E2", active=())
    game.do("play Rush", "step N")  # E1: settlers
    events = game.do("step S", "step X")  # back to E2, still hidden
    assert TrailsPlaced(locations=("E1",)) in events
    assert game.state.trailed == (0,)


def test_search_and_reveal_then_hunt_wounds_the_beast() -> None:
    """Rulebook 'Example Search and Reveal': Iona plays Rush, then Hunt on the Beast."""
    game = rushed()  # Beast actually at D2
    game.edit_hand(1, location="C2", actions=("Rush",))
    game.do("play Rush", "step E", "stop")  # Iona now on D2
    assert game.state.slots == ("any",)
    assert game.state.turn == 1
    game.edit_hand(BEAST, extras=("Regrowth",))  # a talent: it might react
    game.do("play Hunt")
    assert game.state.window == "search"
    game.do("decline")
    events = game.do("search D2")
    assert Searched(hand=1, location="D2", found=True) in events
    revealed = next(e for e in events if isinstance(e, BeastRevealed))
    assert revealed.cards == (Step("X", "C3"), Step("E", "D3"), Step("N", "D2"))
    events = game.do("attack beast")
    assert Damaged(kind="beast", ref="beast", amount=1, by="hunter:1") in events
    state = game.state
    assert state.active == ()
    assert state.trailed == ()
    assert state.standee == "D2"
    assert state.beast.wounds == 1


def test_a_missed_search_keeps_the_beast_hidden_and_the_attack_has_no_target() -> None:
    game = rushed()
    game.edit_hand(1, location="D3")
    game.do("play Hunt")  # no talents: no window
    events = game.do("search D3")
    assert Searched(hand=1, location="D3", found=False) in events
    assert game.state.hidden
    assert game.legal() == ["skip"]  # 'then': nothing to attack


def test_watchtower_puts_trails_on_nearby_locations() -> None:
    """Rulebook 'Example Watchtower': Outpost; two of three active cards are nearby."""
    game = on_the_centre()
    game.edit_hand(BEAST, actions=("Rush",))
    game.do("play Rush", "step E", "step E", "step N", "end")  # D3, E3, E2
    game.edit_hand(1, location="D2", extras=("Outpost",))  # D3 and E2 are nearby D2
    game.do("play Outpost")
    events = game.do("do")
    assert TrailsPlaced(locations=("D3", "E2")) in events
    assert game.state.trailed == (0, 2)
    assert game.state.towers == ("D2",)


def test_fire_trap_triggers_on_reveal_before_the_attack_and_stays_hidden_from_the_beast() -> None:
    """Rulebook 'Example Trap': Fire Trap on forest; Prey Upon reveals the Beast there."""
    game = day_one(hunters="Iona,Helga")
    game.edit(turn=1)
    game.edit_hand(1, location="A1", extras=("Fire Trap",), grudges=1)
    before = len(game.log)
    game.do("play Fire Trap", "trap East forest")
    beast_log = canonical([redact(e, BEAST_SEAT) for e in game.log[before:]]).decode()
    assert "forest" not in beast_log
    assert "Fire Trap" not in beast_log
    assert beast_view(game.state, BEAST_SEAT).traps[0].habitat is None
    assert beast_view(game.state, HUNTERS).traps[0].habitat == "forest"
    # The Beast hides on D4 (forest, East zone), a sheep there; then Prey Upon attacks it.
    game.edit(turn=0, slots=())
    game.edit_hand(BEAST, location="D4", actions=())
    game.edit(active=(Step("S", "D4"),), standee="D3")
    game.do("play Prey Upon", "skip")
    events = game.do("attack D4/boar")
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("BeastRevealed") < kinds.index("TrapTriggered") < kinds.index("Damaged")
    assert TrapTriggered(zone="E", card="Fire Trap", habitat="forest", among=0) in events
    assert events[kinds.index("TrapTriggered") + 1] == Damaged(
        kind="beast", ref="beast", amount=1, by="trap"
    )
    assert game.state.traps == ()


def test_traps_do_not_trigger_when_the_beast_is_already_revealed() -> None:
    game = day_one(hunters="Iona,Helga")
    game.edit(turn=1)
    game.edit_hand(1, extras=("Fire Trap",), grudges=1)
    game.do("play Fire Trap", "trap East forest")
    game.edit(turn=0, slots=(), active=(), standee="D4")
    game.edit_hand(BEAST, location="D4")
    game.do("play Prey Upon", "skip")
    events = game.do("attack D4/boar")
    assert not any(isinstance(e, TrapTriggered) for e in events)


def test_intuition_reaction_moves_the_beast_before_hunt_resolves() -> None:
    """Rulebook 'Example Reaction': one active card; Iona on its trail plays Hunt."""
    game = on_the_centre()
    game.edit_hand(BEAST, actions=("Dash",), extras=("Intuition",))
    game.do("play Dash", "step E", "step X")  # E to D3, No Movement for the second step
    game.edit(turn=1, slots=())
    game.edit_hand(1, location="D3")
    game.edit(trailed=(0,))
    game.do("play Hunt")
    assert "react Intuition" in game.legal()
    assert game.seat() == 0
    game.do("react Intuition", "step S")  # D3 -> D4, before Hunt
    assert game.state.window == ""
    assert game.state.frames[-1].card == "Hunt"
    events = game.do("search D3")
    assert Searched(hand=1, location="D3", found=False) in events
    assert game.state.beast.location == "D4"
    assert game.state.hidden


def test_summon_wolf_goes_on_a_forest_within_two_steps_of_the_actual_location() -> None:
    """Rulebook 'Example place a summon': Fangrir one step from its last known location."""
    game = day_one(hunters="Iona,Helga", beast_steps=("N",))  # actual C2, standee C3
    game.do("play Summon Wolf")
    legal = game.legal()
    assert "summon D1" in legal  # forest, two steps
    assert "summon B3" in legal
    assert "summon B2" not in legal
    assert "summon D4" not in legal  # forest, three steps away
    with pytest.raises(IllegalMove):
        game.do("summon C2")  # a swamp
    game.do("summon D1")
    assert game.state.summons[0].location == "D1"


def test_silver_arrow_moves_then_attacks_a_nearby_wolf() -> None:
    game = day_one(hunters="Iona,Helga")
    game.edit(turn=1)
    game.edit(
        summons=tuple(s if i else type(s)(s.name, "B3") for i, s in enumerate(game.state.summons))
    )
    game.edit_hand(1, location="D3")
    game.do("play Silver Arrow", "step W")  # D3 -> C3: B3 is nearby
    events = game.do("attack Wolf1")
    assert any(type(e).__name__ == "Killed" and e.ref == "Wolf1" for e in events)


def test_insidious_growth_turns_nearby_locations_into_forests() -> None:
    game = day_one(hunters="Iona,Helga", beast_steps=("S",))  # actual C4
    where = game.state.beast.location
    game.do("play Insidious Growth", "do")
    for loc in game.state.board.nearby(where):
        assert game.state.habitat(loc) == "forest"


def test_gather_the_pack_needs_a_forest() -> None:
    game = day_one(hunters="Iona,Helga", beast_steps=("W",))  # B3 forest
    assert "play Gather the Pack" in game.legal()
    game = day_one(hunters="Iona,Helga", beast_steps=("N",))  # C2 swamp
    assert "play Gather the Pack" not in game.legal()
