"""Events of Hägar ruft zum Beutefest, one frozen tagged Struct each.

Hidden values ride in `Secret`s with their audience: a loot piece is sealed to its holder
(and, after an ambush, to both Vikings involved); the city stacks and the fate deck order
are sealed to nobody. Names never leak what they hide (`CityPlundered`, not which piece).
`barrier = True` marks events that consumed chance or showed someone something new: undo
stops there.

Events carry what the table shows. Pieces on a collector's card lie face down, the
Byzantine chests too once taken (everyone saw which Viking took one): so when a piece
leaves a card (jettisoned, robbed, forced), the others learn from which Viking, and the
field counts on his card, but not which piece, nor its place on the card (a place would
say whether it was the chest everyone saw him take). The reducer finds the piece by its
id in the sealed value. `slot` fields appear only in rules version 1 logs. A robbery at
sea reaches the victim's ship and his hands; which of the two lost the piece the counts
on his card show, and from rules version 5 `LootRobbed.from_cargo` says it too (a forced
or jettisoned piece always leaves one field: the ship at sea, the hands on land).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from skald.events.base import Event
from skald.events.secret import Secret

Stacks = tuple[tuple[str, tuple[int, ...]], ...]


# -- setup ---------------------------------------------------------------------------------


class StartChosen(Event, frozen=True, tag="hagar.start_chosen"):
    """A Viking chose the home harbour to start from."""

    seat: int
    harbour: str


class LootDealt(Event, frozen=True, tag="hagar.loot_dealt"):
    """The loot was shuffled face down onto the cities (city -> stack, top first)."""

    barrier = True
    stacks: Secret[Stacks]


class FateShuffled(Event, frozen=True, tag="hagar.fate_shuffled"):
    """The fate deck was shuffled: at setup, from the discards, or with healed arrows back in.

    `returned` are the (public) cards that went back into the deck."""

    barrier = True
    deck: Secret[tuple[int, ...]]
    reason: str = "setup"
    returned: tuple[int, ...] = ()


# -- throwing and moving -------------------------------------------------------------------


class SticksThrown(Event, frozen=True, tag="hagar.sticks_thrown"):
    """The two rune sticks fell on `faces`: so many points, waves and lightning bolts."""

    barrier = True
    seat: int
    faces: tuple[int, int]
    points: int
    waves: int
    lightning: int


class VikingWalked(Event, frozen=True, tag="hagar.viking_walked"):
    """A Viking went on foot along `path` (start first)."""

    seat: int
    path: tuple[str, ...]


class ShipSailed(Event, frozen=True, tag="hagar.ship_sailed"):
    """A ship sailed along `path`, its Viking aboard or not."""

    seat: int
    path: tuple[str, ...]
    aboard: bool


class ShipDocked(Event, frozen=True, tag="hagar.ship_docked"):
    """A ship docked at a harbour; surplus waves expired."""

    seat: int
    harbour: str
    home: bool = False


class VikingBoarded(Event, frozen=True, tag="hagar.viking_boarded"):
    """A Viking boarded his ship and loaded `loaded` carried pieces onto it."""

    seat: int
    harbour: str
    loaded: int


class LootBroughtHome(Event, frozen=True, tag="hagar.loot_brought_home"):
    """The ship's cargo went into the Viking's safe home (before rules version 3, `count`
    included what he carried, which went home too)."""

    seat: int
    count: int


class CrossroadsReached(Event, frozen=True, tag="hagar.crossroads_reached"):
    """A Viking (`walk`) or ship (`sail`) reached a crossroads and must announce."""

    seat: int
    space: str
    mode: Literal["walk", "sail"]


class DirectionsAnnounced(Event, frozen=True, tag="hagar.directions_announced"):
    """At a crossroads: the first step on an even throw, and on an odd one."""

    seat: int
    even: str
    odd: str


class StormStruck(Event, frozen=True, tag="hagar.storm_struck"):
    """A ship came onto a storm space and must move the thrown waves once more."""

    seat: int
    space: str
    waves: int


class LootJettisoned(Event, frozen=True, kw_only=True, tag="hagar.loot_jettisoned"):
    """The storm took one piece of the cargo (which: the owner's secret) out of the game."""

    barrier = True
    seat: int
    slot: int | None = None  # version 1 logs only
    piece: Secret[int]


# -- plunder -------------------------------------------------------------------------------


class CityPlundered(Event, frozen=True, tag="hagar.city_plundered"):
    """A Viking took the top piece of a city's stack and looked at it in secret."""

    barrier = True
    seat: int
    city: str
    piece: Secret[int]


class ChestRobbed(Event, frozen=True, tag="hagar.chest_robbed"):
    """A Viking robbed a (face up) Byzantine chest at the camp."""

    seat: int
    piece: int


class RoadsideLootFound(Event, frozen=True, tag="hagar.roadside_loot_found"):
    """A Viking reached roadside loot exactly: he may take it or leave it."""

    seat: int
    space: str


class RoadsideLootLeft(Event, frozen=True, tag="hagar.roadside_loot_left"):
    """The Viking left the roadside loot lying."""

    seat: int
    space: str


class RoadsideLootTaken(Event, frozen=True, tag="hagar.roadside_loot_taken"):
    """A Viking picked up a piece lying at the roadside."""

    barrier = True
    seat: int
    space: str
    piece: Secret[int]


class LootDropped(Event, frozen=True, tag="hagar.loot_dropped"):
    """A Viking dropped everything he carried on the spot."""

    barrier = True
    seat: int
    space: str
    count: int
    pieces: Secret[tuple[int, ...]]


# -- fate ----------------------------------------------------------------------------------


class FateDrawn(Event, frozen=True, tag="hagar.fate_drawn"):
    """A lightning bolt on land: the top fate card, shown to all."""

    barrier = True
    seat: int
    card: int
    kind: str


class DragonFled(Event, frozen=True, tag="hagar.dragon_fled"):
    """The Viking fled in fright to his ship."""

    seat: int
    ship: str


class OdinFlew(Event, frozen=True, tag="hagar.odin_flew"):
    """Odin carried the Viking with his loot onto his ship or into a city."""

    seat: int
    to: str
    loaded: int = 0


class ArrowShot(Event, frozen=True, tag="hagar.arrow_shot"):
    """The drawer handed an arrow card to `target`; it lies open before him."""

    seat: int
    target: int
    card: int


class MeadDrunk(Event, frozen=True, tag="hagar.mead_drunk"):
    """The Viking misses his next turn."""

    seat: int


class ThorPleased(Event, frozen=True, tag="hagar.thor_pleased"):
    """The Viking takes another turn after this one."""

    seat: int


class RoadBonus(Event, frozen=True, tag="hagar.road_bonus"):
    """More points for this move."""

    seat: int
    points: int


class ArrowsHealed(Event, frozen=True, tag="hagar.arrows_healed"):
    """The Viking's arrows were removed (they go back into the fate deck)."""

    seat: int
    cards: tuple[int, ...]


# -- ambush --------------------------------------------------------------------------------


class VikingsMet(Event, frozen=True, tag="hagar.vikings_met"):
    """A Viking met others directly on land or at sea and may ambush one of them."""

    seat: int
    space: str
    others: tuple[int, ...]


class LootRobbed(Event, frozen=True, kw_only=True, tag="hagar.loot_robbed"):
    """The attacker drew one of the victim's pieces face down (drawn by chance); which one
    only the two of them know."""

    barrier = True
    seat: int
    victim: int
    at_sea: bool
    slot: int | None = None  # version 1 logs only
    piece: Secret[int]
    from_cargo: bool | None = None
    """Whether the piece left the victim's ship (else his hands); public, as the counts on
    his card show it. Rules version 5 on; None in older logs."""


class LootForced(Event, frozen=True, kw_only=True, tag="hagar.loot_forced"):
    """The attacker forced one of his pieces (his choice, known to the two of them) on a
    victim who had none."""

    barrier = True
    seat: int
    victim: int
    at_sea: bool
    slot: int | None = None  # version 1 logs only
    piece: Secret[int]


class AmbushEnded(Event, frozen=True, tag="hagar.ambush_ended"):
    """An ambush on a crossroads was passed up; the mover now announces his directions."""

    seat: int


# -- turns, uncertainties and the feast ----------------------------------------------------


class TurnEnded(Event, frozen=True, tag="hagar.turn_ended"):
    """The turn passed to `next` (the same seat again after Thor)."""

    seat: int
    next: int
    again: bool = False


class TurnSkipped(Event, frozen=True, tag="hagar.turn_skipped"):
    """A Viking sleeps off the mead and misses this turn."""

    seat: int


class UncertaintyThrown(Event, frozen=True, tag="hagar.uncertainty_thrown"):
    """An uncertainty settled the old way, by the rune sticks."""

    barrier = True
    seat: int
    question: str
    options: tuple[str, ...]
    chosen: str


class FeastCalled(Event, frozen=True, tag="hagar.feast_called"):
    """A Viking called the Loot Feast."""

    barrier = True
    seat: int
    reason: str


class Holding(msgspec.Struct, frozen=True, kw_only=True):
    """One Viking's loot as revealed at the feast (piece ids)."""

    seat: int
    home: tuple[int, ...]
    cargo: tuple[int, ...]
    carried: tuple[int, ...]


class LootRevealed(Event, frozen=True, tag="hagar.loot_revealed"):
    """Every piece every Viking holds, face up."""

    barrier = True
    holdings: tuple[Holding, ...]


class GiftsJudged(Event, frozen=True, tag="hagar.gifts_judged"):
    """The wife's sympathy: one rune stick per counted gift, 0-2 points each."""

    barrier = True
    seat: int
    gifts: tuple[int, ...]
    points: tuple[int, ...]


class TieThrown(Event, frozen=True, tag="hagar.tie_thrown"):
    """Tied Vikings threw both sticks; more points ranks higher."""

    barrier = True
    seats: tuple[int, ...]
    points: tuple[int, ...]


class FeastScored(Event, frozen=True, tag="hagar.feast_scored"):
    """The final scores and ranking (groups of tied seats, best first)."""

    scores: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    tiebreaks: tuple[int, ...]


HagarEvent = (
    StartChosen
    | LootDealt
    | FateShuffled
    | SticksThrown
    | VikingWalked
    | ShipSailed
    | ShipDocked
    | VikingBoarded
    | LootBroughtHome
    | CrossroadsReached
    | DirectionsAnnounced
    | StormStruck
    | LootJettisoned
    | CityPlundered
    | ChestRobbed
    | RoadsideLootTaken
    | RoadsideLootFound
    | RoadsideLootLeft
    | LootDropped
    | FateDrawn
    | DragonFled
    | OdinFlew
    | ArrowShot
    | MeadDrunk
    | ThorPleased
    | RoadBonus
    | ArrowsHealed
    | VikingsMet
    | LootRobbed
    | LootForced
    | AmbushEnded
    | TurnEnded
    | TurnSkipped
    | UncertaintyThrown
    | FeastCalled
    | LootRevealed
    | GiftsJudged
    | TieThrown
    | FeastScored
)
EVENT_TYPES: tuple[type, ...] = HagarEvent.__args__
