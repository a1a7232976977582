"""Checking a command and deriving its events: the only place Hägar's rules are checked.

A `Batch` applies each event as it is derived, so later steps see the state they act on
and every chance label (`throw/<tick>`, `ambush/<tick>`, `seal/<tick>`...) is keyed by the
tick of the event it produces: stable on replay, unchanged by undo. Consequences follow
the rulebook: plunder on entering a city, loading on reaching the ship, unloading at home
(where arrows are healed and shuffled back), storms, crossroads, ambushes, fate cards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from core.errors import IllegalMove
from core.hagar import choices
from core.hagar.components import BOARD, CARDS, STICKS
from core.hagar.evolve import evolve, pieces_in_reach
from core.hagar.feast import feast_reason, judged_gifts, ranking, round_limit, score
from core.hagar.notation import (
    Announce,
    Command,
    Draw,
    Feast,
    Force,
    Jettison,
    Odin,
    Rob,
    Sail,
    Shoot,
    Spare,
    Start,
    Throw,
    Walk,
    format_command,
)
from core.hagar.paths import can_loot
from core.hagar.state import HagarState
from core.rng import Rng
from events.hagar import (
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
    Holding,
    LootBroughtHome,
    LootDropped,
    LootForced,
    LootJettisoned,
    LootRevealed,
    LootRobbed,
    MeadDrunk,
    OdinFlew,
    RoadBonus,
    RoadsideLootTaken,
    ShipDocked,
    ShipSailed,
    StartChosen,
    SticksThrown,
    StormStruck,
    ThorPleased,
    TieThrown,
    TurnEnded,
    TurnSkipped,
    UncertaintyThrown,
    VikingBoarded,
    VikingsMet,
    VikingWalked,
)
from events.secret import Secret, seal

SHIP_HOLDS = 3
PHASE_OF: dict[type, str] = {
    Start: "setup", Throw: "throw", Feast: "throw", Walk: "move", Sail: "move", Draw: "move",
    Shoot: "arrow", Odin: "odin", Jettison: "storm", Announce: "announce", Rob: "ambush",
    Force: "ambush", Spare: "ambush",
}
WAITING = {
    "setup": "each Viking first chooses a home harbour ('start SPACE')",
    "throw": "the turn starts with 'throw' (or 'feast')",
    "move": "the sticks are thrown: 'walk SPACE', 'sail SPACE' or 'draw'",
    "arrow": "the drawn arrow must be handed on: 'shoot SEAT'",
    "odin": "Odin is waiting: 'odin ship' or 'odin CITY'",
    "storm": "the storm takes one piece of cargo: 'jettison SLOT'",
    "announce": "at the crossroads: 'announce EVEN ODD'",
    "ambush": "Vikings met: 'rob SEAT', 'force SEAT SLOT' or 'spare'",
    "over": "the feast is over",
}


class Batch:
    """Events derived so far, and the state they lead to."""

    def __init__(self, state: HagarState, rng: Rng) -> None:
        self.state = state
        self.rng = rng
        self.events: list[Any] = []

    def add(self, event: Any) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)

    def label(self, kind: str) -> str:
        return f"{kind}/{self.state.tick}"

    def seal(self, value: Any, audience: set[int]) -> Secret[Any]:
        return seal(value, frozenset(audience), self.rng.salt(self.label("seal")))

    def throw_faces(self, label: str, sticks: int = 2) -> tuple[int, ...]:
        return tuple(self.rng.draw(f"{label}/{i}", len(STICKS[i % 2].faces))
                     for i in range(sticks))


def where(state: HagarState, seat: int) -> str:
    """The position, for error messages."""
    viking = state.vikings[seat]
    place = f"aboard at {viking.ship}" if viking.aboard else f"on foot at {viking.at}"
    ship = "" if viking.aboard else f", ship at {viking.ship}"
    leg = state.leg
    thrown = f", {leg.points} points / {leg.waves} waves" if leg else ""
    return f"seat {seat} {place}{ship}, phase {state.phase}{thrown}"


def illegal(state: HagarState, seat: int, command: Command, reason: str) -> IllegalMove:
    return IllegalMove(f"{format_command(command)!r} ({where(state, seat)}): {reason}")


def decide(state: HagarState, seat: int, command: Command, rng: Rng) -> tuple[Any, ...]:
    """Validate `command` for `seat`; return its events or raise IllegalMove."""
    phase = PHASE_OF[type(command)]
    if state.phase != phase:
        raise illegal(state, seat, command, f"not now: {WAITING.get(state.phase, '')}")
    batch = Batch(state, rng)
    HANDLERS[type(command)](batch, seat, command)
    return tuple(batch.events)


def _check(batch: Batch, seat: int, command: Command, allowed: list[Command], why: str
           ) -> None:
    if command not in allowed:
        options = ", ".join(format_command(c) for c in allowed[:12]) or "none"
        raise illegal(batch.state, seat, command, f"{why} (legal: {options})")


# -- turn start ----------------------------------------------------------------------------


def _start(batch: Batch, seat: int, command: Start) -> None:
    if command.harbour not in BOARD.homes:
        raise illegal(batch.state, seat, command, f"start from a home harbour: "
                      f"{', '.join(BOARD.homes)}")
    batch.add(StartChosen(seat=seat, harbour=command.harbour))


def _throw(batch: Batch, seat: int, command: Throw) -> None:
    if round_limit(batch.state) and batch.state.crossing is None:
        raise illegal(batch.state, seat, command, "the round limit is reached: call the feast")
    faces = batch.throw_faces(batch.label("throw"))
    shown = [STICKS[i].faces[f] for i, f in enumerate(faces)]
    batch.add(SticksThrown(seat=seat, faces=(faces[0], faces[1]),
                           points=sum(f.points for f in shown), waves=sum(f.waves for f in shown),
                           lightning=sum(f.lightning for f in shown)))
    _settle(batch, seat)


def _feast(batch: Batch, seat: int, command: Feast) -> None:
    reason = feast_reason(batch.state, seat) if batch.state.crossing is None else ""
    if not reason:
        raise illegal(batch.state, seat, command, f"the feast needs "
                      f"{batch.state.options.feast_at} pieces home, or nothing left to plunder")
    batch.add(FeastCalled(seat=seat, reason=reason))
    vikings = batch.state.vikings
    batch.add(LootRevealed(holdings=tuple(
        Holding(seat=s, home=v.home, cargo=v.cargo, carried=v.carried)
        for s, v in enumerate(vikings))))
    for s, viking in enumerate(vikings):
        gifts = judged_gifts(viking)
        if gifts:
            label = batch.label("gifts")
            points = tuple(STICKS[0].faces[batch.throw_faces(f"{label}/{i}", 1)[0]].points
                           for i in range(len(gifts)))
            batch.add(GiftsJudged(seat=s, gifts=gifts, points=points))
    sympathy = dict(batch.state.sympathy)
    scores = tuple(score(v, sympathy) for v in vikings)
    tiebreaks = [0] * len(scores)
    if batch.state.options.uncertainties == "throw":
        for group in ranking(scores, tuple(tiebreaks)):
            if len(group) > 1:
                label = batch.label("tie")
                points = tuple(_points(batch.throw_faces(f"{label}/{s}")) for s in group)
                batch.add(TieThrown(seats=group, points=points))
                for s, p in zip(group, points, strict=True):
                    tiebreaks[s] = p
    batch.add(FeastScored(scores=scores, ranking=ranking(scores, tuple(tiebreaks)),
                          tiebreaks=tuple(tiebreaks)))


def _points(faces: tuple[int, ...]) -> int:
    return sum(STICKS[i % 2].faces[f].points for i, f in enumerate(faces))


# -- moving --------------------------------------------------------------------------------


def _walk(batch: Batch, seat: int, command: Walk) -> None:
    state = batch.state
    blocker = choices.walk_blocker(state, seat)
    if blocker:
        raise illegal(state, seat, command, blocker)
    if choices.may_draw(state, seat):
        raise illegal(state, seat, command, "a lightning bolt: 'draw' a fate card first")
    _check(batch, seat, command, choices.move_choices(state, seat),
           f"{command.to} cannot be reached on foot with this throw")
    assert state.leg is not None
    path = choices.walk_targets(state, seat)[command.to]
    _walked(batch, seat, path, state.leg.points)


def _sail(batch: Batch, seat: int, command: Sail) -> None:
    state = batch.state
    blocker = choices.sail_blocker(state, seat)
    if blocker:
        raise illegal(state, seat, command, blocker)
    _check(batch, seat, command, choices.move_choices(state, seat),
           f"the ship cannot reach {command.to} with this throw")
    assert state.leg is not None
    _sailed(batch, seat, choices.sail_targets(state, seat)[command.to], state.leg.storm)


def _walked(batch: Batch, seat: int, path: tuple[str, ...], count: int) -> None:
    batch.add(VikingWalked(seat=seat, path=path))
    state, end = batch.state, path[-1]
    viking = state.vikings[seat]
    kind = BOARD.kind(end)
    if kind == "city" and can_loot(viking) and state.stack(end):
        _plunder(batch, seat, end)
        _end_turn(batch, seat)
        return
    if len(path) - 1 == count and can_loot(viking):
        _pick_up(batch, seat, end)
    if kind == "harbour" and viking.ship == end:
        _board(batch, seat)
        _end_turn(batch, seat)
    elif BOARD.spaces[end].crossroads:
        _crossroads(batch, seat, end, "walk")
    else:
        _meet_or_end(batch, seat)


def _pick_up(batch: Batch, seat: int, space: str) -> None:
    """Reached exactly: a chest at the camp (once per Viking), else loot lying there.

    Rulebook: roadside loot "may be taken along by any Viking who reaches that space
    directly with the matching point number" -- on any space, a crossroads or his own
    ship's harbour too (there he takes it, then boards and loads it)."""
    state = batch.state
    viking = state.vikings[seat]
    if BOARD.kind(space) == "camp" and not viking.robbed_camp and state.camp:
        batch.add(ChestRobbed(seat=seat, piece=state.camp[0]))
    elif state.lying(space):
        piece = batch.seal(state.lying(space)[0], {seat})
        batch.add(RoadsideLootTaken(seat=seat, space=space, piece=piece))


