"""Scenario walks for Hägar's movement, harbours, plunder, transport, storm and crossroads.

Each test builds a position by hand (no randomness unless it throws), with the part of
the (reconstructed) board it uses drawn in a comment. Rulebook sections: "On Raiding
Expeditions", "Harbours", "Iron Plundering Rules", "Transporting the Loot", "Storm",
"Crossroads".
"""

from __future__ import annotations

import pytest

from skald.core.errors import IllegalMove
from skald.core.hagar.data import chests, pieces
from skald.core.hagar.state import Crossing, Leg, Throw
from skald.events.hagar import (
    ChestRobbed,
    CityPlundered,
    FateDrawn,
    FateShuffled,
    LootBroughtHome,
    LootJettisoned,
    RoadsideLootTaken,
    ShipSailed,
    SticksThrown,
    StormStruck,
    VikingWalked,
)
from tests.test_hagar_support import (
    RULES,
    aboard,
    card_of,
    kinds,
    on_foot,
    play,
    table,
)


def legal(state, seat=None):  # type: ignore[no-untyped-def]
    return {RULES.format(c) for c in RULES.legal(state, state.turn if seat is None else seat)}


def leg(points: int = 0, waves: int = 0, **more: object) -> Leg:
    return Leg(mode="any", points=points, waves=waves, **more)  # type: ignore[arg-type]


# London:
#   north-6 ── channel-1 ── channel-2
#                  │
#             london-port ── en-1
#                  │           │
#                en-2 ───── london


def test_a_throw_is_recorded_and_moves_by_land_or_water_not_both() -> None:
    state = table([aboard("north-6"), aboard("fjord-east")])
    state, events = play(state, "throw")
    thrown = events[0]
    assert isinstance(thrown, SticksThrown)
    assert thrown.barrier
    assert state.phase == "move"
    assert state.leg is not None
    assert (state.leg.points, state.leg.waves) == (thrown.points, thrown.waves)
    # the same seed and tick always throw the same
    assert play(table([aboard("north-6"), aboard("fjord-east")]), "throw")[1] == events
    moved = table(
        [on_foot("en-1", "london-port"), aboard("fjord-east")],
        phase="move",
        leg=leg(points=1, waves=4),
    )
    after, events = play(moved, "walk london")
    assert kinds(events) == ["VikingWalked", "TurnEnded"]
    assert after.turn == 1


def test_docking_expires_surplus_and_the_next_move_is_on_foot() -> None:
    state = table([aboard("north-6"), aboard("fjord-east")], phase="move", leg=leg(1, 7))
    state, events = play(state, "sail london-port")
    assert isinstance(events[0], ShipSailed)
    assert events[0].path == ("north-6", "channel-1", "london-port")
    assert kinds(events)[1:] == ["ShipDocked", "TurnEnded"]
    assert state.vikings[0].must == "walk"
    again = table(list(state.vikings), phase="move", leg=leg(1, 5))
    with pytest.raises(
        IllegalMove, match=r"may not sail to Channel sea 1 \(aboard at London harbour"
    ):
        play(again, "sail channel-1")
    assert legal(again) == {"walk en-1", "walk en-2"}
    walked, _ = play(again, "walk en-1")
    assert not walked.vikings[0].aboard
    assert walked.vikings[0].ship == "london-port"


def test_loading_from_land_expires_surplus_and_the_next_move_is_by_water() -> None:
    state = table(
        [on_foot("london", "london-port", carried=(5,), cargo=(1, 2)), aboard("fjord-east")],
        phase="move",
        leg=leg(points=4, waves=4),
    )
    state, events = play(state, "walk london-port")
    assert events[0] == VikingWalked(seat=0, path=("london", "en-1", "london-port"))
    assert kinds(events)[1:] == ["VikingBoarded", "TurnEnded"]
    viking = state.vikings[0]
    assert viking.aboard
    assert viking.cargo == (1, 2, 5)
    assert viking.carried == ()
    assert viking.must == "sail"
    again = table(list(state.vikings), phase="move", leg=leg(2, 5))
    with pytest.raises(IllegalMove, match="continues by water"):
        play(again, "walk en-1")


