"""One readable line per logged event, for `skald log`, `skald replay` and exports.

A game's views may offer `describe(event, players) -> str | None` for nicer wording; the
generic fallback prints the tag and fields, with sealed values shown as `‹hidden›`.
"""

from __future__ import annotations

from typing import Any

import msgspec

from skald.events.envelope import Envelope
from skald.events.secret import Secret
from skald.projections.registry import views_for


def _plain(value: Any) -> str:
    if isinstance(value, Secret):
        return _plain(value.value) if value.known else "‹hidden›"
    if isinstance(value, msgspec.Struct):
        fields = (f"{name}={_plain(getattr(value, name))}" for name in value.__struct_fields__)
        return "{" + ", ".join(fields) + "}"
    if isinstance(value, tuple | list | frozenset):
        return "[" + ", ".join(_plain(item) for item in value) + "]"
    return str(value)


def describe_event(event: Any, players: tuple[str, ...], game: str) -> str:
    """A one-line description of an event (already redacted for its reader)."""
    custom = getattr(views_for(game), "describe", None)
    if custom is not None:
        text = custom(event, players)
        if text:
            return str(text)
    tag = type(event).__struct_config__.tag
    fields = " ".join(
        f"{name}={_plain(getattr(event, name))}"
        for name in event.__struct_fields__
        if getattr(event, name) is not None
    )
    return f"{tag} {fields}".strip()


def describe_line(envelope: Envelope[Any], players: tuple[str, ...], game: str) -> str:
    """`seq  time  actor  description`."""
    actor = envelope.actor
    if actor.isdigit() and int(actor) < len(players):
        actor = players[int(actor)]
    when = envelope.recorded_at.strftime("%Y-%m-%d %H:%M:%S")
    return f"{envelope.seq:>5}  {when}  {actor:<8}  {describe_event(envelope.event, players, game)}"
