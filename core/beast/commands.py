"""Beast commands and their notation (`parse(format(c)) == c`).

Grammar (one command per line; card and character names as printed, spaces allowed):

    draft CARD               keep a card from your pack
    assign CARD @HUNTER      2 players, after the draft: give a drafted card to a hunter
    place LOC                place (or return) a hunter in a settlement, e.g. `place A1`
    play CARD                play a card from hand (action, ability, item, talent)
    react CARD | decline     answer a hunter's card with a reaction, or let it resolve
    pass | end | flee CARD   pass the turn, end it after playing, discard a card to move 1
    choose K                 pick effect K (1-based) of a "choose one" card
    step D                   one step: N, E, S, W (the Beast also X = No Movement)
    stop                     end a move (or the summons' actions) early
    skip                     ignore the next optional effect
    do                       resolve the next effect that needs no choice
    search LOC               search a location
    attack TARGET [+K]       TARGET: beast, a hunter, a summon (Wolf1), LOC/kind
                             (B2/sheep), LOC/tower; +K spends K ancient powers
    summon LOC [SUMMON]      place a summon (all on the map: which one moves there)
    rally                    let every summon act
    SUMMON step D | SUMMON attack TARGET | SUMMON ability [D ...] | SUMMON rest
    take CARD | take deck    gain a face-up item/talent or the deck's top card
    trap ZONE HABITAT        set a trap, e.g. `trap North forest`
    copy CARD                play the half of an action card in the common discard
    upgrade NAME | done      unlock an upgrade at night, or finish upgrading
    tower LOC                all six watchtowers out: move the one on LOC to your location
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from skald.core.errors import InvalidNotation
from skald.core.notation_format import CommandFormatter
from skald.core.notation_numbers import parse_number


class Draft(msgspec.Struct, frozen=True):
    card: str
    hunter: str = ""


class Place(msgspec.Struct, frozen=True):
    location: str


class Play(msgspec.Struct, frozen=True):
    card: str


class React(msgspec.Struct, frozen=True):
    card: str


class Decline(msgspec.Struct, frozen=True):
    pass


class Pass(msgspec.Struct, frozen=True):
    pass


class End(msgspec.Struct, frozen=True):
    pass


class Flee(msgspec.Struct, frozen=True):
    card: str


class Choose(msgspec.Struct, frozen=True):
    index: int


class StepTo(msgspec.Struct, frozen=True):
    direction: str


class Stop(msgspec.Struct, frozen=True):
    pass


class Skip(msgspec.Struct, frozen=True):
    pass


class Do(msgspec.Struct, frozen=True):
    pass


class Search(msgspec.Struct, frozen=True):
    location: str


class Attack(msgspec.Struct, frozen=True):
    target: str
    powers: int = 0


class PlaceSummon(msgspec.Struct, frozen=True):
    location: str
    summon: str = ""


class Assign(msgspec.Struct, frozen=True):
    card: str
    hunter: str


class MoveTower(msgspec.Struct, frozen=True):
    source: str


class Rally(msgspec.Struct, frozen=True):
    pass


class SummonAct(msgspec.Struct, frozen=True):
    summon: str
    verb: str
    args: tuple[str, ...] = ()


class Take(msgspec.Struct, frozen=True):
    card: str


class SetTrap(msgspec.Struct, frozen=True):
    zone: str
    habitat: str


class CopyCard(msgspec.Struct, frozen=True):
    card: str


class Upgrade(msgspec.Struct, frozen=True):
    name: str


class Done(msgspec.Struct, frozen=True):
    pass


Command = (
    Draft
    | Place
    | Play
    | React
    | Decline
    | Pass
    | End
    | Flee
    | Choose
    | StepTo
    | Stop
    | Skip
    | Do
    | Search
    | Attack
    | PlaceSummon
    | Rally
    | SummonAct
    | Take
    | SetTrap
    | CopyCard
    | Upgrade
    | Done
    | Assign
    | MoveTower
)

_BARE: dict[str, Command] = {
    "decline": Decline(),
    "pass": Pass(),
    "end": End(),
    "stop": Stop(),
    "skip": Skip(),
    "do": Do(),
    "rally": Rally(),
    "done": Done(),
}
Named = Place | Play | React | Flee | Search | Take | CopyCard | Upgrade | MoveTower
"""The commands of one text field, written `WORD FIELD`."""
_NAMED: dict[str, type[Named]] = {
    "place": Place,
    "play": Play,
    "react": React,
    "flee": Flee,
    "search": Search,
    "take": Take,
    "copy": CopyCard,
    "upgrade": Upgrade,
    "tower": MoveTower,
}
DIRECTION_WORDS = ("N", "E", "S", "W", "X")
SUMMON_VERBS = ("step", "attack", "ability", "rest")


def parse(text: str) -> Command:
    """A command from its notation; InvalidNotation names the input and the position."""
    line = " ".join(text.split())
    if not line:
        raise InvalidNotation("empty move: expected a command such as 'play Rush' or 'step N'")
    head, _, rest = line.partition(" ")
    if head in _BARE and not rest:
        return _BARE[head]
    if head in _NAMED:
        return _NAMED[head](_needs(text, rest, head))
    if head == "draft":
        card, _, hunter = _needs(text, rest, head).partition(" @")
        return Draft(card.strip(), hunter.strip())
    if head == "assign":
        card, _, hunter = _needs(text, rest, head).partition(" @")
        if not hunter.strip():
            raise InvalidNotation(f"{text!r}: expected 'assign CARD @HUNTER'")
        return Assign(card.strip(), hunter.strip())
    if head == "summon":
        location, _, summon = _needs(text, rest, head).partition(" ")
        return PlaceSummon(location, summon.strip())
    if head == "choose":
        return Choose(parse_number(text, rest, what="'choose N', N"))
    if head == "step":
        if rest not in DIRECTION_WORDS:
            raise InvalidNotation(
                f"{text!r}: expected a direction N, E, S, W or X (no "
                f"movement) at word 2, not {rest!r}"
            )
        return StepTo(rest)
    if head == "attack":
        return _attack(text, rest)
    if head == "trap":
        zone, _, habitat = _needs(text, rest, head).rpartition(" ")
        if not zone:
            raise InvalidNotation(f"{text!r}: expected 'trap ZONE HABITAT' at word 2")
        return SetTrap(zone, habitat)
    words = line.split(" ")
    if len(words) >= 2 and words[1] in SUMMON_VERBS:
        return _summon_act(text, words)
    known = ", ".join(
        sorted({*_BARE, *_NAMED, "draft", "assign", "summon", "choose", "step", "attack", "trap"})
    )
    raise InvalidNotation(
        f"{text!r}: unknown command {head!r} at word 1 (commands: {known}; "
        f"or SUMMON step|attack|ability|rest; `skald legal` lists them)"
    )


def _needs(text: str, rest: str, head: str) -> str:
    if not rest:
        raise InvalidNotation(f"{text!r}: '{head}' needs an argument at word 2")
    return rest


def _attack(text: str, rest: str) -> Attack:
    target = _needs(text, rest, "attack")
    powers = 0
    if " +" in target:
        target, _, bonus = target.rpartition(" +")
        powers = parse_number(text, bonus, what="'+K' (ancient powers), K")
    return Attack(target, powers)


def _summon_act(text: str, words: list[str]) -> SummonAct:
    summon, verb, args = words[0], words[1], tuple(words[2:])
    if verb == "step" and (len(args) != 1 or args[0] not in DIRECTION_WORDS[:4]):
        raise InvalidNotation(f"{text!r}: expected '{summon} step N|E|S|W' at word 3")
    if verb == "attack" and len(args) != 1:
        raise InvalidNotation(f"{text!r}: expected '{summon} attack TARGET' at word 3")
    if verb == "rest" and args:
        raise InvalidNotation(f"{text!r}: '{summon} rest' takes nothing after word 2")
    return SummonAct(summon, verb, args)


def _named(word: str) -> Callable[[Any], str]:
    """The notation of a named command: each is a class of one text field."""
    return lambda command: f"{word} {msgspec.structs.astuple(command)[0]}"


format_command = CommandFormatter(
    "Beast",
    _BARE,
    {
        Draft: lambda c: f"draft {c.card} @{c.hunter}" if c.hunter else f"draft {c.card}",
        Assign: lambda c: f"assign {c.card} @{c.hunter}",
        PlaceSummon: lambda c: (
            f"summon {c.location} {c.summon}" if c.summon else f"summon {c.location}"
        ),
        Choose: lambda c: f"choose {c.index}",
        StepTo: lambda c: f"step {c.direction}",
        Attack: lambda c: f"attack {c.target} +{c.powers}" if c.powers else f"attack {c.target}",
        SetTrap: lambda c: f"trap {c.zone} {c.habitat}",
        SummonAct: lambda c: " ".join((c.summon, c.verb, *c.args)),
        **{kind: _named(word) for word, kind in _NAMED.items()},
    },
)
"""The notation of a command."""
