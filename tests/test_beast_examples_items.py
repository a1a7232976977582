"""The Beast rulebook's examples with drafted cards, items, talents and upgrades, reached
through legal play (issue 15; the first-game examples are in test_beast_examples.py).

Every game starts from `RULES.start` with a chosen seed and goes on only by moves found in
the legal list first: the cards an example needs are drafted at dawn, or gained from the
face-up rows with the first-game cards that gain them (Avarice: an item, Dark Dealings: a
talent), and grudges are earned by kills and the contract's night reward. The seed
`ROWS` deals Outpost and Fire Trap to the item row and Intuition to the talent row; the
seed `RUSH` puts Rush in the Beast's first draft pack. Players who must not act yet play
a card whose effects they ignore ("You have the option to ignore one or more effects on
the card you played") or pass when the rules let them.

Drenched Lands (north up; S settlement, F forest, W swamp, C cave, * centre, ~ no land;
West = columns A-B and C2, East = columns D-E and C4, the centre C3 in both):

        A     B     C     D     E
    1   S     W     ~     F     S
    2   F     C     W     W     F
    3   W     F     *     C     W
    4   C     W     W     F     C
    5   S     F     ~     W     S
"""

from __future__ import annotations

from skald.core.beast.data import HABITATS, side_of
from skald.core.beast.state import BEAST
from skald.events.beast import (
    BeastRevealed,
    Damaged,
    LocationsTransformed,
    ReactionWindowOpened,
    Searched,
    Step,
    TrailsPlaced,
    TrapTriggered,
    Upgraded,
    WatchtowerPlaced,
)
from skald.events.viewer import Viewer
from skald.projections.beast.view import beast_view
from tests.test_beast_examples import play
from tests.test_beast_support import BeastGame, opening

ROWS = "rulebook-example-99"
RUSH = "rulebook-example-rush"
HUNTERS = Viewer("hunters", frozenset({1, 2}))
BEAST_SEAT = Viewer("beast", frozenset({0}))


def first_game(
    seed: str, hunters: str, beast_steps: tuple[str, ...], places: tuple[str, str]
) -> BeastGame:
    """A seeded first game (the rulebook's starting cards), on day 1 with the Beast to play."""
    game = BeastGame(3, seed=seed, setup="first", hunters=hunters)
    moves = [f"step {d}" for d in opening(beast_steps)]
    play(game, *moves, *(f"place {p}" for p in places))
    assert game.state.phase == "day"
    assert game.state.turn == BEAST
    return game


def ignore(game: BeastGame, card: str) -> None:
    """Play `card`, ignore every effect it offers, and end the turn."""
    play(game, f"play {card}")
    while game.state.frames:
        play(game, "skip")
    play(game, "end")


def test_outpost_watchtower_puts_trails_on_the_two_nearby_active_cards() -> None:
    """ "Iona plays the item card "Outpost" and places a watchtower on her location. The
    Beast places two trails on the map since two of its three active movement cards are
    nearby the watchtower, and Iona is in the same location as the watchtower."
    (Example Watchtower)

    The Beast goes C3 -> D3 -> E3 (first day) -> E2 (Pursuit's one step). Iona,
    placed on E1, gains Outpost (Avarice) and goes E1 -> D1 (Silver Arrow) -> D2 (Haste),
    never onto a location the cards lead to, then plays Outpost on D2: D3 and E2 are
    nearby, E3 is not."""
    game = first_game(ROWS, "Helga,Iona", ("E", "E"), ("A1", "E1"))
    iona = game.state.hand_named("Iona")
    assert iona == 2
    assert "Outpost" in game.state.item_row
    play(game, "play Pursuit", "step N", "skip", "end")  # no summon
    ignore(game, "Incite")  # Helga
    # both symbols played: the turn ends
    play(game, "play Avarice", "take Outpost", "do", "play Silver Arrow", "step W", "skip")
    play(game, "pass", "pass")  # the Beast and Helga: no one holds fewer action cards
    play(game, "play Haste", "step S", "skip", "end")
    ignore(game, "Dark Dealings")  # the Beast may not pass: Iona holds fewer
    ignore(game, "Prowl")  # Helga
    state = game.state
    assert state.active == (Step("E", "D3"), Step("E", "E3"), Step("N", "E2"))
    assert state.trailed == ()
    assert state.hands[iona].location == "D2"
    assert state.turn == iona
    play(game, "play Outpost")
    events = play(game, "do")
    assert WatchtowerPlaced(location="D2") in events
    assert TrailsPlaced(locations=("D3", "E2")) in events
    state = game.state
    assert state.towers == ("D2",)
    assert state.trailed == (0, 2)
    assert beast_view(state, HUNTERS).trails == (("D3", 1), ("E2", 1))


