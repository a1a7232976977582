"""Checking a command and deriving its events: the only place Hägar's rules are checked.

Rulebook sections: "Departure" (the home harbour), "On Raiding Expeditions" (the throw,
walking and sailing), "Harbours", "Iron Plundering Rules" (cities, the camp's chests,
loot at the roadside), "Transporting the Loot" (loading, bringing loot home), "Ambush",
"Assorted Misfortunes and Divine Pronouncements" (storm, crossroads), "Fate Lightning
Bolts" (the fate cards), "Uncertainties" (Odin's city), "Loot Feast" (called here,
scored by `scoring`). What may be chosen is `legal`'s; this module checks a command
against it and derives the consequences: plunder on entering a city, loading on reaching
the ship, unloading at home (where arrows are healed and shuffled back), storms,
crossroads, ambushes, fate cards.

What follows a move until the turn ends is `voyage`'s. A `Derivation` applies each event
as it is derived, so later steps see the state they act on, and every chance label
(`throw/<tick>`, `ambush/<tick>`, `seal/<tick>`...) is keyed by the tick of the event it
produces: stable on replay, unchanged by undo.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from skald.core.errors import IllegalMove, Seat
from skald.core.hagar import legal
from skald.core.hagar.board import board, place_name, whereabouts
from skald.core.hagar.commands import (
    Announce,
    Command,
    Draw,
    Feast,
    Force,
    Jettison,
    Leave,
    Odin,
    Rob,
    Sail,
    Shoot,
    Spare,
    Start,
    Take,
    Throw,
    Walk,
    format_command,
)
from skald.core.hagar.data import cards, sticks
from skald.core.hagar.evolve import pieces_in_reach
from skald.core.hagar.scoring import feast_reason, hold_feast, round_limit, throw_faces
from skald.core.hagar.state import HagarState
from skald.core.hagar.voyage import (
    SHIP_HOLDS,
    Turn,
    after_ambush,
    begin,
    drop,
    end_turn,
    heal,
    plunder,
    sailed,
    seal,
    settle,
    take_roadside,
    walked,
)
from skald.core.rng import Rng
from skald.events.base import Event
from skald.events.hagar import (
    AmbushEnded,
    ArrowShot,
    DirectionsAnnounced,
    DragonFled,
    FateDrawn,
    FateShuffled,
    LootForced,
    LootJettisoned,
    LootRobbed,
    MeadDrunk,
    OdinFlew,
    RoadBonus,
    StartChosen,
    SticksThrown,
    ThorPleased,
    UncertaintyThrown,
)

T = TypeVar("T")

PHASE_OF: dict[type, str] = {
    Start: "setup",
    Throw: "throw",
    Feast: "throw",
    Walk: "move",
    Sail: "move",
    Draw: "move",
    Shoot: "arrow",
    Odin: "odin",
    Jettison: "storm",
    Announce: "announce",
    Rob: "ambush",
    Force: "ambush",
    Spare: "ambush",
    Take: "roadside",
    Leave: "roadside",
}
WAITING = {
    "setup": "each Viking first chooses a home harbour to start from",
    "throw": "the turn starts with a throw of the rune sticks (or a call for the Loot Feast)",
    "move": "the sticks are thrown: walk, sail, or draw a fate card",
    "arrow": "the drawn arrow must be handed on to a fellow player",
    "odin": "Odin is waiting to carry the Viking onto his ship or into a city",
    "storm": "the storm takes one piece of cargo: choose which to throw overboard",
    "announce": "at the crossroads: announce where an even and an odd throw lead",
    "ambush": "Vikings met: rob one, force loot on one, or spare them",
    "roadside": "loot lies here: take it along or leave it",
    "over": "the feast is over",
}
PHASE_WORDS = {
    "setup": "choosing a home harbour",
    "throw": "before the throw",
    "move": "after the throw",
    "arrow": "with an arrow to hand on",
    "odin": "with Odin waiting",
    "storm": "in a storm",
    "announce": "at a crossroads",
    "ambush": "at an ambush",
    "roadside": "with loot lying here",
    "over": "after the feast",
}
Words = tuple[str | Seat, ...]


def where(state: HagarState, seat: int) -> str:
    """The seat's position, in the board's words, for refusals: `aboard at Hamburg
    harbour, after the throw: 1 point and 0 waves`."""
    viking = state.vikings[seat]
    place = whereabouts(viking.at, viking.ship, viking.aboard)
    leg = state.leg
    thrown = (
        f": {_count(leg.points, 'point')} and {_count(leg.waves, 'wave')}"
        if leg and state.phase != "throw"
        else ""
    )
    return f"{place}, {PHASE_WORDS.get(state.phase, state.phase)}{thrown}"


def _count(number: int, one: str) -> str:
    return f"{number} {one if number == 1 else one + 's'}"


def command_words(command: Command) -> Words:
    """A command as a person says it, places by their printed names and seats as seats
    (`sail to Hamburg harbour`, `rob `Seat(1)): the notation names places by id."""
    match command:
        case Start(harbour=harbour):
            return (f"start from {place_name(harbour)}",)
        case Walk(to=to):
            return (f"walk to {place_name(to)}",)
        case Sail(to=to):
            return (f"sail to {place_name(to)}",)
        case Odin(to="ship"):
            return ("go with Odin onto the ship",)
        case Odin(to="city"):
            return ("go with Odin into the next city with loot",)
        case Odin(to=to):
            return (f"go with Odin to {place_name(to)}",)
        case Announce(even=even, odd=odd):
            return (f"announce {place_name(even)} (even) and {place_name(odd)} (odd)",)
        case Shoot(target=target):
            return ("hand the arrow to ", Seat(target))
        case Rob(victim=victim):
            return ("rob ", Seat(victim))
        case Force(victim=victim, slot=slot):
            return (f"force the piece in place {slot} on ", Seat(victim))
        case Jettison(slot=slot):
            return (f"throw the piece in place {slot} overboard",)
    return (BARE_WORDS.get(type(command), format_command(command)),)


BARE_WORDS: dict[type, str] = {
    Throw: "throw the rune sticks",
    Feast: "call the Loot Feast",
    Draw: "draw a fate card",
    Spare: "spare the other Vikings",
    Take: "take the loot along",
    Leave: "leave the loot lying",
}


def illegal(state: HagarState, seat: int, command: Command, reason: str | Words) -> IllegalMove:
    """The IllegalMove naming the player, what they asked, their position and why:
    `Ann may not sail to Paris harbour (aboard at Hamburg harbour, after the throw: 1 point
    and 0 waves): ...` (the engine writes the seat as its player's name)."""
    why = (reason,) if isinstance(reason, str) else reason
    return IllegalMove(
        Seat(seat), " may not ", *command_words(command), f" ({where(state, seat)}): ", *why
    )


def decide(state: HagarState, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
    """Validate `command` for `seat`; return its events or raise IllegalMove."""
    phase = PHASE_OF[type(command)]
    if state.phase != phase:
        raise illegal(state, seat, command, f"not now: {WAITING.get(state.phase, '')}")
    if seat != state.turn:
        raise illegal(state, seat, command, ("it is ", Seat(state.turn), "'s turn"))
    d = begin(state, rng)
    HANDLERS[type(command)](d, seat, command)
    return d.result()


def _check(d: Turn, seat: int, command: Command, allowed: list[Command], why: str) -> None:
    if command not in allowed:
        raise _refusal(d.state, seat, command, allowed, why)


def _refusal(
    state: HagarState, seat: int, command: Command, allowed: list[Command], why: str
) -> IllegalMove:
    listed: list[str | Seat] = []
    for choice in allowed[:12]:
        listed += [", ", *command_words(choice)] if listed else command_words(choice)
    return illegal(state, seat, command, (f"{why} (it may: ", *(listed or ["nothing"]), ")"))


# -- turn start ----------------------------------------------------------------------------


def _start(d: Turn, seat: int, command: Start) -> None:
    if command.harbour not in board().homes:
        raise illegal(
            d.state,
            seat,
            command,
            f"start from a home harbour: {' or '.join(place_name(h) for h in board().homes)}",
        )
    d.emit(StartChosen(seat=seat, harbour=command.harbour))


def _throw(d: Turn, seat: int, command: Throw) -> None:
    if round_limit(d.state) and d.state.crossing is None:
        raise illegal(d.state, seat, command, "the round limit is reached: call the feast")
    faces = throw_faces(d, d.label("throw"))
    shown = [sticks()[i].faces[f] for i, f in enumerate(faces)]
    d.emit(
        SticksThrown(
            seat=seat,
            faces=(faces[0], faces[1]),
            points=sum(f.points for f in shown),
            waves=sum(f.waves for f in shown),
            lightning=sum(f.lightning for f in shown),
        )
    )
    settle(d, seat)


def _feast(d: Turn, seat: int, command: Feast) -> None:
    reason = feast_reason(d.state, seat) if d.state.crossing is None else ""
    if not reason:
        raise illegal(
            d.state,
            seat,
            command,
            f"the feast needs {d.state.options.feast_at} pieces home, "
            "or no loot that can still come home",
        )
    hold_feast(d, seat, reason)


# -- moving --------------------------------------------------------------------------------


def _walk(d: Turn, seat: int, command: Walk) -> None:
    state = d.state
    blocker = legal.walk_blocker(state, seat)
    if blocker:
        raise illegal(state, seat, command, blocker)
    if legal.may_draw(state, seat):
        raise illegal(state, seat, command, "a lightning bolt: 'draw' a fate card first")
    path = _path(
        d, seat, command, f"{place_name(command.to)} cannot be reached on foot with this throw"
    )
    assert state.leg is not None
    walked(d, seat, path, state.leg.points)


def _sail(d: Turn, seat: int, command: Sail) -> None:
    state = d.state
    blocker = legal.sail_blocker(state, seat)
    if blocker:
        raise illegal(state, seat, command, blocker)
    path = _path(
        d, seat, command, f"the ship cannot reach {place_name(command.to)} with this throw"
    )
    assert state.leg is not None
    sailed(d, seat, path, state.leg.storm)


def _path(d: Turn, seat: int, command: Walk | Sail, why: str) -> tuple[str, ...]:
    """The path of a move the leg allows, from one search of the move choices."""
    paths = legal.move_paths(d.state, seat)
    if command not in paths:
        allowed = legal.move_choices(d.state, seat, paths)
        raise _refusal(d.state, seat, command, allowed, why)
    return paths[command]


# -- fate ----------------------------------------------------------------------------------


def _draw(d: Turn, seat: int, command: Draw) -> None:
    if not legal.may_draw(d.state, seat):
        raise illegal(
            d.state,
            seat,
            command,
            "a fate card is drawn only after a lightning bolt, by a Viking moving on land",
        )
    state = d.state
    if not state.deck and state.discard:
        deck = d.shuffle(label=d.label("shuffle"), items=state.discard)
        d.emit(FateShuffled(deck=seal(d, deck, set()), reason="discard", returned=state.discard))
    if not d.state.deck:
        settle(d, seat)
        return
    card = d.state.deck[0]
    kind = cards()[card].kind
    d.emit(FateDrawn(seat=seat, card=card, kind=kind))
    FATES[kind](d, seat)
    settle(d, seat)


def _dragon(d: Turn, seat: int) -> None:
    drop(d, seat)
    d.emit(DragonFled(seat=seat, ship=d.state.vikings[seat].ship))


def _healer(d: Turn, seat: int) -> None:
    heal(d, seat)


FATES: dict[str, Callable[[Turn, int], None]] = {
    "dragon": _dragon,
    "odin": lambda d, seat: None,
    "arrow": lambda d, seat: None,
    "mead": lambda d, seat: d.emit(MeadDrunk(seat=seat)),
    "thor": lambda d, seat: d.emit(ThorPleased(seat=seat)),
    "healer": _healer,
    "heavy": drop,
    "road": lambda d, seat: d.emit(RoadBonus(seat=seat, points=2)),
}


def _shoot(d: Turn, seat: int, command: Shoot) -> None:
    _check(d, seat, command, legal.shoot_choices(d.state, seat), "an arrow goes to a fellow player")
    d.emit(ArrowShot(seat=seat, target=command.target, card=d.state.card))
    settle(d, seat)


def _odin(d: Turn, seat: int, command: Odin) -> None:
    _check(
        d,
        seat,
        command,
        legal.odin_choices(d.state, seat),
        "Odin carries you onto your ship or into the next city with loot",
    )
    to = command.to
    if to == "city":
        cities = legal.nearest_cities(d.state, seat)
        to = cities[d.draw(label=d.label("uncertain"), n=len(cities))]
        d.emit(UncertaintyThrown(seat=seat, question="odin city", options=cities, chosen=to))
    viking = d.state.vikings[seat]
    if to == "ship":
        loaded = min(len(viking.carried), max(0, SHIP_HOLDS - len(viking.cargo)))
        d.emit(OdinFlew(seat=seat, to="ship", loaded=loaded))
    else:
        d.emit(OdinFlew(seat=seat, to=to))
        plunder(d, seat, to)
    end_turn(d, seat)


# -- storm, crossroads, ambush -------------------------------------------------------------


def _jettison(d: Turn, seat: int, command: Jettison) -> None:
    _check(
        d,
        seat,
        command,
        legal.jettison_choices(d.state, seat),
        "choose a piece of your cargo by its slot",
    )
    piece = seal(d, d.state.vikings[seat].cargo[command.slot - 1], {seat})
    d.emit(LootJettisoned(seat=seat, piece=piece))
    settle(d, seat)


def _announce(d: Turn, seat: int, command: Announce) -> None:
    _check(
        d,
        seat,
        command,
        legal.announce_choices(d.state, seat),
        "announce two different neighbouring spaces you could enter",
    )
    d.emit(DirectionsAnnounced(seat=seat, even=command.even, odd=command.odd))


def _rob(d: Turn, seat: int, command: Rob) -> None:
    _check(
        d,
        seat,
        command,
        legal.ambush_choices(d.state, seat),
        "no loot to take from that Viking, or no room for it",
    )
    at_sea = legal.ambush_at_sea(d.state, seat)
    victim = d.state.vikings[command.victim]
    reach = pieces_in_reach(victim, at_sea)
    slot = d.draw(label=d.label("ambush"), n=len(reach))
    piece = seal(d, reach[slot], {seat, command.victim})
    # Which field of the victim's card lost the piece is public (rules version 5 on).
    from_cargo = (at_sea and slot < len(victim.cargo)) if d.state.rules_version >= 5 else None
    d.emit(
        LootRobbed(
            seat=seat, victim=command.victim, at_sea=at_sea, piece=piece, from_cargo=from_cargo
        )
    )
    after_ambush(d, seat)


def _force(d: Turn, seat: int, command: Force) -> None:
    _check(
        d,
        seat,
        command,
        legal.ambush_choices(d.state, seat),
        "loot is forced only on a Viking who carries none, from your own slots",
    )
    at_sea = legal.ambush_at_sea(d.state, seat)
    own = pieces_in_reach(d.state.vikings[seat], at_sea)
    piece = seal(d, own[command.slot - 1], {seat, command.victim})
    d.emit(LootForced(seat=seat, victim=command.victim, at_sea=at_sea, piece=piece))
    after_ambush(d, seat)


def _spare(d: Turn, seat: int, command: Spare) -> None:
    if d.state.crossing is not None:
        d.emit(AmbushEnded(seat=seat))
    after_ambush(d, seat)


def _roadside(d: Turn, seat: int, command: Take | Leave) -> None:
    if isinstance(command, Take) and not d.state.lying(d.state.vikings[seat].at):
        raise illegal(d.state, seat, command, "no loot lies here to take")
    take_roadside(d, seat, isinstance(command, Take))


HANDLERS: dict[type, Callable[[Turn, int, Any], None]] = {
    Start: _start,
    Throw: _throw,
    Feast: _feast,
    Walk: _walk,
    Sail: _sail,
    Draw: _draw,
    Shoot: _shoot,
    Odin: _odin,
    Jettison: _jettison,
    Announce: _announce,
    Rob: _rob,
    Force: _force,
    Spare: _spare,
    Take: _roadside,
    Leave: _roadside,
}
