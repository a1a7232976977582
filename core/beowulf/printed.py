"""Beowulf's tiles as printed on them (rulebook "Tiles", "Special Abilities"): the value
with a true minus sign and the ability by its name, `+3`, `-2 Drunkenness`,
`0 Golden Statue`, `+1 Treasure (3)`, `Throat`.

Pure words for a tile id or a face in the notation, for whatever a person reads: the rules'
refusals, the narrative, the terminal and drawn boards, the knowledge texts.
"""

from __future__ import annotations

from skald.core.beowulf.data import CODE_ABILITIES, FACE_PATTERN, ROMAN, catalog, tile

MINUS = "\N{MINUS SIGN}"


def ability_name(ability: str) -> str:
    """`golden_statue` -> `Golden Statue`."""
    return ability.replace("_", " ").title()


def signed(value: int) -> str:
    """`+3`, `0`, `-2` (a minus sign, as printed)."""
    return f"{value:+d}".replace("-", MINUS) if value else "0"


def tile_words(tile_id: str) -> str:
    """A tile as printed: `+3`, `-2 Drunkenness` (a minus sign), `0 Golden Statue`,
    `+1 Treasure (3)`."""
    if tile_id not in catalog():  # a forged log's tile: said as what it is
        return f"a tile no set holds ({tile_id})"
    printed = tile(tile_id)
    return _printed(printed.value, printed.ability, printed.treasure)


def tiles_words(tile_ids: tuple[str, ...]) -> str:
    """Several tiles as printed, in order."""
    return ", ".join(tile_words(t) for t in tile_ids)


def face_words(face: str) -> str:
    """A tile's face in its notation (`0#`, `+1$3`, `-2d`) as printed (`Throat`,
    `+1 Treasure (3)`, `-2 Drunkenness`); a face named with its back (`-1@3`) says the
    back (`-1 with an Act III back`); a face the notation does not know, as it is."""
    plain, at, back = face.partition("@")
    matched = FACE_PATTERN.fullmatch(plain)
    if matched is None or (matched[2] and matched[2] not in CODE_ABILITIES):
        return face
    if at:
        act = int(back) if back.isascii() and back.isdigit() else 0
        return f"{face_words(plain)} with an Act {ROMAN[act]} back" if act in ROMAN else face
    value, code, treasure = matched.groups()
    if treasure is not None:
        return _printed(int(value), "treasure", int(treasure))
    return _printed(int(value), CODE_ABILITIES[code] if code else None, 0)


def faces_words(faces: list[str] | tuple[str, ...]) -> str:
    """Several faces as printed, in order: `+6, -3, -6 Drunkenness`."""
    return ", ".join(face_words(face) for face in faces)


def _printed(value: int, ability: str | None, treasure: int) -> str:
    number = signed(value)
    if ability is None:
        return number
    if ability == "throat":
        return "Throat"
    if ability == "treasure":
        return f"{number} Treasure ({treasure})"
    return f"{number} {ability_name(ability)}"


SUPPLY_NAMES = {"beowulf": "Beowulf", "thane": "Thanes", "castle": "Castles", "drakkar": "Drakkars"}


def supply_words(supply: dict[str, int]) -> str:
    """A seat's figures still to place, each by its name: `Beowulf 1, Thanes 2, Castles 3,
    Drakkars 4` (letters alone read like the board's squares: `C3`, `D4`)."""
    return ", ".join(f"{SUPPLY_NAMES.get(kind, kind)} {count}" for kind, count in supply.items())
