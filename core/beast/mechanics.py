"""The map-level mechanics the effect engine builds on: where a hand may step, what it
may attack, hidden steps and trails, revealing, traps, damage and deaths (the geometry
itself is `board`).

Rulebook sections: Beast movement (the movement deck, No Movement), Hunter movement &
trails, Revealing, Attacking, Player Death, Watchtowers, Traps. The movement deck holds
ten of each direction and eight No Movement cards (reconstructed split of the 48).
Token supplies (trails, grudges) are limited as core/beast/supply.py says; wounds are not.
"""

from __future__ import annotations

from skald.core.beast.data import Effect, pieces
from skald.core.beast.state import BEAST, BeastState, Frame, Tx
from skald.core.beast.supply import gain_grudges, trails_left
from skald.events.beast import (
    BeastMoved,
    BeastRestored,
    BeastRevealed,
    Damaged,
    HunterLooted,
    HunterMoved,
    Killed,
    Step,
    TrailsPlaced,
    TrapTriggered,
)

MOVEMENT_DECK = {"N": 10, "E": 10, "S": 10, "W": 10, "X": 8}
TRAPS_PER_ZONE = 3
NO_CHOICE = ("reveal", "transform", "grudge", "power", "heal", "watchtower", "divine", "draw")

# -- where things are ------------------------------------------------------------------


def bound(state: BeastState, frame: Frame) -> frozenset[str] | None:
    """The locations a zone-bound card's effects may reach (None: the card is not bound).

    Rulebook "Zone prerequisites": "Whenever you play a card that has the word zone on it,
    the effects on that card are bound within the zone you are in at the time the card is
    played." Every effect of such a card, not only the one whose text says zone: its
    steps, the targets of its attacks and searches, where its summons go and act, what it
    transforms."""
    if not any(e.zone for e in frame.effects):
        return None
    return frozenset(loc for z in frame.zones for loc in state.board.zones[z])


def within_bound(state: BeastState, frame: Frame, places: tuple[str, ...]) -> tuple[str, ...]:
    """`places` that a (possibly zone-bound) card's effects may reach, in order."""
    allowed = bound(state, frame)
    return places if allowed is None else tuple(p for p in places if p in allowed)


def destinations(state: BeastState, hand: int, frame: Frame) -> list[str]:
    """The directions a hand may step now (the Beast may also play X = No Movement); on a
    zone-bound card only into its zone (`bound`)."""
    here = state.hands[hand].location
    allowed = bound(state, frame)
    steps = [
        d for d, there in state.board.roads[here].items() if allowed is None or there in allowed
    ]
    if hand != BEAST:
        return steps
    shares = bool(state.hunters_at(here)) or any(
        pieces()[state.pieces[i].kind].settler for i in state.living_pieces(here)
    )
    if not shares:
        steps.append("X")
    used = {d: sum(1 for s in state.active if s.direction == d) for d in MOVEMENT_DECK}
    return [d for d in steps if used[d] < MOVEMENT_DECK[d]]


def stride(state: BeastState, frame: Frame, effect: Effect) -> int:
    """Steps a move effect allows (plus stride upgrades on card effects)."""
    bonus = 0 if frame.slot in ("start", "flee") else state.passive(frame.hand, "stride")
    return effect.n + bonus


def targets(state: BeastState, attacker: int, locations: tuple[str, ...]) -> list[str]:
    """Attack targets on `locations` for the Beast (or a summon) or a hunter."""
    found: list[str] = []
    if attacker == BEAST:
        for loc in locations:
            kinds = dict.fromkeys(state.pieces[i].kind for i in state.living_pieces(loc))
            found += [f"{loc}/{kind}" for kind in kinds]
            found += [state.hands[h].character for h in state.hunters_at(loc)]
            if loc in state.towers:
                found.append(f"{loc}/tower")
        return found
    if not state.hidden and state.standee in locations:
        found.append("beast")
    found += [s.name for s in state.summons if s.location and s.location in locations]
    return found


def in_range(state: BeastState, hand: int, reach: int) -> tuple[str, ...]:
    return state.board.within(state.hands[hand].location, reach)


# -- movement, trails, reveals, damage ------------------------------------------------


def step(tx: Tx, hand: int, direction: str) -> None:
    """One step of a hand: hidden for the Beast, with trails for a hunter."""
    state = tx.state
    here = state.hands[hand].location
    there = here if direction == "X" else state.board.roads[here][direction]
    if hand == BEAST:
        tx.emit(BeastMoved(card=tx.seal(Step(direction, there), frozenset({state.beast.seat}))))
        return
    tx.emit(HunterMoved(hand=hand, location=there))
    if tx.state.hidden:
        state = tx.state
        tx.emit(trails_event(state, _untrailed(state, {there}) | tower_trails(state)))


