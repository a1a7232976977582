"""Rulebook sentences a review found the code deviating from, each as a scenario.

Positions are on the reconstructed Drenched Lands (north up; S settlement, F forest,
W swamp, C cave, * centre, ~ no land), unless a test says otherwise:

        A     B     C     D     E
    1   S     W     ~     F     S        zones: West = columns A-B (+C2),
    2   F     C     W     W     F               East = columns D-E (+C4);
    3   W     F     *     C     W               the centre C3 is in both.
    4   C     W     W     F     C
    5   S     F     ~     W     S
"""

from __future__ import annotations

import msgspec
import pytest

from skald.core.beast.state import BEAST
from skald.core.errors import IllegalMove
from skald.core.rules import get_rules
from skald.events.beast import RewardEarned, Searched, Step, TrailsPlaced
from tests.test_beast_support import day_one

RULES = get_rules("beast")


def test_a_failed_search_counts_towards_a_misses_requirement() -> None:
    # Rulebook "Phase 3: Night": "In order to gain your reward, you must fulfill the
    # requirements." and "If a requirement has a white line dividing its demands, one of
    # them is enough". The hunters' first night on Attack on the Northern Settlements asks
    # for one reveal OR three failed searches; failed searches were never counted, so that
    # half of the requirement could not be met.
    game = day_one(contract="northern-settlements", beast_steps=("N",))  # Beast on C2
    assert game.state.map == "northern-expanse"
    game.edit(turn=1, stats=(("misses", 2),))
    game.edit_hand(1, location="A1", actions=("Prowl",))
    events = game.do("play Prowl", "search A1")
    assert Searched(hand=1, location="A1", found=False) in events
    assert game.state.stat("misses") == 3
    for hand in range(3):
        game.edit_hand(hand, actions=())
    game.do("end", "pass", "pass", "pass")
    assert RewardEarned(side="hunters", night=1) in game.log
    assert game.hand(1).grudges == 1 + 1  # setup grudge + reward


def test_a_found_search_is_not_a_miss() -> None:
    game = day_one(beast_steps=("N",))  # Beast on C2
    game.edit(turn=1)
    game.edit_hand(1, location="C3", actions=("Prowl",))
    game.do("play Prowl", "search C2")
    assert game.state.stat("misses") == 0
    assert game.state.stat("reveals") == 1


def test_the_beast_leaves_trails_only_where_this_movement_went() -> None:
    # Rulebook "Hunter movement & trails": "If the Beast moves over any location with a
    # settler or hunter on it, the Beast places a trail token on the location with the
    # settler or hunter after all movement has been made." A hunter returned at night
    # onto a location an older card leads to is not moved over by a later movement.
    #
    #     D     E
    # 1   F     S  Helga (returned here at night; its settlers dead) <- card 3, no trail
    # 2   W ... F  Beast now (card 4)  -- Dash: W to D2, which holds nobody
    # 3   C     W
    game = day_one(hunters="Iona,Helga")
    route = (Step("E", "D3"), Step("E", "E3"), Step("N", "E2"), Step("N", "E1"), Step("S", "E2"))
    game.edit(
        active=route,
        trailed=(),
        standee="C3",
        pieces=tuple(
            msgspec.structs.replace(p, alive=False) if p.location == "E1" else p
            for p in game.state.pieces
        ),
    )
    game.edit_hand(BEAST, location="E2", actions=("Dash",))
    game.edit_hand(2, location="E1")
    events = game.do("play Dash", "step W", "step X")
    assert TrailsPlaced(locations=()) in events
    assert game.state.trailed == ()


def test_the_beast_still_trails_a_settlement_it_moves_over_in_this_movement() -> None:
    game = day_one(hunters="Iona,Helga")
    game.edit_hand(BEAST, location="E2", actions=("Dash",))
    game.edit(standee="E2", active=())
    events = game.do("play Dash", "step N", "step S")  # over E1's settlers, back
    assert TrailsPlaced(locations=("E1",)) in events
    assert game.state.trailed == (0,)


def test_a_hunter_returned_onto_a_watchtower_shows_the_nearby_trails() -> None:
    # Rulebook "Watchtowers": "As long as a hunter is standing in the same location as a
    # watchtower, any trails from nearby locations are placed on the map." Rulebook
    # "Player Death": "At the third step of the night, the hunter returns their standee
    # to any settlement on the map".
    #
    #     D     E
    # 1   F     S  watchtower; Helga returns here at night
    # 2   W     F  Beast (card 3, N) -- nearby E1: a trail at once
    # 3   C     W  card 2 (E), not nearby
    game = day_one(hunters="Iona,Helga")
    game.edit(
        active=(Step("E", "D3"), Step("E", "E3"), Step("N", "E2")),
        trailed=(),
        standee="C3",
        towers=("E1",),
    )
    game.edit_hand(BEAST, location="E2")
    game.edit_hand(2, dead=True, location="")
    for hand in range(3):
        game.edit_hand(hand, actions=())
    game.do("pass", "pass")  # Helga is dead: skipped
    assert game.state.phase == "respawn"
    events = game.do("place E1", seat=2)
    assert TrailsPlaced(locations=("E2",)) in events
    assert game.state.trailed == (2,)


def test_an_error_sent_to_the_beast_never_names_a_face_down_trap() -> None:
    # Rulebook "Traps": "Note that the Beast should not know the chosen habitat or trap
    # card until they are triggered."
    game = day_one(hunters="Iona,Helga")
    game.edit(turn=1)
    game.edit_hand(1, extras=("Fire Trap",), grudges=1)
    game.do("play Fire Trap")
    with pytest.raises(IllegalMove) as raised:
        RULES.decide(game.state, 0, RULES.parse("pass"), game.rng)
    assert "Fire Trap" not in str(raised.value)
    assert "resolving a trap" in str(raised.value)
