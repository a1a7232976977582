"""The tables of a Skald store, as SQLAlchemy metadata: one schema for every backend.

`streams` (a header row a stream) and `events` (its records) are the log; beside it sit
`seat_tokens` (tokens.py), `snapshots` and `knowledge_checkpoints` (caches.py),
`signing_keys` (keys.py) and `provenance` (written with a stream's first events). Opening a
store creates what is missing of them (`EventStore.create_tables`).
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

streams = sa.Table(
    "streams",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("kind", sa.String(64), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("title", sa.Text, nullable=False, default=""),
)

events = sa.Table(
    "events",
    metadata,
    sa.Column("stream_id", sa.String(64), sa.ForeignKey("streams.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("actor", sa.String(64), nullable=False),
    sa.Column("kind", sa.String(128), nullable=False),
    sa.Column("payload", sa.Text, nullable=False),
    sa.Column("prev_hash", sa.String(64), nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
)

# Bearer tokens of seats and referees, kept as SHA-256 hashes (core/access.py issues them).
seat_tokens = sa.Table(
    "seat_tokens",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("stream_id", sa.String(64), sa.ForeignKey("streams.id"), nullable=False, index=True),
    sa.Column("seat", sa.Integer, nullable=True),  # NULL: the referee
)

# Folded states every N events (core/snapshots.py): a cache beside the stream, keyed by the
# code version that folded them, checked against the chain hash at `seq` before use.
snapshots = sa.Table(
    "snapshots",
    metadata,
    sa.Column("stream_id", sa.String(64), sa.ForeignKey("streams.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("version_key", sa.String(128), primary_key=True),
    sa.Column("hash", sa.String(64), nullable=False),
    sa.Column("state", sa.LargeBinary, nullable=False),
)

# A viewer's information set folded up to `seq` (projections/knowledge/store.py): a cache
# like `snapshots`, one line of checkpoints per (stream, viewer), never read by the audit.
knowledge_checkpoints = sa.Table(
    "knowledge_checkpoints",
    metadata,
    sa.Column("stream_id", sa.String(64), sa.ForeignKey("streams.id"), primary_key=True),
    sa.Column("viewer", sa.String(64), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("version_key", sa.String(128), primary_key=True),
    sa.Column("hash", sa.String(64), nullable=False),
    sa.Column("state", sa.LargeBinary, nullable=False),
)

# The public keys that signed this store's receipts (core/signing.py): a store keeps one
# key, so a server started elsewhere never mints a second one and calls old receipts forged.
signing_keys = sa.Table(
    "signing_keys",
    metadata,
    sa.Column("public_key", sa.String(64), primary_key=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

# Where an imported stream came from (core/provenance.py): one JSON record a stream, written
# with the stream's first events and never changed (a partial copy's mark, a tournament
# head's signer).
provenance = sa.Table(
    "provenance",
    metadata,
    sa.Column("stream_id", sa.String(64), sa.ForeignKey("streams.id"), primary_key=True),
    sa.Column("record", sa.Text, nullable=False),
)

MAX_SEQ = 2**31 - 1  # the seq column is a 32-bit integer on PostgreSQL
