"""What a Viking may choose now, phase by phase; `decide` checks commands against these.

Rulebook sections: "On Raiding Expeditions" and "Harbours" (land or water, never both in
a turn; after docking the next move is on foot, after boarding from land it is by water;
reconstructed: after docking at home the next start is by water, as home has no land),
"Fate Lightning Bolts" (a lightning bolt and a move on land: draw a card first), "Arrows"
(three arrows: the quickest route home, no plunder and no attacks), "Ambush", "Crossroads".
"""

from __future__ import annotations

import msgspec

from core.hagar.components import BOARD
from core.hagar.evolve import pieces_in_reach
from core.hagar.notation import (
    Announce,
    Command,
    Draw,
    Force,
    Jettison,
    Odin,
    Rob,
    Sail,
    Shoot,
    Spare,
    Walk,
)
from core.hagar.paths import FAR, can_loot, destinations, enter_land, enter_water, homeward
from core.hagar.state import HagarState, Viking

replace_struct = msgspec.structs.replace


def walk_blocker(state: HagarState, seat: int) -> str:
    """Why the Viking may not go on foot with the current leg, or ''."""
    leg, viking = state.leg, state.vikings[seat]
    if leg is None or leg.mode == "sail":
        return "this move is by water"
    if viking.aboard and BOARD.kind(viking.ship) != "harbour":
        return "the Viking is aboard his ship at sea or at home"
    if leg.mode == "any" and viking.must == "sail":
        return "after boarding from land the Viking continues by water"
    return ""


def sail_blocker(state: HagarState, seat: int) -> str:
    """Why the ship may not sail with the current leg, or ''."""
    leg, viking = state.leg, state.vikings[seat]
    if leg is None or leg.mode == "walk":
        return "this move is on foot"
    if leg.mode == "any" and viking.aboard and viking.must == "walk":
        return "after docking the Viking continues on foot"
    return ""


def walk_targets(state: HagarState, seat: int) -> dict[str, tuple[str, ...]]:
    """Walk destinations (with a path) for the current leg."""
    leg = state.leg
    if leg is None or walk_blocker(state, seat) or leg.lightning:
        return {}
    return destinations(state, seat, "walk", leg.points, first=leg.first)


def sail_targets(state: HagarState, seat: int) -> dict[str, tuple[str, ...]]:
    """Sail destinations (with a path) for the current leg."""
    leg = state.leg
    if leg is None or sail_blocker(state, seat):
        return {}
    return destinations(state, seat, "sail", leg.waves, first=leg.first, storm=leg.storm)


def may_draw(state: HagarState, seat: int) -> bool:
    """A lightning bolt was thrown and the Viking is in a position to move on land.

    This holds for the throw at a crossroads on land too (rulebook: "Whoever moves on land
    and throws a lightning bolt with his rune sticks must additionally draw a card")."""
    leg = state.leg
    return (leg is not None and leg.mode != "sail" and leg.lightning
            and not walk_blocker(state, seat))


def _after(viking: Viking, command: Walk | Sail) -> Viking:
    if isinstance(command, Walk):
        aboard = command.to == viking.ship and BOARD.kind(command.to) == "harbour"
        return replace_struct(viking, at=command.to, aboard=aboard)
    at = command.to if viking.aboard else viking.at
    return replace_struct(viking, ship=command.to, at=at)


def move_choices(state: HagarState, seat: int) -> list[Command]:
    """Every move the current leg allows (the wounded: only the quickest way home)."""
    viking = state.vikings[seat]
    moves: list[Walk | Sail] = [Walk(to) for to in walk_targets(state, seat)]
    moves += [Sail(to) for to in sail_targets(state, seat)]
    if viking.wounded and moves:
        best = min(homeward(_after(viking, move)) for move in moves)
        moves = [move for move in moves if homeward(_after(viking, move)) == best]
    return [Draw(), *moves] if may_draw(state, seat) else list(moves)


def shoot_choices(state: HagarState, seat: int) -> list[Command]:
    """An arrow goes to any fellow player."""
    return [Shoot(target) for target in range(state.players) if target != seat]


def nearest_cities(state: HagarState, seat: int) -> tuple[str, ...]:
    """The nearest cities (by road) Odin may carry the Viking into to make loot."""
    viking = state.vikings[seat]
    if not can_loot(viking):
        return ()
    reach = {city: BOARD.distances("walk", city).get(viking.at, FAR) for city in BOARD.cities
             if state.stack(city) and len(state.on_foot_at(city, but=seat)) < 2}
    reach = {city: steps for city, steps in reach.items() if steps < FAR}
    if not reach:
        return ()
    best = min(reach.values())
    return tuple(city for city, steps in reach.items() if steps == best)


def odin_choices(state: HagarState, seat: int) -> list[Command]:
    """Onto the ship, or into the next city (named, or left to the rune sticks on a tie)."""
    cities = nearest_cities(state, seat)
    if len(cities) > 1 and state.options.uncertainties == "throw":
        return [Odin("ship"), Odin("city")]
    return [Odin("ship"), *(Odin(city) for city in cities)]


def jettison_choices(state: HagarState, seat: int) -> list[Command]:
    """Any one piece of the cargo."""
    return [Jettison(slot) for slot in range(1, len(state.vikings[seat].cargo) + 1)]


def crossing_directions(state: HagarState, seat: int) -> tuple[str, ...]:
    """The neighbours of the crossroads the mover could step onto."""
    crossing, viking = state.crossing, state.vikings[seat]
    if crossing is None:
        return ()
    if crossing.mode == "walk":
        return tuple(step for step in BOARD.land[crossing.space]
                     if enter_land(state, seat, viking, step) != "block")
    return tuple(step for step in BOARD.water[crossing.space]
                 if enter_water(state, seat, viking, step, False) != "block")


def announce_choices(state: HagarState, seat: int) -> list[Command]:
    """Two different directions (the same twice only when there is just one)."""
    directions = crossing_directions(state, seat)
    if len(directions) == 1:
        return [Announce(directions[0], directions[0])]
    return [Announce(even, odd) for even in directions for odd in directions if even != odd]


def ambush_at_sea(state: HagarState, seat: int) -> bool:
    return state.vikings[seat].aboard


def can_rob(state: HagarState, seat: int, victim: int) -> bool:
    """The victim has something in reach and the attacker room for one piece more."""
    at_sea = ambush_at_sea(state, seat)
    attacker = state.vikings[seat]
    room = len(attacker.cargo) < 4 if at_sea else len(attacker.carried) < 2
    return room and bool(pieces_in_reach(state.vikings[victim], at_sea))


def force_slots(state: HagarState, seat: int, victim: int) -> int:
    """How many own pieces could be forced on a victim who carries nothing (0: none)."""
    at_sea = ambush_at_sea(state, seat)
    if pieces_in_reach(state.vikings[victim], at_sea):
        return 0
    attacker = state.vikings[seat]
    return len(attacker.cargo if at_sea else attacker.carried)


def ambush_choices(state: HagarState, seat: int, targets: tuple[int, ...] | None = None
                   ) -> list[Command]:
    """Rob or force on each Viking met, or spare them."""
    choices: list[Command] = []
    for victim in state.targets if targets is None else targets:
        if can_rob(state, seat, victim):
            choices.append(Rob(victim))
        choices += [Force(victim, slot) for slot in range(1, force_slots(state, seat, victim) + 1)]
    return [*choices, Spare()]

