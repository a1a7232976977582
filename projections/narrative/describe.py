"""One readable line per logged event, for `skald log`, `skald replay` and exports.

The sentence is the game's narrative (`projections.narrative`), written from the event as
redacted for its reader. A narrator keeps context from the events it has read (who plays
which character), so a log is best told from its first event (`Table.narrated`);
`describe_event` tells one event on its own.
"""

from __future__ import annotations

from typing import Any

from skald.projections.narrative import Narrated, Narrator


def describe_event(event: Any, players: tuple[str, ...], game: str) -> str:
    """A one-sentence description of an event (already redacted for its reader), told
    without the events before it."""
    return Narrator(game, players).sentence(event)


def describe_line(narrated: Narrated) -> str:
    """`seq  time  actor  sentence`."""
    envelope = narrated.envelope
    when = envelope.recorded_at.strftime("%Y-%m-%d %H:%M:%S")
    return f"{envelope.seq:>5}  {when}  {narrated.actor:<12}  {narrated.sentence}"
