"""The Beast rules state: one frozen Struct, rebuilt by `evolve` from the events.

The state is the referee's: it holds the Beast's actual location and hidden cards. What
each viewer may see is cut out of it by projections/beast/view.py. Hands are indexed: 0 is the
Beast, 1.. the hunters; `seat` on each hand says which player controls it.
"""

from __future__ import annotations

import msgspec

from skald.core.beast.board import Board
from skald.core.beast.data import (
    CENTRE_HABITATS,
    Contract,
    Effect,
    beast_mat,
    boards,
    contracts,
    hunter_mat,
)
from skald.core.derive import Derivation
from skald.events.beast import Step, TrapCard

BEAST = 0
# Table option `hunter_return`: where a hunter goes when no settlement is left (the first
# is the default; see `BeastState.return_places`).
HUNTER_RETURN = ("printed", "centre")


class Piece(msgspec.Struct, frozen=True):
    """An animal or settler on the map."""

    kind: str
    location: str
    wounds: int = 0
    alive: bool = True


class Summon(msgspec.Struct, frozen=True):
    """One of the Beast's summons; location "" while off the map."""

    name: str
    location: str = ""


class Hand(msgspec.Struct, frozen=True, kw_only=True):
    """A character (the Beast or a hunter) and what it holds."""

    character: str
    seat: int
    health: int
    wounds: int = 0
    grudges: int = 0
    powers: int = 0
    location: str = ""
    actions: tuple[str, ...] = ()
    abilities: tuple[str, ...] = ()
    spent: tuple[str, ...] = ()
    extras: tuple[str, ...] = ()
    upgrades: tuple[str, ...] = ()
    dead: bool = False


class Frame(msgspec.Struct, frozen=True, kw_only=True):
    """A card being resolved: its effects still pending and the one in progress."""

    hand: int
    card: str
    slot: str
    effects: tuple[Effect, ...]
    mode: str
    pending: tuple[int, ...]
    current: int = -1
    progress: int = 0
    zones: tuple[str, ...] = ()
    acted: tuple[str, ...] = ()