def test_fire_trap_in_a_forest_zone_wounds_the_beast_revealed_by_prey_upon() -> None:
    """ "Earlier in the game, hunters placed a "Fire Trap" in a zone with a forest habitat
    beneath it. On the Beast's turn, the Beast plays the ability card "Prey Upon" and
    attacks, which reveals the Beast on a forest. Because the Beast reveals on a forest in
    the trapped zone, the trap activates (flip the trap face up) and the Beast receives a
    wound token." (Example Trap); "If the Beast is revealed because it played an attack,
    the trap is triggered before the attack is actually performed." (Traps)

    The Beast hides on D4 (forest, East zone, a boar) on the first day; Iona gains Fire
    Trap (Avarice) and sets it on the East zone over a forest token."""
    game = first_game(ROWS, "Helga,Iona", ("E", "S"), ("A1", "A5"))
    assert "Fire Trap" in game.state.item_row
    assert game.state.habitat("D4") == "forest"
    play(game, "pass", "pass")  # everyone holds four action cards
    play(game, "play Avarice", "take Fire Trap", "do", "end")  # Iona
    ignore(game, "Dark Dealings")  # the Beast may not pass: Iona holds fewer
    ignore(game, "Incite")  # Helga
    play(game, "play Fire Trap")
    # "you choose any zone on the map, and then pick a habitat token"
    traps = {m for m in game.legal() if m.startswith("trap ")}
    assert traps == {f"trap {zone} {h}" for zone in ("West", "East") for h in HABITATS}
    play(game, "trap East forest", "end")
    # "the Beast should not know the chosen habitat or trap card until they are triggered"
    assert beast_view(game.state, BEAST_SEAT).traps[0].habitat is None
    assert beast_view(game.state, HUNTERS).traps[0].habitat == "forest"
    assert game.state.hidden
    assert game.state.beast.location == "D4"
    play(game, "play Prey Upon", "skip")  # no step: attack where it is
    events = play(game, "attack D4/boar")
    kinds = [type(e).__name__ for e in events]
    assert kinds.index("BeastRevealed") < kinds.index("TrapTriggered") < kinds.index("Damaged")
    assert TrapTriggered(zone="E", card="Fire Trap", habitat="forest", among=0) in events
    wounds = [e for e in events if isinstance(e, Damaged)]
    assert wounds[0] == Damaged(kind="beast", ref="beast", amount=1, by="trap")
    assert wounds[1].kind == "piece"  # then the attack on the boar
    assert wounds[1].by == "beast"
    assert next(e for e in events if isinstance(e, BeastRevealed)).location == "D4"
    assert game.state.beast.wounds == 1
    assert game.state.traps == ()


def test_intuition_moves_the_beast_before_hunt_searches() -> None:
    """ "There is one active movement card. It is the hunter Iona's turn, and she is on a
    location with a trail token. She plays her ability card "Hunt", and as a reaction the
    Beast plays the beastly talent "Intuition" on Iona's turn. As reactions happen before
    the card that triggered them, the Beast moves 1 step first, and Iona will no longer
    discover the Beast when she searches." (Example Reaction)

    The Beast takes one first-day step (C3 -> D3), No Movement for the opening's second
    card (here two active cards, one of them No Movement, which leaves no trail), and
    gains Intuition (Dark Dealings); Iona, placed on E1, goes E1 -> E2 -> E3 (Rush) -> D3
    (Silver Arrow), where the one moving card leads: a trail."""
    game = first_game(ROWS, "Iona,Helga", ("E",), ("E1", "A1"))
    assert "Intuition" in game.state.talent_row
    play(game, "play Dark Dealings", "take Intuition", "end")
    events = play(game, "play Rush", "step S", "step S", "play Silver Arrow", "step W")
    assert TrailsPlaced(locations=("D3",)) in events
    play(game, "skip")  # Silver Arrow: no target for its attack
    ignore(game, "Bolster")  # Helga may not pass: Iona and the Beast hold fewer
    play(game, "pass")  # the Beast
    state = game.state
    assert state.active == (Step("E", "D3"), Step("X", "D3"))
    assert state.trailed == (0,)
    assert state.hands[1].location == "D3" == state.beast.location
    assert state.turn == 1
    events = play(game, "play Hunt")
    assert ReactionWindowOpened(trigger="search") in events
    assert game.seat() == BEAST
    play(game, "react Intuition")
    events = play(game, "step S")  # D3 -> D4, before Hunt resolves
    assert game.state.beast.location == "D4"
    assert game.seat() == 1
    assert game.state.frames[-1].card == "Hunt"
    events = play(game, "search D3")
    assert Searched(hand=1, location="D3", found=False) in events
    assert game.state.hidden
    assert game.legal() == ["skip"]  # "then": nothing to attack


def drafted(seed: str, beast_picks: tuple[str, ...]) -> BeastGame:
    """A seeded game with the first dawn's draft: the Beast stays on the centre, the
    hunters go to A1 and A5, the Beast drafts `beast_picks` first, everyone else the first
    card offered; returns the game on day 1 with the Beast to play."""
    game = BeastGame(3, seed=seed, hunters="Iona,Helga")
    play(game, "step X", "step X", "place A1", "place A5")
    assert game.state.phase == "draft"
    wanted = list(beast_picks)
    while game.state.phase == "draft":
        seat = game.seat()
        offered = game.legal(seat)
        pick = f"draft {wanted[0]}" if seat == BEAST and wanted else offered[0]
        assert pick in offered, (pick, offered)
        if seat == BEAST and wanted:
            wanted.pop(0)
        game.do(pick, seat=seat)
    assert not wanted
    assert game.state.phase == "day"
    assert game.state.turn == BEAST
    return game


