"""Beast mechanics beyond the rulebook's worked examples: card rules (choose one, in any
order, copy, costs), pass and flee, deaths and respawns, ancient powers and upgrades,
the night, the draft for each player count, and the end of the game.

Positions are on Drenched Lands (see test_beast_scenarios.py for the map).
"""

from __future__ import annotations

import pytest

from skald.core.beast.state import BEAST
from skald.core.errors import IllegalMove
from skald.events.beast import (
    BeastRestored,
    BeastRevealed,
    Damaged,
    GrudgesGained,
    HunterLooted,
    Killed,
    RewardEarned,
    Searched,
    Step,
)
from tests.test_beast_support import BeastGame, day_one


def test_pass_only_when_nobody_holds_fewer_action_cards() -> None:
    game = day_one()
    assert "pass" in game.legal()  # 4, 4 and 4 cards
    game.edit_hand(1, actions=("Rush",))
    assert "pass" not in game.legal()
    with pytest.raises(IllegalMove, match=r"'pass' is not legal for seat 0 \(Fangrir\)"):
        game.do("pass")


def test_the_day_ends_when_everyone_passes_in_a_row() -> None:
    game = day_one()
    for hand in range(3):
        game.edit_hand(hand, actions=())
    game.do("pass", "pass")
    assert game.state.phase == "day"
    game.do("pass")
    assert game.state.phase in ("upgrade", "respawn")
    assert game.state.day == 1


def test_flee_discards_a_card_and_moves_one_hidden_step() -> None:
    game = day_one()
    game.do("flee Charge", "step N")
    state = game.state
    assert "Charge" in state.discard
    assert "Charge" not in state.beast.actions
    assert state.active[-1].location == "C2"
    assert state.turn == 1


def test_choose_one_effect_resolves_only_the_chosen_one() -> None:
    game = day_one(hunters="Iona,Helga")
    game.edit(turn=1)
    game.edit_hand(1, actions=("Hidden Passage",), location="A1")
    game.do("play Hidden Passage")
    assert game.legal() == ["choose 1", "choose 2"]
    game.do("choose 2")
    assert game.legal() == ["search A1", "skip"]
    events = game.do("search A1")
    assert Searched(hand=1, location="A1", found=False) in events
    assert not game.state.frames


def test_in_any_order_lets_the_search_come_before_the_move() -> None:
    game = day_one(hunters="Iona,Helga")
    game.edit(turn=1)
    game.edit_hand(1, actions=("Haste",), location="A1")
    game.do("play Haste")
    assert "search A1" in game.legal()
    assert "step S" in game.legal()
    game.do("search A1", "step S")
    assert game.hand(1).location == "A2"
    assert not game.state.frames


def test_copy_plays_a_discarded_card_which_stays_in_the_discard() -> None:
    game = day_one(hunters="Iona,Helga")
    game.edit(turn=1, discard=("Rush",))
    game.edit_hand(1, actions=("Animate",), location="A1")
    game.do("play Animate", "copy Rush", "step S", "step E")
    assert game.hand(1).location == "B2"
    assert game.state.discard == ("Rush", "Animate")
    assert not game.state.frames


def test_grudge_costs_are_paid_and_required() -> None:
    game = day_one()
    game.edit_hand(BEAST, extras=("Savage Bite",), grudges=0)
    assert "play Savage Bite" not in game.legal()
    game.edit_hand(BEAST, grudges=1)
    events = game.do("play Savage Bite")
    assert GrudgesGained(hand=BEAST, amount=-1) in events
    assert game.hand(BEAST).grudges == 0


