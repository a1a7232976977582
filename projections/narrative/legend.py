"""The legend of the ids an audit's evidence shows: each id with its face, per game
(Beowulf tile ids as printed, Hägar loot pieces by kind and value and fate cards by what
they show; the Beast's evidence names its cards and locations already)."""

from __future__ import annotations

import json
from collections.abc import Iterable

from skald.projections.registry import game_part


def numbers_in(value: str) -> list[int]:
    """Every integer in a recorded value (JSON), however deeply nested; none if it is not
    JSON."""
    try:
        parsed = json.loads(value)
    except ValueError:
        return []
    found: list[int] = []
    stack = [parsed]
    while stack:
        item = stack.pop()
        if isinstance(item, bool):
            continue
        if isinstance(item, int):
            found.append(item)
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return found


def face(game: str, value: str) -> str:
    """A value named by text as a person reads it (a Beowulf tile id as printed): the
    game's narrative says it (`face(value)`), else the value as it is."""
    module = game_part(game, "narrative")
    told = getattr(module, "face", None)
    return told(value) if told is not None else value


def legend(game: str, evidence: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """`(id, face)` for every id in `evidence` (pairs of event tag and recorded value),
    sorted, each once: the game's narrative names the ids each value holds
    (`legend_entries(kind, value)`); a game whose evidence names its values already
    (Beast) has none."""
    module = game_part(game, "narrative")
    entries_of = getattr(module, "legend_entries", None)
    entries: dict[str, str] = {}
    if entries_of is not None:
        for kind, value in evidence:
            entries.update(entries_of(kind, value))
    return sorted(entries.items(), key=lambda item: _order(item[0]))


def _order(name: str) -> tuple[str, int, str]:
    head, _, tail = name.rpartition(" ")
    return (head, int(tail), "") if tail.isdigit() else (head, 0, tail)
