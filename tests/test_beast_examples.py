"""The Beast rulebook's own worked examples, reached through legal play (issue 15).

Each game starts from `RULES.start` (a chosen seed, the first-game set-up on the
reconstructed Drenched Lands map, hunters Iona and Helga) and goes on only by moves the
rules accept: no hand, location or card is set up by hand. In the first-game set-up the
starting hands are fixed (Fangrir: Charge, Dash, Pursuit, Dark Dealings; Iona: Incite,
Rush, Prowl, Hidden Passage), so where the rulebook's Beast plays "Rush" the Beast here
plays "Dash" (its bottom half: 2 steps), and the hunter's Rush is Iona's own.

Drenched Lands (north up; S settlement, F forest, W swamp, C cave, * centre, ~ no land):

        A     B     C     D     E
    1   S     W     ~     F     S
    2   F     C     W     W     F
    3   W     F     *     C     W
    4   C     W     W     F     C
    5   S     F     ~     W     S
"""

from __future__ import annotations

from typing import Any

from skald.events.beast import BeastRevealed, Damaged, HunterMoved, Searched, Step, TrailsPlaced
from skald.events.viewer import Viewer
from skald.projections.beast.view import beast_view
from tests.test_beast_support import BeastGame, opening

SEED = "rulebook-example"


def day_one(beast_steps: tuple[str, ...] = (), places: tuple[str, str] = ("A1", "A1")) -> BeastGame:
    """Day 1 of a seeded first game, the Beast to play; every move checked legal first."""
    game = BeastGame(3, seed=SEED, setup="first", hunters="Iona,Helga")
    moves = [f"step {d}" for d in opening(beast_steps)]
    moves += [f"place {p}" for p in places]
    play(game, *moves)
    assert game.state.phase == "day"
    assert game.state.turn == 0
    return game


def play(game: BeastGame, *moves: str) -> list[Any]:
    events: list[Any] = []
    for move in moves:
        assert move in game.legal(), (move, game.legal())
        events = game.do(move)
    return events


def test_beast_movement_is_hidden_and_the_standee_stays() -> None:
    """ "The Beast's actual location is now two steps away ... the first movement card
    causes the Beast to remain on its current location, the second moves the Beast one step
    East, and the third moves the Beast one step North, but the standee does not move until
    revealed." (Example Beast movement; Dash here, see the module note)"""
    game = day_one()
    assert game.state.standee == "C3"
    play(game, "play Dash", "step E", "step N", "end")
    state = game.state
    # after the opening's two No Movement cards
    assert state.active == (Step("X", "C3"), Step("X", "C3"), Step("E", "D3"), Step("N", "D2"))
    assert state.beast.location == "D2"
    assert state.standee == "C3"
    assert state.hidden


def hunted() -> tuple[BeastGame, list[Any], list[Any]]:
    """The rulebook's hunter steps "to the right" (east) twice onto locations matching the
    Beast's active movement cards. Day 1: the Beast goes C3 -> B3 -> B2 (first day), Iona
    is placed on A1 and Helga on A5. The Beast passes; Iona plays Incite and steps S onto
    A2; Helga plays Bolster; the Beast plays Dash, steps E onto C2 and lays No Movement
    for Dash's second step (its active cards: B3, B2, C2, C2). Then Iona plays Rush and
    steps E onto B2, then E onto C2."""
    game = day_one(beast_steps=("W", "N"), places=("A1", "A5"))
    play(game, "pass")
    play(game, "play Incite", "step S", "skip", "end")
    assert game.state.hands[1].location == "A2"
    play(game, "play Bolster", "do", "do", "end")
    play(game, "play Dash", "step E", "step X", "end")  # Dash: up to 2 steps, 2 cards
    assert game.state.beast.location == "C2"
    assert game.state.active == (
        Step("W", "B3"),
        Step("N", "B2"),
        Step("E", "C2"),
        Step("X", "C2"),
    )
    assert game.state.trailed == ()
    assert game.state.turn == 1
    first = play(game, "play Rush", "step E")
    # "You cannot move 1 step, play another card, then continue your movement."
    assert not [m for m in game.legal() if m.startswith("play ")]
    second = play(game, "step E")
    return game, first, second


def test_a_hunter_moving_onto_matching_locations_gets_a_trail_each_step() -> None:
    """ "By playing the action card "Rush", the hunter may move up to two steps. The hunter
    moves one step to the right. The Beast places a trail token on that location since it
    matches one of the cards in the active movement section. The hunter chooses to move
    one more step to the right. The Beast places a trail token on that location because
    it also matches a movement card." (Example hunter movement; right is east, north up)"""
    game, first, second = hunted()
    assert HunterMoved(hand=1, location="B2") in first
    assert TrailsPlaced(locations=("B2",)) in first
    assert HunterMoved(hand=1, location="C2") in second
    assert TrailsPlaced(locations=("C2",)) in second
    state = game.state
    assert state.hands[1].location == "C2"
    assert state.trailed == (1, 2)  # the B2 and C2 cards; B3 was not stepped on
    assert state.hidden
    hunters = beast_view(state, Viewer("hunters", state.hunter_seats))
    assert hunters.trails == (("B2", 1), ("C2", 1))
    assert hunters.beast_location is None