def _sailed(batch: Batch, seat: int, path: tuple[str, ...], drifting: bool) -> None:
    aboard = batch.state.vikings[seat].aboard
    batch.add(ShipSailed(seat=seat, path=path, aboard=aboard))
    state, end = batch.state, path[-1]
    viking = state.vikings[seat]
    kind = BOARD.kind(end)
    if drifting:
        _meet_or_end(batch, seat) if aboard else _end_turn(batch, seat)
    elif kind == "home":
        _home(batch, seat, end)
    elif kind == "harbour":
        batch.add(ShipDocked(seat=seat, harbour=end))
        if not viking.aboard and viking.at == end:
            _board(batch, seat)
        _end_turn(batch, seat)
    elif BOARD.spaces[end].storm:
        waves = state.throw.waves if state.throw else 0
        batch.add(StormStruck(seat=seat, space=end, waves=waves))
        _settle(batch, seat)
    elif BOARD.spaces[end].crossroads:
        _crossroads(batch, seat, end, "sail")
    elif aboard:
        _meet_or_end(batch, seat)
    else:
        _end_turn(batch, seat)


def _home(batch: Batch, seat: int, harbour: str) -> None:
    batch.add(ShipDocked(seat=seat, harbour=harbour, home=True))
    viking = batch.state.vikings[seat]
    if viking.cargo or viking.carried:
        batch.add(LootBroughtHome(seat=seat, count=len(viking.cargo) + len(viking.carried)))
    _heal(batch, seat)
    _end_turn(batch, seat)


