"""Setting up a game of Hägar (rulebook "Preparations for the Journey", "Departure"), and
its table options.

Table options: `feast_at` (pieces home to call the feast, default 7), `max_rounds`
(default 0: off; once reached, the feast is the only move), `uncertainties` (`throw`, the
default: ties at the feast and between equally near cities for Odin are settled by the
rune sticks, recorded as events; `choose`: the Viking names Odin's city and feast ties
are shared).

The opening: the loot (all but the Byzantine chests, which lie at the camp) is shuffled
face down onto the cities by their printed counts, and the fate deck is shuffled; both
orders are sealed to nobody. Each Viking then chooses his home harbour (`start SPACE`).
"""

from __future__ import annotations

import msgspec

from skald.core.errors import InvalidOption
from skald.core.hagar.board import board
from skald.core.hagar.data import cards, chests, pieces
from skald.core.hagar.state import HagarState, Options, Viking
from skald.core.rng import Rng
from skald.events.base import Event
from skald.events.common import GameCreated
from skald.events.hagar import FateShuffled, LootDealt
from skald.events.secret import seal


def initial(created: GameCreated) -> HagarState:
    """Every Viking at no harbour yet, the cities empty, the chests at the camp."""
    players = len(created.players)
    return HagarState(
        players=players,
        options=table_options(created.options),
        vikings=(Viking(),) * players,
        stacks=tuple(() for _ in board().cities),
        camp=chests(),
        rules_version=int(created.rules_version),
    )


def table_options(pairs: tuple[tuple[str, str], ...]) -> Options:
    """The Hägar table options; InvalidOption names a bad value."""
    given = dict(pairs)
    try:
        options = Options(
            feast_at=int(given.get("feast_at", "7")), max_rounds=int(given.get("max_rounds", "0"))
        )
    except ValueError as error:
        raise InvalidOption(f"hagar options feast_at and max_rounds are numbers: {error}") from None
    uncertainties = given.get("uncertainties", "throw")
    if uncertainties not in ("throw", "choose"):
        raise InvalidOption(f"hagar option uncertainties={uncertainties!r}: use throw or choose")
    if options.feast_at < 1 or options.max_rounds < 0:
        raise InvalidOption("hagar options: feast_at >= 1 and max_rounds >= 0")
    return msgspec.structs.replace(options, uncertainties=uncertainties)


def opening(state: HagarState, rng: Rng) -> tuple[Event, ...]:
    """Loot shuffled face down onto the cities by their counts; the fate deck shuffled."""
    del state  # every game opens alike; only the draws differ
    loose = rng.shuffle("setup/loot", [p.id for p in pieces() if p.id not in chests()])
    stacks, taken = [], 0
    for city in board().cities:
        count = board().spaces[city].loot
        stacks.append((city, tuple(loose[taken : taken + count])))
        taken += count
    deck = rng.shuffle("setup/fate", range(len(cards())))
    return (
        LootDealt(stacks=seal(tuple(stacks), frozenset(), rng.salt("setup/loot"))),
        FateShuffled(deck=seal(tuple(deck), frozenset(), rng.salt("setup/fate"))),
    )
