"""The `knowledge` figures of `skald bench`: what a seat's information set costs.

For a position with hidden history, each beside the cold view of the same position (µs, a
fresh table with an empty state cache, the view a seat's client asks for first):
- `possible.<game>`: `GET /games/ID/possible`'s work (`Table.possible`) as a seat's client
  pays it: it asked at the previous decision, so a game whose views keep a fold
  (projections/knowledge/cache.py: every game here) reads on from there; a game without one reads
  its whole redacted log;
- `possible.<game>.full`: the same request from a process that kept nothing (the CLI, a
  restarted or second server): it reads on from the fold an earlier request left in the
  store (projections/knowledge/store.py); what the process held is let go before the
  request is timed, as a fresh process holds nothing;
- `possible.<game>.first`: the same request with nothing kept anywhere (the first time
  any process asks for that viewer: the log read from seq 1, and the fold it passed left
  in the store), for a game whose fold is kept in the store (for the others it is
  `.full`), beside `view.replay`: the same seat's view with nothing kept anywhere either
  (the engine's snapshots deleted, so the state is replayed from seq 1). The cold view
  reads on from the engine's nearest snapshot as `.full` reads on from the nearest stored
  fold; `view.replay` is reported beside the cold view too;
- `sample.<game>`: one world drawn from that `possible` (what a variation's base costs on
  top of it).
Games: Hägar with 6 players (seat 0), and Beast for a hunter at the end of a ~1,500-event
game, played on until the Beast is hidden (its path is then deduced; the note says how
many cards it laid since it was last seen). The games are reproducible (their draws come
from the seed and the game's name alone) and the bot is seeded and picks among the legal
moves sorted, so a run plays the same games. Each figure is a median of rounds (the cold
view and the two `possible` measured in turn within a round); nothing asserts a speed.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

from skald.api.bench import Figure, figure
from skald.core.engine import Engine
from skald.core.store import EventStore, knowledge_checkpoints, snapshots
from skald.events.common import MoveMade
from skald.projections.knowledge import cache as knowledge_cache
from skald.projections.knowledge.store import fold_codec
from skald.projections.registry import views_for
from skald.projections.table import Table

GAMES = (("hagar", 6, 0, "seat 0"), ("beast", 4, 1, "a hunter (seat 1)"))
"""(game, players, the seat whose knowledge is measured, its description)."""
ROUNDS = 5
MORE_DECISIONS = 400  # the most decisions played on after `events` to reach the position


def _beast_hidden(rules: Any, cards: int) -> bool:
    return bool(rules.hidden) and len(rules.active) >= cards


def _any_position(rules: Any, cards: int) -> bool:
    return True


POSITION: dict[str, Callable[[Any, int], bool]] = {"beast": _beast_hidden}
"""Per game, what the measured position must show (else the bot plays on): for Beast,
the Beast hidden with at least that many cards laid since it was last seen."""


def knowledge_figures(folder: str, events: int = 1500, rounds: int = ROUNDS) -> Iterator[Figure]:
    """`possible` and `sample` against the cold view, for each game in `GAMES`."""
    for game, players, seat, who in GAMES:
        yield from game_figures(
            f"sqlite:///{folder}/knowledge-{game}.db", game, players, seat, who, events, rounds
        )


def game_figures(
    url: str,
    game: str,
    players: int,
    seat: int,
    who: str,
    events: int,
    rounds: int = ROUNDS,
    hidden: int = 1,
) -> Iterator[Figure]:
    """The figures of one game played by the bot to about `events` events (and on to a
    position with at least `hidden` hidden cards, where the game has them)."""
    store = EventStore(url)
    try:
        table = Table(Engine(store))
        game_id = table.create(
            game,
            [f"P{i + 1}" for i in range(players)],
            seed=f"bench-{game}",
            reproducible=True,
            game_id=f"bench-{game}",
        )
        rnd = random.Random(11)
        wanted = POSITION.get(game, _any_position)
        for _ in range(events + MORE_DECISIONS):
            seq = table.turn(game_id).seq
            if seq >= events and wanted(Engine(store).load(game_id).rules, hidden):
                break
            if not _decide(table, game_id, rnd):
                break
        yield from _measured(store, game, game_id, seat, who, rounds)
    finally:
        store.dispose()


def _decide(table: Table, game_id: str, rnd: random.Random) -> bool:
    """One random legal decision (False when the game is over)."""
    turn = table.turn(game_id)
    if turn.outcome is not None or not turn.to_act:
        return False
    seat = turn.to_act[0]
    table.move(game_id, seat, rnd.choice(sorted(table.legal(game_id, seat))), turn.seq)
    return True


def _measured(
    store: EventStore, game: str, game_id: str, seat: int, who: str, rounds: int
) -> Iterator[Figure]:
    table = Table(Engine(store))
    viewer = table.viewer(game_id, str(seat))
    seq = table.turn(game_id).seq
    rules = Engine(store).load(game_id).rules
    note = f"{game}, {len(table.players(game_id))} players, as {who}, at seq {seq}"
    if game == "beast":
        note += f", {len(rules.active)} cards laid since the Beast was last seen"
    views = views_for(game)
    keeps = hasattr(views, "knowledge_fold")
    stores = fold_codec(game) is not None
    before = _previous_decision(Engine(store), game_id, seq)

    def cold() -> None:
        Table(Engine(store)).show(game_id, viewer)

    def replay() -> None:
        with store.engine.begin() as conn:  # nothing kept anywhere: the state from seq 1
            conn.execute(snapshots.delete().where(snapshots.c.stream_id == game_id))
        started = time.perf_counter()
        cold()  # (leaves a snapshot at the head again, as any read of a long stream does)
        replay_times.append(time.perf_counter() - started)

    def full() -> Callable[[], object]:
        knowledge_cache.forget()  # nothing kept in this process: the store's fold, if any
        return lambda: Table(Engine(store)).possible(game_id, viewer)

    def first() -> None:
        knowledge_cache.forget()
        with store.engine.begin() as conn:  # nothing kept anywhere: the log from seq 1
            conn.execute(knowledge_checkpoints.delete())
        started = time.perf_counter()
        Table(Engine(store)).possible(game_id, viewer)
        first_times.append(time.perf_counter() - started)

    def read_on() -> Callable[[], object]:
        knowledge_cache.forget()
        fresh = Table(Engine(store))
        fresh.possible(game_id, viewer, before)  # the client's request at its last decision
        return lambda: fresh.possible(game_id, viewer)

    cold_times: list[float] = []
    replay_times: list[float] = []
    read_on_times: list[float] = []
    full_times: list[float] = []
    first_times: list[float] = []
    for _ in range(rounds):  # interleaved, so a busy machine weighs on all alike
        cold_times.append(_timed(cold))
        if keeps:
            read_on_times.append(_timed(read_on()))
        if stores:
            first()  # (times itself: the store's rows are deleted first, untimed)
            replay()  # (likewise)
        full_times.append(_timed(full()))
    base = _median_us(cold_times)
    known = Table(Engine(store)).possible(game_id, viewer).possible
    whole = _median_us(full_times)
    if keeps:
        asked = _median_us(read_on_times)
        reading = f"{note}; read on from seq {before}"
        yield figure(f"possible.{game}", asked, "us", "view.cold", base, note=reading)
        kept = "from the fold kept in the store" if stores else "no fold kept in the store"
        yield figure(
            f"possible.{game}.full", whole, "us", "view.cold", base, note=f"{note}; {kept}"
        )
        if stores:
            first_us, replay_us = _median_us(first_times), _median_us(replay_times)
            noted = f"{note}; nothing kept anywhere (×{first_us / base:.0f} the cold view)"
            yield figure(f"view.replay.{game}", replay_us, "us", "view.cold", base, note=note)
            yield figure(
                f"possible.{game}.first", first_us, "us", "view.replay", replay_us, note=noted
            )
    else:
        yield figure(f"possible.{game}", whole, "us", "view.cold", base, note=note)

    def draw(number: int) -> Callable[[], object]:
        return lambda: views.sample(rules, known, viewer, random.Random(number))

    drawn = [_timed(draw(n)) for n in range(rounds)]
    yield figure(f"sample.{game}", _median_us(drawn), "us", "view.cold", base, note=note)


def _previous_decision(engine: Engine, game_id: str, seq: int) -> int:
    """The seq just before the last decision (where the seat's client last asked)."""
    recent = engine.envelopes(game_id, max(1, seq - 200), seq)
    moves = [e.seq for e in recent if isinstance(e.event, MoveMade)]
    return max(1, moves[-1] - 1) if moves else max(1, seq - 1)


def _timed(run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def _median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6 if samples else float("nan")
