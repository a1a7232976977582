"""The Hägar reducer: one small case per event; pure, total, trusting its input.

It keeps what the rules in `decide` decided: the throw and the move it allows (rulebook
"On Raiding Expeditions", "Harbours": surplus expires on docking or loading), plunder and
loot lying by the road ("Iron Plundering Rules"), the collector's card's three fields
("Transporting the Loot": carried, on the ship and home), ambush transfers ("Ambush"),
storms and crossroads ("Assorted Misfortunes and Divine Pronouncements"), the fate deck
and its cards ("Fate Lightning Bolts"), and the feast's result ("Loot Feast"). Every
event also advances the tick that keys chance labels.
"""

from __future__ import annotations

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
    v = state.vikings
    match event:
        case StartChosen(seat=seat, harbour=harbour):
            state = replace_viking(state, seat, at=harbour, ship=harbour, aboard=True, must="sail")
            done = seat == state.players - 1
            return replace(state, turn=0 if done else seat + 1, phase="throw" if done else "setup")
        case LootDealt(stacks=stacks):
            dealt = dict(stacks.get())
            return replace(state, stacks=tuple(dealt.get(c, ()) for c in board().cities))
        case FateShuffled(deck=deck, reason=reason):
            return replace(
                state, deck=deck.get(), discard=() if reason == "discard" else state.discard
            )
        case SticksThrown(seat=seat, faces=faces, points=points, waves=waves, lightning=lightning):
            thrown = Throw(seat=seat, faces=faces, points=points, waves=waves, lightning=lightning)
            return replace(
                state,
                throw=thrown,
                phase="move",
                crossing=None,
                leg=_leg(state.crossing, points, waves, lightning),
            )
        case VikingWalked(seat=seat, path=path):
            state = replace_viking(state, seat, at=path[-1], aboard=False, must="")
            return replace(state, leg=None, phase="moved")
        case ShipSailed(seat=seat, path=path, aboard=aboard):
            at = path[-1] if aboard else v[seat].at
            state = replace_viking(state, seat, ship=path[-1], at=at, must="")
            return replace(state, leg=None, phase="moved")
        case ShipDocked(seat=seat, home=home):
            if not v[seat].aboard:
                return state
            return replace_viking(state, seat, must="sail" if home else "walk")
        case VikingBoarded(seat=seat, loaded=loaded):
            return replace_viking(
                state, seat, at=v[seat].ship, aboard=True, must="sail", **_load(v[seat], loaded)
            )
        case LootBroughtHome(seat=seat, count=count):
            # Rules version 3 brings the ship's cargo home; logs of older versions counted
            # (and brought home) what the Viking carried too.
            viking = v[seat]
            carried_home = viking.carried if count > len(viking.cargo) else ()
            return replace_viking(
                state,
                seat,
                home=viking.home + viking.cargo + carried_home,
                cargo=(),
                carried=viking.carried[len(carried_home) :],
            )
        case CrossroadsReached(space=space, mode=mode):
            return replace(
                state, crossing=Crossing(space=space, mode=mode), phase="announce", leg=None
            )
        case DirectionsAnnounced(even=even, odd=odd) if state.crossing is not None:
            return replace(
                state, crossing=replace(state.crossing, even=even, odd=odd), phase="throw"
            )
        case StormStruck(seat=seat, waves=waves):
            return replace(
                state,
                leg=Leg(mode="sail", waves=waves, storm=True),
                phase="storm" if v[seat].cargo else "move",
            )
        case LootJettisoned(seat=seat, slot=slot, piece=piece):
            cargo = v[seat].cargo
            slot = cargo.index(piece.get()) if slot is None else slot
            state = replace_viking(state, seat, cargo=cargo[:slot] + cargo[slot + 1 :])
            return replace(state, removed=(*state.removed, cargo[slot]), phase="move")
        case CityPlundered(seat=seat, city=city, piece=piece):
            left = list(state.stacks)
            index = board().cities.index(city)
            left[index] = left[index][1:]
            state = replace_viking(state, seat, carried=(*v[seat].carried, piece.get()))
            return replace(state, stacks=tuple(left))
        case ChestRobbed(seat=seat, piece=piece):
            state = replace_viking(state, seat, carried=(*v[seat].carried, piece), robbed_camp=True)
            return replace(state, camp=tuple(p for p in state.camp if p != piece))
        case RoadsideLootFound():
            return replace(state, phase="roadside")
        case RoadsideLootLeft():
            return replace(state, phase="moved")
        case RoadsideLootTaken(seat=seat, space=space, piece=piece):
            state = replace_viking(state, seat, carried=(*v[seat].carried, piece.get()))
            return replace(_lay(state, space, state.lying(space)[1:]), phase="moved")
        case LootDropped(seat=seat, space=space, pieces=pieces):
            state = replace_viking(state, seat, carried=())
            return _lay(state, space, pieces.get() + state.lying(space))
        case FateDrawn(card=card, kind=kind):
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
        case DragonFled(seat=seat, ship=ship):
            state = replace_viking(state, seat, at=ship, aboard=True)
            points = 0 if board().kind(ship) == "sea" or state.leg is None else state.leg.points
            return replace(state, leg=Leg(mode="walk", points=points))
        case OdinFlew(seat=seat, to=to, loaded=loaded):
            if to == "ship":
                state = replace_viking(
                    state, seat, at=v[seat].ship, aboard=True, **_load(v[seat], loaded)
                )
            else:
                state = replace_viking(state, seat, at=to, aboard=False)
            return replace(state, leg=None, phase="moved")
        case ArrowShot(target=target, card=card):
            state = replace_viking(state, target, arrows=(*v[target].arrows, card))
            return replace(state, card=-1, phase="move")
        case MeadDrunk(seat=seat):
            return replace_viking(state, seat, skip=v[seat].skip + 1)
        case ThorPleased(seat=seat):
            return replace_viking(state, seat, extra=True)
        case RoadBonus(points=points) if state.leg is not None:
            return replace(state, leg=replace(state.leg, points=state.leg.points + points))
        case ArrowsHealed(seat=seat):
            return replace_viking(state, seat, arrows=())
        case VikingsMet(others=others):
            return replace(state, targets=others, phase="ambush")
        case LootRobbed(seat=seat, victim=victim, at_sea=at_sea, slot=slot, piece=piece):
            return _to_crossing(_transfer(state, victim, seat, at_sea, slot, piece.get()))
        case LootForced(seat=seat, victim=victim, at_sea=at_sea, slot=slot, piece=piece):
            return _to_crossing(_transfer(state, seat, victim, at_sea, slot, piece.get()))
        case AmbushEnded():
            return _to_crossing(state)
        case TurnEnded(seat=seat, next=nxt, again=again):
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
        case TurnSkipped(seat=seat):
            return replace_viking(state, seat, skip=v[seat].skip - 1)
        case FeastCalled(reason=reason):
            return replace(state, phase="over", leg=None, crossing=None, targets=(), called=reason)
        case LootRevealed():
            return replace(state, revealed=True)
        case GiftsJudged(gifts=gifts, points=points):
            return replace(state, sympathy=(*state.sympathy, *zip(gifts, points, strict=True)))
        case FeastScored(scores=scores, ranking=ranking, tiebreaks=tiebreaks):
            return replace(
                state, result=Result(scores=scores, ranking=ranking, tiebreaks=tiebreaks)
            )
    return state


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


def _transfer(
    state: HagarState, giver: int, taker: int, at_sea: bool, slot: int | None, piece: int
) -> HagarState:
    """Move `piece` from the giver's reach to the taker (version 1 logs name its `slot`)."""
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
    target = state.vikings[taker]
    if at_sea:
        return replace_viking(state, taker, cargo=(*target.cargo, piece))
    return replace_viking(state, taker, carried=(*target.carried, piece))
