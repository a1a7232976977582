"""Beast, fourth rules pass (rules version 6, issue 24): each deviation found, as a scenario
quoting the rulebook sentence it follows, played by legal moves from a seeded first game
(every move checked legal first). Where a scenario needs a position that legal play
reaches only over many days (every settlement transformed, six wounds of 1 on the table),
that position is arranged with `BeastGame.edit` and named as such; the step that went
wrong is then legal play again.

The map, Drenched Lands, is drawn in tests/test_beast_examples.py.
"""

from __future__ import annotations

import pytest

from skald.core.beast.data import (
    Effect,
    beast_mat,
    card_index,
    characters,
    check_sources,
    side_of,
)
from skald.core.beast.state import BEAST, Piece
from skald.core.errors import InvalidOption
from skald.events.beast import Damaged, Killed
from skald.projections.beast.view import beast_view, render_view
from tests.test_beast_examples import hunted, play
from tests.test_beast_examples_items import HUNTERS, RUSH, drafted, idle_until_night
from tests.test_beast_support import NAMES, BeastGame, day_one

PRINTED_SETTLEMENTS = ["place A1", "place A5", "place E1", "place E5"]

# -- 1. a hunter who died returns even when no settlement is left ----------------------


def no_settlement_left_and_helga_killed(**options: str) -> BeastGame:
    """Day 1 of a first game (Fangrir; Helga on A1, Assar on A5). Arranged: the Beast has
    transformed all four settlements into forest (as Insidious Growth does, "transforms
    each nearby location into forests") and Helga has one wound short of death. Then by
    legal play: the Beast's opening W, N (B2), Dash W, N onto A1, Prey Upon on Helga."""
    game = day_one(3, ("W", "N"), ("A1", "A5"), **options)
    settlements = game.state.settlements()
    assert sorted(settlements) == ["A1", "A5", "E1", "E5"]
    game.edit(habitats=tuple((loc, "forest") for loc in settlements))
    helga = game.state.hand_named("Helga")
    assert helga == 1
    game.edit_hand(helga, wounds=game.state.max_health(helga) - 1)
    play(game, "play Dash", "step W", "step N")
    assert game.state.beast.location == "A1"
    play(game, "play Prey Upon", "skip")
    events = play(game, "attack Helga")
    assert Killed(kind="hunter", ref=str(helga), by="beast") in events
    idle_until_night(game)
    assert game.state.phase == "respawn"
    assert game.state.settlements() == ()
    return game


def test_a_dead_hunter_returns_to_a_printed_settlement_when_none_is_left() -> None:
    """Rulebook "Player Death": "At the third step of the night, the hunter returns their
    standee to any settlement on the map and continues to play." ("3. Restore health": "in
    any settlement of their choice".) With every settlement transformed the night waited
    for Helga, whose legal moves were none: the game could never go on. The settlements
    the map prints are still "on the map" under their habitat tokens: she returns to one
    of them (table option hunter_return=printed, the default)."""
    game = no_settlement_left_and_helga_killed()
    helga_seat = game.state.hands[1].seat
    assert sorted(game.legal(helga_seat)) == PRINTED_SETTLEMENTS
    play(game, "place E5")
    assert game.state.hands[1].location == "E5"
    assert not game.state.hands[1].dead
    assert game.state.phase == "upgrade"


def test_the_table_may_send_returning_hunters_to_the_beast_starting_location() -> None:
    """The other reading, as a table option (hunter_return=centre): with no settlement
    left the hunter returns to the Beast starting location, "at the center of the map"."""
    game = no_settlement_left_and_helga_killed(hunter_return="centre")
    assert game.legal(game.state.hands[1].seat) == ["place C3"]
    play(game, "place C3")
    assert game.state.hands[1].location == "C3"


def test_a_bad_hunter_return_option_is_named() -> None:
    with pytest.raises(InvalidOption, match="hunter_return='nowhere'"):
        BeastGame(3, hunter_return="nowhere")


# -- 2. every attack deals its damage ---------------------------------------------------


def test_a_hit_places_its_wounds_whatever_tokens_lie_on_the_table() -> None:
    """Rulebook "Attacking": "Every attack deals 1 base damage." and "Wound tokens come in
    values of 3 and 1." The twelve tokens are denominations, not a cap: with six wounds of
    1 already beneath animals and settlers (arranged), Iona's Hunt on the Beast she finds
    still wounds it (before, no 1-token was left and a 3 was too much: nothing)."""
    game, _, _ = hunted()
    sturdy = [i for i, p in enumerate(game.state.pieces) if p.kind in ("noble", "boar", "bear")]
    assert len(sturdy) >= 6
    game.edit(
        pieces=tuple(
            Piece(p.kind, p.location, wounds=1) if i in sturdy[:6] else p
            for i, p in enumerate(game.state.pieces)
        )
    )
    play(game, "play Hunt", "search C2")
    assert not game.state.hidden
    events = play(game, "attack beast")
    assert Damaged(kind="beast", ref="beast", amount=1, by="hunter:1") in events
    assert game.state.beast.wounds == 1


# -- 3. Ancient powers and hunters' grudges only from the rulebook's sources ------------


