"""Hägar, second rules pass (issue 15): each deviation a careful reading found, as a
scenario quoting the rulebook sentence it follows.

The rulebook's crossroads at sea west of Paris:
            channel-2 (North)
                │
  paris-port ── channel-3 (X)
                │
            biscay-1 (South)
"""

from __future__ import annotations

from itertools import product

from skald.core.hagar.data import sticks
from skald.core.hagar.state import HagarState, Leg
from skald.events.hagar import LootBroughtHome, RoadsideLootLeft
from tests.test_hagar_support import RULES, aboard, kinds, on_foot, play, table


def leg(points: int = 0, waves: int = 0) -> Leg:
    return Leg(mode="any", points=points, waves=waves)


def legal(state: HagarState) -> set[str]:
    return {RULES.format(c) for c in RULES.legal(state, state.turn)}


def test_every_rulebook_throw_is_a_possible_throw_of_the_sticks() -> None:
    """Rulebook: "the Viking may therefore move either 7 spaces by water or 3 spaces by
    land"; at the crossroads "with 2 waves in the direction of Paris or with 3 waves in the
    direction of South"; the gift throw adds "the points (0–2)" of one stick."""
    first, second = sticks()
    throws = {
        (a.points + b.points, a.waves + b.waves) for a, b in product(first.faces, second.faces)
    }
    assert (3, 7) in throws
    assert {2, 3} <= {waves for _, waves in throws}
    assert {f.points for f in first.faces} == {0, 1, 2}
    assert any(f.lightning for f in first.faces)


def test_the_crossroads_example_two_waves_to_paris_three_waves_south() -> None:
    """Rulebook "Crossroads": "He decides for Paris or Madrid and announces: "Paris even –
    South odd." ... with 2 waves in the direction of Paris or with 3 waves in the
    direction of South." Thrown with the reconstructed sticks, through legal play."""
    state = table([aboard("channel-1"), aboard("fjord-east")], phase="move", leg=leg(2, 6))
    state, _ = play(state, "sail channel-3")
    state, _ = play(state, "announce paris-port biscay-1")
    seen: dict[int, str] = {}
    for n in range(200):
        thrown, events = play(state, "throw", seed=f"x{n}".encode())
        waves = events[0].waves
        if waves in (2, 3) and waves not in seen:
            assert thrown.leg is not None
            seen[waves] = thrown.leg.first
    assert seen == {2: "paris-port", 3: "biscay-1"}


def test_a_full_ship_brings_three_pieces_home_one_more_only_after_an_ambush() -> None:
    """Rulebook "Transporting the Loot": "Each Viking ship can transport at most three loot
    pieces"; "Ambush": the attacker "may transport one loot piece more than he or his ship
    would normally be allowed to"."""
    full = table(
        [aboard("north-1", cargo=(1, 2, 4), carried=(3,)), aboard("fjord-east")],
        phase="move",
        leg=leg(1, 5),
    )
    state, events = play(full, "sail fjord-west")
    assert LootBroughtHome(seat=0, count=3) in events
    assert state.vikings[0].home == (1, 2, 4)
    assert state.vikings[0].cargo == (3,)  # the next voyage brings it
    robbed = table(
        [aboard("north-1", cargo=(1, 2, 4, 3)), aboard("fjord-east")],
        phase="move",
        leg=leg(1, 5),
    )
    state, events = play(robbed, "sail fjord-west")
    assert LootBroughtHome(seat=0, count=4) in events
    assert state.vikings[0].home == (1, 2, 4, 3)


def test_roadside_loot_may_be_left_lying() -> None:
    """Rulebook "Loot at the roadside": "A loot piece that was thrown away at the roadside
    (→ dragon) may be taken along by any Viking who reaches that space directly with the
    matching point number." """
    lying = (("de-1", (11,)),)
    state = table(
        [on_foot("de-2", "hamburg-port"), aboard("fjord-east")],
        phase="move",
        leg=leg(points=1),
        roadside=lying,
    )
    state, _ = play(state, "walk de-1")
    assert legal(state) == {"take", "leave"}
    state, events = play(state, "leave")
    assert RoadsideLootLeft(seat=0, space="de-1") in events
    assert kinds(events)[-1] == "TurnEnded"
    assert state.roadside == lying
    assert state.vikings[0].carried == ()


def test_a_lone_ship_sails_across_a_crossroads_to_another_harbour() -> None:
    """Rulebook "Harbours": "A Viking may also have his ship sail to another harbour while
    he is travelling on land." The crossroads ("Whoever reaches such a space must
    immediately decide") is a Viking's decision; nothing forbids the lone ship to pass."""
    alone = table(
        [on_foot("paris", "channel-1"), aboard("fjord-east")],
        phase="move",
        leg=leg(points=1, waves=3),
    )
    sails = {m for m in legal(alone) if m.startswith("sail")}
    assert "sail paris-port" in sails
    moved, events = play(alone, "sail paris-port")
    assert events[0].path == ("channel-1", "channel-2", "channel-3", "paris-port")
    assert moved.vikings[0].ship == "paris-port"
    assert "CrossroadsReached" not in kinds(events)
