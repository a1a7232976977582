"""The state of a game of Hägar: Vikings, ships, loot stacks, the fate deck, the turn.

Loot pieces are ids into `components.pieces()`; the state is the referee's full knowledge,
and only projections decide what a viewer may see of it. The collector's card of each
player is `carried` (field 1), `cargo` (field 2, the ship) and `home` (field 3).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from skald.core.hagar.board import board

Phase = Literal[
    "setup",
    "throw",
    "move",
    "arrow",
    "odin",
    "storm",
    "ambush",
    "announce",
    "moved",
    "roadside",
    "over",
]
Mode = Literal["any", "walk", "sail"]


class Viking(msgspec.Struct, frozen=True, kw_only=True):
    """One player's Viking, his ship and his collector's card."""

    at: str = ""
    ship: str = ""
    aboard: bool = True
    carried: tuple[int, ...] = ()
    cargo: tuple[int, ...] = ()
    home: tuple[int, ...] = ()
    arrows: tuple[int, ...] = ()
    robbed_camp: bool = False
    must: Literal["", "walk", "sail"] = ""
    skip: int = 0
    extra: bool = False

    @property
    def wounded(self) -> bool:
        """Three arrows: straight home, no plunder, no attacks."""
        return len(self.arrows) >= 3

    @property
    def at_sea(self) -> bool:
        """Aboard a ship on a sea space (the high seas)."""
        return self.aboard and board().kind(self.ship) == "sea"


class Leg(msgspec.Struct, frozen=True, kw_only=True):
    """The move a throw allows: by land (points) or water (waves), maybe constrained."""

    mode: Mode
    points: int = 0
    waves: int = 0
    lightning: bool = False
    first: str = ""
    storm: bool = False


class Crossing(msgspec.Struct, frozen=True, kw_only=True):
    """A crossroads being resolved: who moves (`walk` Viking or `sail` ship) and the call."""

    space: str
    mode: Literal["walk", "sail"]
    even: str = ""
    odd: str = ""


class Throw(msgspec.Struct, frozen=True, kw_only=True):
    """The last throw of the rune sticks."""

    seat: int
    faces: tuple[int, int]
    points: int
    waves: int
    lightning: int


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """The feast's scores."""

    scores: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    tiebreaks: tuple[int, ...]


class Options(msgspec.Struct, frozen=True, kw_only=True):
    """Table options: pieces home to call the feast, a round limit (0: none), and how
    uncertainties are settled (`throw` the rune sticks, or let the Vikings `choose`)."""

    feast_at: int = 7
    max_rounds: int = 0
    uncertainties: Literal["throw", "choose"] = "throw"


class HagarState(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the referee knows."""

    players: int
    options: Options = Options()
    vikings: tuple[Viking, ...] = ()
    stacks: tuple[tuple[int, ...], ...] = ()
    camp: tuple[int, ...] = ()
    roadside: tuple[tuple[str, tuple[int, ...]], ...] = ()
    deck: tuple[int, ...] = ()
    discard: tuple[int, ...] = ()
    removed: tuple[int, ...] = ()
    turn: int = 0
    phase: Phase = "setup"
    leg: Leg | None = None
    crossing: Crossing | None = None
    throw: Throw | None = None
    targets: tuple[int, ...] = ()
    card: int = -1
    rounds: int = 0
    tick: int = 0
    revealed: bool = False
    sympathy: tuple[tuple[int, int], ...] = ()
    result: Result | None = None
    called: str = ""
    rules_version: int = 5
    """The rules version the game was started under (`GameCreated.rules_version`): `decide`
    derives that version's events (core/hagar/rules.py lists the versions it plays)."""

    def stack(self, city: str) -> tuple[int, ...]:
        """The loot still lying at a city, top first."""
        return self.stacks[board().cities.index(city)]

    def lying(self, space: str) -> tuple[int, ...]:
        """Loot dropped at a space, top first."""
        return dict(self.roadside).get(space, ())

    def on_foot_at(self, space: str, but: int = -1) -> tuple[int, ...]:
        """Seats of Vikings standing on `space` (not aboard)."""
        return tuple(
            s for s, v in enumerate(self.vikings) if s != but and not v.aboard and v.at == space
        )

    def aboard_at(self, space: str, but: int = -1) -> tuple[int, ...]:
        """Seats of Vikings aboard their ship on `space`."""
        return tuple(
            s for s, v in enumerate(self.vikings) if s != but and v.aboard and v.ship == space
        )

    def ships_at(self, space: str, but: int = -1) -> int:
        """How many ships lie at `space`."""
        return sum(1 for s, v in enumerate(self.vikings) if s != but and v.ship == space)

    def loot_left(self) -> bool:
        """True while any city still has loot to plunder."""
        return any(self.stacks)

    def loot_can_come_home(self) -> bool:
        """True while some piece not yet home could still be brought home: loot in a city
        or by the roadside, in a Viking's hands or on a ship, or a chest at the camp while
        some Viking has not robbed there yet."""
        return (
            self.loot_left()
            or any(pieces for _, pieces in self.roadside)
            or any(v.carried or v.cargo for v in self.vikings)
            or (bool(self.camp) and not all(v.robbed_camp for v in self.vikings))
        )


def replace_viking(state: HagarState, seat: int, **changes: object) -> HagarState:
    """The state with one Viking changed."""
    vikings = list(state.vikings)
    vikings[seat] = msgspec.structs.replace(vikings[seat], **changes)
    return msgspec.structs.replace(state, vikings=tuple(vikings))