class BeastState(msgspec.Struct, frozen=True, kw_only=True):
    """Everything about one game of Beast."""

    players: int
    options: tuple[tuple[str, str], ...] = ()
    contract: str = ""
    map: str = ""
    first_time: bool = False
    phase: str = "setup"
    day: int = 0
    hands: tuple[Hand, ...] = ()
    standee: str = ""
    active: tuple[Step, ...] = ()
    trailed: tuple[int, ...] = ()
    summons: tuple[Summon, ...] = ()
    habitats: tuple[tuple[str, str], ...] = ()
    pieces: tuple[Piece, ...] = ()
    towers: tuple[str, ...] = ()
    traps: tuple[tuple[str, TrapCard], ...] = ()
    action_deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    item_deck: tuple[str, ...] = ()
    item_row: tuple[str, ...] = ()
    talent_deck: tuple[str, ...] = ()
    talent_row: tuple[str, ...] = ()
    item_discard: tuple[str, ...] = ()
    talent_discard: tuple[str, ...] = ()
    shuffles: int = 0
    packs: tuple[tuple[str, ...], ...] = ()
    picks: tuple[int, ...] = ()
    pool: tuple[str, ...] = ()
    quota: tuple[int, ...] = ()
    aside: str = ""
    turn: int = 0
    slots: tuple[str, ...] = ()
    passes: int = 0
    frames: tuple[Frame, ...] = ()
    window: str = ""
    reactors: tuple[int, ...] = ()
    queue: tuple[int, ...] = ()
    stats: tuple[tuple[str, int], ...] = ()
    lives: int = 1
    nonce: int = 0
    winner: str = ""
    reason: str = ""

    # -- lookups -----------------------------------------------------------------------

    @property
    def board(self) -> Board:
        """The map being played."""
        return boards()[self.map]

    @property
    def terms(self) -> Contract:
        """The contract being played."""
        return contracts()[self.contract]

    @property
    def beast(self) -> Hand:
        """The Beast's hand."""
        return self.hands[BEAST]

    @property
    def hunters(self) -> tuple[int, ...]:
        """The hunters' hand indices."""
        return tuple(range(1, len(self.hands)))

    @property
    def hunter_seats(self) -> frozenset[int]:
        """The seats that play hunters (one team: they share hands)."""
        return frozenset(self.hands[h].seat for h in self.hunters)

    def team(self, hand: int) -> frozenset[int]:
        """The seats entitled to see `hand`'s cards."""
        return frozenset({self.hands[BEAST].seat}) if hand == BEAST else self.hunter_seats

    def hand_named(self, character: str) -> int | None:
        """The hand index of a character."""
        for index, hand in enumerate(self.hands):
            if hand.character == character:
                return index
        return None

    def stat(self, name: str) -> int:
        """A cumulative counter (kills, reveals, ...)."""
        return dict(self.stats).get(name, 0)

    def habitat(self, location: str) -> str:
        """The current habitat of a location ("centre" for an untransformed centre)."""
        return dict(self.habitats).get(location, self.board.habitat[location])

    def is_habitat(self, location: str, habitat: str) -> bool:
        """True when `location` counts as `habitat` (the centre counts as all but settlement)."""
        here = self.habitat(location)
        return here == habitat or (here == "centre" and habitat in CENTRE_HABITATS)

    def settlements(self) -> tuple[str, ...]:
        """Every location that is currently a settlement."""
        return tuple(loc for loc in self.board.locations if self.habitat(loc) == "settlement")

    def return_places(self) -> tuple[str, ...]:
        """Where a hunter may put its standee (placing at the start, returning at night):
        "any settlement on the map" (rulebook "Player starting positions", "Player
        Death"). When the Beast has transformed every settlement, the text names none;
        the table option `hunter_return` chooses: `printed` (default) the locations the
        map prints as settlements, transformed or not; `centre` the Beast starting
        location. Either way the hunter always has somewhere to go."""
        current = self.settlements()
        if current:
            return current
        if dict(self.options).get("hunter_return", HUNTER_RETURN[0]) == "centre":
            return (self.board.centre,)
        return tuple(loc for loc in self.board.locations if self.board.habitat[loc] == "settlement")

    def living_pieces(self, location: str) -> tuple[int, ...]:
        """Indices of the living animals and settlers on a location."""
        return tuple(i for i, p in enumerate(self.pieces) if p.alive and p.location == location)

    def hunters_at(self, location: str) -> tuple[int, ...]:
        """Living hunters standing on a location."""
        return tuple(
            h for h in self.hunters if not self.hands[h].dead and self.hands[h].location == location
        )

    def trap_place(self, index: int) -> int:
        """The place of trap `index` among its zone's traps, in the order set (what
        `TrapTriggered.among` names: rules version 7 on)."""
        zone = self.traps[index][0]
        return sum(1 for z, _ in self.traps[:index] if z == zone)

    def trap_index(self, zone: str, place: int) -> int:
        """The index in `traps` of the zone's trap at `place` (`trap_place`'s inverse)."""
        return [i for i, (z, _) in enumerate(self.traps) if z == zone][place]

    def summon_at(self, name: str) -> str:
        """Where a summon is ("" when off the map)."""
        return next((s.location for s in self.summons if s.name == name), "")

    @property
    def hidden(self) -> bool:
        """True while the Beast has active movement cards (it is not revealed)."""
        return bool(self.active)

    def max_health(self, hand: int) -> int:
        """Starting health plus health upgrades."""
        h = self.hands[hand]
        mat = beast_mat(h.character) if hand == BEAST else hunter_mat(h.character)
        bonus = sum(2 for u in mat.upgrades if u.name in h.upgrades and u.passive == "health")
        return mat.health + bonus

    def passive(self, hand: int, kind: str) -> int:
        """How many unlocked passive upgrades of `kind` a hand has."""
        h = self.hands[hand]
        mat = beast_mat(h.character) if hand == BEAST else hunter_mat(h.character)
        return sum(1 for u in mat.upgrades if u.name in h.upgrades and u.passive == kind)


Tx = Derivation[BeastState]
"""A Beast decision being derived (`decide.begin` starts one)."""