def test_a_ship_holds_three_pieces() -> None:
    state = table(
        [on_foot("en-1", "london-port", carried=(5,), cargo=(1, 2, 3)), aboard("fjord-east")],
        phase="move",
        leg=leg(points=1),
    )
    state, _ = play(state, "walk london-port")
    assert state.vikings[0].cargo == (1, 2, 3)
    assert state.vikings[0].carried == (5,)


def test_at_most_two_ships_in_a_harbour_but_home_takes_any() -> None:
    full = [aboard("london-port"), on_foot("en-1", "london-port")]
    state = table([aboard("north-6"), *full], phase="move", leg=leg(1, 4))
    assert "sail london-port" not in legal(state)
    with pytest.raises(IllegalMove, match="cannot reach London harbour"):
        play(state, "sail london-port")
    crowded = [aboard("fjord-west") for _ in range(4)]
    home = table([aboard("north-1"), *crowded], phase="move", leg=leg(1, 4))
    assert "sail fjord-west" in legal(home)


def test_the_ship_sails_alone_to_a_harbour_but_not_home() -> None:
    # danzig-port ── baltic-3 ── baltic-2 ── baltic-1 ── fjord-east (home)
    #                              │
    #               kattegat ── skag-2 ── skag-1 ── helgo ── hamburg-port
    alone = table(
        [on_foot("pl-2", "danzig-port"), aboard("fjord-west")],
        phase="move",
        leg=leg(points=1, waves=7),
    )
    # (riga-port lies across a crossroads, which a ship sailing alone passes)
    assert {m for m in legal(alone) if m.startswith("sail")} == {
        "sail hamburg-port",
        "sail riga-port",
    }
    moved, _ = play(alone, "sail hamburg-port")
    assert moved.vikings[0].at == "pl-2"
    assert moved.vikings[0].ship == "hamburg-port"
    short = table(
        [on_foot("pl-2", "danzig-port"), aboard("fjord-west")],
        phase="move",
        leg=leg(points=1, waves=4),
    )
    assert not {m for m in legal(short) if m.startswith("sail")}
    with_viking = table(
        [aboard("danzig-port"), aboard("fjord-west")], phase="move", leg=leg(points=1, waves=4)
    )
    assert "sail fjord-east" in legal(with_viking)


def test_coming_home_unloads_the_cargo_and_heals_arrows() -> None:
    arrows = (card_of("arrow", 0), card_of("arrow", 1))
    deck = tuple(c for c in range(33) if c not in arrows)
    state = table(
        [aboard("north-1", cargo=(1, 2, 4), carried=(3,), arrows=arrows), aboard("fjord-east")],
        phase="move",
        leg=leg(1, 5),
        deck=deck,
    )
    state, events = play(state, "sail fjord-west")
    assert kinds(events) == [
        "ShipSailed",
        "ShipDocked",
        "LootBroughtHome",
        "VikingBoarded",
        "ArrowsHealed",
        "FateShuffled",
        "TurnEnded",
    ]
    # rulebook: "Each Viking ship can transport at most three loot pieces": the piece in
    # his hands waits on the emptied ship for the next voyage
    assert events[2] == LootBroughtHome(seat=0, count=3)
    viking = state.vikings[0]
    assert viking.home == (1, 2, 4)
    assert viking.cargo == (3,)
    assert viking.carried == ()
    assert viking.arrows == ()
    assert viking.must == "sail"
    shuffled = events[5]
    assert isinstance(shuffled, FateShuffled)
    assert shuffled.returned == arrows
    assert sorted(state.deck) == list(range(33))
    assert shuffled.deck.audience == frozenset()


# Paris:
#   paris-port ── fr-1 ── fr-4 ── fr-5 ── madrid
#       │          │
#     fr-3 ───── paris ── fr-2 (fr-2 also joins fr-1)
#                  │
#                ce-1 ── ce-2 (crossroads) ── cologne


