"""The Beast's item deck reshuffled from its face-down discards and drawn from unseen, in
a game played through the rules (issue 23: `possible` exact for the rules as
implemented), checked against pen and paper (tests/beast_brute.py: every hidden history
the viewer's redacted log allows).

The reshuffle is rare in play: of 48 random and greedy playouts none empties the item or
talent deck (25 cards each, 3 dealt face up each night), so the game here is played by a
deck-hungry policy: every "take deck" offered is taken, a card that gains an item or a
talent is played when it can be, and about a third of the flees discard an item or
talent face down (no trap item is played: the brute force does not follow traps). Four
players, seed 3: the item deck runs out and is reshuffled from 20 discards (six
face-down flees before it), then drawn from unseen four times. The Beast cannot see the
hunters' items; the hunters see
them all.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from skald.core.beast.data import cards, is_trap_item, kind_of, side_of
from skald.core.beast.evolve import evolve
from skald.core.beast.setup import HUNTER_SEATS
from skald.events.beast import CardDiscardedFaceDown, CardGained, DeckShuffled
from skald.events.secret import redact
from skald.events.viewer import Viewer
from skald.projections.beast.knowledge.possible import BeastFold
from tests.beast_brute import Brute, model_worlds
from tests.test_beast_knowledge import created
from tests.test_beast_support import RULES, BeastGame

TRAPS = tuple(c.name for c in cards().item if is_trap_item(c.name))


def _gains(card: str, beast: bool) -> bool:
    """A card whose side for this hand gains an item or a talent."""
    try:
        return any(e.op in ("item", "talent") for e in side_of(card, beast).effects)
    except (KeyError, ValueError):
        return False


def _move(legal: list[str], seat: int, rnd: random.Random) -> str:
    """The deck-hungry policy's move (see the module docstring)."""
    legal = [
        m for m in legal if not any(m == f"play {t}" or m.startswith(f"play {t} ") for t in TRAPS)
    ]
    preferred = [m for m in legal if m == "take deck"] or [
        m for m in legal if m.startswith("play ") and _gains(m[5:], seat == 0)
    ]
    if not preferred and rnd.random() < 0.3:
        preferred = [m for m in legal if m.startswith("flee ") and kind_of(m[5:]) != "action"]
    return rnd.choice(preferred or legal)


def deck_hungry(players: int, seed: int) -> list[Any]:
    """A game played to its end by the deck-hungry policy: its log from GameCreated on."""
    game = BeastGame(players, seed=f"resh/{seed}")
    rnd = random.Random(seed)
    while RULES.outcome(game.state) is None:
        seat = game.seat()
        game.do(_move([RULES.format(c) for c in RULES.legal(game.state, seat)], seat, rnd))
    return [created(game, players, {}), *game.log]


@pytest.fixture(scope="module")
def game() -> list[Any]:
    return deck_hungry(4, 3)


def test_the_game_reshuffles_the_item_deck_and_draws_from_it_unseen(game: list[Any]) -> None:
    """The premise: items went face down in flees, the item deck is reshuffled from the
    discards, and hunters take cards from it that the Beast does not see."""
    reshuffled = next(
        i for i, e in enumerate(game) if isinstance(e, DeckShuffled) and e.deck == "item" and i > 20
    )
    assert any(isinstance(e, CardDiscardedFaceDown) for e in game[:reshuffled])
    drawn = [
        e
        for e in game[reshuffled:]
        if isinstance(e, CardGained) and e.deck == "item" and not e.from_row
    ]
    assert len(drawn) >= 2


@pytest.mark.slow
@pytest.mark.parametrize("viewer", ["beast", "hunters"])
def test_possible_is_the_brute_force_through_the_reshuffle(game: list[Any], viewer: str) -> None:
    """At every 10th seq from the reshuffle on (every 100th before), `possible`'s worlds for the
    items and talents (where each card the viewer has seen by name may lie) and its
    per-place cards are exactly the brute force's."""
    seats = frozenset({0}) if viewer == "beast" else frozenset(HUNTER_SEATS[4])
    eyes = Viewer(viewer, seats)
    reshuffled = next(
        i for i, e in enumerate(game) if isinstance(e, DeckShuffled) and e.deck == "item" and i > 20
    )
    state = RULES.initial(game[0])
    brute, fold, pending = Brute(eyes, 5), BeastFold.start(eyes), [game[0]]
    most, compared = 0, set()
    for count, event in enumerate(game[1:], start=2):
        pending.append(redact(event, eyes))
        if type(event).__module__.endswith("events.beast"):
            brute.read(event, state)
            state = evolve(state, event)
        most = max(most, len(brute.worlds))
        if count % (10 if count > reshuffled else 100):
            continue
        fold, pending = fold.advanced(pending), []
        known = fold.possible
        hidden = brute.hidden(state)
        brute.check_sizes(state)
        worlds = brute.places(hidden)
        key = (msgspec.json.encode((known.holdings, known.groups)), frozenset(worlds))
        if key not in compared:  # the same worlds again cost seconds and prove nothing new
            compared.add(key)
            assert model_worlds(known, hidden) == worlds, count
        may = {place: set(held) for place, held in known.may_hold if place in hidden}
        assert may == {p: c for p, c in brute.may_hold(hidden).items() if c}, count
    assert most > 1 or viewer == "hunters"  # the Beast cannot tell which card was drawn