def _heal(batch: Batch, seat: int) -> None:
    arrows = batch.state.vikings[seat].arrows
    if not arrows:
        return
    batch.add(ArrowsHealed(seat=seat, cards=arrows))
    label = batch.label("shuffle")
    deck = batch.rng.shuffle(label, (*batch.state.deck, *arrows))
    batch.add(FateShuffled(deck=batch.seal(deck, set()), reason="arrows", returned=arrows))


def _board(batch: Batch, seat: int) -> None:
    viking = batch.state.vikings[seat]
    loaded = min(len(viking.carried), max(0, SHIP_HOLDS - len(viking.cargo)))
    batch.add(VikingBoarded(seat=seat, harbour=viking.ship, loaded=loaded))


def _plunder(batch: Batch, seat: int, city: str) -> None:
    piece = batch.seal(batch.state.stack(city)[0], {seat})
    batch.add(CityPlundered(seat=seat, city=city, piece=piece))


def _crossroads(batch: Batch, seat: int, space: str, mode: Literal["walk", "sail"]) -> None:
    """Reached a crossroads: an ambush there first, if any, then the announcement."""
    batch.add(CrossroadsReached(seat=seat, space=space, mode=mode))
    if not _ambush(batch, seat):
        _announce_or_end(batch, seat)