def test_entering_a_city_plunders_the_top_piece_in_secret() -> None:
    state = table(
        [on_foot("fr-1", "paris-port"), aboard("fjord-east")],
        phase="move",
        leg=leg(points=3),
        stacks={"paris": (7, 8)},
    )
    assert "walk paris" in legal(state)
    state, events = play(state, "walk paris")
    assert events[0] == VikingWalked(seat=0, path=("fr-1", "fr-2", "paris"))
    plunder = events[1]
    assert isinstance(plunder, CityPlundered)
    assert plunder.barrier
    assert plunder.piece.audience == frozenset({0})
    assert plunder.piece.get() == 7
    assert state.vikings[0].carried == (7,)
    assert state.stack("paris") == (8,)


def test_a_carrying_viking_makes_no_new_raid_and_may_pass_a_city() -> None:
    state = table(
        [on_foot("fr-1", "paris-port", carried=(9,)), aboard("fjord-east")],
        phase="move",
        leg=leg(points=3),
        stacks={"paris": (7, 8)},
    )
    assert "walk ce-1" in legal(state)
    state, events = play(state, "walk ce-1")
    assert kinds(events) == ["VikingWalked", "TurnEnded"]
    assert state.stack("paris") == (7, 8)
    assert state.vikings[0].carried == (9,)


def test_at_most_two_vikings_in_a_city_and_no_attacks_there() -> None:
    two = [on_foot("paris", "paris-port", carried=(1,)), on_foot("paris", "paris-port")]
    state = table(
        [on_foot("fr-2", "paris-port"), *two],
        phase="move",
        leg=leg(points=1),
        stacks={"paris": (7,)},
    )
    assert "walk paris" not in legal(state)
    one = table(
        [on_foot("fr-2", "paris-port"), two[0], aboard("fjord-east")],
        phase="move",
        leg=leg(points=1),
        stacks={"paris": (7,)},
    )
    _, events = play(one, "walk paris")
    assert kinds(events) == ["VikingWalked", "CityPlundered", "TurnEnded"]


# The camp (one way, along the arrow):
#   minsk ── by-1 ──> camp ──> by-2 ── by-3 ── venice


def test_the_camp_is_robbed_with_the_exact_count_once_per_viking() -> None:
    exact = table(
        [on_foot("minsk", "danzig-port"), aboard("fjord-east")], phase="move", leg=leg(points=2)
    )
    state, events = play(exact, "walk camp")
    assert events[1] == ChestRobbed(seat=0, piece=chests()[0])
    assert state.vikings[0].robbed_camp
    assert state.camp == chests()[1:]
    assert pieces()[chests()[0]].value == 8
    past = table(
        [on_foot("minsk", "danzig-port"), aboard("fjord-east")], phase="move", leg=leg(points=3)
    )
    _, events = play(past, "walk by-2")
    assert kinds(events) == ["VikingWalked", "TurnEnded"]
    again = table(
        [on_foot("minsk", "danzig-port", robbed_camp=True), aboard("fjord-east")],
        phase="move",
        leg=leg(points=2),
    )
    _, events = play(again, "walk camp")
    assert kinds(events) == ["VikingWalked", "TurnEnded"]
    backwards = table(
        [on_foot("by-3", "danzig-port"), aboard("fjord-east")], phase="move", leg=leg(points=2)
    )
    assert "walk camp" not in legal(backwards)


# Hamburg:
#   hamburg-port ── de-1 ── de-2 ── cologne
#        │           │       │
#      de-3        de-5    de-4


