"""What each game lets markup name, and who shares a seat's private notes, as each game's
rules say (`Rules.places`, `Rules.team`).

Markup names cells of the Beowulf board (`C3`, within the board of the act at the anchor)
and map locations of Beast (`A1`-style locations of the chosen map) and Hägar (space ids
such as `paris`). A seat's private note is seen by its team: in Beast the hunters share
their hands, so they share notes; everywhere else a team is the seat alone.
"""

from __future__ import annotations

from typing import Any

from skald.core.errors import InvalidNotation
from skald.core.rules import get_rules


def places(game: str, rules_state: Any) -> frozenset[str] | None:
    """Every name markup may use at this state (None: the game has no known board)."""
    return get_rules(game).places(rules_state)


def check_place(game: str, rules_state: Any, name: str) -> None:
    """Raise InvalidNotation unless markup may name `name` here."""
    known = places(game, rules_state)
    if known is not None and name not in known:
        sample = ", ".join(sorted(known)[:6])
        raise InvalidNotation(f"mark: {name!r} is not a place on this board (e.g. {sample})")


def team(game: str, rules_state: Any, seat: int) -> frozenset[int]:
    """The seats that share `seat`'s private notes."""
    return get_rules(game).team(rules_state, seat)
