"""The `knowledge` figures of `skald bench`: what a seat's information set costs.

For a position with hidden history, each beside the cold view of the same position (µs, an
empty state cache, the view a seat's client asks for first):
- `possible.<game>`: `GET /games/ID/possible`'s work (`Table.possible` on a fresh Table):
  read the log, redact it for the seat, fold it into the game's model; a game whose fold
  is kept per process (`projections.knowledge_cache`: Hägar, Beowulf) goes on from the
  checkpoint the first round kept, so this is the figure of every call but a viewer's
  first in a process;
- `possible.<game>.first`: the first round alone, with nothing kept (the whole log);
- `sample.<game>`: one world drawn from that `possible` (what a variation's base costs on
  top of it).
Games: Hägar with 6 players (seat 0), and Beast for a hunter at the end of a ~1,500-event
game: measured once Beast's views model knowledge (`projections/beast_knowledge.py`),
else skipped with a note. Each figure is a median of rounds; nothing asserts a speed.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Iterator

from skald.api.bench import Figure, figure
from skald.cli.bench_figures import play
from skald.core.engine import Engine
from skald.core.errors import NotFound
from skald.core.store import EventStore
from skald.events.viewer import seat_viewer
from skald.projections.registry import views_for
from skald.projections.table import Table

GAMES = (("hagar", 6, 0, "seat 0"), ("beast", 4, 1, "a hunter (seat 1)"))
"""(game, players, the seat whose knowledge is measured, its description)."""
ROUNDS = 5


def knowledge_figures(folder: str, events: int = 1500) -> Iterator[Figure]:
    """`possible` and `sample` against the cold view, for each game in `GAMES`."""
    for game, players, seat, who in GAMES:
        yield from _game_figures(
            f"sqlite:///{folder}/knowledge-{game}.db", game, players, seat, who, events
        )


def _game_figures(
    url: str, game: str, players: int, seat: int, who: str, events: int
) -> Iterator[Figure]:
    store = EventStore(url)
    try:
        table = Table(Engine(store))
        game_id = table.create(game, [f"P{i + 1}" for i in range(players)], seed=f"bench-{game}")
        rnd = random.Random(11)
        while table.turn(game_id).seq < events and play(table, game_id, 100, rnd):
            pass
        viewer = table.viewer(game_id, str(seat))
        seq = table.turn(game_id).seq
        note = f"{game}, {players} players, as {who}, at seq {seq}"
        views, cold, known, drawn = views_for(game), [], [], []
        for number in range(ROUNDS):
            started = time.perf_counter()
            Table(Engine(store)).show(game_id, viewer)
            cold.append(time.perf_counter() - started)
            fresh = Table(Engine(store))
            started = time.perf_counter()
            try:
                possible = fresh.possible(game_id, viewer).possible
            except NotFound:
                yield figure(
                    f"possible.{game}",
                    float("nan"),
                    "us",
                    "view.cold",
                    1.0,
                    note=f"{note}: its views do not model knowledge yet",
                )
                return
            known.append(time.perf_counter() - started)
            rules_state = Engine(store).load(game_id).rules
            started = time.perf_counter()
            views.sample(rules_state, possible, seat_viewer(seat), random.Random(number))
            drawn.append(time.perf_counter() - started)
        base = statistics.median(cold) * 1e6
        yield figure(
            f"possible.{game}", statistics.median(known) * 1e6, "us", "view.cold", base, note=note
        )
        yield figure(f"possible.{game}.first", known[0] * 1e6, "us", "view.cold", base, note=note)
        yield figure(
            f"sample.{game}", statistics.median(drawn) * 1e6, "us", "view.cold", base, note=note
        )
    finally:
        store.dispose()
