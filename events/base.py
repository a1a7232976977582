"""The root of every event: a frozen, tagged msgspec Struct.

Each concrete event names itself in the past tense and carries an explicit, stable tag
(`"beowulf.tile_placed"`); stored events are decoded by that tag, so a tag never changes.
`barrier` marks events that revealed information or consumed randomness: undo stops there.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", omit_defaults=True):
    """Base class of all events; subclasses set `tag=` explicitly.

    Fields still at their default are not encoded, so a field added later with a default
    leaves every stored event's bytes, and so its hash, exactly as they were.
    """

    barrier: ClassVar[bool] = False
