"""The game's components as data: board, loot pieces, fate cards, rune sticks.

Loaded from the TOML files beside this module with tomllib and validated into msgspec
Structs (rulebook section "Contents"). Anything the rulebook does not give is marked
`reconstructed = true` in its file and can be replaced without touching code.
"""

from __future__ import annotations

import functools
import tomllib
from collections import deque
from collections.abc import Iterable
from pathlib import Path
from typing import Literal, TypeVar

import msgspec

HERE = Path(__file__).parent
T = TypeVar("T")
Kind = Literal["home", "harbour", "sea", "road", "city", "camp"]
Category = Literal["good", "gift", "bad", "woman", "chest"]
WATER_KINDS = frozenset({"home", "harbour", "sea"})
LAND_KINDS = frozenset({"harbour", "road", "city", "camp"})


class Space(msgspec.Struct, frozen=True, kw_only=True):
    """One space of the board."""

    id: str
    kind: Kind
    name: str = ""
    loot: int = 0
    storm: bool = False
    crossroads: bool = False


class BoardData(msgspec.Struct, frozen=True, kw_only=True):
    """The board file as written."""

    reconstructed: bool = False
    spaces: tuple[Space, ...]
    lanes: tuple[tuple[str, str], ...]
    roads: tuple[tuple[str, str], ...]
    arrows: tuple[tuple[str, str], ...] = ()


class LootKind(msgspec.Struct, frozen=True, kw_only=True):
    """A loot category with the printed values of its pieces."""

    id: str
    name: str
    category: Category
    values: tuple[int, ...]


class LootData(msgspec.Struct, frozen=True, kw_only=True):
    reconstructed: bool = False
    kinds: tuple[LootKind, ...]


class Piece(msgspec.Struct, frozen=True, kw_only=True):
    """One loot piece: its id, kind and printed value."""

    id: int
    kind: str
    name: str
    category: Category
    value: int

    @property
    def gift(self) -> bool:
        return self.category == "gift"


class CardKind(msgspec.Struct, frozen=True, kw_only=True):
    kind: Literal["dragon", "odin", "arrow", "mead", "thor", "healer", "heavy", "road"]
    count: int
    text: str


class FateData(msgspec.Struct, frozen=True, kw_only=True):
    reconstructed: bool = False
    cards: tuple[CardKind, ...]


class Face(msgspec.Struct, frozen=True, kw_only=True):
    """One face of a rune stick: points (land), waves (water), maybe the lightning."""

    points: int
    waves: int
    lightning: bool = False


class Stick(msgspec.Struct, frozen=True, kw_only=True):
    faces: tuple[Face, ...]


class SticksData(msgspec.Struct, frozen=True, kw_only=True):
    reconstructed: bool = False
    sticks: tuple[Stick, Stick]


def _load(name: str, kind: type[T]) -> T:
    with (HERE / name).open("rb") as handle:
        return msgspec.convert(tomllib.load(handle), kind)


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

    def _links(self, both: Iterable[tuple[str, str]], one_way: Iterable[tuple[str, str]]
               ) -> dict[str, tuple[str, ...]]:
        links: dict[str, list[str]] = {space: [] for space in self.spaces}
        for a, b in both:
            links[a].append(b)
            links[b].append(a)
        for a, b in one_way:
            links[a].append(b)
        return {space: tuple(sorted(targets)) for space, targets in links.items()}

    def kind(self, space: str) -> Kind:
        return self.spaces[space].kind

    def links(self, mode: str) -> dict[str, tuple[str, ...]]:
        """Land links for `walk`, water links for `sail`."""
        return self.land if mode == "walk" else self.water

    @functools.cache  # noqa: B019 - the board lives as long as the process
    def distances(self, mode: str, target: str) -> dict[str, int]:
        """Steps from every space to `target` along `mode` links (reverse BFS)."""
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


def _pieces(data: LootData) -> tuple[Piece, ...]:
    pieces = [Piece(id=0, kind=k.id, name=k.name, category=k.category, value=v)
              for k in data.kinds for v in k.values]
    # chests last, so ids 0..35 go to the cities and the chests keep fixed ids
    pieces.sort(key=lambda p: p.category == "chest")
    return tuple(msgspec.structs.replace(p, id=i) for i, p in enumerate(pieces))


def _cards(data: FateData) -> tuple[CardKind, ...]:
    return tuple(card for card in data.cards for _ in range(card.count))


BOARD = Board(_load("board.toml", BoardData))
LOOT = _load("loot.toml", LootData)
PIECES = _pieces(LOOT)
CHESTS = tuple(p.id for p in PIECES if p.category == "chest")
FATE = _load("fate.toml", FateData)
CARDS = _cards(FATE)
STICKS = _load("sticks.toml", SticksData).sticks
