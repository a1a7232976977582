"""What follows a move in Hägar, until the turn ends (rulebook "Iron Plundering Rules",
"Harbours", "Transporting the Loot", "Ambush", "Assorted Misfortunes and Divine
Pronouncements", "Arrows").

`decide` checks a command and calls these: plunder on entering a city, roadside loot and
the camp's chests reached exactly, loading on reaching the ship, unloading at home (where
arrows are healed and shuffled back), storms, crossroads, ambushes where Vikings meet,
and the end of the turn. Chance labels are `KIND/TICK`, the tick of the event to come
(`begin`): stable on replay, unchanged by undo.
"""

from __future__ import annotations

from typing import Literal, TypeVar

from skald.core.derive import Derivation
from skald.core.hagar import legal
from skald.core.hagar.board import board
from skald.core.hagar.evolve import evolve
from skald.core.hagar.legal import can_loot
from skald.core.hagar.state import HagarState
from skald.core.rng import Rng
from skald.events.hagar import (
    ArrowsHealed,
    ChestRobbed,
    CityPlundered,
    CrossroadsReached,
    FateShuffled,
    LootBroughtHome,
    LootDropped,
    RoadsideLootFound,
    RoadsideLootLeft,
    RoadsideLootTaken,
    ShipDocked,
    ShipSailed,
    StormStruck,
    TurnEnded,
    TurnSkipped,
    VikingBoarded,
    VikingsMet,
    VikingWalked,
)
from skald.events.secret import Secret

T = TypeVar("T")
SHIP_HOLDS = 3


Turn = Derivation[HagarState]


def begin(state: HagarState, rng: Rng) -> Turn:
    """A derivation whose chance labels are `KIND/TICK`, the tick of the event to come."""
    return Derivation(state, rng, evolve, labels=lambda now, kind, _n: f"{kind}/{now.tick}")


def seal(d: Turn, value: T, audience: set[int]) -> Secret[T]:
    """`value` sealed for `audience` under the label `seal/TICK`."""
    return d.seal(value, audience, d.label("seal"))


def walked(d: Turn, seat: int, path: tuple[str, ...], count: int) -> None:
    """The Viking walked `path`: plunder, roadside loot, boarding, a crossroads, an ambush."""
    d.emit(VikingWalked(seat=seat, path=path))
    state, end = d.state, path[-1]
    viking = state.vikings[seat]
    kind = board().kind(end)
    if kind == "city" and can_loot(viking) and state.stack(end):
        plunder(d, seat, end)
        end_turn(d, seat)
        return
    if len(path) - 1 == count and can_loot(viking) and pick_up(d, seat, end):
        return
    after_walk(d, seat)


def after_walk(d: Turn, seat: int) -> None:
    """Where the walk ended: boarding his ship, a crossroads, an ambush, or the turn ends."""
    viking = d.state.vikings[seat]
    end = viking.at
    if board().kind(end) == "harbour" and viking.ship == end:
        go_aboard(d, seat)
        end_turn(d, seat)
    elif board().spaces[end].crossroads:
        crossroads(d, seat, end, "walk")
    else:
        meet_or_end(d, seat)


def pick_up(d: Turn, seat: int, space: str) -> bool:
    """Reached exactly: a chest at the camp (once per Viking), else loot lying there;
    True when the Viking now chooses whether to take it.

    Rulebook: roadside loot "may be taken along by any Viking who reaches that space
    directly with the matching point number" -- on any space, a crossroads or his own
    ship's harbour too (there he takes it, then boards and loads it). "May": he chooses
    (`take` or `leave`)."""
    state = d.state
    viking = state.vikings[seat]
    if board().kind(space) == "camp" and not viking.robbed_camp and state.camp:
        d.emit(ChestRobbed(seat=seat, piece=state.camp[0]))
    elif state.lying(space):
        d.emit(RoadsideLootFound(seat=seat, space=space))
        return True
    return False


def take_roadside(d: Turn, seat: int, take: bool) -> None:
    """The Viking takes the roadside loot along, or leaves it; then the walk goes on."""
    space = d.state.vikings[seat].at
    if take:
        piece = seal(d, d.state.lying(space)[0], {seat})
        d.emit(RoadsideLootTaken(seat=seat, space=space, piece=piece))
    else:
        d.emit(RoadsideLootLeft(seat=seat, space=space))
    after_walk(d, seat)


def sailed(d: Turn, seat: int, path: tuple[str, ...], drifting: bool) -> None:
    """The ship sailed `path`: docking, home, a storm, a crossroads, an ambush."""
    aboard = d.state.vikings[seat].aboard
    d.emit(ShipSailed(seat=seat, path=path, aboard=aboard))
    state, end = d.state, path[-1]
    viking = state.vikings[seat]
    kind = board().kind(end)
    if drifting:
        meet_or_end(d, seat) if aboard else end_turn(d, seat)
    elif kind == "home":
        home(d, seat, end)
    elif kind == "harbour":
        d.emit(ShipDocked(seat=seat, harbour=end))
        if not viking.aboard and viking.at == end:
            go_aboard(d, seat)
        end_turn(d, seat)
    elif board().spaces[end].storm:
        waves = state.throw.waves if state.throw else 0
        d.emit(StormStruck(seat=seat, space=end, waves=waves))
        settle(d, seat)
    elif board().spaces[end].crossroads:
        crossroads(d, seat, end, "sail")
    elif aboard:
        meet_or_end(d, seat)
    else:
        end_turn(d, seat)


