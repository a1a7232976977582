"""What a player may ask for on its turn (rulebook "Turn Sequence", "Special Abilities").

A turn is either `PlaceFigure`, or `Draw` then one tile play (`PlayTile`, `CashTreasure`,
`Counsel`); with the pile exhausted the tile play comes without a draw. Drawing and
playing are two commands so the play after a draw can be taken back while the draw (it
revealed a tile) cannot. Optional follow-ups of a placed tile are separate decisions of
the same seat: `Swap` (Golden Statue), `Remove` (Temptation / Courage), or `Skip`.
Between acts a seat below two tiles chooses `Refill` or `Keep`.
"""

from __future__ import annotations

import msgspec


class PlaceFigure(msgspec.Struct, frozen=True):
    """Place a figure from the supply on a free space."""

    kind: str
    at: str


class Draw(msgspec.Struct, frozen=True):
    """Draw a tile from the pile (a tile must then be played)."""


class PlayTile(msgspec.Struct, frozen=True):
    """Place a tile from hand on a free space (a Drunkenness also on a Beer)."""

    tile: str
    at: str


class CashTreasure(msgspec.Struct, frozen=True):
    """Return a Treasure tile from hand to the box and score its treasure value."""

    tile: str


class Counsel(msgspec.Struct, frozen=True):
    """Good Counsel: move an own figure to an adjacent empty space; the tile takes its place."""

    tile: str
    source: str
    target: str


class Swap(msgspec.Struct, frozen=True):
    """Golden Statue follow-up: swap two other tiles on the board."""

    first: str
    second: str


class Remove(msgspec.Struct, frozen=True):
    """Temptation / Courage follow-up: remove a Courage / Temptation tile from the board."""

    at: str


class Skip(msgspec.Struct, frozen=True):
    """Decline the optional follow-up of the tile just placed."""


class Pass(msgspec.Struct, frozen=True):
    """Pass: only when nothing else can be done."""


class Refill(msgspec.Struct, frozen=True):
    """At the start of Act II or III: refill the hand to two tiles at random."""


class Keep(msgspec.Struct, frozen=True):
    """At the start of Act II or III: keep the hand as it is."""


Command = (PlaceFigure | Draw | PlayTile | CashTreasure | Counsel | Swap | Remove | Skip | Pass
           | Refill | Keep)
