"""Scenario walks for fate cards, arrows, ambushes and the Loot Feast.

Rulebook sections: "Fate Lightning Bolts", "Ambush", "Uncertainties", "Loot Feast".
"""

from __future__ import annotations

import pytest

from skald.core.errors import IllegalMove
from skald.core.hagar.data import pieces
from skald.core.hagar.scoring import score
from skald.core.hagar.state import Leg, Options, Viking
from skald.events.hagar import (
    ArrowShot,
    FateDrawn,
    FateShuffled,
    GiftsJudged,
    LootDropped,
    LootRobbed,
    TieThrown,
    TurnEnded,
    TurnSkipped,
    UncertaintyThrown,
)
from tests.test_hagar_support import RULES, aboard, card_of, kinds, on_foot, play, table


def legal(state, seat=None):  # type: ignore[no-untyped-def]
    return {RULES.format(c) for c in RULES.legal(state, state.turn if seat is None else seat)}


def piece(kind: str, value: int | None = None, nth: int = 0) -> int:
    found = [p.id for p in pieces() if p.kind == kind and (value is None or p.value == value)]
    return found[nth]


LIGHTNING = Leg(mode="any", points=1, waves=5, lightning=True)


def with_deck(kind: str, vikings: list[Viking], **more: object):  # type: ignore[no-untyped-def]
    top = card_of(kind)
    rest = tuple(c for c in range(33) if c != top)
    return table(vikings, phase="move", leg=LIGHTNING, deck=(top, *rest), **more)  # type: ignore[arg-type]


# Paris:
#   paris-port ── fr-1 ── fr-2 ── paris
#       │                          │
#     fr-3 ────────────────────────┘


def test_lightning_on_land_draws_a_card_before_walking() -> None:
    state = with_deck("road", [on_foot("fr-1", "paris-port"), aboard("fjord-east")])
    assert "draw" in legal(state)
    assert not any(m.startswith("walk") for m in legal(state))
    with pytest.raises(
        IllegalMove, match=r"may not walk to French road 2 .*'draw' a fate card first"
    ):
        play(state, "walk fr-2")
    state, events = play(state, "draw")
    drawn = events[0]
    assert isinstance(drawn, FateDrawn)
    assert drawn.kind == "road"
    assert drawn.barrier
    # the other stick's single point plus the good road's two
    assert state.leg == Leg(mode="walk", points=3)
    assert "walk ce-1" in legal(state)  # fr-1, fr-2, paris (empty), ce-1


def test_lightning_is_ignored_when_sailing() -> None:
    state = with_deck("dragon", [aboard("north-6"), aboard("fjord-east")])
    assert "draw" not in legal(state)
    assert "sail london-port" in legal(state)


def test_dragon_drops_the_loot_and_the_viking_flees_to_his_ship() -> None:
    state = with_deck("dragon", [on_foot("fr-1", "paris-port", carried=(7,)), aboard("fjord-east")])
    state, events = play(state, "draw")
    assert kinds(events)[:3] == ["FateDrawn", "LootDropped", "DragonFled"]
    dropped = events[1]
    assert isinstance(dropped, LootDropped)
    assert dropped.pieces.audience == frozenset({0})
    assert state.roadside == (("fr-1", (7,)),)
    viking = state.vikings[0]
    assert viking.aboard
    assert viking.at == "paris-port"
    assert viking.carried == ()
    # the ship lies in a harbour, not on the high seas: the other stick's point still counts
    assert legal(state) == {"walk fr-1", "walk fr-3"}


def test_dragon_with_the_ship_at_sea_ends_the_turn() -> None:
    state = with_deck("dragon", [on_foot("fr-1", "channel-2"), aboard("fjord-east")])
    state, events = play(state, "draw")
    assert kinds(events)[-1] == "TurnEnded"
    assert state.vikings[0].at == "channel-2"


def test_odin_carries_the_viking_into_the_next_city() -> None:
    state = with_deck(
        "odin",
        [on_foot("fr-1", "paris-port"), aboard("fjord-east")],
        stacks={"paris": (7,), "madrid": (8,)},
    )
    state, _ = play(state, "draw")
    assert state.phase == "odin"
    assert legal(state) == {"odin ship", "odin paris"}
    state, events = play(state, "odin paris")
    assert kinds(events) == ["OdinFlew", "CityPlundered", "TurnEnded"]
    assert state.vikings[0].at == "paris"
    assert state.vikings[0].carried == (7,)


