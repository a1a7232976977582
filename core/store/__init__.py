"""The event store, as a package: for now the whole store is `contract.py` (the former
`core/store.py`, moved whole so its history follows); the names callers use are all here
(`from skald.core.store import EventStore, ...`).
"""

from __future__ import annotations

from skald.core.store.contract import (
    DEFAULT_URL,
    MAX_SEQ,
    NOTIFY_CHANNEL,
    SCHEMA_LOCK,
    EventStore,
    FoldRow,
    StoredRecord,
    StoredSnapshot,
    StreamInfo,
    copy_streams,
    describe_db_error,
    events,
    in_memory,
    knowledge_checkpoints,
    metadata,
    no_such,
    provenance,
    resolve_url,
    seat_tokens,
    shown_url,
    signing_keys,
    snapshots,
    sqlite_path,
    store_refusal,
    streams,
)

__all__ = [
    "DEFAULT_URL",
    "MAX_SEQ",
    "NOTIFY_CHANNEL",
    "SCHEMA_LOCK",
    "EventStore",
    "FoldRow",
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
