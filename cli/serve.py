"""`skald serve`: the HTTP service on uvicorn; `skald bench`: its throughput, measured.

`serve` checks, before it creates or opens anything, that the port is one (1-65535: a
larger number was taken modulo 65536 by the socket layer, so the service listened
elsewhere than it said) and that it can listen there: an address in use is one line,
`cannot listen on HOST:PORT: address already in use`, exit 1 (the README's "error": the
network, not the store, is at fault), and no store, lock or key file is made.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated

import typer

from skald.cli.app import DbOption, command, read_only_folder
from skald.cli.bench_parts import BENCH_PARTS, parse_parts
from skald.core.errors import SkaldError, StoreError
from skald.core.store import DEFAULT_URL, sqlite_path

if TYPE_CHECKING:
    from skald.api.bench import Figure

UVICORN_STARTUP_FAILURE = 3  # uvicorn's exit code when its server did not start


class CannotListen(SkaldError):
    """The service cannot listen on the address it was given (exit 1)."""


def check_can_listen(host: str, port: int) -> None:
    """Bind every address `host` names on `port` as uvicorn will (SO_REUSEADDR, so a port
    in TIME_WAIT is not refused), and let it go at once; CannotListen with one line if not.

    This is a check, not a reservation: another program may take the port in the moment
    between our close and uvicorn's bind. That race is closed by `serve`, which turns
    uvicorn's start-up failure into one line too (after the store was opened, then)."""
    shown = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        addresses = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except socket.gaierror as error:
        reason = str(error.strerror or error).lower()
        raise CannotListen(f"cannot listen on {shown}: {reason}") from None
    for family, kind, protocol, _name, address in addresses:
        try:
            with socket.socket(family, kind, protocol) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:  # as asyncio binds it: IPv6 alone
                    probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                probe.bind(address)
        except OSError as error:
            reason = (error.strerror or str(error)).lower()
            raise CannotListen(f"cannot listen on {shown}: {reason}") from None


@command("serve")
def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="TCP port (1-65535).")] = 8000,
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
    from skald.api.ws_protocol import SkaldWebSocketProtocol
    from skald.core.fingerprint import key_fingerprint
    from skald.core.signing import open_signer
    from skald.core.store import EventStore

    url = db or os.environ.get("SKALD_DB") or DEFAULT_URL
    check_can_listen(host, port)  # before the store, its lock or its key is made
    # Before any worker starts: the tables exist, and the signing key is loaded (created
    # for a new store) — a store or key that cannot be used stops here with one line.
    try:
        store = EventStore(url)
    except StoreError:
        refusal = read_only_folder(sqlite_path(url))
        if refusal is None:
            raise
        raise StoreError(refusal) from None
    try:
        signer = open_signer(store)
    finally:
        store.dispose()
    # The key every verifier is told to trust (`--trust`): in full, and to compare aloud.
    typer.echo(f"signing key {signer.public_key}")
    typer.echo(f"fingerprint {key_fingerprint(signer.public_key)}")
    os.environ["SKALD_DB"] = url  # read by every worker's app factory
    # Each worker's share of the decision threads (two per core in all), unless set.
    os.environ.setdefault("SKALD_DECISION_THREADS", str(default_decision_threads(workers)))
    try:
        uvicorn.run(
            "skald.api.main:app_from_env",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            log_level=log_level,
            http=JsonErrorHttpToolsProtocol,
            timeout_graceful_shutdown=5,  # live streams would hold shutdown forever
            # The live channel's frames are sent as they are: compressing each one (a
            # browser asks for it) cost more CPU per decision than the bytes it saves on
            # a LAN. Its keep-alive pings stay uvicorn's (every 20 s, 20 s to answer).
            ws_per_message_deflate=False,
            ws=SkaldWebSocketProtocol,  # uvicorn's, sending a shared frame at once
        )
    except SystemExit as stop:
        # uvicorn says why above (the port taken since our check, say) and exits 3, which
        # is this CLI's 'invalid notation': one line of ours, and the README's 'error'.
        if stop.code != UVICORN_STARTUP_FAILURE:
            raise
        raise CannotListen(
            f"the service did not start on {host}:{port} (uvicorn said why above)"
        ) from None


def _counts(option: str, text: str) -> tuple[int, ...]:
    """Whole numbers separated by commas (InvalidOption otherwise)."""
    from skald.core.errors import InvalidOption

    try:
        return tuple(int(n) for n in text.split(","))
    except ValueError:
        raise InvalidOption(f"{option} {text!r}: whole numbers separated by commas") from None


@command("bench")
def bench(
    json: Annotated[bool, typer.Option("--json", help="One JSON object per figure.")] = False,
    record: Annotated[
        Path | None,
        typer.Option(
            help="Also write the run to this file as JSON lines: a header saying which run it"
            " is (commit, command, cores, load), then every figure. The documentation states"
            " figures only from docs/bench/recorded.jsonl, written this way.",
        ),
    ] = None,
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
        str | None,
        typer.Option(help=f"Comma-separated parts: {','.join(BENCH_PARTS)}."),
    ] = None,
    channel_clients: Annotated[
        str, typer.Option(help="Client counts of the live channel's figures on SQLite.")
    ] = "1,8,32",
    idle_channels: Annotated[
        str, typer.Option(help="Open idle channels for the channel's memory figures.")
    ] = "1,100,1000",
) -> None:
    """Measure every figure beside its baseline in one run; print a table or JSON lines."""
    from skald.cli.bench_run import run

    parts = parse_parts(only)
    counts = _counts("--memory-games", memory_games)
    recording = _open_record(record)
    figures = run(
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
        channel_clients=_counts("--channel-clients", channel_clients),
        idle_channels=_counts("--idle-channels", idle_channels),
    )
    from skald.cli import bench_record

    with recording or contextlib.nullcontext():
        for figure in figures:
            _print_figure(figure, json)
            if recording:
                bench_record.write_figure(recording, figure)
        if recording:
            bench_record.write_footer(recording)
    if recording and record:
        # Only a whole run replaces the record: one stopped halfway stays `FILE.partial`.
        Path(recording.name).replace(record)
        typer.echo(f"recorded in {record}", err=True)


def _open_record(path: Path | None) -> IO[str] | None:
    """`FILE.partial`, opened and given its header (InvalidOption naming why it cannot be);
    it becomes FILE when the run is whole."""
    from skald.cli import bench_record
    from skald.core.errors import InvalidOption

    if path is None:
        return None
    try:
        out = path.with_name(path.name + ".partial").open("w", encoding="utf-8")
    except OSError as error:
        raise InvalidOption(f"--record {path}: {error.strerror or error}") from None
    bench_record.write_header(out, sys.argv[2:])
    return out


def _print_figure(figure: Figure, json: bool) -> None:
    """One figure on standard output: a table row, or a JSON line."""
    if json:
        import msgspec

        typer.echo(msgspec.json.encode(figure).decode())
        return
    typer.echo(
        f"{figure.name:<34} {figure.value:12.1f} {figure.unit:<9}"
        f"{figure.baseline:<34} {figure.baseline_value:12.1f}  x{figure.ratio:7.3f}"
        + (f"  {figure.note}" if figure.note else "")
    )