def _announce_or_end(batch: Batch, seat: int) -> None:
    if not choices.crossing_directions(batch.state, seat):
        _end_turn(batch, seat)


def _meet_or_end(batch: Batch, seat: int) -> None:
    if not _ambush(batch, seat):
        _end_turn(batch, seat)


def _ambush(batch: Batch, seat: int) -> bool:
    """Ambush: a Viking who ends his move on another, on land outside harbours and cities
    (a crossroads too) or at sea, may attack; True when he now decides how."""
    state = batch.state
    viking = state.vikings[seat]
    others: tuple[int, ...] = ()
    if not viking.wounded:
        if viking.aboard and BOARD.kind(viking.ship) == "sea":
            others = state.aboard_at(viking.ship, but=seat)
        elif not viking.aboard and BOARD.kind(viking.at) in ("road", "camp"):
            others = state.on_foot_at(viking.at, but=seat)
    if len(choices.ambush_choices(state, seat, others)) > 1:
        batch.add(VikingsMet(seat=seat, space=viking.ship if viking.aboard else viking.at,
                             others=others))
        return True
    return False


def _after_ambush(batch: Batch, seat: int) -> None:
    if batch.state.crossing is not None:
        _announce_or_end(batch, seat)
    else:
        _end_turn(batch, seat)


def _settle(batch: Batch, seat: int) -> None:
    """End the turn when the leg leaves nothing to do."""
    if batch.state.phase == "move" and not choices.move_choices(batch.state, seat):
        _end_turn(batch, seat)


def _end_turn(batch: Batch, seat: int) -> None:
    state = batch.state
    if state.vikings[seat].extra:
        batch.add(TurnEnded(seat=seat, next=seat, again=True))
        return
    following = seat
    while True:
        following = (following + 1) % state.players
        if batch.state.vikings[following].skip <= 0:
            break
        batch.add(TurnSkipped(seat=following))
    batch.add(TurnEnded(seat=seat, next=following))


# -- fate ----------------------------------------------------------------------------------


def _draw(batch: Batch, seat: int, command: Draw) -> None:
    if not choices.may_draw(batch.state, seat):
        raise illegal(batch.state, seat, command, "a fate card is drawn only after a "
                      "lightning bolt, by a Viking moving on land")
    state = batch.state
    if not state.deck and state.discard:
        deck = batch.rng.shuffle(batch.label("shuffle"), state.discard)
        batch.add(FateShuffled(deck=batch.seal(deck, set()), reason="discard",
                               returned=state.discard))
    if not batch.state.deck:
        _settle(batch, seat)
        return
    card = batch.state.deck[0]
    kind = CARDS[card].kind
    batch.add(FateDrawn(seat=seat, card=card, kind=kind))
    FATES[kind](batch, seat)
    _settle(batch, seat)


def _drop(batch: Batch, seat: int) -> None:
    viking = batch.state.vikings[seat]
    if viking.carried:
        batch.add(LootDropped(seat=seat, space=viking.at, count=len(viking.carried),
                              pieces=batch.seal(viking.carried, {seat})))


def _dragon(batch: Batch, seat: int) -> None:
    _drop(batch, seat)
    batch.add(DragonFled(seat=seat, ship=batch.state.vikings[seat].ship))


def _healer(batch: Batch, seat: int) -> None:
    _heal(batch, seat)