def test_roadside_loot_is_taken_with_the_exact_count() -> None:
    lying = (("de-1", (11,)),)
    exact = table(
        [on_foot("de-2", "hamburg-port"), aboard("fjord-east")],
        phase="move",
        leg=leg(points=1),
        roadside=lying,
    )
    state, events = play(exact, "walk de-1")
    assert kinds(events) == ["VikingWalked", "RoadsideLootFound"]
    assert legal(state) == {"take", "leave"}
    state, events = play(state, "take")
    taken = events[0]
    assert isinstance(taken, RoadsideLootTaken)
    assert taken.piece.audience == frozenset({0})
    assert state.vikings[0].carried == (11,)
    assert state.roadside == ()
    past = table(
        [on_foot("de-2", "hamburg-port"), aboard("fjord-east")],
        phase="move",
        leg=leg(points=2),
        roadside=lying,
    )
    state, events = play(past, "walk de-5")
    assert state.roadside == lying
    assert state.vikings[0].carried == ()


# The Bay of Biscay:
#   channel-3 ── biscay-1 ── biscay-2 (storm) ── biscay-3 ── atlantic-1 ── atlantic-2
#                   │                              │
#                 west-2                       madrid-port


def test_a_storm_takes_a_piece_and_drives_the_ship_the_waves_again() -> None:
    thrown = Throw(seat=0, faces=(1, 3), points=2, waves=8, lightning=0)
    state = table(
        [aboard("biscay-1", cargo=(1, 2)), aboard("fjord-east")],
        phase="move",
        leg=leg(2, 8),
        throw=thrown,
    )
    state, events = play(state, "sail biscay-2")
    assert events[1] == StormStruck(seat=0, space="biscay-2", waves=8)
    assert state.phase == "storm"
    assert legal(state) == {"jettison 1", "jettison 2"}
    state, events = play(state, "jettison 2")
    gone = events[0]
    assert isinstance(gone, LootJettisoned)
    assert gone.piece.audience == frozenset({0})
    assert state.vikings[0].cargo == (1,)
    assert state.removed == (2,)
    drifts = legal(state)
    assert drifts
    assert not any(m.endswith("-port") or "fjord" in m for m in drifts)
    state, events = play(state, sorted(drifts)[0])
    path = events[0].path
    assert len(path) == 9
    assert len(set(path)) == 9
    assert state.turn == 1


def test_an_empty_ship_in_a_storm_just_drifts() -> None:
    thrown = Throw(seat=0, faces=(1, 1), points=2, waves=6, lightning=0)
    state = table(
        [aboard("biscay-1"), aboard("fjord-east")], phase="move", leg=leg(2, 6), throw=thrown
    )
    state, _ = play(state, "sail biscay-2")
    assert state.phase == "move"
    assert state.leg is not None
    assert state.leg.storm


# The rulebook's crossroads at sea west of Paris:
#             channel-2 (North)
#                 │
#   paris-port ── channel-3 (X)
#                 │
#             biscay-1 (South)


def test_a_crossroads_is_announced_then_thrown_for() -> None:
    state = table([aboard("channel-1"), aboard("fjord-east")], phase="move", leg=leg(2, 6))
    state, events = play(state, "sail channel-3")
    assert kinds(events) == ["ShipSailed", "CrossroadsReached"]
    assert state.phase == "announce"
    assert "announce paris-port biscay-1" in legal(state)
    with pytest.raises(IllegalMove, match="announce"):
        play(state, "announce paris-port paris-port")
    state, _ = play(state, "announce paris-port biscay-1")
    assert state.phase == "throw"
    assert legal(state) == {"throw"}
    state, events = play(state, "throw")
    waves = events[0].waves
    assert state.leg is not None
    assert state.leg.first == ("paris-port" if waves % 2 == 0 else "biscay-1")
    for move in legal(state):
        _, moved = play(state, move)
        assert moved[0].path[1] == state.leg.first


def test_a_full_harbour_cannot_be_announced() -> None:
    full = [aboard("paris-port"), aboard("paris-port")]
    state = table([aboard("channel-1"), *full], phase="move", leg=leg(2, 6))
    state, _ = play(state, "sail channel-3")
    assert legal(state) == {"announce biscay-1 channel-2", "announce channel-2 biscay-1"}