def _untrailed(state: BeastState, locations: set[str]) -> set[int]:
    return {
        i
        for i, card in enumerate(state.active)
        if card.direction != "X" and i not in state.trailed and card.location in locations
    }


def tower_trails(state: BeastState) -> set[int]:
    manned = [t for t in state.towers if state.hunters_at(t)]
    return _untrailed(state, {loc for t in manned for loc in state.board.nearby(t)})


def beast_trails(state: BeastState, first: int) -> set[int]:
    """Trails due after a Beast movement whose cards start at index `first`: on each
    location it moved over with a settler or hunter on it (rulebook: "If the Beast moves
    over any location with a settler or hunter on it, the Beast places a trail token on
    the location with the settler or hunter after all movement has been made"), plus
    those a manned watchtower shows. Cards laid by earlier movements are not looked at
    again: the Beast did not move over their locations now."""
    occupied = {
        card.location
        for card in state.active[first:]
        if state.hunters_at(card.location)
        or any(pieces()[state.pieces[i].kind].settler for i in state.living_pieces(card.location))
    }
    return _untrailed(state, occupied) | tower_trails(state)


def trails_event(state: BeastState, cards: set[int]) -> TrailsPlaced:
    """The trails due on `cards`, as many as the supply holds (the earliest cards first).

    The event names the locations only, sorted: the hunters see tokens on the map, never
    which face-down card matched (that would tell them where the Beast stands). The reducer
    marks, on each location, its earliest untrailed cards: exactly the ones chosen here,
    because every untrailed card on a location due a trail is in `cards`."""
    ordered = tuple(sorted(cards))[: max(0, trails_left(state))]
    return TrailsPlaced(locations=tuple(sorted(state.active[i].location for i in ordered)))


def reveal(tx: Tx, cause: str) -> None:
    """Reveal the Beast (if hidden), then trigger the traps it stands in."""
    state = tx.state
    if not state.hidden:
        return
    where = state.beast.location
    tx.emit(BeastRevealed(cards=state.active, location=where, cause=cause))
    while not tx.state.winner:
        state = tx.state
        hit = next(
            (
                i
                for i, (zone, trap) in enumerate(state.traps)
                if where in state.board.zones[zone] and state.is_habitat(where, trap.habitat)
            ),
            None,
        )
        if hit is None:
            return
        zone, trap = state.traps[hit]
        among = state.trap_place(hit)
        tx.emit(TrapTriggered(zone=zone, card=trap.card, habitat=trap.habitat, among=among))
        damage(tx, "beast", "beast", trap.damage, "trap")


def damage(tx: Tx, kind: str, ref: str, amount: int, by: str) -> None:
    """Deal all of an attack's damage to one target and resolve a death (rulebook
    "Attacking": "Every attack deals 1 base damage"; wound tokens are denominations)."""
    tx.emit(Damaged(kind=kind, ref=ref, amount=amount, by=by))
    state = tx.state
    if kind == "beast":
        if state.beast.wounds >= state.max_health(BEAST):
            tx.emit(Killed(kind=kind, ref=ref, by=by))
            if not tx.state.winner:
                tx.emit(BeastRestored())
    elif kind == "hunter":
        hand = int(ref)
        if state.hands[hand].wounds >= state.max_health(hand):
            held = state.hands[hand].actions
            tx.emit(Killed(kind=kind, ref=ref, by=by))
            if by == "beast":
                gain_grudges(tx, BEAST, 1)
                if held:
                    taken = held[tx.draw(len(held))]
                    players = frozenset(range(state.players))
                    tx.emit(HunterLooted(hand=hand, card=tx.seal(taken, players)))
    elif kind == "piece":
        piece = state.pieces[int(ref)]
        if piece.wounds >= pieces()[piece.kind].health:
            tx.emit(Killed(kind=kind, ref=ref, by=by))
            if by == "beast" and not tx.state.winner:
                gain_grudges(tx, BEAST, pieces()[piece.kind].grudges)
    else:
        tx.emit(Killed(kind=kind, ref=ref, by=by))


def strike(tx: Tx, target: str, amount: int, by: str) -> None:
    """Resolve an attack on a target named in notation."""
    state = tx.state
    if target == "beast":
        damage(tx, "beast", "beast", amount, by)
        return
    hunter = state.hand_named(target)
    if hunter is not None:
        damage(tx, "hunter", str(hunter), amount, by)
        return
    if any(s.name == target for s in state.summons):
        damage(tx, "summon", target, amount, by)
        return
    loc, _, kind = target.partition("/")
    if kind == "tower":
        damage(tx, "tower", loc, amount, by)
        return
    index = next(i for i in state.living_pieces(loc) if state.pieces[i].kind == kind)
    damage(tx, "piece", str(index), amount, by)
