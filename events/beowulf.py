"""Beowulf events: everything that can happen in a game, past tense, tagged `beowulf.*`.

Hidden values are `Secret`s: a pile's order (audience: nobody), the tiles a seat draws or
is dealt (audience: that seat). A tile becomes public the moment it is played. Events
that reveal information or consume chance (shuffles, draws, deals) are undo barriers, and
so is playing a tile out of a hand (placed, Good Counsel or cashed): the table saw it and
cannot un-see it (DESIGN.md "Undo and redo"). Such plays carry `revealed=True`; logs from
rules version 1 lack the flag and replay as they were played, undos included.
Squares are names (`C3`), tiles are stable ids from `core/beowulf/tiles.toml` (`II07`).
"""

from __future__ import annotations

from skald.events.base import Event
from skald.events.secret import Secret


class ActBegan(Event, frozen=True, tag="beowulf.act_began"):
    """An act's board is set up; `first` plays first once `refills` seats have chosen."""

    act: int
    first: int
    refills: tuple[int, ...] = ()


class PileShuffled(Event, frozen=True, tag="beowulf.pile_shuffled"):
    """The act's tiles were shuffled face down into the draw pile."""

    barrier = True
    act: int
    size: int
    order: Secret[tuple[str, ...]]


class TilesDealt(Event, frozen=True, tag="beowulf.tiles_dealt"):
    """A seat took `count` tiles from the pile: its opening hand, or a refill between acts."""

    barrier = True
    seat: int
    act: int
    count: int
    tiles: Secret[tuple[str, ...]]


class RefillDeclined(Event, frozen=True, tag="beowulf.refill_declined"):
    """A seat below two tiles chose not to refill its hand at the start of an act."""

    seat: int


class TileDrawn(Event, frozen=True, tag="beowulf.tile_drawn"):
    """A seat drew a tile (its back shows `act`); it must now play a tile."""

    barrier = True
    seat: int
    act: int
    tile: Secret[str]


class FigurePlaced(Event, frozen=True, tag="beowulf.figure_placed"):
    """A seat placed a figure from its supply on a free space."""

    seat: int
    kind: str
    at: str


class TilePlaced(Event, frozen=True, tag="beowulf.tile_placed"):
    """A seat played a tile from its hand onto a space (shown to all: an undo barrier)."""

    seat: int
    tile: str
    at: str
    revealed: bool = False

    @property
    def barrier(self) -> bool:  # type: ignore[override]
        """The tile left a hidden hand: undo stops here."""
        return self.revealed


class TileRemoved(Event, frozen=True, tag="beowulf.tile_removed"):
    """A tile left the board for the box (Temptation, Courage, or a Beer by Drunkenness)."""

    seat: int
    tile: str
    at: str


class TreasureCashed(Event, frozen=True, tag="beowulf.treasure_cashed"):
    """A seat returned a Treasure tile from its hand to the box and scored its treasure
    value (the tile was shown: an undo barrier)."""

    seat: int
    tile: str
    points: int
    revealed: bool = False

    @property
    def barrier(self) -> bool:  # type: ignore[override]
        """The tile left a hidden hand: undo stops here."""
        return self.revealed


class FigureMoved(Event, frozen=True, tag="beowulf.figure_moved"):
    """Good Counsel: a seat moved its figure to an adjacent empty space."""

    seat: int
    source: str
    target: str


class AbilityOffered(Event, frozen=True, tag="beowulf.ability_offered"):
    """The tile just placed lets its player make an optional follow-up choice."""

    seat: int
    ability: str
    source: str


class TilesSwapped(Event, frozen=True, tag="beowulf.tiles_swapped"):
    """Golden Statue: two other tiles on the board changed places."""

    seat: int
    first: str
    second: str


class AbilityDeclined(Event, frozen=True, tag="beowulf.ability_declined"):
    """The player chose not to use the optional follow-up."""

    seat: int
    ability: str


class TurnPassed(Event, frozen=True, tag="beowulf.turn_passed"):
    """A seat with nothing it could play passed."""

    seat: int


class TurnBegan(Event, frozen=True, tag="beowulf.turn_began"):
    """It is now `seat`'s turn."""

    seat: int


class TilesBetrayed(Event, frozen=True, tag="beowulf.tiles_betrayed"):
    """At the end of an act, Betrayal turned these positive tiles face down (value 0)."""

    act: int
    squares: tuple[str, ...]


class FigureScored(Event, frozen=True, tag="beowulf.figure_scored"):
    """At the end of an act a figure scored `sum` × `diamonds` and left the board."""

    act: int
    seat: int
    kind: str
    at: str
    sum: int
    diamonds: int
    points: int


class ActEnded(Event, frozen=True, tag="beowulf.act_ended"):
    """The act is over: board tiles and the rest of the pile went to the box."""

    act: int
    reason: str
    next_seat: int


BeowulfEvent = (
    ActBegan
    | PileShuffled
    | TilesDealt
    | RefillDeclined
    | TileDrawn
    | FigurePlaced
    | TilePlaced
    | TileRemoved
    | TreasureCashed
    | FigureMoved
    | AbilityOffered
    | TilesSwapped
    | AbilityDeclined
    | TurnPassed
    | TurnBegan
    | TilesBetrayed
    | FigureScored
    | ActEnded
)
EVENT_TYPES: tuple[type[Event], ...] = BeowulfEvent.__args__
