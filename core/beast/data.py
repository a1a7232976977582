"""Beast game content, loaded from the TOML files beside this module into msgspec Structs.

Maps, contracts, character mats and cards are data; what the rulebook does not give is
marked `reconstructed = true` in the files and can be replaced without touching code.
Everything is read through `core.content` on first use, never at import time; the map
geometry (roads by compass direction, zones, distances) is derived once by `board`.
Rulebook sections: Components, Setup, Characters, Card types and Discard, Contracts.
"""

from __future__ import annotations

import functools
from typing import TypeVar

import msgspec

from skald.core.beast.board import Board, MapData, build_board
from skald.core.content import load_toml

T = TypeVar("T")

HABITATS = ("settlement", "forest", "swamp", "cave")
EFFECT_OPS = (
    "move",
    "search",
    "attack",
    "reveal",
    "summon",
    "transform",
    "item",
    "talent",
    "draw",
    "grudge",
    "power",
    "heal",
    "watchtower",
    "trap",
    "copy",
    "divine",
)
CENTRE_HABITATS = frozenset({"forest", "swamp", "cave"})
# The cumulative counters a contract requirement may name (kept by core/beast/evolve.py).
COUNTERS = frozenset(
    {
        "settler_kills",
        "animal_kills",
        "hunter_kills",
        "beast_wounds",
        "reveals",
        "misses",
        "summons_killed",
        "transforms",
    }
)


class Effect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One effect primitive (see cards.toml for the vocabulary)."""

    op: str
    n: int = 1
    range: int = 0
    zone: bool = False
    where: str = ""


class Side(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What playing a card (or one half of an action card) does."""

    effects: tuple[Effect, ...]
    mode: str = "seq"
    needs: str = ""
    cost: int = 0
    react: str = ""


class ActionCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An action card: the top half for hunters, the bottom half for the Beast."""

    name: str
    top: Side
    bottom: Side
    reconstructed: bool = False


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An ability card, item or beastly talent."""

    name: str
    effects: tuple[Effect, ...]
    owner: str = ""
    mode: str = "seq"
    needs: str = ""
    cost: int = 0
    react: str = ""
    reconstructed: bool = False

    @property
    def side(self) -> Side:
        """The card's effects as a Side."""
        return Side(
            effects=self.effects, mode=self.mode, needs=self.needs, cost=self.cost, react=self.react
        )