def test_odin_carries_a_carrier_onto_his_ship_with_his_loot() -> None:
    state = with_deck(
        "odin",
        [on_foot("fr-1", "channel-2", carried=(7,)), aboard("fjord-east")],
        stacks={"paris": (8,)},
    )
    state, _ = play(state, "draw")
    assert legal(state) == {"odin ship"}
    state, _ = play(state, "odin ship")
    viking = state.vikings[0]
    assert viking.aboard
    assert viking.at == "channel-2"
    assert viking.cargo == (7,)


# Between Paris and Zürich:  paris ── ce-1 ── ce-2 ── ce-3 ── zurich   (ce-2 ── cologne)


def test_an_uncertainty_is_thrown_or_chosen_by_table_option() -> None:
    vikings = [on_foot("ce-2", "paris-port"), aboard("fjord-east")]
    stacks = {"paris": (7,), "zurich": (8,)}
    thrown = with_deck("odin", vikings, stacks=stacks)
    thrown, _ = play(thrown, "draw")
    assert legal(thrown) == {"odin ship", "odin city"}
    thrown, events = play(thrown, "odin city")
    settled = events[0]
    assert isinstance(settled, UncertaintyThrown)
    assert settled.options == ("paris", "zurich")
    assert thrown.vikings[0].at == settled.chosen
    chosen = with_deck("odin", vikings, stacks=stacks, options=Options(uncertainties="choose"))
    chosen, _ = play(chosen, "draw")
    assert legal(chosen) == {"odin ship", "odin paris", "odin zurich"}


def test_arrows_go_to_a_fellow_player_and_three_send_him_home() -> None:
    two = (card_of("arrow", 1), card_of("arrow", 2))
    state = with_deck("arrow", [on_foot("fr-1", "paris-port"), aboard("north-3", arrows=two)])
    state, _ = play(state, "draw")
    assert state.phase == "arrow"
    assert legal(state) == {"shoot 1"}
    with pytest.raises(IllegalMove, match="fellow"):
        play(state, "shoot 0")
    state, events = play(state, "shoot 1")
    assert events[0] == ArrowShot(seat=0, target=1, card=card_of("arrow"))
    wounded = state.vikings[1]
    assert wounded.wounded
    assert len(wounded.arrows) == 3
    # the quickest route: three lanes from north-3 to fjord-west, nothing else allowed
    home = table(list(state.vikings), turn=1, phase="move", leg=Leg(mode="any", points=1, waves=4))
    assert legal(home) == {"sail fjord-west"}


def test_a_wounded_viking_makes_no_loot() -> None:
    arrows = tuple(card_of("arrow", i) for i in range(3))
    # ce-1 ── paris ── fr-3 ── paris-port: Paris lies on his quickest way to the ship
    state = table(
        [on_foot("ce-1", "paris-port", arrows=arrows), aboard("fjord-east")],
        phase="move",
        leg=Leg(mode="any", points=1),
        stacks={"paris": (7,)},
    )
    assert legal(state) == {"walk paris"}
    state, events = play(state, "walk paris")
    assert kinds(events) == ["VikingWalked", "TurnEnded"]
    assert state.vikings[0].carried == ()


def test_mead_costs_the_next_turn_and_thor_gives_another() -> None:
    state = with_deck("mead", [on_foot("fr-1", "paris-port"), aboard("fjord-east")])
    state, _ = play(state, "draw")
    state, _ = play(state, "walk fr-2")
    assert state.turn == 1
    later = table(list(state.vikings), turn=1, phase="move", leg=Leg(mode="any", points=1, waves=4))
    _, events = play(later, "sail baltic-1")
    assert events[-2:] == (TurnSkipped(seat=0), TurnEnded(seat=1, next=1))
    thor = with_deck("thor", [on_foot("fr-1", "paris-port"), aboard("fjord-east")])
    thor, _ = play(thor, "draw")
    thor, events = play(thor, "walk fr-2")
    assert events[-1] == TurnEnded(seat=0, next=0, again=True)
    assert thor.turn == 0


def test_heavy_loot_is_dropped_and_the_healer_returns_arrows() -> None:
    heavy = with_deck("heavy", [on_foot("fr-1", "paris-port", carried=(7,)), aboard("fjord-east")])
    heavy, _ = play(heavy, "draw")
    assert heavy.roadside == (("fr-1", (7,)),)
    assert not heavy.vikings[0].aboard
    arrow = card_of("arrow")
    healer = with_deck(
        "healer", [on_foot("fr-1", "paris-port", arrows=(arrow,)), aboard("fjord-east")]
    )
    healer = table(
        list(healer.vikings),
        phase="move",
        leg=LIGHTNING,
        deck=tuple(c for c in healer.deck if c != arrow),
    )
    healer, events = play(healer, "draw")
    assert "ArrowsHealed" in kinds(events)
    assert arrow in healer.deck
    assert healer.vikings[0].arrows == ()


