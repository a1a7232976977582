"""The event store: streams of records in SQL (SQLAlchemy Core and the DBAPI driver), on a
SQLite file (the default, WAL) or PostgreSQL. The only package that talks SQL.

`EventStore(url)` opens the store `url` names, on the backend it names. One module a job:

- `contract`: `EventStore`, what every backend is, and the streams' part they share;
- `sqlite`, `postgres`: the two backends (`SqliteStore`, `PostgresStore`), each alone;
- `base`: the engine and the driver path under every part of a store;
- `tokens`, `keys`, `caches`: seat tokens, signing keys, and snapshots and information
  sets, the tables beside the streams;
- `schema`: the tables; `records`: the rows handed out; `urls`: naming a store;
  `failures`: what a database error says; `transfer`: copying streams between stores.

The names callers use are all here (`from skald.core.store import EventStore, ...`).
Importing the package registers both backends with `EventStore`.
"""

from __future__ import annotations

from skald.core.store.contract import EventStore
from skald.core.store.failures import describe_db_error, store_refusal
from skald.core.store.postgres import NOTIFY_CHANNEL, SCHEMA_LOCK, PostgresStore
from skald.core.store.records import FoldRow, StoredRecord, StoredSnapshot, StreamInfo, no_such
from skald.core.store.schema import (
    MAX_SEQ,
    events,
    knowledge_checkpoints,
    metadata,
    provenance,
    seat_tokens,
    signing_keys,
    snapshots,
    streams,
)
from skald.core.store.sqlite import SqliteStore, in_memory, sqlite_path
from skald.core.store.transfer import copy_streams
from skald.core.store.urls import DEFAULT_URL, resolve_url, shown_url

__all__ = [
    "DEFAULT_URL",
    "MAX_SEQ",
    "NOTIFY_CHANNEL",
    "SCHEMA_LOCK",
    "EventStore",
    "FoldRow",
    "PostgresStore",
    "SqliteStore",
    "StoredRecord",
    "StoredSnapshot",
    "StreamInfo",
    "copy_streams",
    "describe_db_error",
    "events",
    "in_memory",
    "knowledge_checkpoints",
    "metadata",
    "no_such",
    "provenance",
    "resolve_url",
    "seat_tokens",
    "shown_url",
    "signing_keys",
    "snapshots",
    "sqlite_path",
    "store_refusal",
    "streams",
]