def test_search_and_reveal_after_rush_hunt_finds_and_wounds_the_beast() -> None:
    """ "She can still choose to play a card with an "ability card" symbol ... and plays
    "Hunt". Because she played the card while she was on the Beast's actual location and
    successfully searched, the Beast must reveal itself. The card also has an attack effect,
    so the revealed Beast receives one wound token. Trails and active movement cards are
    removed." (Example Search and Reveal)"""
    game, _, _ = hunted()
    assert "play Hunt" in game.legal()
    play(game, "play Hunt")
    events = play(game, "search C2")
    assert Searched(hand=1, location="C2", found=True) in events
    revealed = next(e for e in events if isinstance(e, BeastRevealed))
    assert revealed.cards == (Step("W", "B3"), Step("N", "B2"), Step("E", "C2"), Step("X", "C2"))
    events = play(game, "attack beast")
    assert Damaged(kind="beast", ref="beast", amount=1, by="hunter:1") in events
    state = game.state
    assert state.beast.wounds == 1
    assert state.active == ()
    assert state.trailed == ()
    assert state.standee == "C2"
    assert not state.hidden


def test_summon_a_wolf_on_a_forest_up_to_two_steps_away() -> None:
    """ "Fangrir's actual location is up to one step away from its last known location.
    Fangrir plays its ability card "Summon Wolf", and summons the Wolf up to two steps away
    from its actual location ... (Wolves can only be placed on forests as indicated on the
    Beast mat.)" (Example place a summon); "all summons have to be placed on a specific
    habitat, unless stated otherwise" (Place a summon), so not on the centre."""
    game = day_one(beast_steps=("N",))  # actual C2, standee C3
    assert game.state.beast.location == "C2"
    assert game.state.standee == "C3"
    play(game, "play Summon Wolf")
    summons = {m for m in game.legal() if m.startswith("summon ")}
    # exactly the forests within two steps of C2: D4 and B5 are three away, C2 itself is
    # a swamp, and the centre C3 (one step) is no forest
    board = game.state.board
    forests = {loc for loc in board.within("C2", 2) if board.habitat[loc] == "forest"}
    assert forests == {"B3", "D1", "A2", "E2"}
    assert summons == {f"summon {loc}" for loc in forests}
    assert "summon C3" not in summons
    play(game, "summon D1")
    assert game.state.summons[0].location == "D1"


def test_silver_arrow_moves_west_then_attacks_the_nearby_wolf() -> None:
    """ "Example: Iona plays Silver Arrow and chooses to first move 1 step west (left), then
    attacks the nearby Wolf." (the Wolf summoned by Fangrir through play first)"""
    game = day_one(beast_steps=("S",), places=("E5", "A1"))  # actual C4
    play(game, "play Summon Wolf", "summon D4", "end")
    assert game.state.turn == 1
    play(game, "play Silver Arrow", "step W")
    assert game.state.hands[1].location == "D5"
    events = play(game, "attack Wolf1")
    assert any(type(e).__name__ == "Killed" and e.ref == "Wolf1" for e in events)


def test_insidious_growth_transforms_every_nearby_location_into_forest() -> None:
    """ "Fangrir is two steps away from its last known location. On its turn, Fangrir plays
    "Insidious Growth" and transforms each nearby location into forests. Remember that
    "nearby" can affect your actual location." (Example Transform)"""
    game = day_one(beast_steps=("E", "N"))  # actual D2, two steps from the standee C3
    assert game.state.beast.location == "D2"
    assert game.state.standee == "C3"
    assert game.state.habitat("D2") != "forest"
    play(game, "play Insidious Growth", "do")
    nearby = game.state.board.nearby("D2")
    assert "D2" in nearby
    for loc in nearby:
        assert game.state.habitat(loc) == "forest", loc


def test_gather_the_pack_needs_the_beast_on_a_forest_and_tells_the_hunters_so() -> None:
    """ "In order for Fangrir to play her ability card "Gather the Pack", the Beast's actual
    location must be a location with a forest habitat. Because the card must match the
    Beast's actual location, hunters will gain information about the Beast's whereabouts."
    (Habitat prerequisites; "The Beast starting location counts as all habitat types
    except the settlement.")"""
    assert "play Gather the Pack" not in day_one(beast_steps=("N",)).legal()  # C2 swamp
    game = day_one(beast_steps=("W",))  # actual B3, a forest; standee C3
    assert "play Gather the Pack" in game.legal()
    play(game, "play Gather the Pack")
    state = game.state
    hunters = beast_view(state, Viewer("hunters", state.hunter_seats))
    assert hunters.beast_location is None
    assert hunters.active is None
    # the hunters see the card played...
    assert [frame.card for frame in hunters.frames] == ["Gather the Pack"]
    # ...so from their view alone (standee, active count, map, habitats) the Beast's
    # possible locations shrink to those that count as forest
    board = state.board
    habitats = dict(board.habitat) | dict(hunters.habitats)
    # (two cards: the opening is always two, No Movement for the step not taken)
    assert hunters.active_count == 2
    reach = set(board.within(hunters.standee, hunters.active_count))
    assert reach == {"A3", "B2", "B3", "B4", "C2", "C3", "C4", "D2", "D3", "D4", "E3"}
    possible = {loc for loc in reach if habitats[loc] in ("forest", "centre")}
    assert possible == {"B3", "C3", "D4"}
    assert state.beast.location in possible