def test_an_empty_deck_is_refilled_from_the_discards() -> None:
    discards = tuple(c for c in range(33) if c != card_of("arrow"))
    state = table(
        [on_foot("fr-1", "paris-port"), aboard("fjord-east")],
        phase="move",
        leg=LIGHTNING,
        deck=(),
        discard=discards,
    )
    state, events = play(state, "draw")
    refill = events[0]
    assert isinstance(refill, FateShuffled)
    assert refill.reason == "discard"
    assert refill.deck.audience == frozenset()
    assert len(state.deck) + len(state.discard) == 32


# Ambush on a road:  de-2 ── de-1 ── hamburg-port ; at sea:  north-2 ── north-3


def test_an_ambush_on_land_takes_a_piece_drawn_face_down() -> None:
    state = table(
        [
            on_foot("de-2", "hamburg-port", carried=(4,)),
            on_foot("de-1", "danzig-port", carried=(11,)),
        ],
        phase="move",
        leg=Leg(mode="any", points=1),
    )
    state, events = play(state, "walk de-1")
    assert kinds(events)[-1] == "VikingsMet"
    assert legal(state) == {"rob 1", "spare"}
    state, events = play(state, "rob 1")
    robbed = events[0]
    assert isinstance(robbed, LootRobbed)
    assert robbed.barrier
    assert robbed.piece.audience == frozenset({0, 1})
    assert robbed.piece.get() == 11
    # one piece more than the attacker may normally carry
    assert state.vikings[0].carried == (4, 11)
    assert state.vikings[1].carried == ()


def test_bad_loot_can_be_forced_on_a_viking_who_carries_none() -> None:
    cheese = piece("cheese")
    state = table(
        [on_foot("de-2", "hamburg-port", carried=(cheese,)), on_foot("de-1", "danzig-port")],
        phase="move",
        leg=Leg(mode="any", points=1),
    )
    state, _ = play(state, "walk de-1")
    assert legal(state) == {"force 1 1", "spare"}
    state, events = play(state, "force 1 1")
    assert events[0].piece.audience == frozenset({0, 1})
    assert state.vikings[1].carried == (cheese,)
    assert state.vikings[0].carried == ()


def test_no_ambush_in_a_harbour_or_when_nothing_can_change_hands() -> None:
    harbour = table(
        [
            on_foot("de-1", "danzig-port", carried=(4,)),
            on_foot("hamburg-port", "riga-port", carried=(11,)),
        ],
        phase="move",
        leg=Leg(mode="any", points=1),
    )
    _, events = play(harbour, "walk hamburg-port")
    assert "VikingsMet" not in kinds(events)
    empty = table(
        [on_foot("de-2", "hamburg-port"), on_foot("de-1", "danzig-port")],
        phase="move",
        leg=Leg(mode="any", points=1),
    )
    _, events = play(empty, "walk de-1")
    assert kinds(events) == ["VikingWalked", "TurnEnded"]


def test_an_ambush_at_sea_loads_the_stolen_piece_onto_a_full_ship() -> None:
    state = table(
        [aboard("north-2", cargo=(1, 2, 3)), aboard("north-3", cargo=(9,))],
        phase="move",
        leg=Leg(mode="any", waves=1),
    )
    state, _ = play(state, "sail north-3")
    state, _ = play(state, "rob 1")
    assert state.vikings[0].cargo == (1, 2, 3, 9)
    assert state.vikings[1].cargo == ()
    again = table(
        [aboard("north-2", cargo=(1, 2, 3, 9)), aboard("north-3", cargo=(8,))],
        phase="move",
        leg=Leg(mode="any", waves=1),
    )
    _, events = play(again, "sail north-3")
    assert "VikingsMet" not in kinds(events)


