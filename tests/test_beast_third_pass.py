"""Beast, third rules pass: each deviation found, as a scenario reached through legal play
only (seeded games, every move checked legal first; nothing set up by hand), quoting the
rulebook sentence it follows.

Drenched Lands (north up; S settlement, F forest, W swamp, C cave, * centre, ~ no land):

        A     B     C     D     E
    1   S     W     ~     F     S        zones: West = columns A-B and C2,
    2   F     C     W     W     F               East = columns D-E and C4;
    3   W     F     *     C     W               the centre C3 is in both.
    4   C     W     W     F     C
    5   S     F     ~     W     S
"""

from __future__ import annotations

from skald.core.beast.state import BEAST
from skald.events.beast import ReactionWindowOpened
from tests.test_beast_examples import day_one, play
from tests.test_beast_examples_items import drafted, first_game, ignore


def test_the_effects_of_an_if_card_cannot_be_ignored() -> None:
    """Rulebook "Phase 2: Day", Play cards: "You have the option to ignore one or more
    effects on the card you played, unless they meet either of the requirements "if", or
    "then"." and "if — A requirement needs to be fulfilled." Gather the Pack is played
    "if" the Beast stands on a forest ("Habitat prerequisites"): both its summons resolve."""
    game = day_one(beast_steps=("W",))  # actual B3, a forest
    play(game, "play Gather the Pack")
    assert "skip" not in game.legal()
    assert sorted(game.legal()) == ["summon A2", "summon B3", "summon B5"]
    play(game, "summon A2")
    assert "skip" not in game.legal()
    assert "rally" in game.legal()
    play(game, "summon B5")
    assert not game.state.frames
    assert [s.location for s in game.state.summons] == ["A2", "B5", ""]


def test_every_effect_of_a_zone_card_is_bound_to_the_zone_attacks_too() -> None:
    """Rulebook "Zone prerequisites": "Whenever you play a card that has the word zone on
    it, the effects on that card are bound within the zone you are in at the time the card
    is played. The center location is included in the three adjacent zones." Ambush (the
    Beast's half: move 1 step within your zone, then attack nearby), played on the centre
    C3 and stepping north into the West zone (C2): the attack stays in the West, so the
    sheep on D2 (East, one road away) cannot be its target; the sheep on C2 and the bear
    on B2 (West) can."""
    game = drafted("third-pass-5", ("Ambush",))
    assert "Ambush" in game.state.beast.actions
    play(game, "play Ambush")
    assert "skip" not in game.legal()  # a "then" card
    play(game, "step N")
    assert game.state.beast.location == "C2"
    assert game.state.board.zones_of("D2") == ("E",)
    attacks = [m for m in game.legal() if m.startswith("attack ")]
    assert attacks == ["attack C2/sheep", "attack B2/bear"]


def test_a_summon_placed_by_a_zone_card_stays_in_its_zone() -> None:
    """Rulebook "Zone prerequisites" (as above) and "Place a summon": "Place the summon up
    to two steps away from your actual location." Stalk (move 1 step within your zone, then
    summon), played on the centre and stepping north into the West zone (C2): of the
    forests two steps from C2, the West's A2 and B3 take the Wolf, the East's D1 and E2 do
    not."""
    game = first_game("third-pass-6", "Iona,Helga", (), ("A1", "A1"))
    assert "Stalk" in game.state.talent_row
    play(game, "play Dark Dealings", "take Stalk", "end")
    ignore(game, "Rush")  # Iona
    ignore(game, "Bolster")  # Helga
    assert game.state.turn == BEAST
    play(game, "play Stalk", "step N")
    assert game.state.beast.location == "C2"
    board = game.state.board
    forests = {loc for loc in board.within("C2", 2) if board.habitat[loc] == "forest"}
    assert forests == {"A2", "B3", "D1", "E2"}
    assert sorted(m for m in game.legal() if m.startswith("summon ")) == [
        "summon A2",
        "summon B3",
    ]


def test_hunt_on_the_revealed_beast_may_be_answered_by_an_attack_reaction() -> None:
    """Rulebook "Reactions": "Each reaction has a prerequisite specifying when you are
    allowed to play it. Reactions happen before the card that triggered them." Thick Hide
    (reconstructed) answers a hunter's card that attacks the revealed Beast; Hunt searches
    and then attacks, so against the revealed Beast it meets that prerequisite as well as a
    search reaction's."""
    game = first_game("third-pass-19", "Iona,Helga", ("N",), ("A1", "A1"))  # actual C2
    play(game, "play Dark Dealings", "take Thick Hide", "end")
    play(game, "play Rush", "step E", "step S")  # Iona: A1, B1, B2
    play(game, "play Keen Eye")  # searches one step around B2
    assert game.legal(BEAST) == ["decline"]  # a search: Thick Hide does not answer it
    play(game, "decline", "search C2")
    assert not game.state.hidden
    assert game.state.standee == "C2"
    ignore(game, "Bolster")  # Helga
    play(game, "pass")  # the Beast stays revealed on C2
    play(game, "play Incite", "step E", "skip", "end")  # Iona onto C2
    ignore(game, "Avarice")  # Helga: two cards left, like Iona
    ignore(game, "Dash")  # the Beast (three cards: it may not pass) stays on C2
    events = play(game, "play Hunt")  # Iona again, on the Beast's location
    assert ReactionWindowOpened(trigger="search attack") in events
    assert game.legal(BEAST) == ["react Thick Hide", "decline"]