def test_rush_with_no_movement_east_north_leaves_the_beast_two_steps_away() -> None:
    """ "By playing the action card "Rush", the Beast may move up to three steps ... For
    example: the first card is No Movement, then East and finally North. The Beast's actual
    location is now two steps away — the first movement card causes the Beast to remain on
    its current location, the second moves the Beast one step East, and the third moves
    the Beast one step North, but the standee does not move until revealed."
    (Example Beast movement; Rush drafted at the first dawn)"""
    game = drafted(RUSH, ("Rush",))
    assert "Rush" in game.state.beast.actions
    assert game.state.beast.location == game.state.standee == "C3"
    play(game, "play Rush")
    # "No Movement isn't an option if the Beast shares a location with a hunter or
    # settler": the centre has neither
    assert "step X" in game.legal()
    play(game, "step X", "step E", "step N")  # three steps: Rush is done
    play(game, "end")
    state = game.state
    # after the opening's two No Movement cards (the Beast stayed on the centre)
    assert state.active[:2] == (Step("X", "C3"), Step("X", "C3"))
    assert state.active[2:] == (Step("X", "C3"), Step("E", "D3"), Step("N", "D2"))
    assert state.beast.location == "D2"
    assert state.board.distances("C3")["D2"] == 2
    assert state.standee == "C3"
    assert state.hidden
    hunters = beast_view(state, HUNTERS)
    assert hunters.active_count == 5
    assert hunters.active is None
    assert hunters.beast_location is None


def idle_until_night(game: BeastGame) -> None:
    """Every player passes when allowed, else plays an action card whose effects may all
    be ignored (never a "then" card), until the day ends."""
    while game.state.phase == "day":
        held = game.state.hands[game.state.turn]
        legal = game.legal()
        if "pass" in legal:
            play(game, "pass")
            continue
        card = next(
            c
            for c in held.actions
            if f"play {c}" in legal and side_of(c, game.state.turn == BEAST).mode != "then"
        )
        ignore(game, card)


def test_hunting_grounds_happens_at_once_and_bloodlust_lasts() -> None:
    """ "In the upgrade slots, for example, "Hunting Grounds" is yellow and happens
    immediately (it costs 1 grudge to upgrade), while "Bloodlust" is red and lasts for the
    rest of the game (it costs 2 grudges to upgrade)." and "The damage upgrade: All attacks
    deal 1 damage until upgraded. When upgraded, they deal 2 damage." (Phase 3: Night, 4.
    Upgrade; "The Beast always gets to upgrade first.")

    Day 1: the Beast goes C3 -> D3 -> D2 (first day) -> D1 -> E1 (Dash) and kills a farmer
    with Prey Upon (1 damage, 1 grudge); the contract's first night rewards a dead settler
    with 2 grudges: 3 to spend. Day 2: Prey Upon on the noble there deals 2."""
    game = first_game(ROWS, "Iona,Helga", ("E", "N"), ("A1", "A5"))
    play(game, "play Dash", "step N", "step E", "play Prey Upon", "skip")
    events = play(game, "attack E1/farmer")
    assert [e.amount for e in events if isinstance(e, Damaged)] == [1]
    assert game.state.beast.grudges == 1
    idle_until_night(game)
    state = game.state
    assert state.phase == "upgrade"
    assert state.beast.grudges == 3
    assert game.seat() == BEAST
    upgrades = {m for m in game.legal() if m.startswith("upgrade ")}
    assert {"upgrade Hunting Grounds", "upgrade Bloodlust"} <= upgrades
    events = play(game, "upgrade Hunting Grounds")
    assert Upgraded(hand=BEAST, upgrade="Hunting Grounds") in events
    assert game.state.beast.grudges == 2
    # yellow: its effect resolves now, before any other upgrade (or "done")
    assert "do" in game.legal()
    assert not [m for m in game.legal() if m.startswith("upgrade ") or m == "done"]
    events = play(game, "do")
    transformed = next(e for e in events if isinstance(e, LocationsTransformed))
    assert transformed.habitat == "forest"
    assert "E1" in transformed.locations
    events = play(game, "upgrade Bloodlust")
    assert Upgraded(hand=BEAST, upgrade="Bloodlust") in events
    assert game.state.beast.grudges == 0
    assert game.legal() == ["done"]  # nothing left to afford; none twice
    play(game, "done")
    while game.state.phase == "upgrade":  # the hunters upgrade nothing
        play(game, "done")
    while game.state.phase == "draft":
        seat = game.seat()
        game.do(game.legal(seat)[0], seat=seat)
    assert game.state.day == 2
    assert game.state.turn == BEAST
    assert "Bloodlust" in game.state.beast.upgrades
    play(game, "play Prey Upon", "skip")
    events = play(game, "attack E1/noble")
    assert [e.amount for e in events if isinstance(e, Damaged)] == [2]
