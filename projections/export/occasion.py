"""Where a game was played: a tournament table's game carries its tournament's name (the
tournament stream's title), round and table as the exports' Event, Round and Table tags.

The tournament desk names a table's game `TOURNAMENT.rROUND.tTABLE` (a replayed table
adds a suffix), so the game's id says where it belongs; the tournament's stream header,
read from the same store, gives its name. A game outside a tournament has none.
"""

from __future__ import annotations

import re

import msgspec

from skald.core.errors import NotFound
from skald.core.store import EventStore

TABLE_GAME = re.compile(r"(?P<tournament>.+)\.r(?P<round>\d+)\.t(?P<table>\d+)(?:\D.*)?")
TOURNAMENT_KIND = "tournament"


class Occasion(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament table's game: the tournament's name, the round and the table."""

    event: str
    round: int
    table: int


def occasion(store: EventStore, game_id: str) -> Occasion | None:
    """The tournament, round and table `game_id` was played at, or None."""
    match = TABLE_GAME.fullmatch(game_id)
    if match is None:
        return None
    try:
        header = store.info(match["tournament"])
    except NotFound:
        return None
    if header.kind != TOURNAMENT_KIND:
        return None
    return Occasion(
        event=header.title or header.id, round=int(match["round"]), table=int(match["table"])
    )
