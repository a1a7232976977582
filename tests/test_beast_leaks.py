"""Red-team attacks on the Beast's secrets through the public log (issue 9, items 5 and 6).

Drenched Lands (north up; the Beast's start is the centre C3):

        A     B     C     D     E
    1   S     W     ~     F     S
    2   F     C     W     W     F
    3   W     F     *     C     W
    4   C     W     W     F     C
    5   S     F     ~     W     S

Trails: at the table the hunters see a token on a location, never which face-down
movement card it stands for. The attack: with the index of the matching card, a trail from
the newest card says the Beast stands there. Undo: a card played out of a hidden hand was
seen by everyone; taking it back must be refused.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from skald.core.beast.data import kind_of
from skald.core.beast.state import BEAST, BeastState
from skald.core.errors import IllegalMove
from skald.events.beast import CardDiscarded, CardPlayed, Step, TrailsPlaced
from skald.events.viewer import Viewer
from skald.projections.beast.view import beast_view
from skald.projections.table import Table
from tests.conftest import engine_of
from tests.test_beast_secrecy import public_log
from tests.test_beast_support import RULES, BeastGame, day_one

HUNTERS = Viewer("hunters", frozenset({1, 2}))


def hunted(
    active: tuple[Step, ...],
    beast_at: str,
    hunter_at: str,
    moves: tuple[str, ...],
    towers: tuple[str, ...] = (),
) -> tuple[BeastGame, int]:
    """The Beast has passed; its cards are `active`; Iona (hand 1) then plays `moves`.
    Returns the game and where its log stood before Iona's moves."""
    game = day_one(hunters="Iona,Helga", places=("A1", "A5"))
    game.do("pass")  # the Beast passes
    game.edit(active=active, trailed=(), standee="C3", towers=towers)
    game.edit_hand(BEAST, location=beast_at)
    game.edit_hand(1, location=hunter_at, actions=("Rush",), extras=("Outpost",))
    mark = len(game.log)
    game.do(*moves)
    return game, mark


def test_a_trail_does_not_say_which_active_card_matched() -> None:
    # Iona steps E2 -> D2. Newest card on D2: the Beast stands there. Oldest card on D2:
    # the Beast has moved on to D3. The hunters must not be able to tell these apart.
    here, _ = hunted((Step("N", "C2"), Step("E", "D2")), "D2", "E2", ("play Rush", "step W"))
    gone, _ = hunted((Step("E", "D2"), Step("S", "D3")), "D3", "E2", ("play Rush", "step W"))
    assert here.state.beast.location != gone.state.beast.location
    assert here.state.trailed == (1,)
    assert gone.state.trailed == (0,)
    for game in (here, gone):
        trails = [e for e in game.log if isinstance(e, TrailsPlaced)]
        assert trails[-1] == TrailsPlaced(locations=("D2",))
    assert public_log(here.log, HUNTERS) == public_log(gone.log, HUNTERS)
    assert beast_view(here.state, HUNTERS) == beast_view(gone.state, HUNTERS)


def test_several_trails_at_once_do_not_say_the_cards_order() -> None:
    # Outpost on D2 shows the trails of the nearby cards D3 and E2 at once; in one game
    # the Beast went D3 ... E2 (it is on E2), in the other E2 ... D3 (it is on D3).
    forward, start = hunted(
        (Step("E", "D3"), Step("E", "E3"), Step("N", "E2")), "E2", "D2", ("play Outpost", "do")
    )
    backward, _ = hunted(
        (Step("N", "E2"), Step("S", "E3"), Step("W", "D3")), "D3", "D2", ("play Outpost", "do")
    )
    for game in (forward, backward):
        assert TrailsPlaced(locations=("D3", "E2")) in game.log[start:]
        assert game.state.trailed == (0, 2)
    assert public_log(forward.log, HUNTERS) == public_log(backward.log, HUNTERS)


def test_two_cards_on_one_location_leave_two_tokens_there() -> None:
    # Rulebook: "If there are several active movement cards that match the same location,
    # place a trail for each match." Iona steps E2 -> D2 (two cards), then back to E2.
    game, start = hunted(
        (Step("N", "C2"), Step("E", "D2"), Step("S", "D3"), Step("N", "D2")),
        "D2",
        "E2",
        ("play Rush", "step W", "step E"),
    )
    assert game.state.trailed == (1, 3)
    assert beast_view(game.state, HUNTERS).trails == (("D2", 2),)
    trails = [e for e in game.log[start:] if isinstance(e, TrailsPlaced)]
    assert [t.locations for t in trails] == [("D2", "D2"), ()]
    assert all(t.cards is None for t in trails)


def _beast_on_day_one(table: Table) -> str:
    game = table.create("beast", ["Ann", "Bob", "Cid"], seed="leak", options={"setup": "first"})
    table.move(game, 0, "step N")
    table.move(game, 0, "step E")
    table.move(game, 1, "place A1")
    table.move(game, 2, "place E5")
    return game


def test_a_card_played_from_the_hidden_hand_cannot_be_undone(table: Table) -> None:
    game = _beast_on_day_one(table)
    bob = table.viewer(game, "Bob")
    assert table.show(game, bob).state.hands[0].action_count == 4
    table.move(game, 0, "play Charge")
    with pytest.raises(IllegalMove, match="cannot be taken back"):
        table.undo(game, 0)
    seen = table.show(game, bob).state
    assert seen.hands[0].action_count == 3
    assert seen.frames[0].card == "Charge"
    played = [env.event for env in table.log(game, bob) if isinstance(env.event, CardPlayed)]
    assert played[-1].card == "Charge"
    assert played[-1].barrier


def test_an_ability_from_the_open_mat_and_a_hunter_placement_stay_undoable(table: Table) -> None:
    game = table.create("beast", ["Ann", "Bob", "Cid"], seed="leak", options={"setup": "first"})
    table.move(game, 0, "step N")
    table.move(game, 0, "step E")
    table.move(game, 1, "place A1")
    table.undo(game, 1)  # public, nothing revealed
    table.redo(game, 1)
    table.move(game, 2, "place E5")
    table.move(game, 0, "play Prey Upon")  # an ability: open on the mat
    table.undo(game, 0)
    assert engine_of(table).load(game).rules.frames == ()


def _actions(state: BeastState) -> list[tuple[str, ...]]:
    return [hand.actions for hand in state.hands]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_decision_that_shows_a_hidden_card_is_a_barrier(players: int) -> None:
    """Random play: a decision that takes an action card out of a hand (played, discarded
    to flee, looted), or plays a hidden item or talent face up, cannot be undone."""
    checked = 0
    for seed in range(4):
        game = BeastGame(players, seed=f"barrier/{seed}")
        rnd = random.Random(seed)
        while RULES.outcome(game.state) is None:
            seat = game.seat()
            before = _actions(game.state)
            events: list[Any] = game.do(
                RULES.format(rnd.choice(list(RULES.legal(game.state, seat)))), seat=seat
            )
            after = _actions(game.state)
            # Night discards every action hand (a public reset, not a reveal): skip those.
            shrank = any(
                len(a) < len(b) and set(a) <= set(b) and len(b) - len(a) == 1
                for a, b in zip(after, before, strict=True)
            )
            shown = [
                e
                for e in events
                if isinstance(e, CardPlayed | CardDiscarded)
                and e.card not in ("", "trap")
                and kind_of(e.card) != "ability"
            ]
            if shrank or shown:
                checked += 1
                assert any(getattr(e, "barrier", False) for e in events), events
    assert checked > 20
