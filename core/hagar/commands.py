"""Hägar commands and their notation: one short line per decision, round-tripping
(`parse(format_command(c)) == c`).

Grammar (SPACE is a board id such as `paris`, `fjord-west`, `channel-3`; SEAT a 0-based
seat; SLOT a 1-based place on your collector's card, as your view numbers it):

    start SPACE          choose a home harbour (setup)
    throw                throw both rune sticks
    feast                call the Loot Feast (instead of throwing)
    walk SPACE           go on foot to SPACE with the thrown points
    sail SPACE           sail your ship to SPACE with the thrown waves
    draw                 a lightning bolt and you walk: draw a fate card first
    shoot SEAT           hand the drawn arrow to a fellow player
    odin ship|city|SPACE Odin carries you onto your ship, or into the next city
    jettison SLOT        the storm takes this piece of your cargo
    announce SPACE SPACE at a crossroads: the first step on an even, then on an odd throw
    rob SEAT             ambush: draw one of SEAT's pieces face down
    force SEAT SLOT      ambush: force your piece in SLOT on SEAT
    spare                let the other Vikings be
    take | leave         roadside loot reached exactly: take it along, or leave it lying
"""

from __future__ import annotations

import msgspec

from skald.core.errors import InvalidNotation
from skald.core.hagar.board import board
from skald.core.notation_format import CommandFormatter
from skald.core.notation_numbers import parse_number


class Start(msgspec.Struct, frozen=True):
    harbour: str


class Throw(msgspec.Struct, frozen=True):
    pass


class Take(msgspec.Struct, frozen=True):
    pass


class Leave(msgspec.Struct, frozen=True):
    pass


class Feast(msgspec.Struct, frozen=True):
    pass


class Walk(msgspec.Struct, frozen=True):
    to: str


class Sail(msgspec.Struct, frozen=True):
    to: str


class Draw(msgspec.Struct, frozen=True):
    pass


class Shoot(msgspec.Struct, frozen=True):
    target: int


class Odin(msgspec.Struct, frozen=True):
    to: str


class Jettison(msgspec.Struct, frozen=True):
    slot: int


class Announce(msgspec.Struct, frozen=True):
    even: str
    odd: str


class Rob(msgspec.Struct, frozen=True):
    victim: int


class Force(msgspec.Struct, frozen=True):
    victim: int
    slot: int


class Spare(msgspec.Struct, frozen=True):
    pass


Command = (
    Start
    | Throw
    | Feast
    | Walk
    | Sail
    | Draw
    | Shoot
    | Odin
    | Jettison
    | Announce
    | Rob
    | Force
    | Spare
    | Take
    | Leave
)
_BARE: dict[str, Command] = {
    "throw": Throw(),
    "feast": Feast(),
    "draw": Draw(),
    "spare": Spare(),
    "take": Take(),
    "leave": Leave(),
}
USAGE = (
    "start SPACE | throw | feast | walk SPACE | sail SPACE | draw | shoot SEAT | "
    "odin ship|city|SPACE | jettison SLOT | announce SPACE SPACE | rob SEAT | "
    "force SEAT SLOT | spare | take | leave"
)


def _space(text: str, word: str) -> str:
    if word not in board().spaces:
        raise InvalidNotation(f"{text!r}: no space {word!r} on the board")
    return word


def _number(text: str, word: str, least: int) -> int:
    return parse_number(text, word, least=least)


def parse(text: str) -> Command:
    """A command from its notation; InvalidNotation names the input."""
    words = text.strip().lower().split()
    if not words:
        raise InvalidNotation(f"{text!r}: empty move (expected {USAGE})")
    verb, args = words[0], words[1:]
    arity = {
        "start": 1,
        "walk": 1,
        "sail": 1,
        "shoot": 1,
        "odin": 1,
        "jettison": 1,
        "announce": 2,
        "rob": 1,
        "force": 2,
    }
    if verb in _BARE and not args:
        return _BARE[verb]
    if verb not in arity or len(args) != arity[verb]:
        raise InvalidNotation(f"{text!r}: expected {USAGE}")
    match verb:
        case "start":
            return Start(_space(text, args[0]))
        case "walk":
            return Walk(_space(text, args[0]))
        case "sail":
            return Sail(_space(text, args[0]))
        case "shoot":
            return Shoot(_number(text, args[0], 0))
        case "odin":
            return Odin(args[0] if args[0] in ("ship", "city") else _space(text, args[0]))
        case "jettison":
            return Jettison(_number(text, args[0], 1))
        case "announce":
            return Announce(_space(text, args[0]), _space(text, args[1]))
        case "rob":
            return Rob(_number(text, args[0], 0))
    return Force(_number(text, args[0], 0), _number(text, args[1], 1))


format_command = CommandFormatter(
    "Hägar",
    _BARE,
    {
        Start: lambda c: f"start {c.harbour}",
        Walk: lambda c: f"walk {c.to}",
        Sail: lambda c: f"sail {c.to}",
        Shoot: lambda c: f"shoot {c.target}",
        Odin: lambda c: f"odin {c.to}",
        Jettison: lambda c: f"jettison {c.slot}",
        Announce: lambda c: f"announce {c.even} {c.odd}",
        Rob: lambda c: f"rob {c.victim}",
        Force: lambda c: f"force {c.victim} {c.slot}",
    },
)
"""The notation of a command."""
