"""What each game lets markup name, and who shares a seat's private notes.

Markup names cells of the Beowulf board (`C3`, within the board of the act at the anchor)
and map locations of Beast (`A1`-style locations of the chosen map) and Hägar (space ids
such as `paris`). A seat's private note is seen by its team: in Beast the hunters share
their hands, so they share notes; everywhere else a team is the seat alone.
"""

from __future__ import annotations

from typing import Any

from skald.core.errors import InvalidNotation


def places(game: str, rules_state: Any) -> frozenset[str] | None:
    """Every name markup may use at this state (None: the game has no known board)."""
    if game == "beowulf":
        from skald.core.beowulf.state import geometry

        grid = geometry(rules_state)
        return frozenset(grid.name(index) for index in range(grid.size))
    if game == "beast":  # before the set-up no map is chosen: nothing to mark yet
        return frozenset(rules_state.board.locations) if rules_state.map else frozenset()
    if game == "hagar":
        from skald.core.hagar.board import board

        return frozenset(board().spaces)
    return None


def check_place(game: str, rules_state: Any, name: str) -> None:
    """Raise InvalidNotation unless markup may name `name` here."""
    known = places(game, rules_state)
    if known is not None and name not in known:
        sample = ", ".join(sorted(known)[:6])
        raise InvalidNotation(f"mark: {name!r} is not a place on this board (e.g. {sample})")


def team(game: str, rules_state: Any, seat: int) -> frozenset[int]:
    """The seats that share `seat`'s private notes."""
    if game == "beast":
        hunters = frozenset(rules_state.hunter_seats)
        if seat in hunters:
            return hunters
    return frozenset({seat})
