"""Who acts and what a Viking may choose now, phase by phase; `decide` checks commands
against these, and `legal_commands` lists them (the feast first whenever it may be called).

Rulebook sections: "On Raiding Expeditions" and "Harbours" (land or water, never both in
a turn; after docking the next move is on foot, after boarding from land it is by water;
reconstructed: after docking at home the next start is by water, as home has no land),
"Fate Lightning Bolts" (a lightning bolt and a move on land: draw a card first), "Arrows"
(three arrows: the quickest route home, no plunder and no attacks), "Ambush", "Crossroads".

Paths: where a Viking can walk and where a ship can sail with one throw (rulebook "On
Raiding Expeditions", "Harbours", "Iron Plundering Rules", "Storm", "Crossroads"). A
move is a simple path (no space twice) of exactly the thrown count, in any direction,
except that it stops early where surplus expires: a ship docking at a harbour, a Viking
loading his ship from land, a Viking entering a city to make loot; and it stops at a
crossroads (to announce) and, for a ship, on a storm space. A space that one path reaches early
(a stop) and another with the whole count is reached with the whole count (rules version
4): loot lying there "may be taken along by any Viking who reaches that space directly
with the matching point number", and the notation names only the end, so the Viking who
could reach it exactly is never denied the choice (`take` or `leave`). Where no path uses the whole
count (a dead end), the piece may stop at the end of any longest path. Blocked: a third
Viking into a city, a third ship into a harbour (home harbours take any number), a ship
into a home harbour without its Viking aboard, the camp except along its arrows. Storm
drift passes crossroads and storms and may not enter any harbour. A ship sailing without
its Viking goes to another harbour (rulebook: "have his ship sail to another harbour
while he is travelling on land"): it must reach a harbour with this throw; a storm on
the way stops it short, so that route is closed to it, but it sails across a crossroads
(the announcement there is the decision of a Viking who reaches it, and the rulebook
forbids the lone ship nothing there).
"""

from __future__ import annotations

import functools
from typing import Literal

import msgspec

from skald.core.hagar.board import board
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
)
from skald.core.hagar.evolve import pieces_in_reach
from skald.core.hagar.scoring import feast_reason, round_limit
from skald.core.hagar.state import HagarState, Viking

replace_struct = msgspec.structs.replace

Entry = Literal["block", "stop", "pass"]
FAR = 10_000


def can_loot(viking: Viking) -> bool:
    """Hands free and not wounded: the Viking may plunder or pick loot up."""
    return not viking.carried and not viking.wounded


def enter_land(state: HagarState, seat: int, viking: Viking, space: str) -> Entry:
    """Whether a Viking on foot is blocked by, stops at, or passes `space`."""
    kind = board().kind(space)
    if kind == "city":
        if len(state.on_foot_at(space, but=seat)) >= 2:
            return "block"
        return "stop" if can_loot(viking) and state.stack(space) else "pass"
    if kind == "harbour" and viking.ship == space:
        return "stop"
    if board().spaces[space].crossroads:
        return "stop"
    return "pass"


def enter_water(state: HagarState, seat: int, viking: Viking, space: str, storm: bool) -> Entry:
    """Whether a ship is blocked by, stops at, or passes `space` (`storm`: drifting)."""
    kind = board().kind(space)
    if kind == "home":
        return "block" if storm or not viking.aboard else "stop"
    if kind == "harbour":
        return "block" if storm or state.ships_at(space, but=seat) >= 2 else "stop"
    if not storm and board().spaces[space].storm:
        return "stop"
    # "Whoever reaches such a space must immediately decide": a Viking's luck; a ship
    # sailing alone to another harbour passes the crossroads like open sea.
    if not storm and board().spaces[space].crossroads and viking.aboard:
        return "stop"
    return "pass"


def destinations(
    state: HagarState, seat: int, mode: str, count: int, first: str = "", storm: bool = False
) -> dict[str, tuple[str, ...]]:
    """Every end space a `walk` of the Viking or `sail` of the ship can reach, with a path."""
    viking = state.vikings[seat]
    start = viking.at if mode == "walk" else viking.ship
    links = board().links(mode)
    ends: dict[str, tuple[str, ...]] = {}
    stuck: dict[str, tuple[str, ...]] = {}
    exact = False
    if count <= 0:
        return ends

    entries: dict[str, Entry] = {}  # a space's entry does not depend on the path to it

    def enter(space: str) -> Entry:
        if space not in entries:
            if mode == "walk":
                entries[space] = enter_land(state, seat, viking, space)
            else:
                entries[space] = enter_water(state, seat, viking, space, storm)
        return entries[space]

    def extend(path: list[str]) -> None:
        nonlocal exact
        moved = False
        for step in links[path[-1]]:
            if step in path or (len(path) == 1 and first and step != first):
                continue
            entry = enter(step)
            if entry == "block":
                continue
            moved = True
            path.append(step)
            if entry == "stop" or len(path) - 1 == count:
                exact = _reach(ends, tuple(path), count) or exact
            else:
                extend(path)
            path.pop()
        if not moved and len(path) > 1:
            stuck[path[-1]] = max(stuck.get(path[-1], ()), tuple(path), key=len)

    extend([start])
    if mode == "sail" and not viking.aboard and not storm:
        # "have his ship sail to another harbour while he is travelling on land"
        return {end: path for end, path in ends.items() if board().kind(end) == "harbour"}
    if not exact and stuck:
        longest = max(len(p) for p in stuck.values())
        for end, path in stuck.items():
            if len(path) == longest:
                ends.setdefault(end, path)
    return ends


