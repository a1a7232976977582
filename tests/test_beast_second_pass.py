"""Beast, second rules pass (issue 15): each deviation a careful reading found, as a
scenario quoting the rulebook sentence it follows.

Drenched Lands around the centre C3 (the first-time map for 2-3 players):

        C2 (West)
    B3 (West)  C3 centre  D3 (East)
        C4 (East)
"""

from __future__ import annotations

import pytest

from skald.core.beast.data import Effect, cards, characters, check_base_damage
from skald.core.beast.state import BEAST, Summon
from skald.events.beast import CardAssigned, Damaged, SummonPlaced, WatchtowerPlaced
from skald.events.viewer import seat_viewer
from skald.projections.beast.view import beast_view
from tests.test_beast_support import BeastGame, day_one

TOWERS = ("A1", "A2", "A3", "B1", "B2", "E5")


def test_every_attack_and_trap_in_the_data_deals_one_base_damage() -> None:
    """Rulebook "Attacking": "Every attack deals 1 base damage." """
    data = cards()
    sides = [s for a in data.action for s in (a.top, a.bottom)]
    sides += [c.side for c in (*data.ability, *data.item, *data.talent)]
    effects = [e for side in sides for e in side.effects]
    effects += [
        e
        for m in (*characters().beast, *characters().hunter)
        for u in m.upgrades
        for e in u.effects
    ]
    hits = [e for e in effects if e.op in ("attack", "trap")]
    assert len(hits) > 30
    assert {e.n for e in hits} == {1}
    with pytest.raises(ValueError, match="1 base damage"):
        check_base_damage((Effect("attack", n=2),), "cards.toml")


def test_every_trap_is_the_fire_trap_under_another_name() -> None:
    """Rulebook "Traps" describes no trap but one: "the trap activates (flip the trap face
    up) and the Beast receives a wound token" (Example Trap, a Fire Trap). The other trap
    names are reconstructed and, the rulebook being silent, behave exactly like it."""
    traps = {c.name: c.side for c in cards().item if any(e.op == "trap" for e in c.side.effects)}
    assert {"Fire Trap", "Bear Trap", "Pit Trap"} <= set(traps)
    fire = traps["Fire Trap"]
    for name, side in traps.items():
        assert (side.effects, side.cost, side.mode, side.react) == (
            fire.effects,
            fire.cost,
            fire.mode,
            fire.react,
        ), name
    assert fire.effects == (Effect("trap", n=1),)


def test_silver_blade_hits_harder_only_through_the_ancient_power_it_grants() -> None:
    """Rulebook "Ancient Powers": "Ancient powers are gained from contract rewards, items,
    ..." and "The Ancient power gives one attack of your choice 1 more damage." """
    game = day_one(hunters="Iona,Helga")
    game.edit(turn=1, active=(), standee="A1")
    game.edit_hand(1, extras=("Silver Blade",), grudges=1, location="A1")
    game.do("play Silver Blade", "do")  # the power first ("then")
    assert game.hand(1).powers == 1
    assert sorted(game.legal()) == ["attack beast", "attack beast +1"]
    events = game.do("attack beast")
    assert [e.amount for e in events if isinstance(e, Damaged)] == [1]
    assert game.hand(1).powers == 1  # kept for another attack


def _all_towers_out() -> BeastGame:
    game = day_one(hunters="Iona,Helga")
    game.edit(turn=1, towers=TOWERS)
    game.edit_hand(1, extras=("Outpost",), location="D2")
    game.do("play Outpost")
    return game


def test_the_seventh_watchtower_moves_one_the_player_names_or_none() -> None:
    """Rulebook "Watchtowers": "If all watchtowers are currently on the map and a player is
    allowed to place another, he or she may move an existing watchtower to its new
    location." """
    game = _all_towers_out()
    assert sorted(game.legal()) == sorted([*(f"tower {t}" for t in TOWERS), "skip"])
    events = game.do("tower B2")
    assert WatchtowerPlaced(location="D2", moved_from="B2") in events
    assert sorted(game.state.towers) == sorted(("A1", "A2", "A3", "B1", "D2", "E5"))
    declined = _all_towers_out()
    declined.do("skip")
    assert declined.state.towers == TOWERS


