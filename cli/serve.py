"""`skald serve`: the HTTP service on uvicorn; `skald bench`: its throughput, measured."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from skald.cli.app import DbOption, command
from skald.core.store import DEFAULT_URL


@command("serve")
def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    workers: Annotated[
        int, typer.Option(min=1, help="Worker processes (they share only the database).")
    ] = 1,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
    db: DbOption = None,
) -> None:
    """Serve the HTTP API (OpenAPI document at /docs) over the event store."""
    import uvicorn

    import skald.core.access  # noqa: F401  (its table is created with the store's)
    from skald.api.edge import JsonErrorH11Protocol
    from skald.core.signing import open_signer
    from skald.core.store import EventStore

    url = db or os.environ.get("SKALD_DB") or DEFAULT_URL
    # Before any worker starts: the tables exist, and the signing key is loaded (created
    # for a new store) — a store or key that cannot be used stops here with one line.
    store = EventStore(url)
    try:
        open_signer(store)
    finally:
        store.dispose()
    os.environ["SKALD_DB"] = url  # read by every worker's app factory
    uvicorn.run(
        "skald.api.main:app_from_env",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level=log_level,
        http=JsonErrorH11Protocol,
        timeout_graceful_shutdown=5,
    )  # live streams would hold shutdown forever


@command("bench")
def bench(
    clients: Annotated[int, typer.Option(help="Concurrent HTTP clients.")] = 16,
    seconds: Annotated[float, typer.Option(help="Measuring time per backend.")] = 10.0,
    game: Annotated[str, typer.Option(help="Game the clients autoplay.")] = "beowulf",
    players: Annotated[int, typer.Option(help="Seats per game.")] = 2,
    pg: Annotated[
        str | None,
        typer.Option(
            envvar="SKALD_BENCH_PG",
            help="PostgreSQL URL to measure too (its tables are used as they are).",
        ),
    ] = None,
    workers: Annotated[int, typer.Option(help="uvicorn workers of the server.")] = 1,
) -> None:
    """Autoplay games through HTTP against `skald serve`; print moves/s and latencies."""
    from skald.api.bench import run_benchmark

    for line in run_benchmark(
        clients=clients, seconds=seconds, game=game, players=players, pg_url=pg, workers=workers
    ):
        typer.echo(line)
