"""Visibility is the feature: what the hunters (and the Beast) may and may not learn.

Non-interference: two games that differ only in the Beast's hidden path, with the same
public consequences, give the hunters identical views, legal moves and redacted logs
(commitments differ by construction, so they are compared as placeholders). The Beast
never sees a trap's card or habitat before it triggers. (That views and legal commands
ignore any hidden state, `perturb_hidden` in projections/beast/view.py, is the conformance
suite's.)
"""

from __future__ import annotations

import re
from typing import Any

from skald.core.beast.data import cards
from skald.core.beast.state import BEAST, BeastState
from skald.core.rules import get_rules
from skald.events.beast import BeastMoved, CardDrafted, CardPlayed, PackDealt, TrapSet
from skald.events.common import MoveMade
from skald.events.secret import Secret, canonical, redact
from skald.events.viewer import SPECTATOR, Viewer
from skald.projections.beast.view import beast_view, render_view
from tests.test_beast_support import NAMES, day_one, random_game

RULES = get_rules("beast")
HEX = re.compile(rb'"[0-9a-f]{64}"')


def hunters_of(state: BeastState) -> Viewer:
    return Viewer("hunters", state.hunter_seats)


def public_log(log: list[Any], viewer: Viewer) -> bytes:
    """A redacted log with commitments replaced by a placeholder."""
    return HEX.sub(b'"#"', canonical([redact(event, viewer) for event in log]))


def walk(path: tuple[str, ...]) -> Any:
    game = day_one(beast_steps=path, places=("A1", "E5"))
    game.do("pass")  # the Beast
    game.do("play Rush", "step S", "stop", "end")  # Helga A1 -> A2, far from the Beast
    game.do("play Adapt", "do", "step N", "end")  # Assar E5 -> E4
    return game


def test_hunters_cannot_tell_two_hidden_paths_apart() -> None:
    north_south, south_north = walk(("N", "S")), walk(("S", "N"))
    assert north_south.state.beast.location == south_north.state.beast.location == "C3"
    assert north_south.state.active != south_north.state.active
    for seat_viewer in (hunters_of(north_south.state), Viewer("Bob", frozenset({1})), SPECTATOR):
        assert beast_view(north_south.state, seat_viewer) == beast_view(
            south_north.state, seat_viewer
        )
        assert public_log(north_south.log, seat_viewer) == public_log(south_north.log, seat_viewer)
    for seat in (1, 2):
        assert north_south.legal(seat) == south_north.legal(seat)
    beast = Viewer("Ann", frozenset({0}))
    assert beast_view(north_south.state, beast) != beast_view(south_north.state, beast)


def test_hidden_values_stay_sealed_for_those_outside_their_audience() -> None:
    for players in (2, 3, 4):
        game = random_game(players, seed=200 + players)
        hunters = hunters_of(game.state)
        beast = Viewer("beast", frozenset({0}))
        for event in game.log:
            for_hunters, for_beast = redact(event, hunters), redact(event, beast)
            match event:
                case BeastMoved():
                    assert not for_hunters.card.known
                    assert for_beast.card.known
                case TrapSet():
                    assert not for_beast.trap.known
                    assert for_hunters.trap.known
                case CardPlayed(hidden=Secret()):
                    assert not for_beast.hidden.known
                case CardDrafted(seat=0):
                    assert not for_hunters.card.known
                case CardDrafted():
                    assert not for_beast.card.known
                    assert for_hunters.card.known
                case PackDealt(seat=seat):
                    assert redact(event, Viewer("x", frozenset({seat}))).pack.known
                    other = Viewer("y", frozenset({(seat + 1) % players}))
                    assert not redact(event, other).pack.known
                case MoveMade(hidden_move=Secret(audience=audience)):
                    assert audience in ({0}, game.state.hunter_seats)
        rows = [
            line.split()
            for line in render_view(beast_view(game.state, hunters), NAMES).splitlines()
            if re.match(r"^\s*\d+  ", line)
        ]
        assert rows
        assert not any("B" in cells[1:] for cells in rows)


def test_the_beast_never_sees_a_trap_before_it_triggers() -> None:
    game = day_one(hunters="Varja,Iona")
    game.edit(turn=1)
    game.edit_hand(1, extras=("Bear Trap",), grudges=1)
    before = len(game.log)
    game.do("play Bear Trap", "trap West swamp")
    beast = Viewer("Ann", frozenset({0}))
    seen = public_log(game.log[before:], beast)
    assert b"swamp" not in seen
    assert b"Bear Trap" not in seen
    view = beast_view(game.state, beast)
    assert view.traps[0].zone == "West"
    assert view.traps[0].card is None
    assert view.traps[0].habitat is None
    assert "Bear Trap" not in render_view(view, NAMES)
    assert "swamp" not in render_view(view, NAMES).split("traps:")[1].split("\n")[0]
    mates = beast_view(game.state, Viewer("Cid", frozenset({2})))
    assert mates.traps[0].card == "Bear Trap"
    assert mates.traps[0].habitat == "swamp"


def test_a_talent_discarded_to_flee_stays_face_down_for_the_hunters() -> None:
    game = day_one()
    talent = cards().talent[0].name
    game.edit_hand(BEAST, extras=(talent,))
    game.do(f"flee {talent}", "step N")
    assert game.state.talent_discard == (talent,)
    assert talent not in game.state.beast.extras
    hunters, beast = hunters_of(game.state), Viewer("beast", frozenset({0}))
    assert talent.encode() not in canonical([redact(e, hunters) for e in game.log])
    assert talent.encode() not in canonical([redact(e, SPECTATOR) for e in game.log])
    assert talent.encode() in canonical([redact(e, beast) for e in game.log])
    assert talent not in render_view(beast_view(game.state, hunters), NAMES)