def test_the_feast_is_called_with_seven_pieces_home_or_when_no_loot_can_come_home() -> None:
    """Rulebook "Loot Feast": "If a Viking has brought 7 loot pieces home, he may call the
    Loot Feast." The fallback follows its intent: while any piece can still be brought
    home (camp, roadside, hands, ships) the game goes on; only then may anyone call it."""
    six = table(
        [aboard("fjord-west", home=tuple(range(6))), aboard("fjord-east")], stacks={"paris": (30,)}
    )
    assert legal(six) == {"throw"}
    with pytest.raises(
        IllegalMove, match=r"may not call the Loot Feast .*: the feast needs 7 pieces home"
    ):
        play(six, "feast")
    seven = table(
        [aboard("fjord-west", home=tuple(range(7))), aboard("fjord-east")], stacks={"paris": (30,)}
    )
    assert legal(seven) == {"feast", "throw"}
    chests_wait = table([aboard("fjord-west"), aboard("fjord-east")])
    assert legal(chests_wait) == {"throw"}
    robbed = [aboard("fjord-west", robbed_camp=True), aboard("fjord-east", robbed_camp=True)]
    assert "feast" in legal(table(robbed))
    on_a_ship = [robbed[0], aboard("fjord-east", robbed_camp=True, cargo=(4,))]
    assert legal(table(on_a_ship)) == {"throw"}
    by_the_road = table(robbed, roadside=(("de-2", (4,)),))
    assert legal(by_the_road) == {"throw"}
    camp_open = [robbed[0], aboard("fjord-east")]
    assert legal(table(camp_open)) == {"throw"}
    assert legal(table(camp_open, camp=())) == {"feast", "throw"}
    limited = table(
        [aboard("fjord-west"), aboard("fjord-east")],
        stacks={"paris": (30,)},
        options=Options(max_rounds=2),
        rounds=2,
    )
    assert legal(limited) == {"feast"}


def test_feast_scoring_home_plus_one_ship_as_printed_carried_nothing_women_cancel() -> None:
    gold, weapons, cheese, woman = (
        piece("gold", 6),
        piece("weapons", 5),
        piece("cheese"),
        piece("foreign-woman"),
    )
    wine, chest = piece("wine", 4), piece("chest")
    viking = Viking(home=(gold, weapons, cheese, woman), cargo=(wine,), carried=(chest,))
    # gold (6+1) is matched with the woman; weapons 5+1, cheese 0, wine 4; the chest is
    # still being dragged along on land
    assert score(viking, {}) == 10


def test_the_feast_reveals_all_judges_gifts_and_ranks() -> None:
    jewel = piece("jewellery", 4)
    state = table(
        [
            aboard("fjord-west", home=(jewel, *range(6))),
            aboard("fjord-east", cargo=(piece("gold", 6),)),
        ]
    )
    state, events = play(state, "feast")
    assert kinds(events)[:2] == ["FeastCalled", "LootRevealed"]
    gifts = [e for e in events if isinstance(e, GiftsJudged)]
    assert gifts[0].seat == 0
    assert gifts[0].gifts == (jewel,)
    assert all(0 <= p <= 2 for g in gifts for p in g.points)
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.termination == "feast"
    assert RULES.to_act(state) == frozenset()
    assert state.revealed


def test_a_tie_at_the_feast_is_thrown_for_or_shared() -> None:
    same = [
        aboard("fjord-west", cargo=(piece("gold", 6),)),
        aboard("fjord-east", cargo=(piece("gold", 6),)),
    ]
    # the round limit makes the feast the only move (both ships still hold loot)
    thrown, events = play(table(same, options=Options(max_rounds=1), rounds=1), "feast")
    ties = [e for e in events if isinstance(e, TieThrown)]
    assert ties
    assert ties[0].seats == (0, 1)
    outcome = RULES.outcome(thrown)
    assert outcome is not None
    assert outcome.scores == (6, 6)
    assert outcome.termination == "feast_round_limit"
    assert outcome.tiebreaks == ties[0].points
    choose = Options(uncertainties="choose", max_rounds=1)
    shared, _ = play(table(same, options=choose, rounds=1), "feast")
    assert RULES.outcome(shared).ranking == ((0, 1),)  # type: ignore[union-attr]


# An ambush on a land crossroads:
#   paris ── ce-1 ── ce-2 (crossroads; seat 1 stands here with a piece) ── cologne
#                     │
#                   ce-3 ── zurich


def test_an_ambush_on_a_crossroads_comes_before_the_announcement() -> None:
    # rulebook: "If a Viking meets another Viking directly, on land or at sea, he tries to
    # profit from it" -- only harbours and cities are declared safe places.
    vikings = [on_foot("paris", "paris-port"), on_foot("ce-2", "danzig-port", carried=(11,))]
    state = table(vikings, phase="move", leg=Leg(mode="any", points=2))
    met, events = play(state, "walk ce-2")
    assert kinds(events) == ["VikingWalked", "CrossroadsReached", "VikingsMet"]
    assert legal(met) == {"rob 1", "spare"}
    robbed, events = play(met, "rob 1")
    assert kinds(events) == ["LootRobbed"]
    assert robbed.vikings[0].carried == (11,)
    assert robbed.phase == "announce"
    assert robbed.turn == 0
    assert "announce cologne ce-3" in legal(robbed)
    spared, events = play(met, "spare")
    assert kinds(events) == ["AmbushEnded"]
    assert spared.phase == "announce"
    assert spared.vikings[1].carried == (11,)
    assert spared.targets == ()