class Cards(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """All cards of the game."""

    action: tuple[ActionCard, ...]
    ability: tuple[Card, ...]
    item: tuple[Card, ...]
    talent: tuple[Card, ...]


class Upgrade(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One upgrade slot of a character mat."""

    name: str
    cost: int
    kind: str
    passive: str = ""
    effects: tuple[Effect, ...] = ()
    reconstructed: bool = False


class SummonKind(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A Beast's summons: how many, where they may be placed, their unique ability."""

    name: str
    count: int
    habitat: str
    ability: Effect


class BeastMat(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A Beast character mat."""

    name: str
    health: int
    habitat: str
    trail: str
    summon: SummonKind
    upgrades: tuple[Upgrade, ...]
    reconstructed: bool = False


class HunterMat(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A hunter character mat."""

    name: str
    health: int
    upgrades: tuple[Upgrade, ...]
    reconstructed: bool = False


class FirstTime(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The rulebook's first-game characters and starting action cards."""

    beast: str
    hunters: tuple[str, ...]
    cards: tuple[tuple[str, ...], ...]


class Characters(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """All character mats and the first-time setups."""

    beast: tuple[BeastMat, ...]
    hunter: tuple[HunterMat, ...]
    first_time: dict[str, FirstTime]


class Night(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One night's contract requirements (alternatives) and rewards for each side."""

    beast: tuple[tuple[str, int], ...]
    beast_reward: tuple[Effect, ...]
    hunters: tuple[tuple[str, int], ...]
    hunter_reward: tuple[Effect, ...]


class Contract(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A contract: map, length, win thresholds, starting grudges, nightly rewards, and the
    animals and settlers its setup section leaves off the map (`leave_off`: a kind such as
    "bear", a location such as "E5", or one kind on one location, "B2/sheep")."""

    name: str
    title: str
    map: str
    days: int
    settler_kills: int
    beast_lives: int
    beast_grudges: int
    hunter_grudges: int
    night: tuple[Night, ...]
    leave_off: tuple[str, ...] = ()
    reconstructed: bool = False

    def leaves_off(self, location: str, kind: str) -> bool:
        """True when the setup leaves a piece of `kind` on `location` off the map."""
        return bool({kind, location, f"{location}/{kind}"} & set(self.leave_off))


class Piece(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An animal or settler kind: health and the Beast's grudge reward."""

    health: int
    grudges: int
    settler: bool


class MapsFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    map: tuple[MapData, ...]
    pieces: dict[str, Piece]


class ContractsFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    contract: tuple[Contract, ...]


def _load(name: str, kind: type[T]) -> T:
    return load_toml(__package__ or "skald.core.beast", name, kind)


@functools.cache
def boards() -> dict[str, Board]:
    """Every map by name."""
    return {m.name: build_board(m) for m in _load("maps.toml", MapsFile).map}


@functools.cache
def pieces() -> dict[str, Piece]:
    """Animal and settler kinds by name."""
    return _load("maps.toml", MapsFile).pieces


@functools.cache
def contracts() -> dict[str, Contract]:
    """Every contract by name."""
    data = _load("contracts.toml", ContractsFile)
    for contract in data.contract:
        board = boards()[contract.map]
        named = {name for night in contract.night for name, _ in (*night.beast, *night.hunters)}
        if named - COUNTERS:
            raise ValueError(
                f"contracts.toml: {contract.name} requires unknown counters "
                f"{sorted(named - COUNTERS)}; known: {sorted(COUNTERS)}"
            )
        for entry in contract.leave_off:
            loc, _, kind = entry.rpartition("/")
            if (loc and loc not in board.locations) or (
                kind not in pieces() and (loc or kind not in board.locations)
            ):
                raise ValueError(
                    f"contracts.toml: {contract.name} leave_off {entry!r} names "
                    "no piece kind or location of its map"
                )
    return {c.name: c for c in data.contract}


@functools.cache
def characters() -> Characters:
    """Every character mat."""
    data = _load("characters.toml", Characters)
    mats: list[BeastMat | HunterMat] = [*data.beast, *data.hunter]
    for mat in mats:
        for upgrade in mat.upgrades:
            where = f"characters.toml {mat.name} {upgrade.name}"
            check_base_damage(upgrade.effects, where)
            check_sources(upgrade.effects, "upgrade", isinstance(mat, BeastMat), where)
    return data


@functools.cache
def cards() -> Cards:
    """Every card."""
    data = _load("cards.toml", Cards)
    sides = [side for a in data.action for side in (a.top, a.bottom)]
    sides += [c.side for c in (*data.ability, *data.item, *data.talent)]
    for side in sides:
        unknown = [e.op for e in side.effects if e.op not in EFFECT_OPS]
        if unknown or side.mode not in ("seq", "then", "any", "choose"):
            raise ValueError(f"cards.toml: unknown effect {unknown} or mode {side.mode!r}")
        check_base_damage(side.effects, "cards.toml")
    for action in data.action:
        check_sources(action.top.effects, "action", False, f"cards.toml {action.name}")
        check_sources(action.bottom.effects, "action", True, f"cards.toml {action.name}")
    for kind, group in (("ability", data.ability), ("item", data.item), ("talent", data.talent)):
        for card in group:
            beast = kind == "talent" or (kind == "ability" and card.owner in _beast_names())
            check_sources(card.effects, kind, beast, f"cards.toml {card.name}")
    return data


# Rulebook "Ancient Powers": "Ancient powers are gained from contract rewards, items,
# beastly talents and certain upgrades." "Grudges": "Hunters gain grudges by completing
# contract rewards and by playing certain action or item cards." (The Beast gains them
# "primarily" by killing: other sources are not excluded.)
POWER_SOURCES = frozenset({"item", "talent", "upgrade"})
HUNTER_GRUDGE_SOURCES = frozenset({"action", "item"})


def check_sources(effects: tuple[Effect, ...], kind: str, beast: bool, where: str) -> None:
    """Reconstructed data may give Ancient powers and hunters' grudges only where the
    rulebook says they come from (contract rewards are the contracts' own)."""
    ops = {e.op for e in effects}
    if "power" in ops and kind not in POWER_SOURCES:
        raise ValueError(f"{where}: an {kind} card is not a source of Ancient powers")
    if "grudge" in ops and not beast and kind not in HUNTER_GRUDGE_SOURCES:
        raise ValueError(f"{where}: a hunter's {kind} is not a source of grudges")


def _beast_names() -> frozenset[str]:
    return frozenset(b.name for b in characters().beast)


def check_base_damage(effects: tuple[Effect, ...], where: str) -> None:
    """Rulebook "Attacking": "Every attack deals 1 base damage." Reconstructed data may not
    contradict it: an attack or a trap deals 1, more only through upgrades and Ancient
    powers (a card that hits harder grants a power first, as items and talents may)."""
    strong = [e.op for e in effects if e.op in ("attack", "trap") and e.n != 1]
    if strong:
        raise ValueError(f"{where}: {strong} deal more than the rulebook's 1 base damage")


@functools.cache
def beast_mat(name: str) -> BeastMat:
    """A Beast mat by name."""
    return {b.name: b for b in characters().beast}[name]


@functools.cache
def hunter_mat(name: str) -> HunterMat:
    """A hunter mat by name."""
    return {h.name: h for h in characters().hunter}[name]


@functools.cache
def card_index() -> dict[str, tuple[str, ActionCard | Card]]:
    """Every card by name, with its kind (action, ability, item, talent)."""
    index: dict[str, tuple[str, ActionCard | Card]] = {}
    every = cards()
    for kind, group in (
        ("action", every.action),
        ("ability", every.ability),
        ("item", every.item),
        ("talent", every.talent),
    ):
        for card in group:
            index[card.name] = (kind, card)
    return index


def side_of(name: str, beast: bool) -> Side:
    """What playing card `name` does for the Beast or a hunter."""
    _, card = card_index()[name]
    if isinstance(card, ActionCard):
        return card.bottom if beast else card.top
    return card.side


# Card kinds discarded face down next to their deck (rulebook "Card types and Discard").
FACE_DOWN = ("item", "talent")


def kind_of(name: str) -> str:
    """action, ability, item or talent."""
    return card_index()[name][0]


def abilities_of(owner: str) -> tuple[str, ...]:
    """The ability cards printed for a character."""
    return tuple(c.name for c in cards().ability if c.owner == owner)


def is_trap_item(card: str) -> bool:
    """Trap items are played face down (the Beast must not learn which trap)."""
    if card not in card_index():
        return False
    return kind_of(card) == "item" and any(e.op == "trap" for e in side_of(card, False).effects)
