"""Copying streams from one store into another: an import plays into a scratch store, and
its streams are copied into the real one (`copy_streams`), whatever backend each is.
"""

from __future__ import annotations

from skald.core.errors import AlreadyStored
from skald.core.store.contract import EventStore


def copy_streams(
    source: EventStore, target: EventStore, marked: dict[str, str] | None = None
) -> None:
    """Copy every stream of `source` (a scratch store an import played into) into
    `target`, games first (their notes and variations name them), each with its
    provenance record (`source`'s, or the one `marked` gives). A stream `target` holds
    already is refused (IllegalMove) before anything is copied."""
    infos = sorted(
        source.list_streams(limit=1_000_000), key=lambda i: (i.kind.startswith("skald."), i.id)
    )
    for info in infos:
        if target.version(info.id):
            raise AlreadyStored(f"{info.id} is already in the store; nothing was imported")
    for info in infos:
        target.append(
            info.id,
            source.read(info.id),
            0,
            kind=info.kind,
            title=info.title,
            provenance=(marked or {}).get(info.id) or source.provenance(info.id) or "",
        )
