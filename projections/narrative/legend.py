"""The legend of the ids an audit's evidence shows: each id with its face, per game
(Beowulf tile ids as printed, Hägar loot pieces by kind and value and fate cards by what
they show; the Beast's evidence names its cards and locations already)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from skald.core.beowulf.data import catalog
from skald.core.beowulf.printed import tile_words
from skald.core.hagar.data import cards, pieces
from skald.projections.hagar.narrative import fate_words, loot_words

TILE_ID = re.compile(r"\bI{1,3}\d\d\b")
FATE_KINDS = ("hagar.fate_shuffled", "hagar.fate_drawn", "hagar.arrow_shot", "hagar.arrows_healed")


def _numbers(value: str) -> list[int]:
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
    """A value named by text as a person reads it (a Beowulf tile id as printed)."""
    if game == "beowulf" and value in catalog():
        return tile_words(value)
    return value


def legend(game: str, evidence: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """`(id, face)` for every id in `evidence` (pairs of event tag and recorded value),
    sorted, each once."""
    entries: dict[str, str] = {}
    for kind, value in evidence:
        if game == "beowulf":
            for tile_id in TILE_ID.findall(value):
                if tile_id in catalog():
                    entries[f"tile {tile_id}"] = tile_words(tile_id)
        elif game == "hagar":
            fate = kind in FATE_KINDS
            for number in _numbers(value):
                if fate and 0 <= number < len(cards()):
                    entries[f"fate card {number}"] = fate_words(number)
                elif not fate and 0 <= number < len(pieces()):
                    entries[f"loot piece {number}"] = loot_words(number)
    return sorted(entries.items(), key=lambda item: _order(item[0]))


def _order(name: str) -> tuple[str, int, str]:
    head, _, tail = name.rpartition(" ")
    return (head, int(tail), "") if tail.isdigit() else (head, 0, tail)
