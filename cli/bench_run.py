"""`skald bench`: every figure of the issue in one run, in a fixed order, bounded in time.

SQLite stores live in a temporary folder; PostgreSQL only when a URL is given: a
throwaway database, every table of which is dropped. The benchmark marks a database it
takes with a table of its own (`skald_bench_owned`) and, before measuring anything,
refuses one that holds tables but not that mark, so a wrong URL never costs anyone's
data. The machine's other load shows in every figure alike, which is why each one is
printed beside a baseline measured in the same run.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator

import sqlalchemy as sa

from skald.api import bench_channel
from skald.api.bench import Figure, http_figures, memory_figures
from skald.cli import bench_figures as engine_figures
from skald.cli.bench_knowledge import knowledge_figures
from skald.core.errors import StoreError
from skald.core.store import metadata as store_metadata
from skald.core.store import shown_url

OWNED_MARK = "skald_bench_owned"


def claim(url: str) -> None:
    """Empty the PostgreSQL database at `url` for a measurement: drop every table in it,
    then create Skald's tables and the mark `skald_bench_owned`, in one transaction.
    StoreError, touching nothing, when it holds tables but not the mark (a database the
    benchmark did not create them in). An empty database is taken."""
    engine = sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.begin() as conn:
            existing = sa.MetaData()
            existing.reflect(conn)
            if existing.tables and OWNED_MARK not in existing.tables:
                names = sorted(existing.tables)
                shown = ", ".join(names[:5]) + (", ..." if len(names) > 5 else "")
                where = shown_url(url)
                raise StoreError(
                    f"{where} holds tables the benchmark did not create ({shown}); give it "
                    "a throwaway database (--pg drops every table of it)"
                )
            existing.drop_all(conn)
            # Skald's tables first: a store refuses a database holding only a foreign table.
            store_metadata.create_all(conn)
            sa.Table(OWNED_MARK, sa.MetaData(), sa.Column("note", sa.Text)).create(conn)
    finally:
        engine.dispose()


def run(
    clients: int,
    pg_clients: int,
    seconds: float,
    game: str,
    players: int,
    decisions: int,
    long_events: int,
    memory_games: tuple[int, ...],
    memory_seconds: float,
    pg_url: str | None,
    workers: int,
    parts: set[str] | None,
    channel_clients: tuple[int, ...] = (1, 8, 32),
    idle_channels: tuple[int, ...] = (1, 100, 1000),
) -> Iterator[Figure]:
    """Yield each figure as soon as it is measured."""

    def wanted(part: str) -> bool:
        return parts is None or part in parts

    if pg_url and any(wanted(part) for part in ("engine", "peer", "http", "channel")):
        claim(pg_url)  # refused before anything is measured
    with tempfile.TemporaryDirectory(prefix="skald-bench-") as folder:
        if wanted("engine"):
            backends = [("sqlite", f"sqlite:///{folder}/engine.db", f"{folder}/raw.db")]
            if pg_url:
                backends.append(("postgresql", pg_url, pg_url))
            for label, url, raw in backends:
                yield from engine_figures.engine_move(url, raw, label, decisions)
        if wanted("peer"):
            yield from engine_figures.peer_eventsourcing(
                {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": f"{folder}/es.db"},
                "sqlite",
                decisions,
                f"sqlite:///{folder}/peer.db",
            )
            if pg_url:
                yield from engine_figures.peer_eventsourcing(
                    _eventsourcing_pg(pg_url), "postgresql", decisions, pg_url
                )
        if wanted("long"):
            url = f"sqlite:///{folder}/long.db"
            game_id, _ = engine_figures.long_game(url, long_events)
            yield from engine_figures.replay_and_views(url, game_id)
            yield from engine_figures.evicted_move(f"sqlite:///{folder}/evict.db")
        if wanted("http"):
            yield from http_figures(
                "sqlite", f"sqlite:///{folder}/http.db", clients, seconds, game, players, workers
            )
            if pg_url:
                claim(pg_url)
                yield from http_figures(
                    "postgresql", pg_url, pg_clients, seconds, game, players, workers
                )
        if wanted("memory"):
            yield from memory_figures(
                f"sqlite:///{folder}/memory.db", memory_games, game, players, memory_seconds
            )
        if wanted("knowledge"):
            yield from knowledge_figures(folder)
        if wanted("channel"):
            yield from _channel(
                folder, channel_clients, idle_channels, (pg_url, pg_clients), seconds, game, players
            )


def _channel(
    folder: str,
    clients: tuple[int, ...],
    idle: tuple[int, ...],
    pg: tuple[str | None, int],
    seconds: float,
    game: str,
    players: int,
) -> Iterator[Figure]:
    """The live channel beside REST on SQLite (each client count) and PostgreSQL (one
    server, then two on the database), and its open channels' memory."""
    pg_url, pg_clients = pg
    sqlite = f"sqlite:///{folder}/channel.db"
    yield from bench_channel.channel_figures("sqlite", sqlite, clients, seconds, game, players)
    if pg_url:
        claim(pg_url)
        yield from bench_channel.channel_figures(
            "postgresql", pg_url, (pg_clients,), seconds, game, players
        )
        claim(pg_url)
        yield from bench_channel.two_server_figures(pg_url, pg_clients, seconds, game, players)
    yield from bench_channel.memory_figures(f"sqlite:///{folder}/idle.db", idle, game)


def _eventsourcing_pg(url: str) -> dict[str, str]:
    parsed = sa.engine.make_url(url)
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": parsed.database or "",
        "POSTGRES_HOST": parsed.host or "127.0.0.1",
        "POSTGRES_PORT": str(parsed.port or 5432),
        "POSTGRES_USER": parsed.username or "postgres",
        "POSTGRES_PASSWORD": parsed.password or "",
        "CREATE_TABLE": "y",
    }
