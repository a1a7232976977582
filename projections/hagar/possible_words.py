"""What could be true of a Hägar game, as lines a player reads (`describe`, for
`knowledge.possible.describe_possible`): each face-down piece's possible values and
whereabouts, and the fate deck.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from skald.core.hagar.board import board
from skald.core.hagar.data import pieces
from skald.projections.hagar.narrative import FATE_CARDS


def describe(possible: Any, players: Sequence[str]) -> str:
    lines = [f"Hägar: what {possible.viewer} cannot see"]
    for piece in possible.pieces:
        values = ", ".join(
            f"{v.name} {v.value}" + (f" ×{v.count}" if v.count > 1 else "") for v in piece.values
        )
        field = {"carried": "carries", "cargo": "has on his ship", "home": "has at home"}
        lines.append(
            f"  {players[piece.seat]} {field[piece.field]}, piece {piece.slot}: "
            + ("it is " if piece.known else "one of ")
            + values
        )
    lines += _hagar_whereabouts(possible, players)
    cards = ", ".join(f"{FATE_CARDS.get(kind, kind)} ×{n}" for kind, n in possible.fate.cards)
    cards = cards or "none"
    lines.append(f"  the fate deck ({possible.fate.size} cards, in any order): {cards}")
    if not possible.exact:
        lines.append(
            "  (too many ambushes between others to follow each piece: "
            "some pieces may be narrower than shown)"
        )
    return "\n".join(lines)


def _hagar_whereabouts(possible: Any, players: Sequence[str]) -> list[str]:
    """A line per piece the viewer saw whose place it has lost track of (an unseen ambush
    between others), with where it may be and the share of the hidden histories: `the
    Gold 6 seen earlier is in one of: Bob's ship, piece 2 (67%), Cid's ship, piece 1 (33%)`."""
    lines = []
    for index, group in enumerate(possible.groups):
        places = Counter[Any]()
        for arrangement in possible.arrangements:
            for spot, held in zip(possible.mixed, arrangement.groups, strict=True):
                if held == index:
                    places[spot] += arrangement.share
        if len(group.pieces) != 1 or not places:
            continue
        (piece,) = group.pieces
        where = ", ".join(f"{_hagar_spot(s, players)} ({share:.0%})" for s, share in places.items())
        lines.append(f"  the {_hagar_piece(piece)} seen earlier is in one of: {where}")
    return lines


def _hagar_spot(spot: Any, players: Sequence[str]) -> str:
    fields = {"carried": "hand", "cargo": "ship", "home": "home"}
    if spot.place in fields:
        return f"{players[int(spot.key)]}'s {fields[spot.place]}, piece {spot.index + 1}"
    name = board().spaces[spot.key].name or spot.key if spot.key in board().spaces else spot.key
    if spot.place == "stack":
        return f"the stack of {name}, piece {spot.index + 1}"
    if spot.place == "roadside":
        return f"by the road at {name}, piece {spot.index + 1}"
    return "out of the game"


def _hagar_piece(piece: int) -> str:
    known = pieces()[piece]
    return f"{known.name} {known.value}"