FATES: dict[str, Callable[[Batch, int], None]] = {
    "dragon": _dragon,
    "odin": lambda batch, seat: None,
    "arrow": lambda batch, seat: None,
    "mead": lambda batch, seat: batch.add(MeadDrunk(seat=seat)),
    "thor": lambda batch, seat: batch.add(ThorPleased(seat=seat)),
    "healer": _healer,
    "heavy": _drop,
    "road": lambda batch, seat: batch.add(RoadBonus(seat=seat, points=2)),
}


def _shoot(batch: Batch, seat: int, command: Shoot) -> None:
    _check(batch, seat, command, choices.shoot_choices(batch.state, seat),
           "an arrow goes to a fellow player")
    batch.add(ArrowShot(seat=seat, target=command.target, card=batch.state.card))
    _settle(batch, seat)


def _odin(batch: Batch, seat: int, command: Odin) -> None:
    _check(batch, seat, command, choices.odin_choices(batch.state, seat),
           "Odin carries you onto your ship or into the next city with loot")
    to = command.to
    if to == "city":
        cities = choices.nearest_cities(batch.state, seat)
        to = cities[batch.rng.draw(batch.label("uncertain"), len(cities))]
        batch.add(UncertaintyThrown(seat=seat, question="odin city", options=cities, chosen=to))
    viking = batch.state.vikings[seat]
    if to == "ship":
        loaded = min(len(viking.carried), max(0, SHIP_HOLDS - len(viking.cargo)))
        batch.add(OdinFlew(seat=seat, to="ship", loaded=loaded))
    else:
        batch.add(OdinFlew(seat=seat, to=to))
        _plunder(batch, seat, to)
    _end_turn(batch, seat)


# -- storm, crossroads, ambush -------------------------------------------------------------


def _jettison(batch: Batch, seat: int, command: Jettison) -> None:
    _check(batch, seat, command, choices.jettison_choices(batch.state, seat),
           "choose a piece of your cargo by its slot")
    piece = batch.seal(batch.state.vikings[seat].cargo[command.slot - 1], {seat})
    batch.add(LootJettisoned(seat=seat, piece=piece))
    _settle(batch, seat)


def _announce(batch: Batch, seat: int, command: Announce) -> None:
    _check(batch, seat, command, choices.announce_choices(batch.state, seat),
           "announce two different neighbouring spaces you could enter")
    batch.add(DirectionsAnnounced(seat=seat, even=command.even, odd=command.odd))


def _rob(batch: Batch, seat: int, command: Rob) -> None:
    _check(batch, seat, command, choices.ambush_choices(batch.state, seat),
           "no loot to take from that Viking, or no room for it")
    at_sea = choices.ambush_at_sea(batch.state, seat)
    reach = pieces_in_reach(batch.state.vikings[command.victim], at_sea)
    slot = batch.rng.draw(batch.label("ambush"), len(reach))
    piece = batch.seal(reach[slot], {seat, command.victim})
    batch.add(LootRobbed(seat=seat, victim=command.victim, at_sea=at_sea, piece=piece))
    _after_ambush(batch, seat)


def _force(batch: Batch, seat: int, command: Force) -> None:
    _check(batch, seat, command, choices.ambush_choices(batch.state, seat),
           "loot is forced only on a Viking who carries none, from your own slots")
    at_sea = choices.ambush_at_sea(batch.state, seat)
    own = pieces_in_reach(batch.state.vikings[seat], at_sea)
    piece = batch.seal(own[command.slot - 1], {seat, command.victim})
    batch.add(LootForced(seat=seat, victim=command.victim, at_sea=at_sea, piece=piece))
    _after_ambush(batch, seat)


def _spare(batch: Batch, seat: int, command: Spare) -> None:
    if batch.state.crossing is not None:
        batch.add(AmbushEnded(seat=seat))
    _after_ambush(batch, seat)


HANDLERS: dict[type, Callable[[Batch, int, Any], None]] = {
    Start: _start, Throw: _throw, Feast: _feast, Walk: _walk, Sail: _sail, Draw: _draw,
    Shoot: _shoot, Odin: _odin, Jettison: _jettison, Announce: _announce, Rob: _rob,
    Force: _force, Spare: _spare,
}
