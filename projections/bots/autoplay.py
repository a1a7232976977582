"""Bots playing whole games through the Table, each seeing only its own view.

A bot is handed its seat's projected view and the list of its legal moves in notation and
answers with one of them; it never touches the engine's full state. Bot choices come from
their own seeded `random.Random`, so an autoplay run is reproducible from its seeds.

Levels (`BOTS`, picked by name with `bot_named`): `random` picks uniformly; `greedy` scores
each legal move with a one-move heuristic of its game (projections/<game>/bot.py) from the
seat's own view, and plays the random bot's choice in a game it has no heuristic for.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator
from typing import Any

import msgspec

from skald.events.common import Author, Outcome
from skald.projections.registry import READING_SIDES, game_part
from skald.projections.table import Table

Bot = Callable[[Any, list[str], random.Random], str]
PLAYER_NAMES = ("Ann", "Bob", "Cid", "Dag", "Eir", "Fro")


class AutoplayResult(msgspec.Struct, frozen=True, kw_only=True):
    """One finished (or abandoned) autoplayed game."""

    id: str
    events: int
    outcome: Outcome | None


def random_bot(view: Any, legal: list[str], rnd: random.Random) -> str:
    """Pick uniformly among the legal moves; the view is there for smarter bots."""
    del view
    return rnd.choice(legal)


def greedy_bot(view: Any, legal: list[str], rnd: random.Random) -> str:
    """The best legal move by the game's one-move heuristic (random where there is none)."""
    heuristic = _heuristics().get(type(view))
    if heuristic is None:
        return random_bot(view, legal, rnd)
    return heuristic(view, legal, rnd)


@functools.cache
def _heuristics() -> dict[type, Bot]:
    """Each game's greedy heuristic (`projections/<game>/bot.py`: `choose`), by the view
    it reads (`VIEW`)."""
    found: dict[type, Bot] = {}
    for game in READING_SIDES:
        bot = game_part(game, "bot")
        if bot is not None:
            found[bot.VIEW] = bot.choose
    return found


BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot}


def bot_named(name: str) -> Bot:
    """The bot level called `name` (a key of BOTS)."""
    try:
        return BOTS[name]
    except KeyError:
        raise ValueError(f"no bot level {name!r}; levels: {', '.join(BOTS)}") from None


def autoplay(
    table: Table,
    game: str,
    players: int,
    seed: str | None = None,
    bot_seed: int = 0,
    bot: Bot = random_bot,
    max_decisions: int = 100_000,
    options: dict[str, str] | None = None,
    game_id: str | None = None,
) -> AutoplayResult:
    """Create a game and let bots play it to the end."""
    names = (
        PLAYER_NAMES[:players]
        if players <= len(PLAYER_NAMES)
        else tuple(f"P{i + 1}" for i in range(players))
    )
    # A seeded run is for reproducing: its draws come from the seed (and the game id).
    game_id = table.create(
        game, names, seed=seed, options=options, game_id=game_id, reproducible=seed is not None
    )
    return play_out(table, game_id, bot, random.Random(bot_seed), max_decisions)


def level_of(bot: Bot) -> str:
    """The level's name of a bot (`greedy`), or the empty text for one of its own."""
    return next((name for name, known in BOTS.items() if known is bot), "")


def play_out(
    table: Table,
    game_id: str,
    bot: Bot,
    rnd: random.Random,
    max_decisions: int = 100_000,
    started_by: str = "",
) -> AutoplayResult:
    """Let bots play an existing game to its end, each seeing only its own seat's view;
    each decision says it is the bot's (`started_by`: who set the bots to play, in words,
    such as `the organiser`)."""
    by = Author(kind="bot", name=level_of(bot), started_by=started_by)
    for _ in range(max_decisions):
        current = table.turn(game_id)
        if current.outcome is not None or not current.to_act:
            break
        seat = current.to_act[0]
        own_view = table.show(game_id, table.viewer(game_id, str(seat)))
        legal = table.legal(game_id, seat)
        if not legal:
            break
        table.move(game_id, seat, bot(own_view.state, legal, rnd), by=by)
    final = table.turn(game_id)
    return AutoplayResult(id=game_id, events=final.seq, outcome=final.outcome)


def autoplay_many(
    table: Table,
    game: str,
    players: int,
    games: int,
    seed: str | None,
    bot: Bot = random_bot,
    options: dict[str, str] | None = None,
) -> Iterator[AutoplayResult]:
    """Play `games` games; game k uses seed `{seed}/{k}` when a seed is given."""
    for k in range(games):
        game_seed = f"{seed}/{k}" if seed is not None else None
        yield autoplay(table, game, players, seed=game_seed, bot_seed=k, bot=bot, options=options)
