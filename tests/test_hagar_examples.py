"""The Hägar rulebook's own worked examples, reached through legal play (issue 15).

Every position here comes from `RULES.start` with a chosen seed and then only commands
the rules accept (the same path `random_playout` takes): no position is set up by hand.
The seeds were chosen so that the rune sticks fall as the example needs; each test quotes
the rulebook sentence it reproduces and asserts the outcome the rulebook states.

The crossroads at sea west of Paris on the reconstructed board:

                channel-2 (North)
                    │
    paris-port ── channel-3 (the crossroads)
                    │
                biscay-1 (South, towards Madrid)
"""

from __future__ import annotations

from skald.core.hagar.board import board
from skald.events.hagar import (
    CrossroadsReached,
    DirectionsAnnounced,
    ShipDocked,
    ShipSailed,
    SticksThrown,
)
from tests.test_hagar_support import RULES, Game, begin, play, step


def replay(players: int, seed: str, commands: list[tuple[int, str]]) -> Game:
    """A game from its seeded start through `commands`, each one the rules list as legal."""
    game, rng = begin(players, seed)
    for seat, text in commands:
        assert RULES.to_act(game.state) == frozenset({seat})
        assert text in legal(game, seat), (text, legal(game, seat))
        step(game, rng, seat, text)
    return game


def legal(game: Game, seat: int) -> set[str]:
    return {RULES.format(c) for c in RULES.legal(game.state, seat)}


def last_throw(game: Game) -> SticksThrown:
    return [e for e in game.events if isinstance(e, SticksThrown)][-1]


START = [(0, "start fjord-west"), (1, "start fjord-west")]
TO_THE_CROSSROADS = [*START, (0, "throw"), (0, "sail channel-3")]


def test_a_throw_of_seven_waves_or_three_points() -> None:
    """ "In the example shown on the left, the Viking may therefore move either 7 spaces by
    water or 3 spaces by land." (On Raiding Expeditions, Rune sticks)"""
    game = replay(2, "x9", [*START, (0, "throw")])
    thrown = last_throw(game)
    assert (thrown.seat, thrown.points, thrown.waves, thrown.lightning) == (0, 3, 7, 0)
    assert game.state.leg is not None
    assert (game.state.leg.points, game.state.leg.waves) == (3, 7)
    # aboard in the home harbour the Viking goes by water: every sail uses the 7 waves,
    # unless a harbour (surplus expires), a crossroads or a storm stops it first
    full = []
    for move in sorted(legal(game, 0)):
        assert move.startswith("sail ")
        _, events = play(game.state, move, 0, seed=b"example")
        path = events[0].path
        assert isinstance(events[0], ShipSailed)
        assert len(path) - 1 <= 7
        if len(path) - 1 < 7:
            assert type(events[1]).__name__ in {"ShipDocked", "StormStruck", "CrossroadsReached"}
        else:
            full.append(move)
    assert "sail west-2" in full


def test_the_crossroads_west_of_paris_is_announced_even_and_odd() -> None:
    """ "Example: The Viking reaches the crossroads at sea west of Paris. He decides for Paris
    or Madrid and announces: "Paris even – South odd."" (Crossroads)"""
    game = replay(2, "x143", TO_THE_CROSSROADS)
    assert isinstance(game.events[-1], CrossroadsReached)
    assert game.state.vikings[0].at == "channel-3"
    assert game.state.phase == "announce"
    announce = legal(game, 0)
    assert "announce paris-port biscay-1" in announce
    assert "announce biscay-1 paris-port" in announce
    assert "announce channel-2 biscay-1" in announce
    assert all(m.startswith("announce ") for m in announce)


def test_two_waves_go_towards_paris() -> None:
    """ "He then throws the rune sticks, counts the wave lines ..., and moves the total in the
    announced direction, e.g. with 2 waves in the direction of Paris" (Crossroads)"""
    game = replay(
        2,
        "x143",
        [*TO_THE_CROSSROADS, (0, "announce paris-port biscay-1"), (0, "throw")],
    )
    assert DirectionsAnnounced(seat=0, even="paris-port", odd="biscay-1") in game.events
    assert last_throw(game).waves == 2
    assert game.state.leg is not None
    assert game.state.leg.first == "paris-port"
    assert legal(game, 0) == {"sail paris-port"}
    step_game = replay(
        2,
        "x143",
        [
            *TO_THE_CROSSROADS,
            (0, "announce paris-port biscay-1"),
            (0, "throw"),
            (0, "sail paris-port"),
        ],
    )
    assert step_game.state.vikings[0].ship == "paris-port"
    assert any(isinstance(e, ShipDocked) for e in step_game.events[-3:])