def _reach(ends: dict[str, tuple[str, ...]], path: tuple[str, ...], count: int) -> bool:
    """Record `path` as the way to its end unless a way is known already; a way using the
    whole count replaces one that stopped early (roadside loot there "may be taken along"
    by a Viking "who reaches that space directly with the matching point number").
    True when `path` uses the whole count."""
    whole = len(path) - 1 == count
    known = ends.get(path[-1])
    if known is None or (whole and len(known) - 1 != count):
        ends[path[-1]] = path
    return whole


def _water(space: str, target: str) -> int:
    return board().distances("sail", target).get(space, FAR)


def _land(space: str, target: str) -> int:
    return 0 if space == target else board().distances("walk", target).get(space, FAR)


@functools.cache  # keyed on a space of the board: bounded
def _to_home(space: str) -> int:
    """Steps by water from `space` to the nearest home harbour."""
    return min(_water(space, home) for home in board().homes)


def homeward(viking: Viking) -> int:
    """Steps still between a Viking and a home harbour (the wounded's quickest route)."""
    if viking.aboard:
        return _to_home(viking.ship)
    if board().kind(viking.ship) == "harbour":
        return _land(viking.at, viking.ship) + _to_home(viking.ship)
    return min(_land(viking.at, h) + _water(viking.ship, h) + _to_home(h) for h in board().harbours)


def to_act(state: HagarState) -> frozenset[int]:
    """The Viking whose turn it is (nobody once the feast is over)."""
    return frozenset() if state.phase == "over" else frozenset({state.turn})


def legal_commands(state: HagarState, seat: int) -> list[Command]:
    """Every command `seat` may make now (the feast first whenever it may be called)."""
    if seat != state.turn or state.phase in ("over", "moved"):
        return []
    match state.phase:
        case "setup":
            return [Start(home) for home in board().homes]
        case "throw":
            feast: list[Command] = (
                [Feast()] if state.crossing is None and feast_reason(state, seat) else []
            )
            limited = round_limit(state) and state.crossing is None
            return feast if limited else [*feast, Throw()]
        case "move":
            return move_choices(state, seat)
        case "arrow":
            return shoot_choices(state, seat)
        case "odin":
            return odin_choices(state, seat)
        case "storm":
            return jettison_choices(state, seat)
        case "announce":
            return announce_choices(state, seat)
        case "ambush":
            return ambush_choices(state, seat)
        case "roadside":
            return [Take(), Leave()]
    return []


def walk_blocker(state: HagarState, seat: int) -> str:
    """Why the Viking may not go on foot with the current leg, or ''."""
    leg, viking = state.leg, state.vikings[seat]
    if leg is None or leg.mode == "sail":
        return "this move is by water"
    if viking.aboard and board().kind(viking.ship) != "harbour":
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
    return (
        leg is not None and leg.mode != "sail" and leg.lightning and not walk_blocker(state, seat)
    )


def _after(viking: Viking, command: Walk | Sail) -> Viking:
    if isinstance(command, Walk):
        aboard = command.to == viking.ship and board().kind(command.to) == "harbour"
        return replace_struct(viking, at=command.to, aboard=aboard)
    at = command.to if viking.aboard else viking.at
    return replace_struct(viking, ship=command.to, at=at)


def move_paths(state: HagarState, seat: int) -> dict[Walk | Sail, tuple[str, ...]]:
    """Every walk and sail the current leg allows, with its path (the wounded: only the
    quickest way home)."""
    viking = state.vikings[seat]
    moves: dict[Walk | Sail, tuple[str, ...]] = {
        Walk(to): path for to, path in walk_targets(state, seat).items()
    }
    moves.update((Sail(to), path) for to, path in sail_targets(state, seat).items())
    if viking.wounded and moves:
        best = min(homeward(_after(viking, move)) for move in moves)
        moves = {
            move: path for move, path in moves.items() if homeward(_after(viking, move)) == best
        }
    return moves


def move_choices(
    state: HagarState, seat: int, paths: dict[Walk | Sail, tuple[str, ...]] | None = None
) -> list[Command]:
    """Every move the current leg allows: `draw` first after a lightning bolt on land,
    then the walks and sails of `move_paths` (`paths`, when the caller has them)."""
    moves = move_paths(state, seat) if paths is None else paths
    return [Draw(), *moves] if may_draw(state, seat) else list(moves)


def shoot_choices(state: HagarState, seat: int) -> list[Command]:
    """An arrow goes to any fellow player."""
    return [Shoot(target) for target in range(state.players) if target != seat]


def nearest_cities(state: HagarState, seat: int) -> tuple[str, ...]:
    """The nearest cities (by road) Odin may carry the Viking into to make loot."""
    viking = state.vikings[seat]
    if not can_loot(viking):
        return ()
    reach = {
        city: board().distances("walk", city).get(viking.at, FAR)
        for city in board().cities
        if state.stack(city) and len(state.on_foot_at(city, but=seat)) < 2
    }
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
        return tuple(
            step
            for step in board().land[crossing.space]
            if enter_land(state, seat, viking, step) != "block"
        )
    return tuple(
        step
        for step in board().water[crossing.space]
        if enter_water(state, seat, viking, step, False) != "block"
    )


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


def ambush_choices(
    state: HagarState, seat: int, targets: tuple[int, ...] | None = None
) -> list[Command]:
    """Rob or force on each Viking met, or spare them."""
    choices: list[Command] = []
    for victim in state.targets if targets is None else targets:
        if can_rob(state, seat, victim):
            choices.append(Rob(victim))
        choices += [Force(victim, slot) for slot in range(1, force_slots(state, seat, victim) + 1)]
    return [*choices, Spare()]
