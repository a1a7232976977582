"""Figures and seat colours (rulebook "Figures", "Setup").

Every player has the same set: one Beowulf (4 diamonds), two Thanes (3), three Heorot
Castles (2) and four Drakkars (1). Seats take colours in seat order: brown, green, gray,
blue (brown, green and gray are the colours of the rulebook's scoring example).
"""

from __future__ import annotations

from typing import Literal

Kind = Literal["beowulf", "thane", "castle", "drakkar"]
KINDS: tuple[Kind, ...] = ("beowulf", "thane", "castle", "drakkar")
DIAMONDS: dict[str, int] = {"beowulf": 4, "thane": 3, "castle": 2, "drakkar": 1}
STARTING_SUPPLY: tuple[int, ...] = (1, 2, 3, 4)  # in KINDS order
KIND_LETTERS: dict[str, str] = {"beowulf": "W", "thane": "T", "castle": "C", "drakkar": "D"}
COLOURS: tuple[str, ...] = ("brown", "green", "gray", "blue")


def colour_of(seat: int) -> str:
    """The colour of a seat."""
    return COLOURS[seat]


def supply_diamonds(supply: tuple[int, ...]) -> int:
    """Total diamonds of the figures in a supply (counts in KINDS order)."""
    return sum(count * DIAMONDS[kind] for kind, count in zip(KINDS, supply, strict=True))
