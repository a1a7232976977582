"""What a player may ask for on its turn (rulebook "Turn Sequence", "Special Abilities").

A turn is either `PlaceFigure`, or `Draw` then one tile play (`PlayTile`, `CashTreasure`,
`Counsel`); with the pile exhausted the tile play comes without a draw. Drawing and
playing are two commands so the play after a draw can be taken back while the draw (it
revealed a tile) cannot. Optional follow-ups of a placed tile are separate decisions of
the same seat: `Swap` (Golden Statue), `Remove` (Temptation / Courage), or `Skip`.
Between acts a seat below two tiles chooses `Refill` or `Keep`.

The text notation; `parse_command(format_command(c)) == c` for every command. Grammar
(case-insensitive; squares are a column letter and a row number, `C3`; faces are the
signed value plus an ability code, see `core.beowulf.data`):

    place KIND SQUARE        KIND: beowulf | thane | castle | drakkar   place thane C3
    draw
    play FACE SQUARE         play +3 C3     play -2d E4 (a Drunkenness onto a Beer at E4)
                             FACE@ACT names the back when the hand holds that face from
                             two acts: play +3@1 C3 (the Act I copy)
    cash FACE                cash +1$3      (Treasure: take its treasure value)
    counsel FACE FROM TO     counsel 0g C3 C4   (Good Counsel: figure C3 -> C4, tile on C3)
    swap SQUARE SQUARE       swap A1 B2     (after a Golden Statue)
    remove SQUARE            remove D4      (after a Temptation / Courage)
    skip                     decline that follow-up
    pass                     only when nothing else is legal
    refill | keep            between acts, for a seat below two tiles
"""

from __future__ import annotations

import msgspec

from skald.core.beowulf.board import parse_square, square_name
from skald.core.beowulf.data import KINDS, parse_face
from skald.core.errors import InvalidNotation
from skald.core.notation_format import CommandFormatter


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


Command = (
    PlaceFigure
    | Draw
    | PlayTile
    | CashTreasure
    | Counsel
    | Swap
    | Remove
    | Skip
    | Pass
    | Refill
    | Keep
)

_BARE: dict[str, Command] = {
    "draw": Draw(),
    "skip": Skip(),
    "pass": Pass(),
    "refill": Refill(),
    "keep": Keep(),
}
_ARITY = {"place": 2, "play": 2, "cash": 1, "counsel": 3, "swap": 2, "remove": 1}
USAGE = (
    "place KIND SQ | draw | play FACE SQ | cash FACE | counsel FACE SQ SQ | "
    "swap SQ SQ | remove SQ | skip | pass | refill | keep"
)


def parse_command(text: str) -> Command:
    """A command from its notation; InvalidNotation names the input."""
    words = text.split()
    if not words:
        raise InvalidNotation(f"empty Beowulf move {text!r}; expected {USAGE}")
    verb, args = words[0].lower(), words[1:]
    if verb in _BARE and not args:
        return _BARE[verb]
    if verb not in _ARITY or len(args) != _ARITY[verb]:
        raise InvalidNotation(f"cannot read Beowulf move {text!r}; expected {USAGE}")
    if verb == "place":
        kind = args[0].lower()
        if kind not in KINDS:
            raise InvalidNotation(
                f"{text!r}: unknown figure {args[0]!r} (figures: {', '.join(KINDS)})"
            )
        return PlaceFigure(kind, _square(text, args[1]))
    if verb == "play":
        return PlayTile(_face(text, args[0]), _square(text, args[1]))
    if verb == "cash":
        return CashTreasure(_face(text, args[0]))
    if verb == "counsel":
        return Counsel(_face(text, args[0]), _square(text, args[1]), _square(text, args[2]))
    if verb == "swap":
        return Swap(_square(text, args[0]), _square(text, args[1]))
    return Remove(_square(text, args[0]))


format_command = CommandFormatter(
    "Beowulf",
    _BARE,
    {
        PlaceFigure: lambda c: f"place {c.kind} {c.at}",
        PlayTile: lambda c: f"play {c.tile} {c.at}",
        CashTreasure: lambda c: f"cash {c.tile}",
        Counsel: lambda c: f"counsel {c.tile} {c.source} {c.target}",
        Swap: lambda c: f"swap {c.first} {c.second}",
        Remove: lambda c: f"remove {c.at}",
    },
)
"""The notation of a command."""


def _square(text: str, word: str) -> str:
    parsed = parse_square(word)
    if parsed is None:
        raise InvalidNotation(
            f"{text!r}: {word!r} is not a square (a column letter and a row number, like C3)"
        )
    return square_name(*parsed)


def _face(text: str, word: str) -> str:
    printed, at, back = word.partition("@")
    face = parse_face(printed)
    if face is None or (at and back not in ("1", "2", "3")):
        raise InvalidNotation(
            f"{text!r}: {word!r} is not a tile face (a signed value and "
            "an optional ability code, like +3, -2x, 0#, +1$3; @1, @2 or @3 names the back)"
        )
    return f"{face}@{back}" if at else face
