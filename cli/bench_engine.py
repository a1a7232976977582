"""`skald bench-engine`: what the cached current state buys, as figures, not a timed test.

In one process, on one store, it measures per decision: a bare store append of one record
(the baseline: the least a move can cost), a move through the engine with its state cache,
and the same move with the cache off (every move replays the game from the log), and
prints each as a ratio to the baseline. It also prints the peak memory of replaying one
whole game. Each figure is the median of its rounds.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
import tracemalloc
from datetime import UTC, datetime
from typing import Annotated

import typer

from skald.cli.app import command
from skald.core.engine import Engine
from skald.core.store import EventStore, StoredRecord
from skald.projections.bots.autoplay import autoplay
from skald.projections.table import Table


def _append_baseline(store: EventStore, count: int) -> float:
    now = datetime.now(UTC)
    start = time.perf_counter()
    for seq in range(1, count + 1):
        record = StoredRecord(
            stream="bench-baseline",
            seq=seq,
            recorded_at=now,
            actor="0",
            kind="bench.noop",
            payload="{}",
            prev_hash="0" * 64,
            hash=f"{seq:064x}",
        )
        store.append("bench-baseline", [record], seq - 1, kind="bench")
    return (time.perf_counter() - start) / count


def _moves(table: Table, game: str, players: int, decisions: int, seed: int) -> float:
    names = [f"P{i}" for i in range(players)]
    game_id = table.create(game, names, seed=f"bench-{seed}")
    rnd, elapsed, made = random.Random(seed), 0.0, 0
    while made < decisions:
        shown = table.turn(game_id)
        if shown.outcome is not None:
            game_id = table.create(game, names, seed=f"bench-{seed}-{made}")
            continue
        seat = shown.to_act[0]
        move = rnd.choice(table.legal(game_id, seat))
        start = time.perf_counter()
        table.move(game_id, seat, move)
        elapsed += time.perf_counter() - start
        made += 1
    return elapsed / decisions


def _replay_peak(engine: Engine, game_id: str) -> tuple[float, int]:
    # Timed without tracemalloc (it slows allocation-heavy code about fourfold), then the
    # peak memory measured in a second, untimed replay. Both replay from seq 1.
    plain = Engine(engine.store, snapshot_every=0)
    start = time.perf_counter()
    state = plain.load(game_id)
    elapsed = time.perf_counter() - start
    plain.clear_cache()
    tracemalloc.start()
    plain.load(game_id)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return elapsed / max(state.version, 1), peak


@command("bench-engine")
def bench_engine(
    game: Annotated[str, typer.Option(help="Game to play.")] = "beowulf",
    players: Annotated[int, typer.Option(help="Players per game.")] = 4,
    decisions: Annotated[int, typer.Option(help="Decisions measured per round.")] = 200,
    rounds: Annotated[int, typer.Option(help="Rounds; the median is reported.")] = 3,
) -> None:
    """Print per-decision costs with and without the state cache, against a bare append."""
    with tempfile.TemporaryDirectory() as folder:
        store = EventStore(f"sqlite:///{folder}/bench.db")
        cached_engine = Engine(store)
        cached = Table(cached_engine)
        uncached = Table(Engine(store, cache_size=0))
        figures: dict[str, list[float]] = {"append": [], "cached": [], "uncached": []}
        for number in range(rounds):
            typer.echo(f"round {number + 1}/{rounds}...", err=True)
            figures["append"].append(
                _append_baseline(EventStore(f"sqlite:///{folder}/baseline{number}.db"), decisions)
            )
            figures["cached"].append(_moves(cached, game, players, decisions, number))
            figures["uncached"].append(_moves(uncached, game, players, decisions, number))
        full = autoplay(cached, game, players, seed="bench-full")
        per_event, peak = _replay_peak(cached_engine, full.id)
    base = statistics.median(figures["append"])
    typer.echo(
        f"{game}, {players} players, {decisions} decisions x {rounds} rounds (SQLite file, medians)"
    )
    for name, label in (
        ("append", "bare store append (baseline)"),
        ("cached", "move, state cache on"),
        ("uncached", "move, cache off (replays the log)"),
    ):
        value = statistics.median(figures[name])
        typer.echo(f"  {label:<36} {value * 1e3:8.3f} ms   x{value / base:6.2f} baseline")
    typer.echo(
        f"  full replay of a finished game: {full.events} events, "
        f"{per_event * 1e6:.1f} us/event, peak {peak / 1024:.0f} KiB"
    )
