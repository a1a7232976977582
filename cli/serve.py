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
    """Serve the HTTP API (OpenAPI document at /docs) over the event store.

    SKALD_DB: the store (as --db). SKALD_SIGNING_KEY: the receipts' key file.

    SKALD_CACHE_GAMES: games each worker keeps warm (256); raise it to the games it serves.

    SKALD_DECISION_THREADS: PostgreSQL decision threads per worker (two per core, shared).

    SKALD_LIVE_POLL: seconds between live streams' polls (0.2 on SQLite, 2 on PostgreSQL).
    """
    import uvicorn

    import skald.core.access  # noqa: F401  (its table is created with the store's)
    from skald.api.edge import JsonErrorHttpToolsProtocol
    from skald.api.offload import default_decision_threads
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
    # Each worker's share of the decision threads (two per core in all), unless set.
    os.environ.setdefault("SKALD_DECISION_THREADS", str(default_decision_threads(workers)))
    uvicorn.run(
        "skald.api.main:app_from_env",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level=log_level,
        http=JsonErrorHttpToolsProtocol,
        timeout_graceful_shutdown=5,
    )  # live streams would hold shutdown forever


@command("bench")
def bench(
    json: Annotated[bool, typer.Option("--json", help="One JSON object per figure.")] = False,
    clients: Annotated[int, typer.Option(help="HTTP clients on SQLite.")] = 16,
    pg_clients: Annotated[int, typer.Option(help="HTTP clients on PostgreSQL.")] = 32,
    seconds: Annotated[float, typer.Option(help="Time per HTTP measurement.")] = 5.0,
    game: Annotated[str, typer.Option(help="Game the HTTP clients autoplay.")] = "beowulf",
    players: Annotated[int, typer.Option(help="Seats per HTTP game.")] = 2,
    decisions: Annotated[int, typer.Option(help="Decisions for engine.move.")] = 300,
    long_events: Annotated[int, typer.Option(help="Events of the long Hägar game.")] = 10_000,
    memory_games: Annotated[
        str, typer.Option(help="Live game counts for the memory figures.")
    ] = "1,100,10000",
    memory_seconds: Annotated[float, typer.Option(help="Time bound of the memory run.")] = 90.0,
    pg: Annotated[
        str | None,
        typer.Option(
            envvar="SKALD_BENCH_PG",
            help="A throwaway PostgreSQL database to measure too. ALL ITS TABLES ARE DROPPED."
            " The benchmark marks a database it takes (a table skald_bench_owned) and"
            " refuses one that holds other tables; an empty one is taken.",
        ),
    ] = None,
    workers: Annotated[int, typer.Option(help="uvicorn workers of the HTTP server.")] = 1,
    only: Annotated[
        str | None, typer.Option(help="Comma-separated parts: engine,long,peer,http,memory.")
    ] = None,
) -> None:
    """Measure every figure beside its baseline in one run; print a table or JSON lines."""
    from skald.cli.bench_run import parse_parts, run
    from skald.core.errors import InvalidOption

    parts = parse_parts(only)
    try:
        counts = tuple(int(n) for n in memory_games.split(","))
    except ValueError:
        raise InvalidOption(
            f"--memory-games {memory_games!r}: whole numbers separated by commas"
        ) from None
    for figure in run(
        clients=clients,
        pg_clients=pg_clients,
        seconds=seconds,
        game=game,
        players=players,
        decisions=decisions,
        long_events=long_events,
        memory_games=counts,
        memory_seconds=memory_seconds,
        pg_url=pg,
        workers=workers,
        parts=parts,
    ):
        if json:
            import msgspec

            typer.echo(msgspec.json.encode(figure).decode())
        else:
            typer.echo(
                f"{figure.name:<34} {figure.value:12.1f} {figure.unit:<9}"
                f"{figure.baseline:<34} {figure.baseline_value:12.1f}  x{figure.ratio:7.3f}"
                + (f"  {figure.note}" if figure.note else "")
            )
