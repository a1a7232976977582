"""Components (rulebook "Components", "Figures", "Tiles", "Special Abilities", "Setup").

Figures: every player has the same set: one Beowulf (4 diamonds), two Thanes (3), three
Heorot Castles (2) and four Drakkars (1). Seats take colours in seat order: brown, green,
gray, blue (brown, green and gray are the colours of the rulebook's scoring example).

Tiles: the per-act boards and tiles are data in `tiles.toml`, validated into msgspec
Structs on first use (`core.content`). The rulebook does not list them, so they are
reconstructed (and marked so in the data). Each physical tile gets a stable id: the act's
Roman numeral and a running number (`"II07"`). A tile's *face* is its short text form,
used in notation and on the board: the signed value and an ability letter, e.g. `+3`,
`-2`, `0#` (Throat), `+1$3` (value +1, treasure 3); see `ABILITY_CODES`.
"""

from __future__ import annotations

import functools
import re
from typing import Literal

import msgspec

from skald.core.content import load_toml

Kind = Literal["beowulf", "thane", "castle", "drakkar"]
KINDS: tuple[Kind, ...] = ("beowulf", "thane", "castle", "drakkar")
DIAMONDS: dict[str, int] = {"beowulf": 4, "thane": 3, "castle": 2, "drakkar": 1}
STARTING_SUPPLY: tuple[int, ...] = (1, 2, 3, 4)  # in KINDS order
KIND_LETTERS: dict[str, str] = {"beowulf": "W", "thane": "T", "castle": "C", "drakkar": "D"}
COLOURS: tuple[str, ...] = ("brown", "green", "gray", "blue")


def colour_of(seat: int) -> str:
    """The colour of a seat."""
    return COLOURS[seat]


def supply_diamonds(supply: tuple[int, ...]) -> int:
    """Total diamonds of the figures in a supply (counts in KINDS order)."""
    return sum(count * DIAMONDS[kind] for kind, count in zip(KINDS, supply, strict=True))


Ability = Literal[
    "temptation",
    "courage",
    "treasure",
    "drunkenness",
    "beer",
    "golden_statue",
    "good_counsel",
    "royal_dragon_horn",
    "betrayal",
    "throat",
]
ABILITIES: tuple[str, ...] = Ability.__args__  # type: ignore[attr-defined]

# One character per ability; "$" is followed by the treasure value.
ABILITY_CODES: dict[str, str] = {
    "temptation": "t",
    "courage": "c",
    "treasure": "$",
    "drunkenness": "d",
    "beer": "b",
    "golden_statue": "s",
    "good_counsel": "g",
    "royal_dragon_horn": "h",
    "betrayal": "x",
    "throat": "#",
}
CODE_ABILITIES = {code: ability for ability, code in ABILITY_CODES.items()}
ROMAN = {1: "I", 2: "II", 3: "III"}
# ASCII digits only, matched whole: `\d` would take other scripts' digits, `$` a final newline.
FACE_PATTERN = re.compile(r"([+-]?[0-9]{1,2})(?:([tcdbsghx#])|\$([0-9]{1,2}))?")


class TileKind(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One face in an act's tile set, and how many copies of it there are."""

    value: int
    count: int
    ability: Ability | None = None
    treasure: int = 0


class ActSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One act: its board and its tiles."""

    act: int
    name: str
    rows: int
    cols: int
    printed_throats: tuple[str, ...]
    tiles: tuple[TileKind, ...]
    reconstructed: bool = False


class TileSet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The whole of `tiles.toml`."""

    acts: tuple[ActSpec, ...]
    reconstructed: bool = False


class Tile(msgspec.Struct, frozen=True):
    """One physical tile: stable id, act (its back colour), value, ability, treasure value."""

    id: str
    act: int
    value: int
    ability: Ability | None = None
    treasure: int = 0

    @property
    def face(self) -> str:
        """The short text form of the tile's face."""
        return face_of(self.value, self.ability, self.treasure)


def face_of(value: int, ability: str | None, treasure: int = 0) -> str:
    """`+3`, `-2x`, `0#`, `+1$3`: signed value, then the ability code."""
    text = f"{value:+d}" if value else "0"
    if ability == "treasure":
        return f"{text}${treasure}"
    return text + (ABILITY_CODES[ability] if ability else "")


def parse_face(text: str) -> str | None:
    """The canonical face for `text` (`3` -> `+3`), or None when it is not a face."""
    match = FACE_PATTERN.fullmatch(text)
    if not match:
        return None
    value, code, treasure = int(match[1]), match[2], match[3]
    if treasure is not None:
        return face_of(value, "treasure", int(treasure))
    return face_of(value, CODE_ABILITIES[code] if code else None)


def _validate(tile_set: TileSet) -> None:
    if tuple(a.act for a in tile_set.acts) != (1, 2, 3):
        raise ValueError("tiles.toml must describe acts 1, 2 and 3 in order")
    for act in tile_set.acts:
        for kind in act.tiles:
            if kind.count < 1:
                raise ValueError(f"act {act.act}: tile {kind} needs a positive count")
            if kind.ability == "throat" and kind.value != 0:
                raise ValueError(f"act {act.act}: a Throat tile has no value, not {kind.value}")
            if (kind.ability == "treasure") != (kind.treasure > 0):
                raise ValueError(f"act {act.act}: only Treasure tiles carry a treasure value")


@functools.cache
def tile_set() -> TileSet:
    """The validated component data."""
    loaded = load_toml(__package__ or "skald.core.beowulf", "tiles.toml", TileSet)
    _validate(loaded)
    return loaded


def act_spec(act: int) -> ActSpec:
    """The board and tiles of one act (1-3)."""
    return tile_set().acts[act - 1]


@functools.cache
def catalog() -> dict[str, Tile]:
    """Every physical tile by id, in act order."""
    tiles: dict[str, Tile] = {}
    for spec in tile_set().acts:
        number = 0
        for kind in spec.tiles:
            for _ in range(kind.count):
                number += 1
                tile_id = f"{ROMAN[spec.act]}{number:02d}"
                tiles[tile_id] = Tile(tile_id, spec.act, kind.value, kind.ability, kind.treasure)
    return tiles


def tile(tile_id: str) -> Tile:
    """One tile by id."""
    return catalog()[tile_id]


@functools.cache
def faces() -> dict[str, str]:
    """Every physical tile's face by id (`tile(id).face`, computed once per tile)."""
    return {tile_id: placed.face for tile_id, placed in catalog().items()}


def tile_face(tile_id: str) -> str:
    """The face of one tile by id."""
    return faces()[tile_id]


@functools.cache
def act_tiles(act: int) -> tuple[str, ...]:
    """The ids of an act's tiles, unshuffled."""
    return tuple(t.id for t in catalog().values() if t.act == act)