def test_three_waves_go_towards_the_south() -> None:
    """ "... or with 3 waves in the direction of South." (Crossroads)

    The rulebook goes on: "In this case the process is repeated." That cannot happen on
    the reconstructed board: its only crossroads at sea are channel-3 itself and baltic-4,
    and three waves south of channel-3 end on west-1 or atlantic-2 (open sea: the turn
    ends) or stop on the biscay-2 storm after two, whose drift (three waves more) passes
    crossroads without stopping (the reconstructed reading of "Storm"). So no second
    crossroads is reached and nothing is announced again; the Viking throws afresh on his
    next turn."""
    game = replay(
        2,
        "x92",
        [*TO_THE_CROSSROADS, (0, "announce paris-port biscay-1"), (0, "throw")],
    )
    assert last_throw(game).waves == 3
    assert game.state.leg is not None
    assert game.state.leg.first == "biscay-1"
    moves = legal(game, 0)
    assert moves == {"sail west-1", "sail atlantic-2", "sail biscay-2"}
    assert "sail paris-port" not in moves
    ends = set()
    for move in moves:
        state, events = play(game.state, move, 0, seed=b"example")
        assert events[0].path[:2] == ("channel-3", "biscay-1")
        # all three waves are drawn, unless a storm (which drives the ship on) comes first
        if len(events[0].path) - 1 != 3:
            assert type(events[1]).__name__ == "StormStruck"
            drifts = {RULES.format(c) for c in RULES.legal(state, 0)}
            assert drifts
            for drift in drifts:
                after, drifted = play(state, drift, 0, seed=b"example")
                assert not any(isinstance(e, CrossroadsReached) for e in drifted)
                assert after.phase != "announce"
                ends.add(after.vikings[0].ship)
        else:
            assert not any(isinstance(e, CrossroadsReached) for e in events)
            assert state.phase != "announce"
            ends.add(state.vikings[0].ship)
    assert ends == {"west-1", "atlantic-2", "channel-2"}
    assert not any(board().spaces[end].crossroads for end in ends)


# Three Vikings from the western fjord: two of them dock in Paris harbour through the
# crossroads, the third then reaches the crossroads (seed h0, found by a search that
# steers every ship towards channel-3 and announces Paris even).
FULL_PARIS = [
    (0, "start fjord-west"), (1, "start fjord-west"), (2, "start fjord-west"),
    (0, "throw"), (0, "sail channel-3"), (0, "announce paris-port biscay-1"), (0, "throw"),
    (0, "sail biscay-2"), (0, "sail north-6"),
    (1, "throw"), (1, "sail channel-3"), (1, "announce paris-port biscay-1"), (1, "throw"),
    (1, "sail biscay-2"), (1, "sail channel-2"),
    (2, "throw"), (2, "sail channel-2"),
    (0, "throw"), (0, "sail channel-3"), (0, "announce paris-port biscay-1"), (0, "throw"),
    (0, "sail paris-port"),
    (1, "throw"), (1, "sail channel-3"), (1, "announce paris-port biscay-1"), (1, "throw"),
    (1, "sail biscay-2"), (1, "sail north-6"),
    (2, "throw"), (2, "sail channel-3"), (2, "announce paris-port biscay-1"), (2, "throw"),
    (2, "sail biscay-2"), (2, "sail north-6"),
    (0, "throw"), (0, "draw"), (0, "shoot 1"), (0, "walk fr-1"),
    (1, "throw"), (1, "sail channel-3"), (1, "announce paris-port biscay-1"), (1, "throw"),
    (1, "sail biscay-2"), (1, "sail north-3"),
    (2, "throw"), (2, "sail channel-3"), (2, "announce paris-port biscay-1"), (2, "throw"),
    (2, "sail biscay-2"), (2, "sail channel-2"),
    (0, "throw"), (0, "walk paris"),
    (1, "throw"), (1, "sail channel-3"), (1, "announce paris-port biscay-1"), (1, "throw"),
    (1, "sail paris-port"),
    (2, "throw"), (2, "sail channel-3"),
]  # fmt: skip


def test_with_paris_harbour_full_only_north_and_south_remain() -> None:
    """ "(If this harbour of Paris is already occupied by two ships, he has only the choice
    between North and South.)" (Crossroads)"""
    game = replay(3, "h0", FULL_PARIS)
    assert [v.ship for v in game.state.vikings[:2]] == ["paris-port", "paris-port"]
    assert game.state.vikings[2].at == "channel-3"
    assert game.state.phase == "announce"
    assert legal(game, 2) == {"announce biscay-1 channel-2", "announce channel-2 biscay-1"}
