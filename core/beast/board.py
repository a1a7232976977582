"""Map geometry (rulebook "Global components", "Nearby", "Traps"): locations, roads, zones.

A map side is written in maps.toml as a grid of habitat codes (S settlement, F forest, W
swamp, C cave, `*` the centre, `.` no location) with a zone letter per location and the
roads that are blocked; roads run by compass direction between orthogonal neighbours.
Location names are a column letter from A and a row number from 1 (A1 is the north-west
corner). The centre belongs to every zone it borders. `MapData` is a side as the file
writes it (core/beast/data.py reads the file), `Board` its geometry derived.
"""

from __future__ import annotations

from collections import deque

import msgspec

DIRECTIONS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
HABITAT_CODES = {"S": "settlement", "F": "forest", "W": "swamp", "C": "cave"}


class MapData(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A map side as written in maps.toml (read by core/beast/data.py)."""

    name: str
    title: str
    grid: tuple[str, ...]
    zones: tuple[str, ...]
    zone_names: dict[str, str]
    blocked: tuple[str, ...]
    pieces: dict[str, tuple[str, ...]]
    reconstructed: bool = False


class Board(msgspec.Struct, frozen=True):
    """A map with its geometry derived: locations, base habitats, roads, zones."""

    name: str
    title: str
    cols: int
    rows: int
    locations: tuple[str, ...]
    centre: str
    habitat: dict[str, str]
    roads: dict[str, dict[str, str]]
    zones: dict[str, tuple[str, ...]]
    zone_names: dict[str, str]
    pieces: dict[str, tuple[str, ...]]

    def zones_of(self, location: str) -> tuple[str, ...]:
        """The zones a location belongs to (the centre: every adjacent zone)."""
        return tuple(z for z, members in self.zones.items() if location in members)

    def neighbours(self, location: str) -> tuple[str, ...]:
        """Locations one road away."""
        return tuple(self.roads[location].values())

    def nearby(self, location: str) -> tuple[str, ...]:
        """The location itself and every location one road away."""
        return (location, *self.neighbours(location))

    def within(self, location: str, steps: int) -> tuple[str, ...]:
        """Every location at most `steps` roads away, the location itself first."""
        return tuple(loc for loc, d in self.distances(location).items() if d <= steps)

    def distances(self, start: str) -> dict[str, int]:
        """Road distances from `start` (breadth first)."""
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in self.neighbours(here):
                if there not in seen:
                    seen[there] = seen[here] + 1
                    queue.append(there)
        return seen


def name_of(col: int, row: int) -> str:
    """A location's name from its 0-based column and row (A1 is the north-west corner)."""
    return f"{chr(ord('A') + col)}{row + 1}"


def build_board(data: MapData) -> Board:
    """A map side's geometry, derived from its grid, zones and blocked roads."""
    cells = [row.split() for row in data.grid]
    zone_cells = [row.split() for row in data.zones]
    rows, cols = len(cells), len(cells[0])
    habitat: dict[str, str] = {}
    zone_of: dict[str, str] = {}
    centre = ""
    for r in range(rows):
        for c in range(cols):
            code = cells[r][c]
            if code == ".":
                continue
            loc = name_of(c, r)
            if code == "*":
                centre = loc
                habitat[loc] = "centre"
            else:
                habitat[loc] = HABITAT_CODES[code]
                zone_of[loc] = zone_cells[r][c]
    blocked = {frozenset(pair.split("-")) for pair in data.blocked}
    roads: dict[str, dict[str, str]] = {}
    for loc in habitat:
        col, row = ord(loc[0]) - ord("A"), int(loc[1:]) - 1
        roads[loc] = {}
        for direction, (dc, dr) in DIRECTIONS.items():
            c, r = col + dc, row + dr
            if 0 <= c < cols and 0 <= r < rows:
                there = name_of(c, r)
                if there in habitat and frozenset((loc, there)) not in blocked:
                    roads[loc][direction] = there
    zones: dict[str, list[str]] = {}
    for loc, zone in zone_of.items():
        zones.setdefault(zone, []).append(loc)
    for there in roads[centre].values():
        zones[zone_of[there]].append(centre)
    return Board(
        name=data.name,
        title=data.title,
        cols=cols,
        rows=rows,
        locations=tuple(habitat),
        centre=centre,
        habitat=habitat,
        roads=roads,
        zones={z: tuple(dict.fromkeys(m)) for z, m in sorted(zones.items())},
        zone_names=data.zone_names,
        pieces=data.pieces,
    )