def test_bolster_gives_assar_no_ancient_power() -> None:
    """Rulebook "Ancient Powers": "Ancient powers are gained from contract rewards, items,
    beastly talents and certain upgrades." Bolster is an action card: Assar (the first
    game's third player, who starts with it) played it and went from 0 to 1 Ancient power.
    Its reconstructed top half now heals and gives a grudge ("Hunters gain grudges ... by
    playing certain action or item cards")."""
    game = day_one(3)
    assert [game.state.hands[h].character for h in game.state.hunters] == ["Helga", "Assar"]
    play(game, "pass")  # the Beast
    play(game, "play Rush", "skip", "end")  # Helga ignores her Rush
    assar = game.state.hands[2]
    assert "Bolster" in assar.actions
    assert assar.powers == 0
    play(game, "play Bolster", "do", "do", "end")
    assert game.state.hands[2].powers == 0
    assert game.state.hands[2].grudges == assar.grudges + 1


def test_every_source_of_powers_and_hunter_grudges_is_one_the_rulebook_names() -> None:
    """Rulebook "Ancient Powers" (as above) and "Grudges": "Hunters gain grudges by
    completing contract rewards and by playing certain action or item cards." No action
    or ability card gives an Ancient power; no hunter's ability or upgrade gives grudges
    (Rally, Hollow, Bolster, Dark Rituals and Muster did); the loader refuses such data."""
    beasts = {b.name for b in characters().beast}
    for name, (kind, card) in card_index().items():
        sides = {
            "action": (True, False),
            "item": (False,),
            "talent": (True,),
            "ability": (getattr(card, "owner", "") in beasts,),
        }[kind]
        for beast in sides:
            ops = {e.op for e in side_of(name, beast).effects}
            if "power" in ops:
                assert kind in ("item", "talent"), name
            if "grudge" in ops and not beast:
                assert kind in ("action", "item"), name
    for hunter in characters().hunter:
        for upgrade in hunter.upgrades:
            assert "grudge" not in {e.op for e in upgrade.effects}, upgrade.name
    assert beast_mat("Mara").upgrades  # Mara's powers come from an upgrade (Dread)
    with pytest.raises(ValueError, match="not a source of Ancient powers"):
        check_sources((Effect(op="power"),), "action", False, "Bolster")
    with pytest.raises(ValueError, match="not a source of grudges"):
        check_sources((Effect(op="grudge"),), "upgrade", False, "Muster")
    check_sources((Effect(op="grudge"),), "ability", True, "a Beast ability")


# -- 4. every Beast movement lays its full count of cards -------------------------------


def test_the_opening_is_always_two_movement_cards() -> None:
    """Rulebook "Player starting positions": "The Beast then gets to move up two steps by
    playing two movement cards." `skip` (no card) and `stop` after one card were legal,
    and the hunters, who count the cards, learned that the Beast had not moved."""
    game = BeastGame(3, seed="fourth-pass", setup="first")
    assert game.legal() == ["step N", "step E", "step S", "step W", "step X"]
    play(game, "step N")
    assert "stop" not in game.legal()
    assert "step X" in game.legal()  # C2 holds no settler: No Movement for step two
    play(game, "step X")
    assert game.state.phase == "place"
    hunters = beast_view(game.state, HUNTERS)
    assert hunters.active_count == 2


def test_dash_lays_a_card_for_each_of_its_steps() -> None:
    """Rulebook "Example Beast movement": "By playing the action card "Rush", the Beast may
    move up to three steps. The Beast player does so by choosing three movement cards ...
    For example: the first card is No Movement, then East and finally North." Up to N
    steps is N cards: Dash's "up to two" lays two, No Movement for a step not taken."""
    game = day_one(3)
    before = len(game.state.active)
    play(game, "play Dash", "step W")
    assert "stop" not in game.legal()
    play(game, "step X")
    assert not game.state.frames
    assert len(game.state.active) == before + 2
    assert beast_view(game.state, HUNTERS).active_count == before + 2


def test_rush_lays_three_cards() -> None:
    """The same example with Rush, drafted at the first dawn ("Rush ... allows the Beast
    to move 3 steps within its current zone"). (A hunter, who moves a standee and lays no
    cards, may still stop after a step: tests/test_beast_scenarios.py.)"""
    game = drafted(RUSH, ("Rush",))
    before = len(game.state.active)
    play(game, "play Rush", "step E")
    assert "stop" not in game.legal()
    play(game, "step X")
    assert "stop" not in game.legal()
    play(game, "step N", "end")
    assert len(game.state.active) == before + 3


# -- the hunters' view of a revealed Beast ------------------------------------------------


def test_the_hunters_see_where_the_revealed_beast_stands() -> None:
    """Rulebook "Revealing": "When the Beast is revealed, it shows all of its active
    movement cards to the other players ... The Beast moves its standee to that location."
    The hunters' text view still said "Fangrir ... at hidden location"."""
    game, _, _ = hunted()
    hidden = beast_view(game.state, HUNTERS)
    assert hidden.hands[0].location is None
    assert "Fangrir (Ann) at hidden location" in render_view(hidden, NAMES)
    play(game, "play Hunt", "search C2")
    assert not game.state.hidden
    shown = beast_view(game.state, HUNTERS)
    assert shown.hands[0].location == "C2" == shown.standee
    text = render_view(shown, NAMES)
    assert "Fangrir (Ann) at C2" in text
    assert "hidden location" not in text


def test_a_stride_upgrade_adds_a_card_to_every_movement() -> None:
    """The same rule with Mara's stride upgrade Dusk Stride (reconstructed: +1 step to every
    move effect), arranged as unlocked: Dash's "up to two" steps are three, so three cards,
    the last No Movement."""
    game = day_one(3, beast="Mara")
    game.edit_hand(BEAST, upgrades=("Dusk Stride",))
    before = len(game.state.active)
    play(game, "play Dash", "step W", "step N")
    assert "stop" not in game.legal()
    play(game, "step X")
    assert not game.state.frames
    assert len(game.state.active) == before + 3