def home(d: Turn, seat: int, harbour: str) -> None:
    """Docked at home: the ship's cargo is safe (rulebook "Field 3. Loot pieces that the
    Viking ship has brought safely home"; "Each Viking ship can transport at most three
    loot pieces", one more after an ambush), so at most what the ship holds comes home; a
    piece still in the Viking's hands (his ship was full) is loaded onto the empty ship
    and waits for the next voyage. Arrows are healed."""
    d.emit(ShipDocked(seat=seat, harbour=harbour, home=True))
    viking = d.state.vikings[seat]
    if viking.cargo:
        d.emit(LootBroughtHome(seat=seat, count=len(viking.cargo)))
    if d.state.vikings[seat].carried:
        go_aboard(d, seat)
    heal(d, seat)
    end_turn(d, seat)


def heal(d: Turn, seat: int) -> None:
    """Arrows healed and shuffled back into the fate deck."""
    arrows = d.state.vikings[seat].arrows
    if not arrows:
        return
    d.emit(ArrowsHealed(seat=seat, cards=arrows))
    label = d.label("shuffle")
    deck = d.shuffle(label=label, items=(*d.state.deck, *arrows))
    d.emit(FateShuffled(deck=seal(d, deck, set()), reason="arrows", returned=arrows))


def go_aboard(d: Turn, seat: int) -> None:
    """The Viking boards his ship, loading what fits."""
    viking = d.state.vikings[seat]
    loaded = min(len(viking.carried), max(0, SHIP_HOLDS - len(viking.cargo)))
    d.emit(VikingBoarded(seat=seat, harbour=viking.ship, loaded=loaded))


def plunder(d: Turn, seat: int, city: str) -> None:
    """The top piece of a city's stack, face down to the plunderer."""
    piece = seal(d, d.state.stack(city)[0], {seat})
    d.emit(CityPlundered(seat=seat, city=city, piece=piece))


def crossroads(d: Turn, seat: int, space: str, mode: Literal["walk", "sail"]) -> None:
    """Reached a crossroads: an ambush there first, if any, then the announcement."""
    d.emit(CrossroadsReached(seat=seat, space=space, mode=mode))
    if not ambush(d, seat):
        announce_or_end(d, seat)


def announce_or_end(d: Turn, seat: int) -> None:
    """At a crossroads: announce, or end the turn when no way leads on."""
    if not legal.crossing_directions(d.state, seat):
        end_turn(d, seat)


def meet_or_end(d: Turn, seat: int) -> None:
    """An ambush where Vikings meet, else the turn ends."""
    if not ambush(d, seat):
        end_turn(d, seat)


def ambush(d: Turn, seat: int) -> bool:
    """Ambush: a Viking who ends his move on another, on land outside harbours and cities
    (a crossroads too) or at sea, may attack; True when he now decides how."""
    state = d.state
    viking = state.vikings[seat]
    others: tuple[int, ...] = ()
    if not viking.wounded:
        if viking.aboard and board().kind(viking.ship) == "sea":
            others = state.aboard_at(viking.ship, but=seat)
        elif not viking.aboard and board().kind(viking.at) in ("road", "camp"):
            others = state.on_foot_at(viking.at, but=seat)
    if len(legal.ambush_choices(state, seat, others)) > 1:
        d.emit(
            VikingsMet(seat=seat, space=viking.ship if viking.aboard else viking.at, others=others)
        )
        return True
    return False


def after_ambush(d: Turn, seat: int) -> None:
    """After an ambush: the crossing goes on, or the turn ends."""
    if d.state.crossing is not None:
        announce_or_end(d, seat)
    else:
        end_turn(d, seat)


def settle(d: Turn, seat: int) -> None:
    """End the turn when the leg leaves nothing to do."""
    if d.state.phase == "move" and not legal.move_choices(d.state, seat):
        end_turn(d, seat)


def end_turn(d: Turn, seat: int) -> None:
    """The turn passes (skipping Vikings who miss turns), or the same Viking goes again."""
    state = d.state
    if state.vikings[seat].extra:
        d.emit(TurnEnded(seat=seat, next=seat, again=True))
        return
    following = seat
    while True:
        following = (following + 1) % state.players
        if d.state.vikings[following].skip <= 0:
            break
        d.emit(TurnSkipped(seat=following))
    d.emit(TurnEnded(seat=seat, next=following))


def drop(d: Turn, seat: int) -> None:
    """The Viking drops what he carries by the road (a dragon, a heavy load)."""
    viking = d.state.vikings[seat]
    if viking.carried:
        d.emit(
            LootDropped(
                seat=seat,
                space=viking.at,
                count=len(viking.carried),
                pieces=seal(d, viking.carried, {seat}),
            )
        )
