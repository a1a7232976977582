"""The Hägar reducer: one small function per event; pure, total, trusting its input.

It keeps what the rules in `decide` decided: the throw and the move it allows (rulebook
"On Raiding Expeditions", "Harbours": surplus expires on docking or loading), plunder and
loot lying by the road ("Iron Plundering Rules"), the collector's card's three fields
("Transporting the Loot": carried, on the ship and home), ambush transfers ("Ambush"),
storms and crossroads ("Assorted Misfortunes and Divine Pronouncements"), the fate deck
and its cards ("Fate Lightning Bolts"), and the feast's result ("Loot Feast"). Every
event also advances the tick that keys chance labels.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from skald.core.hagar.board import board
from skald.core.hagar.state import Crossing, HagarState, Leg, Result, Throw, Viking, replace_viking
from skald.events.hagar import (
    AmbushEnded,
    ArrowsHealed,
    ArrowShot,
    ChestRobbed,
    CityPlundered,
    CrossroadsReached,
    DirectionsAnnounced,
    DragonFled,
    FateDrawn,
    FateShuffled,
    FeastCalled,
    FeastScored,
    GiftsJudged,
    LootBroughtHome,
    LootDealt,
    LootDropped,
    LootForced,
    LootJettisoned,
    LootRevealed,
    LootRobbed,
    MeadDrunk,
    OdinFlew,
    RoadBonus,
    RoadsideLootFound,
    RoadsideLootLeft,
    RoadsideLootTaken,
    ShipDocked,
    ShipSailed,
    StartChosen,
    SticksThrown,
    StormStruck,
    ThorPleased,
    TurnEnded,
    TurnSkipped,
    VikingBoarded,
    VikingsMet,
    VikingWalked,
)

replace = msgspec.structs.replace


def evolve(state: HagarState, event: Any) -> HagarState:
    """Apply one event; every event also advances the tick that keys chance labels."""
    return replace(_apply(state, event), tick=state.tick + 1)


def _apply(state: HagarState, event: Any) -> HagarState:
    reducer = _REDUCERS.get(type(event))
    return state if reducer is None else reducer(state, event)


def _start_chosen(state: HagarState, event: StartChosen) -> HagarState:
    seat, harbour = event.seat, event.harbour
    state = replace_viking(state, seat, at=harbour, ship=harbour, aboard=True, must="sail")
    done = seat == state.players - 1
    return replace(state, turn=0 if done else seat + 1, phase="throw" if done else "setup")


def _loot_dealt(state: HagarState, event: LootDealt) -> HagarState:
    dealt = dict(event.stacks.get())
    return replace(state, stacks=tuple(dealt.get(c, ()) for c in board().cities))


def _fate_shuffled(state: HagarState, event: FateShuffled) -> HagarState:
    discard = () if event.reason == "discard" else state.discard
    return replace(state, deck=event.deck.get(), discard=discard)


def _sticks_thrown(state: HagarState, event: SticksThrown) -> HagarState:
    thrown = Throw(
        seat=event.seat,
        faces=event.faces,
        points=event.points,
        waves=event.waves,
        lightning=event.lightning,
    )
    return replace(
        state,
        throw=thrown,
        phase="move",
        crossing=None,
        leg=_leg(state.crossing, event.points, event.waves, event.lightning),
    )


def _viking_walked(state: HagarState, event: VikingWalked) -> HagarState:
    state = replace_viking(state, event.seat, at=event.path[-1], aboard=False, must="")
    return replace(state, leg=None, phase="moved")


def _ship_sailed(state: HagarState, event: ShipSailed) -> HagarState:
    seat, path = event.seat, event.path
    at = path[-1] if event.aboard else state.vikings[seat].at
    state = replace_viking(state, seat, ship=path[-1], at=at, must="")
    return replace(state, leg=None, phase="moved")


def _ship_docked(state: HagarState, event: ShipDocked) -> HagarState:
    if not state.vikings[event.seat].aboard:
        return state
    return replace_viking(state, event.seat, must="sail" if event.home else "walk")


def _viking_boarded(state: HagarState, event: VikingBoarded) -> HagarState:
    viking = state.vikings[event.seat]
    return replace_viking(
        state, event.seat, at=viking.ship, aboard=True, must="sail", **_load(viking, event.loaded)
    )


def _loot_brought_home(state: HagarState, event: LootBroughtHome) -> HagarState:
    # Rules version 3 brings the ship's cargo home; logs of older versions counted
    # (and brought home) what the Viking carried too.
    viking = state.vikings[event.seat]
    carried_home = viking.carried if event.count > len(viking.cargo) else ()
    return replace_viking(
        state,
        event.seat,
        home=viking.home + viking.cargo + carried_home,
        cargo=(),
        carried=viking.carried[len(carried_home) :],
    )


def _crossroads_reached(state: HagarState, event: CrossroadsReached) -> HagarState:
    crossing = Crossing(space=event.space, mode=event.mode)
    return replace(state, crossing=crossing, phase="announce", leg=None)


def _directions_announced(state: HagarState, event: DirectionsAnnounced) -> HagarState:
    if state.crossing is None:
        return state
    crossing = replace(state.crossing, even=event.even, odd=event.odd)
    return replace(state, crossing=crossing, phase="throw")


def _storm_struck(state: HagarState, event: StormStruck) -> HagarState:
    return replace(
        state,
        leg=Leg(mode="sail", waves=event.waves, storm=True),
        phase="storm" if state.vikings[event.seat].cargo else "move",
    )


def _loot_jettisoned(state: HagarState, event: LootJettisoned) -> HagarState:
    cargo = state.vikings[event.seat].cargo
    slot = cargo.index(event.piece.get()) if event.slot is None else event.slot
    state = replace_viking(state, event.seat, cargo=cargo[:slot] + cargo[slot + 1 :])
    return replace(state, removed=(*state.removed, cargo[slot]), phase="move")


def _city_plundered(state: HagarState, event: CityPlundered) -> HagarState:
    left = list(state.stacks)
    index = board().cities.index(event.city)
    left[index] = left[index][1:]
    carried = (*state.vikings[event.seat].carried, event.piece.get())
    state = replace_viking(state, event.seat, carried=carried)
    return replace(state, stacks=tuple(left))


def _chest_robbed(state: HagarState, event: ChestRobbed) -> HagarState:
    carried = (*state.vikings[event.seat].carried, event.piece)
    state = replace_viking(state, event.seat, carried=carried, robbed_camp=True)
    return replace(state, camp=tuple(p for p in state.camp if p != event.piece))


def _roadside_loot_found(state: HagarState, event: RoadsideLootFound) -> HagarState:
    return replace(state, phase="roadside")


def _roadside_loot_left(state: HagarState, event: RoadsideLootLeft) -> HagarState:
    return replace(state, phase="moved")


def _roadside_loot_taken(state: HagarState, event: RoadsideLootTaken) -> HagarState:
    carried = (*state.vikings[event.seat].carried, event.piece.get())
    state = replace_viking(state, event.seat, carried=carried)
    return replace(_lay(state, event.space, state.lying(event.space)[1:]), phase="moved")


def _loot_dropped(state: HagarState, event: LootDropped) -> HagarState:
    state = replace_viking(state, event.seat, carried=())
    return _lay(state, event.space, event.pieces.get() + state.lying(event.space))


def _fate_drawn(state: HagarState, event: FateDrawn) -> HagarState:
    card, kind = event.card, event.kind
    keep = kind == "arrow"
    phase = "arrow" if kind == "arrow" else "odin" if kind == "odin" else "move"
    points = state.leg.points if state.leg else 0
    first = state.leg.first if state.leg else ""
    return replace(
        state,
        deck=state.deck[1:],
        card=card if keep else -1,
        discard=state.discard if keep else (*state.discard, card),
        phase=phase,
        leg=Leg(mode="walk", points=points, first=first),
    )


def _dragon_fled(state: HagarState, event: DragonFled) -> HagarState:
    ship = event.ship
    state = replace_viking(state, event.seat, at=ship, aboard=True)
    points = 0 if board().kind(ship) == "sea" or state.leg is None else state.leg.points
    return replace(state, leg=Leg(mode="walk", points=points))


def _odin_flew(state: HagarState, event: OdinFlew) -> HagarState:
    seat, viking = event.seat, state.vikings[event.seat]
    if event.to == "ship":
        state = replace_viking(
            state, seat, at=viking.ship, aboard=True, **_load(viking, event.loaded)
        )
    else:
        state = replace_viking(state, seat, at=event.to, aboard=False)
    return replace(state, leg=None, phase="moved")


def _arrow_shot(state: HagarState, event: ArrowShot) -> HagarState:
    arrows = (*state.vikings[event.target].arrows, event.card)
    state = replace_viking(state, event.target, arrows=arrows)
    return replace(state, card=-1, phase="move")


def _mead_drunk(state: HagarState, event: MeadDrunk) -> HagarState:
    return replace_viking(state, event.seat, skip=state.vikings[event.seat].skip + 1)


def _thor_pleased(state: HagarState, event: ThorPleased) -> HagarState:
    return replace_viking(state, event.seat, extra=True)


def _road_bonus(state: HagarState, event: RoadBonus) -> HagarState:
    if state.leg is None:
        return state
    return replace(state, leg=replace(state.leg, points=state.leg.points + event.points))


def _arrows_healed(state: HagarState, event: ArrowsHealed) -> HagarState:
    return replace_viking(state, event.seat, arrows=())


def _vikings_met(state: HagarState, event: VikingsMet) -> HagarState:
    return replace(state, targets=event.others, phase="ambush")


def _loot_robbed(state: HagarState, event: LootRobbed) -> HagarState:
    piece, victim, seat, at_sea = event.piece.get(), event.victim, event.seat, event.at_sea
    if event.from_cargo is None:
        return _to_crossing(_transfer(state, victim, seat, at_sea, event.slot, piece))
    # Rules version 5 on: the piece leaves the field the event names (its id is unique).
    source = state.vikings[victim]
    if event.from_cargo:
        state = replace_viking(state, victim, cargo=_without(source.cargo, piece))
    else:
        state = replace_viking(state, victim, carried=_without(source.carried, piece))
    return _to_crossing(_receive(state, seat, at_sea, piece))


def _loot_forced(state: HagarState, event: LootForced) -> HagarState:
    piece = event.piece.get()
    return _to_crossing(_transfer(state, event.seat, event.victim, event.at_sea, event.slot, piece))


def _ambush_ended(state: HagarState, event: AmbushEnded) -> HagarState:
    return _to_crossing(state)


def _turn_ended(state: HagarState, event: TurnEnded) -> HagarState:
    seat, nxt, again = event.seat, event.next, event.again
    if again:
        state = replace_viking(state, seat, extra=False)
    return replace(
        state,
        turn=nxt,
        phase="throw",
        leg=None,
        crossing=None,
        targets=(),
        card=-1,
        rounds=state.rounds + (nxt <= seat and not again),
    )


def _turn_skipped(state: HagarState, event: TurnSkipped) -> HagarState:
    return replace_viking(state, event.seat, skip=state.vikings[event.seat].skip - 1)


def _feast_called(state: HagarState, event: FeastCalled) -> HagarState:
    return replace(state, phase="over", leg=None, crossing=None, targets=(), called=event.reason)


def _loot_revealed(state: HagarState, event: LootRevealed) -> HagarState:
    return replace(state, revealed=True)


def _gifts_judged(state: HagarState, event: GiftsJudged) -> HagarState:
    judged = zip(event.gifts, event.points, strict=True)
    return replace(state, sympathy=(*state.sympathy, *judged))


def _feast_scored(state: HagarState, event: FeastScored) -> HagarState:
    result = Result(scores=event.scores, ranking=event.ranking, tiebreaks=event.tiebreaks)
    return replace(state, result=result)


# One reducer per event type, in the order of play (a dict lookup: a match statement
# tried its cases in turn, about 0.1 us each).
_REDUCERS: dict[type, Callable[[HagarState, Any], HagarState]] = {
    StartChosen: _start_chosen,
    LootDealt: _loot_dealt,
    FateShuffled: _fate_shuffled,
    SticksThrown: _sticks_thrown,
    VikingWalked: _viking_walked,
    ShipSailed: _ship_sailed,
    ShipDocked: _ship_docked,
    VikingBoarded: _viking_boarded,
    LootBroughtHome: _loot_brought_home,
    CrossroadsReached: _crossroads_reached,
    DirectionsAnnounced: _directions_announced,
    StormStruck: _storm_struck,
    LootJettisoned: _loot_jettisoned,
    CityPlundered: _city_plundered,
    ChestRobbed: _chest_robbed,
    RoadsideLootFound: _roadside_loot_found,
    RoadsideLootLeft: _roadside_loot_left,
    RoadsideLootTaken: _roadside_loot_taken,
    LootDropped: _loot_dropped,
    FateDrawn: _fate_drawn,
    DragonFled: _dragon_fled,
    OdinFlew: _odin_flew,
    ArrowShot: _arrow_shot,
    MeadDrunk: _mead_drunk,
    ThorPleased: _thor_pleased,
    RoadBonus: _road_bonus,
    ArrowsHealed: _arrows_healed,
    VikingsMet: _vikings_met,
    LootRobbed: _loot_robbed,
    LootForced: _loot_forced,
    AmbushEnded: _ambush_ended,
    TurnEnded: _turn_ended,
    TurnSkipped: _turn_skipped,
    FeastCalled: _feast_called,
    LootRevealed: _loot_revealed,
    GiftsJudged: _gifts_judged,
    FeastScored: _feast_scored,
}


def _leg(crossing: Crossing | None, points: int, waves: int, lightning: int) -> Leg:
    if crossing is None or not crossing.even:
        return Leg(mode="any", points=points, waves=waves, lightning=lightning > 0)
    count = points if crossing.mode == "walk" else waves
    first = crossing.even if count % 2 == 0 else crossing.odd
    if crossing.mode == "walk":
        return Leg(mode="walk", points=count, first=first, lightning=lightning > 0)
    return Leg(mode="sail", waves=count, first=first)


def _to_crossing(state: HagarState) -> HagarState:
    """After an ambush on a crossroads the mover announces (elsewhere the turn ends)."""
    if state.crossing is None:
        return state
    return replace(state, phase="announce", targets=())


def _load(viking: Viking, loaded: int) -> dict[str, tuple[int, ...]]:
    return {"carried": viking.carried[loaded:], "cargo": viking.cargo + viking.carried[:loaded]}


def _lay(state: HagarState, space: str, pieces: tuple[int, ...]) -> HagarState:
    others = tuple((s, p) for s, p in state.roadside if s != space)
    roadside = tuple(sorted((*others, (space, pieces)) if pieces else others))
    return replace(state, roadside=roadside)


def pieces_in_reach(viking: Viking, at_sea: bool) -> tuple[int, ...]:
    """What an ambush can touch: the cargo and carried piece at sea, the carried on land."""
    return viking.cargo + viking.carried if at_sea else viking.carried


def _without(held: tuple[int, ...], piece: int) -> tuple[int, ...]:
    index = held.index(piece)
    return held[:index] + held[index + 1 :]


def _receive(state: HagarState, taker: int, at_sea: bool, piece: int) -> HagarState:
    """The taker of an ambush's piece: onto his ship at sea, into his hands on land."""
    target = state.vikings[taker]
    if at_sea:
        return replace_viking(state, taker, cargo=(*target.cargo, piece))
    return replace_viking(state, taker, carried=(*target.carried, piece))


def _transfer(
    state: HagarState, giver: int, taker: int, at_sea: bool, slot: int | None, piece: int
) -> HagarState:
    """Move `piece` (found by its id) from the giver's reach to the taker (version 1 logs
    name its `slot`)."""
    source = state.vikings[giver]
    reach = pieces_in_reach(source, at_sea)
    slot = reach.index(piece) if slot is None else slot
    piece = reach[slot]
    if at_sea and slot < len(source.cargo):
        state = replace_viking(state, giver, cargo=source.cargo[:slot] + source.cargo[slot + 1 :])
    else:
        index = slot - len(source.cargo) if at_sea else slot
        state = replace_viking(
            state, giver, carried=source.carried[:index] + source.carried[index + 1 :]
        )
    return _receive(state, taker, at_sea, piece)
