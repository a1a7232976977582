"""Beowulf told in the rulebook's words: who placed which figure where, who drew and
played which tile (as printed: `+3`, `-2 Drunkenness`, `0 Golden Statue`, with a true minus
sign: `core.beowulf.printed`), the acts, the pile, Betrayal and each figure's scoring.

A hidden tile is named only for a reader who may see it (its holder, the referee, anyone
after a game that reveals at its end); the others read that a tile was drawn or dealt.
Seats are shown by name, with their colour beside their sentences and in the cast.
"""

from __future__ import annotations

import re
from typing import Any

from skald.core.beowulf.data import COLOURS, ROMAN, catalog
from skald.core.beowulf.printed import (
    MINUS,
    ability_name,
    face_words,
    signed,
    tile_words,
    tiles_words,
)
from skald.events.beowulf import (
    AbilityDeclined,
    AbilityOffered,
    ActBegan,
    ActEnded,
    FigureMoved,
    FigurePlaced,
    FigureScored,
    PileShuffled,
    RefillDeclined,
    TileDrawn,
    TilePlaced,
    TileRemoved,
    TilesBetrayed,
    TilesDealt,
    TilesSwapped,
    TreasureCashed,
    TurnBegan,
    TurnPassed,
)
from skald.projections.narrative.common import known, listing, plural, seat_deed

FIGURE_NAMES = {
    "beowulf": "Beowulf",
    "thane": "Thane",
    "castle": "Heorot Castle",
    "drakkar": "Drakkar",
}
FIGURES = {kind: name if kind == "beowulf" else f"a {name}" for kind, name in FIGURE_NAMES.items()}


def _act(act: int) -> str:
    """`II` (a forged act number as it is)."""
    return ROMAN.get(act, str(act))


class BeowulfNarrator:
    """Sentences for Beowulf's events, for one reader."""

    def __init__(self, players: tuple[str, ...]) -> None:
        self.players = players

    def name(self, seat: int) -> str:
        return self.players[seat] if 0 <= seat < len(self.players) else f"seat {seat}"

    def actor(self, seat: int) -> str:
        """`Ann (brown)`."""
        colour = COLOURS[seat] if seat < len(COLOURS) else ""
        return f"{self.name(seat)} ({colour})" if colour else self.name(seat)

    def move_words(self, move: str) -> str:
        """A move in notation with its tiles as printed: `play 0# C2` -> `play Throat C2`,
        `cash +1$3` -> `cash +1 Treasure (3)`; squares and verbs stay as they are."""
        return " ".join(face_words(word) for word in move.split(" "))

    def deed(self, event: Any, seat: int) -> bool:
        """Whether `event` is `seat`'s doing (the game deals, offers, scores and begins
        the next turn)."""
        return seat_deed(event, seat) and not isinstance(event, GAME_EVENTS)

    def say(self, event: Any) -> str | None:
        """The sentence for a Beowulf event, or None for another game's."""
        return self._dealing(event) or self._playing(event) or self._scoring(event)

    def _dealing(self, event: Any) -> str | None:
        match event:
            case ActBegan(act=act, first=first, refills=refills):
                text = f"Act {_act(act)} begins; {self.name(first)} plays first"
                if refills:
                    text += f" once {listing([self.name(s) for s in refills])} chose to refill"
                return text + "."
            case PileShuffled(act=act, size=size, order=order):
                text = f"The Act {_act(act)} tiles were shuffled face down: the pile holds {size}"
                shown = known(order)
                return text + (f" (top first: {tiles_words(shown)})." if shown else ".")
            case TilesDealt(seat=seat, act=act, count=count, tiles=tiles):
                verb = "was dealt" if act == 1 else "refilled their hand with"
                shown = known(tiles)
                text = f"{self.name(seat)} {verb} {plural(count, 'tile')}"
                return text + (f" ({tiles_words(shown)})." if shown else ".")
            case RefillDeclined(seat=seat):
                return f"{self.name(seat)} chose not to refill their hand."
            case TileDrawn(seat=seat, act=act, tile=drawn):
                shown = known(drawn)
                text = f"{self.name(seat)} drew a tile"
                return text + (f" ({tile_words(shown)})." if shown else f" (Act {_act(act)}).")
        return None

    def _playing(self, event: Any) -> str | None:
        match event:
            case FigurePlaced(seat=seat, kind=kind, at=at):
                return f"{self.name(seat)} placed {FIGURES.get(kind, kind)} on {at}."
            case TilePlaced(seat=seat, tile=placed, at=at):
                return f"{self.name(seat)} played {tile_words(placed)} on {at}."
            case TileRemoved(seat=seat, tile=removed, at=at):
                return f"{self.name(seat)} removed {tile_words(removed)} from {at} to the box."
            case TreasureCashed(seat=seat, tile=cashed, points=points):
                return (
                    f"{self.name(seat)} cashed the treasure tile {tile_words(cashed)} "
                    f"for {plural(points, 'saga point')}."
                )
            case FigureMoved(seat=seat, source=source, target=target):
                return f"{self.name(seat)} moved a figure from {source} to {target} (Good Counsel)."
            case AbilityOffered(seat=seat, ability=ability, source=source):
                return f"{self.name(seat)} may use the {ability_name(ability)} on {source}."
            case TilesSwapped(seat=seat, first=first, second=second):
                return (
                    f"{self.name(seat)} swapped the tiles on {first} and {second} (Golden Statue)."
                )
            case AbilityDeclined(seat=seat, ability=ability):
                return f"{self.name(seat)} did not use the {ability_name(ability)}."
            case TurnPassed(seat=seat):
                return f"{self.name(seat)} could play nothing and passed."
            case TurnBegan(seat=seat):
                return f"{self.name(seat)}'s turn."
        return None

    def _scoring(self, event: Any) -> str | None:
        match event:
            case TilesBetrayed(act=act, squares=squares):
                if not squares:
                    return f"Betrayal turned no tile face down in Act {_act(act)}."
                return f"Betrayal turned the positive tiles on {listing(list(squares))} face down."
            case FigureScored(seat=seat, kind=kind, at=at, sum=total, diamonds=diamonds):
                figure = f"{self.name(seat)}'s {FIGURE_NAMES.get(kind, kind)} on {at}"
                summed = signed(total)
                return (
                    f"{figure} scored {plural(event.points, 'saga point').replace('-', MINUS)} "
                    f"({summed} × {plural(diamonds, 'diamond')})."
                )
            case ActEnded(act=act, reason=reason, next_seat=next_seat):
                text = f"Act {_act(act)} is over ({reason})"
                if act < 3:
                    text += f"; {self.name(next_seat)} begins the next act"
                return text + "."
        return None


GAME_EVENTS = (TilesDealt, AbilityOffered, TurnBegan, FigureScored)
"""Events naming a seat that the game does, not the seat."""


def narrator(players: tuple[str, ...]) -> BeowulfNarrator:
    """The Beowulf narrator for a table."""
    return BeowulfNarrator(players)


TILE_ID = re.compile(r"\bI{1,3}\d\d\b")


def face(value: str) -> str:
    """A tile id as printed (the audit's evidence names tiles by id)."""
    return tile_words(value) if value in catalog() else value


def legend_entries(kind: str, value: str) -> dict[str, str]:
    """`tile ID` and its face for every tile id in a recorded value (`kind` is the event's
    tag: every Beowulf value names tiles alike)."""
    del kind
    return {
        f"tile {tile_id}": tile_words(tile_id)
        for tile_id in TILE_ID.findall(value)
        if tile_id in catalog()
    }
