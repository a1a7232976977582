"""The board as a graph (rulebook "Contents", "On Raiding Expeditions", "Harbours",
"Byzantine treasure chests"): spaces, land links (roads, and the one-way arrows of the
camp) and water links (sea lanes), and distances along them.

Built once, on first use, from board.toml (`data.board_data`).
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Iterable

from skald.core.hagar.data import BoardData, Kind, board_data


class Board:
    """The board as a graph: land links (roads, one-way arrows) and water links."""

    def __init__(self, data: BoardData) -> None:
        self.data = data
        self.spaces = {space.id: space for space in data.spaces}
        self.land: dict[str, tuple[str, ...]] = self._links(data.roads, data.arrows)
        self.water: dict[str, tuple[str, ...]] = self._links(data.lanes, ())
        self.cities = tuple(s.id for s in data.spaces if s.kind == "city")
        self.homes = tuple(s.id for s in data.spaces if s.kind == "home")
        self.harbours = tuple(s.id for s in data.spaces if s.kind == "harbour")
        self.camp = next(s.id for s in data.spaces if s.kind == "camp")
        self._distances: dict[tuple[str, str], dict[str, int]] = {}

    def _links(
        self, both: Iterable[tuple[str, str]], one_way: Iterable[tuple[str, str]]
    ) -> dict[str, tuple[str, ...]]:
        links: dict[str, list[str]] = {space: [] for space in self.spaces}
        for a, b in both:
            links[a].append(b)
            links[b].append(a)
        for a, b in one_way:
            links[a].append(b)
        return {space: tuple(sorted(targets)) for space, targets in links.items()}

    def kind(self, space: str) -> Kind:
        """What a space is (home, harbour, sea, road, city, camp)."""
        return self.spaces[space].kind

    def links(self, mode: str) -> dict[str, tuple[str, ...]]:
        """Land links for `walk`, water links for `sail`."""
        return self.land if mode == "walk" else self.water

    def distances(self, mode: str, target: str) -> dict[str, int]:
        """Steps from every space to `target` along `mode` links (reverse BFS, kept)."""
        key = (mode, target)
        if key not in self._distances:
            self._distances[key] = self._reverse_steps(mode, target)
        return self._distances[key]

    def _reverse_steps(self, mode: str, target: str) -> dict[str, int]:
        reverse: dict[str, list[str]] = {space: [] for space in self.spaces}
        for space, targets in self.links(mode).items():
            for other in targets:
                reverse[other].append(space)
        seen = {target: 0}
        queue = deque([target])
        while queue:
            here = queue.popleft()
            for previous in reverse[here]:
                if previous not in seen:
                    seen[previous] = seen[here] + 1
                    queue.append(previous)
        return seen


@functools.cache
def board() -> Board:
    """The board."""
    return Board(board_data())


KIND_WORDS = {"sea": "sea", "road": "road", "harbour": "harbour"}


REGION_WORDS = {
    "en": "English",
    "fr": "French",
    "es": "Spanish",
    "ce": "Rhineland",
    "de": "German",
    "al": "Alpine",
    "it": "Italian",
    "pl": "Polish",
    "ru": "Russian",
    "ua": "Ukrainian",
    "by": "Byzantine",
    "med": "Mediterranean",
    "skag": "Skagerrak",
}
"""The regions of the unnamed spaces in words (`de-3` is `German road 3`); a region not
here is its name capitalised (`baltic-4`: `Baltic sea 4`)."""


def place_name(space: str) -> str:
    """A place as the board prints it (`Hamburg harbour`, `Hägar's fjord (east)`), an
    unnamed sea or road space by its region and number (`Baltic sea 4`, `German road 1`)."""
    known = board().spaces.get(space)
    name, kind = (known.name, known.kind) if known is not None else ("", "")
    if name:
        return name
    region, _, number = space.rpartition("-")
    if not region:
        return f"{space.title()} ({KIND_WORDS.get(kind, kind)})"
    region = REGION_WORDS.get(region, region.replace("-", " ").title())
    return f"{region} {KIND_WORDS.get(kind, kind)} {number}".strip()


def whereabouts(at: str, ship: str, aboard: bool) -> str:
    """Where a Viking is, in the board's words: `aboard at Hamburg harbour`, `on foot at
    Paris, ship at Paris harbour`, `not yet on the board` (before he chose a home)."""
    if not ship:
        return "not yet on the board"
    if aboard:
        return f"aboard at {place_name(ship)}"
    return f"on foot at {place_name(at)}, ship at {place_name(ship)}"
