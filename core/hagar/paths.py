"""Where a Viking can walk and where a ship can sail with one throw.

Rulebook "On Raiding Expeditions", "Harbours", "Iron Plundering Rules", "Storm",
"Crossroads". A move is a simple path (no space twice) of exactly the thrown count, in any
direction, except that it stops early where surplus expires: a ship docking at a harbour,
a Viking loading his ship from land, a Viking entering a city to make loot; and it stops
at a crossroads (to announce) and, for a ship, on a storm space. Where no path uses the
whole count (a dead end), the piece may stop at the end of any longest path. Blocked: a
third Viking into a city, a third ship into a harbour (home harbours take any number), a
ship into a home harbour without its Viking aboard, the camp except along its arrows.
Storm drift passes crossroads and storms and may not enter any harbour. A ship sailing
without its Viking goes to another harbour (rulebook: "have his ship sail to another
harbour while he is travelling on land"): it must reach a harbour with this throw, and a
storm or crossroads on the way stops it short, so that route is closed to it.
"""

from __future__ import annotations

from typing import Literal

from core.hagar.components import BOARD
from core.hagar.state import HagarState, Viking

Entry = Literal["block", "stop", "pass"]
FAR = 10_000


def can_loot(viking: Viking) -> bool:
    """Hands free and not wounded: the Viking may plunder or pick loot up."""
    return not viking.carried and not viking.wounded


def enter_land(state: HagarState, seat: int, viking: Viking, space: str) -> Entry:
    """Whether a Viking on foot is blocked by, stops at, or passes `space`."""
    kind = BOARD.kind(space)
    if kind == "city":
        if len(state.on_foot_at(space, but=seat)) >= 2:
            return "block"
        return "stop" if can_loot(viking) and state.stack(space) else "pass"
    if kind == "harbour" and viking.ship == space:
        return "stop"
    if BOARD.spaces[space].crossroads:
        return "stop"
    return "pass"


def enter_water(state: HagarState, seat: int, viking: Viking, space: str,
                storm: bool) -> Entry:
    """Whether a ship is blocked by, stops at, or passes `space` (`storm`: drifting)."""
    kind = BOARD.kind(space)
    if kind == "home":
        return "block" if storm or not viking.aboard else "stop"
    if kind == "harbour":
        return "block" if storm or state.ships_at(space, but=seat) >= 2 else "stop"
    if not storm and (BOARD.spaces[space].storm or BOARD.spaces[space].crossroads):
        return "stop"
    return "pass"


def destinations(state: HagarState, seat: int, mode: str, count: int, first: str = "",
                 storm: bool = False) -> dict[str, tuple[str, ...]]:
    """Every end space a `walk` of the Viking or `sail` of the ship can reach, with a path."""
    viking = state.vikings[seat]
    start = viking.at if mode == "walk" else viking.ship
    links = BOARD.links(mode)
    ends: dict[str, tuple[str, ...]] = {}
    stuck: dict[str, tuple[str, ...]] = {}
    exact = False
    if count <= 0:
        return ends

    def enter(space: str) -> Entry:
        if mode == "walk":
            return enter_land(state, seat, viking, space)
        return enter_water(state, seat, viking, space, storm)

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
                ends.setdefault(step, tuple(path))
                exact = exact or len(path) - 1 == count
            else:
                extend(path)
            path.pop()
        if not moved and len(path) > 1:
            stuck[path[-1]] = max(stuck.get(path[-1], ()), tuple(path), key=len)

    extend([start])
    if mode == "sail" and not viking.aboard and not storm:
        # "have his ship sail to another harbour while he is travelling on land"
        return {end: path for end, path in ends.items() if BOARD.kind(end) == "harbour"}
    if not exact and stuck:
        longest = max(len(p) for p in stuck.values())
        for end, path in stuck.items():
            if len(path) == longest:
                ends.setdefault(end, path)
    return ends


def _water(space: str, target: str) -> int:
    return BOARD.distances("sail", target).get(space, FAR)


def _land(space: str, target: str) -> int:
    return 0 if space == target else BOARD.distances("walk", target).get(space, FAR)


def homeward(viking: Viking) -> int:
    """Steps still between a Viking and a home harbour (the wounded's quickest route)."""
    to_home = {h: min(_water(h, home) for home in BOARD.homes)
               for h in (*BOARD.harbours, viking.ship)}
    if viking.aboard:
        return to_home[viking.ship]
    if BOARD.kind(viking.ship) == "harbour":
        return _land(viking.at, viking.ship) + to_home[viking.ship]
    return min(_land(viking.at, h) + _water(viking.ship, h) + to_home[h]
               for h in BOARD.harbours)
