"""The game's components as data: board, loot pieces, fate cards, rune sticks.

Read from the TOML files beside this module through `core.content` on first use (never
at import time) and validated into msgspec Structs (rulebook "Contents", "The Most
Important Thing: The Loot", "Fate Lightning Bolts"). Anything the rulebook does not give
is marked `reconstructed = true` in its file and can be replaced without touching code.
Loot pieces get fixed ids: the city loot first, the Byzantine chests last.
"""

from __future__ import annotations

import functools
from typing import Literal, TypeVar

import msgspec

from skald.core.content import load_toml

T = TypeVar("T")
Kind = Literal["home", "harbour", "sea", "road", "city", "camp"]
Category = Literal["good", "gift", "bad", "woman", "chest"]


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
    return load_toml(__package__ or "skald.core.hagar", name, kind)


def _pieces(data: LootData) -> tuple[Piece, ...]:
    pieces = [
        Piece(id=0, kind=k.id, name=k.name, category=k.category, value=v)
        for k in data.kinds
        for v in k.values
    ]
    # chests last, so ids 0..35 go to the cities and the chests keep fixed ids
    pieces.sort(key=lambda p: p.category == "chest")
    return tuple(msgspec.structs.replace(p, id=i) for i, p in enumerate(pieces))


def _cards(data: FateData) -> tuple[CardKind, ...]:
    return tuple(card for card in data.cards for _ in range(card.count))


@functools.cache
def board_data() -> BoardData:
    """The board file as written (its graph is `core.hagar.board.board()`)."""
    return _load("board.toml", BoardData)


@functools.cache
def pieces() -> tuple[Piece, ...]:
    """Every loot piece, by id."""
    return _pieces(_load("loot.toml", LootData))


@functools.cache
def chests() -> tuple[int, ...]:
    """The ids of the Byzantine treasure chests (they start at the camp)."""
    return tuple(p.id for p in pieces() if p.category == "chest")


@functools.cache
def cards() -> tuple[CardKind, ...]:
    """Every fate card, by id."""
    return _cards(_load("fate.toml", FateData))


@functools.cache
def sticks() -> tuple[Stick, Stick]:
    """The two rune sticks."""
    return _load("sticks.toml", SticksData).sticks