def test_a_hunter_killed_by_the_beast_loses_items_and_grudges_and_returns_at_night() -> None:
    game = day_one()
    game.edit_hand(1, location="C3", wounds=5, extras=("Outpost",), grudges=2)
    game.do("play Prey Upon", "decline", "skip")  # Helga holds an item: asked
    events = game.do("attack Helga")
    assert Killed(kind="hunter", ref="1", by="beast") in events
    assert GrudgesGained(hand=BEAST, amount=1) in events
    loot = next(e for e in events if isinstance(e, HunterLooted))
    assert loot.card.get() in game.hand(BEAST).actions
    assert len(game.hand(1).actions) == 3
    assert loot.card.audience == frozenset(range(game.state.players))  # not spectators
    helga = game.hand(1)
    assert helga.dead
    assert helga.extras == ()
    assert helga.grudges == 0
    assert helga.location == ""
    assert game.state.item_discard == ("Outpost",)  # face down beside the deck
    game.do("end")
    assert game.state.turn == 2  # Helga's turn was skipped
    for hand in range(3):
        game.edit_hand(hand, actions=())
    game.do("pass", "pass")
    assert game.state.phase == "respawn"
    assert game.legal(1)[0].startswith("place")
    game.do("place E1", seat=1)
    assert not game.hand(1).dead
    assert game.hand(1).wounds == 0
    assert game.state.phase == "upgrade"


def test_ancient_powers_add_damage_and_are_spent() -> None:
    game = day_one()
    game.edit_hand(BEAST, location="A1", powers=1)
    game.edit(standee="A1")
    game.do("play Prey Upon", "skip")
    assert "attack A1/noble +1" in game.legal()
    events = game.do("attack A1/noble +1")
    assert Damaged(kind="piece", ref="1", amount=2, by="beast") in events
    assert GrudgesGained(hand=BEAST, amount=2) in events
    assert game.hand(BEAST).powers == 0


def test_the_damage_upgrade_makes_every_attack_deal_two() -> None:
    game = day_one()
    game.edit_hand(BEAST, location="A1", upgrades=("Bloodlust",))
    game.do("play Prey Upon", "skip")
    events = game.do("attack A1/farmer")
    assert Damaged(kind="piece", ref="0", amount=2, by="beast") in events


def test_night_rewards_reset_and_upgrades_beast_first() -> None:
    game = day_one()
    game.edit(stats=(("animal_kills", 2), ("reveals", 1)))
    for hand in range(3):
        game.edit_hand(hand, actions=())
    game.edit_hand(BEAST, spent=("Prey Upon",), abilities=())
    game.do("pass", "pass", "pass")
    events = game.log[-12:]
    assert RewardEarned(side="beast", night=1) in events
    assert RewardEarned(side="hunters", night=1) in events
    assert game.hand(BEAST).grudges == 2
    assert game.hand(1).grudges == 2
    assert "Prey Upon" in game.hand(BEAST).abilities
    assert game.seat() == 0
    assert "upgrade Bloodlust" in game.legal()
    game.do("upgrade Hunting Grounds")  # yellow: transform now
    game.do("do")
    assert game.state.habitat(game.hand(BEAST).location) == "forest"
    game.do("done")
    assert game.seat() == 1
    assert game.hand(BEAST).grudges == 1
    game.do("done", "done")
    assert game.state.phase == "draft"
    assert game.state.day == 1


def test_the_beast_dies_once_per_life() -> None:
    game = day_one(contract="blood-moon", hunters="Assar,Helga")  # two lives
    assert game.state.map == "northern-expanse"
    game.edit(turn=1, active=(), standee="C3")
    game.edit_hand(BEAST, wounds=9)
    game.edit_hand(1, location="C3")
    game.do("play Cleave")  # two attacks of 1 base damage each
    events = game.do("attack beast")
    assert Killed(kind="beast", ref="beast", by="hunter:1") in events
    assert BeastRestored() in events
    assert not game.state.winner
    game.edit_hand(BEAST, wounds=9)
    game.do("attack beast")
    assert game.state.winner == "hunters"
    assert game.state.reason == "beast_killed"