def test_a_land_crossroads_stops_the_walk() -> None:
    state = table(
        [on_foot("paris", "paris-port"), aboard("fjord-east")], phase="move", leg=leg(points=4)
    )
    state, events = play(state, "walk ce-2")
    assert events[0].path == ("paris", "ce-1", "ce-2")
    assert state.phase == "announce"
    assert state.crossing is not None
    assert state.crossing.mode == "walk"


# Roadside loot on a crossroads and in the Viking's own harbour:
#   paris ── ce-1 ── ce-2 (crossroads, a dropped piece lies here) ── cologne
#                     │
#                   ce-3 ── zurich
#   london-port (his ship, a dropped piece lies here) ── en-1 ── london


def test_roadside_loot_on_a_crossroads_is_taken_with_the_exact_count() -> None:
    # rulebook: "A loot piece that was thrown away at the roadside (-> dragon) may be taken
    # along by any Viking who reaches that space directly with the matching point number."
    lying = (("ce-2", (11,)),)
    state = table(
        [on_foot("paris", "paris-port"), aboard("fjord-east")],
        phase="move",
        leg=leg(points=2),
        roadside=lying,
    )
    state, _ = play(state, "walk ce-2")
    state, events = play(state, "take")
    assert kinds(events) == ["RoadsideLootTaken", "CrossroadsReached"]
    taken = events[0]
    assert isinstance(taken, RoadsideLootTaken)
    assert taken.piece.audience == frozenset({0})
    assert state.vikings[0].carried == (11,)
    assert state.roadside == ()
    assert state.phase == "announce"
    # the crossroads also stops a longer walk, but then the count is not matched
    past = table(
        [on_foot("paris", "paris-port"), aboard("fjord-east")],
        phase="move",
        leg=leg(points=4),
        roadside=lying,
    )
    state, events = play(past, "walk ce-2")
    assert "RoadsideLootFound" not in kinds(events)
    assert state.roadside == lying


def test_roadside_loot_in_the_own_harbour_is_taken_and_loaded() -> None:
    lying = (("london-port", (11,)),)
    state = table(
        [on_foot("london", "london-port"), aboard("fjord-east")],
        phase="move",
        leg=leg(points=2),
        roadside=lying,
    )
    state, _ = play(state, "walk london-port")
    state, events = play(state, "take")
    assert kinds(events) == ["RoadsideLootTaken", "VikingBoarded", "TurnEnded"]
    viking = state.vikings[0]
    assert viking.aboard
    assert viking.cargo == (11,)
    assert viking.carried == ()
    assert state.roadside == ()


def test_lightning_in_a_crossroads_throw_on_land_draws_a_fate_card() -> None:
    # rulebook: "Whoever moves on land and throws a lightning bolt with his rune sticks must
    # additionally draw a card from the stack and follow the fate instruction on it."
    # The Viking stands on ce-2 and has announced "cologne even - ce-3 odd".
    road = card_of("road")
    state = table(
        [on_foot("ce-2", "paris-port"), aboard("fjord-east")],
        phase="announce",
        crossing=Crossing(space="ce-2", mode="walk"),
        deck=(road, *(c for c in range(33) if c != road)),
    )
    state, _ = play(state, "announce cologne ce-3")
    # a lightning bolt and a one: 1 point, odd, towards ce-3
    thrown = SticksThrown(seat=0, faces=(0, 1), points=1, waves=5, lightning=1)
    state = RULES.evolve(state, thrown)
    assert state.leg is not None
    assert state.leg.first == "ce-3"
    assert state.leg.lightning
    assert legal(state) == {"draw"}
    with pytest.raises(IllegalMove, match="draw"):
        play(state, "walk ce-3")
    state, events = play(state, "draw")
    assert isinstance(events[0], FateDrawn)
    assert events[0].kind == "road"
    # the good road adds two points; the announced direction still holds
    assert state.leg == Leg(mode="walk", points=3, first="ce-3")
    assert legal(state)
    assert all(play(state, move)[1][0].path[1] == "ce-3" for move in legal(state))
