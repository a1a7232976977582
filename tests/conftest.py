"""Shared fixtures: real stores (a SQLite file, and a real PostgreSQL server when
SKALD_TEST_PG_URL points at one) and tables over them. CI sets SKALD_REQUIRE_PG=1 so a
missing server fails the run instead of skipping the PostgreSQL half."""

from __future__ import annotations

import os
import ssl
import tempfile
from collections.abc import Iterator
from typing import Any

import httpx
import httpx._transports.default
import pytest
import sqlalchemy as sa
import typer
import typer.testing

import tests.toy_game  # noqa: F401  (registers the toy game)
from skald.core.engine import Engine
from skald.core.store import EventStore
from skald.projections.table import Table
from tests.processes import Processes


def _worker_database(url: str | None) -> str | None:
    """The PostgreSQL test database of this process: under pytest-xdist each worker gets a
    database of its own on the same server (tests drop and create tables in theirs)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker:
        return url
    base = sa.engine.make_url(url)
    name = f"{base.database}_{worker}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            found = conn.execute(
                sa.text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}
            ).first()
            if found is None:
                conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


def _one_ssl_context_for_every_httpx_client() -> None:
    """Every top-level httpx call (`httpx.get`, `httpx.post`, ...) builds a client, and
    every client built its SSL context afresh, loading the whole CA bundle: 80% of a
    client's making, about 80 ms each on a loaded 2-core machine (25 ms idle), thousands of
    times a run, for servers on 127.0.0.1 that never speak TLS. The default context (verify
    on, no client certificate) is made once for each CA setting (SSL_CERT_FILE,
    SSL_CERT_DIR) and shared (an `ssl.SSLContext` may serve many connections and threads);
    any other is made as before. Only where httpx makes it there (0.28, 0.29); elsewhere
    nothing changes but the speed."""
    default = getattr(httpx._transports.default, "create_ssl_context", None)
    if default is None:
        return
    shared: dict[tuple[object, ...], ssl.SSLContext] = {}

    def create_ssl_context(verify: Any = True, cert: Any = None, trust_env: bool = True) -> Any:
        if verify is not True or cert is not None:
            return default(verify=verify, cert=cert, trust_env=trust_env)
        key = (trust_env, os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))
        if key not in shared:
            shared[key] = default(verify=verify, cert=cert, trust_env=trust_env)
        return shared[key]

    httpx._transports.default.create_ssl_context = create_ssl_context  # type: ignore[attr-defined]


def _each_cli_app_built_once() -> None:
    """Typer's test runner builds the click command tree of the app afresh for every
    `invoke`, reading every command's signature and type hints: 0.1 s idle (0.4 s on the
    loaded 2-core machine) for the whole skald CLI, where the command then runs in
    0.01-0.03 s. The tree is built once per app (again if commands were added since) and
    reused: a click command may be run any number of times, each run its own context."""
    build = getattr(typer.testing, "_get_command", None)
    if build is None:
        return
    built: dict[int, tuple[typer.Typer, tuple[int, int], Any]] = {}

    def get_command(app: typer.Typer) -> Any:
        shape = (len(app.registered_commands), len(app.registered_groups))
        found = built.get(id(app))
        if found is None or found[0] is not app or found[1] != shape:
            found = built[id(app)] = (app, shape, build(app))
        return found[2]

    typer.testing._get_command = get_command


_one_ssl_context_for_every_httpx_client()
_each_cli_app_built_once()
PG_URL = _worker_database(os.environ.get("SKALD_TEST_PG_URL"))
# Tests (and the servers they start) sign with a throwaway key, never one in the checkout.
os.environ.setdefault(
    "SKALD_SIGNING_KEY", os.path.join(tempfile.mkdtemp(prefix="skald-key-"), "signing.key")
)
# The seat keys `skald move` makes go to a folder of the run's own, not the user's.
os.environ.setdefault("SKALD_KEYS", tempfile.mkdtemp(prefix="skald-seat-keys-"))
BACKENDS = ["sqlite", "postgresql"]


def _pg_or_skip() -> str:
    if PG_URL:
        return PG_URL
    if os.environ.get("SKALD_REQUIRE_PG"):
        pytest.fail("SKALD_REQUIRE_PG is set but SKALD_TEST_PG_URL is not")
    pytest.skip("no PostgreSQL server (set SKALD_TEST_PG_URL; see .ci/postgres.sh)")


def fresh_store_url(backend: str, tmp_path: object) -> str:
    """A URL of an empty store on `backend`."""
    if backend == "sqlite":
        return f"sqlite:///{tmp_path}/skald.db"
    url = _pg_or_skip()
    engine = sa.create_engine(url)
    existing = sa.MetaData()
    existing.reflect(engine)  # every table, including ones other modules add to the schema
    existing.drop_all(engine)
    engine.dispose()
    return url


@pytest.fixture(params=BACKENDS)
def store_url(request: pytest.FixtureRequest, tmp_path: object) -> str:
    return fresh_store_url(request.param, tmp_path)


@pytest.fixture
def store(store_url: str) -> Iterator[EventStore]:
    store = EventStore(store_url)
    yield store
    store.dispose()


@pytest.fixture
def sqlite_store(tmp_path: object) -> Iterator[EventStore]:
    store = EventStore(f"sqlite:///{tmp_path}/skald.db")
    yield store
    store.dispose()


@pytest.fixture
def table(sqlite_store: EventStore) -> Table:
    return Table(Engine(sqlite_store))


def engine_of(table: Table) -> Engine:
    """The engine behind a Table, for white-box tests that inspect full states and stored
    rows (the CLI and the API never reach it: everything they need is on the Table)."""
    return table._engine


@pytest.fixture
def processes() -> Iterator[Processes]:
    """Start processes through this: each in a group of its own, all ended after the test."""
    with Processes() as started:
        yield started