def test_the_beast_wins_when_enough_settlers_die_and_shows_its_cards() -> None:
    game = day_one(beast_steps=("N", "S"))
    game.edit(stats=(("settler_kills", 4),))
    game.edit_hand(BEAST, location="A1", extras=("Lunge",))
    game.do("play Lunge")
    events = game.do("attack A1/farmer")
    assert game.state.winner == "beast"
    assert game.state.reason == "settlers_killed"
    revealed = [e for e in events if isinstance(e, BeastRevealed)]
    assert revealed
    assert revealed[0].cause == "attack"
    game = day_one(beast_steps=("N",))
    game.edit(stats=(("settler_kills", 4),))
    game.edit_hand(BEAST, location="A1")
    game.edit(summons=(type(game.state.summons[0])("Wolf1", "A1"), *game.state.summons[1:]))
    game.do("play Summon Wolf", "rally")
    events = game.do("Wolf1 attack A1/farmer")  # a summon's kill counts too
    assert game.state.winner == "beast"
    assert isinstance(events[-1], BeastRevealed)
    assert events[-1].cause == "game_end"
    assert game.state.active == ()


@pytest.mark.parametrize(
    ("players", "beast_cards", "hunter_cards"), [(2, 4, (4, 4)), (3, 4, (4, 4)), (4, 4, (3, 3, 3))]
)
def test_the_draft_deals_keeps_and_passes_by_player_count(
    players: int, beast_cards: int, hunter_cards: tuple[int, ...]
) -> None:
    game = BeastGame(players, seed="draft")
    game.do("step X", "step X")
    game.do(*("place A1",) * len(game.state.hunters))
    assert game.state.phase == "draft"
    while game.state.phase == "draft":
        game.do(game.legal()[0])
    assert game.state.phase == "day"
    assert game.state.aside == ""
    assert len(game.hand(BEAST).actions) == beast_cards
    assert tuple(len(game.hand(h).actions) for h in game.state.hunters) == hunter_cards


def test_seer_makes_the_beast_tell_its_zone() -> None:
    game = day_one(beast_steps=("E", "E"))  # D3, E3: the East zone
    game.edit(turn=1)
    game.do("play Seer")
    events = game.do("do")
    assert [e.zones for e in events if type(e).__name__ == "ZoneDisclosed"] == [("East",)]


def test_track_searches_only_trails_and_the_standee_within_two_steps() -> None:
    game = day_one(hunters="Assar,Helga")
    game.edit_hand(BEAST, actions=("Rush",))
    game.do("play Rush", "step E", "step N", "step X", "end")  # D3, D2; standee C3
    game.edit_hand(1, location="D4")
    assert game.state.active[2] == Step("E", "D3")  # after the opening's two X
    game.edit(trailed=(2,))  # a trail on D3
    game.do("play Track", "skip")
    assert sorted(game.legal()) == ["search C3", "search D3", "skip"]
    game.do("search D3")
    assert game.state.hidden


def test_dark_dealings_gains_a_face_up_talent_or_a_secret_one() -> None:
    game = day_one()
    row = game.state.talent_row
    game.do("play Dark Dealings", f"take {row[1]}")
    assert row[1] in game.hand(BEAST).extras
    assert row[1] not in game.state.talent_row
    game = day_one()
    top = game.state.talent_deck[0]
    events = game.do("play Dark Dealings", "take deck")
    gained = next(e for e in events if type(e).__name__ == "CardGained")
    assert gained.card.audience == frozenset({0})
    assert top in game.hand(BEAST).extras


def test_an_ability_discarded_to_flee_returns_at_night() -> None:
    game = day_one()
    game.do("flee Summon Wolf", "step N")
    assert "Summon Wolf" in game.hand(BEAST).spent
    assert "Summon Wolf" not in game.state.discard
    for hand in range(3):
        game.edit_hand(hand, actions=())
    game.do("pass", "pass", "pass")
    assert "Summon Wolf" in game.hand(BEAST).abilities