def test_the_beast_names_the_summon_that_moves_when_all_are_out() -> None:
    """Rulebook "Summons": "If all summons are currently on the map and the Beast is
    allowed to place another, move an existing summon to its new location." """
    game = day_one()
    out = (Summon("Wolf1", "A1"), Summon("Wolf2", "E5"), Summon("Wolf3", "A5"))
    game.edit(summons=out)
    game.edit_hand(BEAST, abilities=("Summon Wolf",))
    game.do("play Summon Wolf")
    places = [m for m in game.legal() if m.startswith("summon ")]
    assert places
    assert all(len(m.split()) == 3 for m in places)
    where = places[0].split()[1]
    assert {m.split()[2] for m in places if m.split()[1] == where} == {
        "Wolf1",
        "Wolf2",
        "Wolf3",
    } - {s.name for s in out if s.location == where}
    events = game.do(f"summon {where} Wolf2")
    assert SummonPlaced(summon="Wolf2", location=where) in events
    assert game.state.summon_at("Wolf1") == "A1"


def test_two_players_assign_their_drafted_cards_after_the_draft() -> None:
    """Rulebook "2 player draft": "During the draft the hunter player selects two action
    cards instead of one. After the draft, the hunter assigns all the action cards evenly
    between the two hunter characters." """
    game = BeastGame(2, seed="assign")
    game.do("step X", "step X")
    game.do("place A1", "place A1")
    hunter_seat = game.state.hands[1].seat
    while any(game.state.picks) or (game.state.phase == "draft" and not game.state.pool):
        moves = game.legal()
        assert all(m.startswith("draft ") and "@" not in m for m in moves)
        game.do(moves[0])
    assert game.state.phase == "draft"
    assert len(game.state.pool) == 8
    assert game.hand(1).actions == game.hand(2).actions == ()
    beast_sees = beast_view(game.state, seat_viewer(game.state.beast.seat))
    assert beast_sees.pool is None
    assert beast_sees.pool_count == 8
    assert beast_view(game.state, seat_viewer(hunter_seat)).pool == game.state.pool
    first = game.legal()
    assert first
    assert all(m.startswith("assign ") for m in first)
    card = game.state.pool[0]
    events = game.do(f"assign {card} @{game.hand(2).character}")
    assert any(isinstance(e, CardAssigned) and e.hand == 2 for e in events)
    assert game.hand(2).actions == (card,)
    while game.state.pool:
        game.do(game.legal()[-1])
    assert len(game.hand(1).actions) == len(game.hand(2).actions) == 4
    assert game.state.phase == "day"


def test_a_zone_bound_move_from_the_centre_stays_in_the_zone_it_enters() -> None:
    """Rulebook "Zone prerequisites": "the effects on that card are bound within the zone
    you are in at the time the card is played. The center location is included in the
    three adjacent zones." From the centre, the first step chooses the zone: going back
    through the centre into the other zone would leave it."""
    game = day_one()
    game.edit_hand(BEAST, actions=("Rush",))
    game.do("play Rush", "step E")  # D3, East
    game.do("step W")  # back on the centre C3
    steps = {m for m in game.legal() if m.startswith("step ")}
    assert {"step E", "step S"} <= steps
    assert not steps & {"step N", "step W"}


def test_a_move_is_ignored_with_skip_never_stopped_before_its_first_step() -> None:
    """Rulebook "Play cards": "You have the option to ignore one or more effects on the card
    you played, unless they meet either of the requirements "if", or "then"." and "Flee:
    Discard 1 card of any type to move 1 step." """
    game = day_one()
    game.edit_hand(BEAST, actions=("Rush", "Charge", "Dash"))
    game.do("play Rush")
    assert "stop" not in game.legal()
    assert "skip" in game.legal()
    game.do("step N")
    # the Beast lays Rush's full count: No Movement for the steps it does not take
    assert "stop" not in game.legal()
    assert "step X" in game.legal()
    game.do("step X", "step X", "end")
    game.edit(turn=0, slots=(), passes=0)
    game.do("play Charge")  # "then": move 1, then attack
    assert "skip" not in game.legal()
    assert "stop" not in game.legal()
    flee = day_one()
    flee.edit_hand(BEAST, actions=("Dash",))
    flee.do("flee Dash")
    assert not {"skip", "stop"} & set(flee.legal())
