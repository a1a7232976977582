"""The Beast reducer: `evolve(state, event)`, pure and total, one small case per event.

Phase changes that follow from an event alone happen here (the last hunter placed opens
the dawn, the last upgrade closes the night); everything that needs a choice or chance
is decided in `decide` and arrives as events.
"""

from __future__ import annotations

from typing import Any

import msgspec

from skald.core.beast.data import (
    Effect,
    abilities_of,
    beast_mat,
    boards,
    card_index,
    contracts,
    hunter_mat,
    kind_of,
    pieces,
    side_of,
)
from skald.core.beast.state import BEAST, BeastState, Frame, Hand, Piece, Summon
from skald.events.beast import (
    BeastMoved,
    BeastRestored,
    BeastRevealed,
    CardAssigned,
    CardCopied,
    CardDiscarded,
    CardDiscardedFaceDown,
    CardDrafted,
    CardGained,
    CardPlayed,
    CardResolved,
    CardSetAside,
    Damaged,
    DayBegan,
    DeckShuffled,
    EffectChosen,
    EffectProgressed,
    GameSetUp,
    GrudgesGained,
    HandDealt,
    Healed,
    HunterLooted,
    HunterMoved,
    HunterPlaced,
    Killed,
    LocationsTransformed,
    NightFell,
    NightReset,
    PackDealt,
    PacksPassed,
    PowersGained,
    ReactionDeclined,
    ReactionsInvited,
    ReactionWindowClosed,
    ReactionWindowOpened,
    RowDealt,
    Searched,
    SummonActed,
    SummonMoved,
    SummonPlaced,
    TrailsPlaced,
    TrapSet,
    TrapTriggered,
    TurnEnded,
    Upgraded,
    UpgradesDone,
    WatchtowerPlaced,
)

replace = msgspec.structs.replace
START_MOVE = (Effect(op="move", n=2),)
FLEE_MOVE = (Effect(op="move", n=1),)


def evolve(state: BeastState, event: Any) -> BeastState:
    """Apply one event."""
    return replace(_apply(state, event), nonce=state.nonce + 1)


def _apply(state: BeastState, event: Any) -> BeastState:
    match event:
        case GameSetUp():
            return _set_up(state, event)
        case DeckShuffled(deck=deck, order=order):
            if deck == "action":
                return replace(state, action_deck=order.get(), discard=())
            return replace(
                state,
                **{f"{deck}_deck": order.get(), f"{deck}_discard": ()},
                shuffles=state.shuffles + 1,
            )
        case RowDealt(deck=deck, cards=cards):
            remaining = getattr(state, f"{deck}_deck")[len(cards) :]
            row = (*getattr(state, f"{deck}_row"), *cards)
            return replace(state, **{f"{deck}_row": row, f"{deck}_deck": remaining})
        case BeastMoved(card=card):
            step = card.get()
            return _hand(
                replace(state, active=(*state.active, step)), BEAST, location=step.location
            )
        case TrailsPlaced(cards=cards, locations=locations):
            marked = trail_cards(state, locations) if cards is None else cards
            return replace(state, trailed=tuple(sorted({*state.trailed, *marked})))
        case BeastRevealed(location=location):
            return _count(replace(state, active=(), trailed=(), standee=location), "reveals")
        case HunterPlaced(hand=hand, location=location):
            state = _hand(state, hand, location=location, dead=False, wounds=0)
            return _placed(state, hand)
        case Searched(found=found):
            return state if found else _count(state, "misses")
        case HunterMoved(hand=hand, location=location):
            return _hand(state, hand, location=location)
        case PackDealt(seat=seat, pack=pack):
            cards = pack.get()
            packs = _set(state.packs or ((),) * state.players, seat, cards)
            return replace(
                state,
                phase="draft",
                packs=packs,
                action_deck=state.action_deck[len(cards) :],
                picks=_picks(state, packs),
            )
        case CardSetAside(card=card):
            return replace(state, aside=card.get(), action_deck=state.action_deck[1:])
        case CardDrafted(seat=seat, hand=hand, card=card, pooled=pooled):
            name = card.get()
            if pooled:
                state = replace(state, pool=(*state.pool, name))
            else:
                state = _hand(state, hand, actions=(*state.hands[hand].actions, name))
            return replace(
                state,
                packs=_set(state.packs, seat, _without(state.packs[seat], name)),
                picks=_set(state.picks, seat, state.picks[seat] - 1),
            )
        case CardAssigned(hand=hand, card=card):
            name = card.get()
            state = _hand(state, hand, actions=(*state.hands[hand].actions, name))
            return replace(state, pool=_without(state.pool, name))
        case PacksPassed(packs=packs):
            opened = tuple(p.get() for p in packs)
            return replace(state, packs=opened, picks=_picks(state, opened))
        case HandDealt(hand=hand, cards=cards):
            state = _hand(state, hand, actions=(*state.hands[hand].actions, *cards.get()))
            return replace(state, aside="") if hand == BEAST else state
        case DayBegan(day=day):
            return replace(
                state, phase="day", day=day, turn=BEAST, slots=(), passes=0, packs=(), picks=()
            )
        case CardPlayed():
            return _played(state, event)
        case EffectChosen(index=index):
            return _top(state, pending=(index,))
        case EffectProgressed(index=index, done=done):
            state = _narrow_zones(state, index)
            frame = state.frames[-1]
            if done:
                return _top(
                    state,
                    pending=tuple(i for i in frame.pending if i != index),
                    current=-1,
                    progress=0,
                    acted=(),
                )
            return _top(state, current=index, progress=frame.progress + 1)
        case CardResolved():
            return _resolved(state)
        case ReactionWindowOpened(trigger=trigger):
            return replace(state, window=trigger)
        case ReactionWindowClosed():
            return replace(state, window="", reactors=())
        case ReactionsInvited(trigger=trigger, hands=hands):
            return replace(state, window=trigger, reactors=hands)
        case ReactionDeclined(hand=hand):
            left = tuple(h for h in state.reactors if h != hand)
            return replace(state, reactors=left, window=state.window if left else "")
        case CardDiscardedFaceDown(hand=hand, card=hidden):
            return _discard_extra(_remove_card(state, hand, hidden.get()), hidden.get())
        case CardDiscarded(hand=hand, card=card):
            state = _remove_card(state, hand, card)
            if kind_of(card) == "ability":  # back to hand at night
                return _hand(state, hand, spent=(*state.hands[hand].spent, card))
            if kind_of(card) == "action":
                return replace(state, discard=(*state.discard, card))
            return _discard_extra(state, card)
        case TurnEnded(passed=passed):
            return replace(
                state,
                turn=(state.turn + 1) % len(state.hands),
                slots=(),
                passes=state.passes + 1 if passed else 0,
            )
        case Damaged():
            return _damaged(state, event)
        case Killed():
            return _killed(state, event)
        case HunterLooted(hand=hand, card=taken):
            card = taken.get()
            state = _hand(state, hand, actions=_without(state.hands[hand].actions, card))
            return _hand(state, BEAST, actions=(*state.beast.actions, card))
        case GrudgesGained(hand=hand, amount=amount):
            return _hand(state, hand, grudges=state.hands[hand].grudges + amount)
        case PowersGained(hand=hand, amount=amount):
            return _hand(state, hand, powers=state.hands[hand].powers + amount)
        case Healed(hand=hand, amount=amount):
            return _hand(state, hand, wounds=max(0, state.hands[hand].wounds - amount))
        case CardGained():
            return _gained(state, event)
        case (
            SummonPlaced(summon=name, location=location)
            | SummonMoved(summon=name, location=location)
        ):
            return replace(
                state,
                summons=tuple(
                    replace(s, location=location) if s.name == name else s for s in state.summons
                ),
            )
        case SummonActed(summon=name):
            return _top(state, acted=(*state.frames[-1].acted, name))
        case LocationsTransformed(locations=locations, habitat=habitat):
            habitats = dict(state.habitats)
            habitats.update({loc: habitat for loc in locations})
            state = replace(state, habitats=tuple(sorted(habitats.items())))
            return _count(state, "transforms", len(locations))
        case WatchtowerPlaced(location=location, moved_from=moved_from):
            towers = _without(state.towers, moved_from) if moved_from else state.towers
            return replace(state, towers=(*towers, location))
        case TrapSet(zone=zone, trap=trap):
            return replace(state, traps=(*state.traps, (zone, trap.get())))
        case TrapTriggered(zone=zone, index=index, card=card, habitat=habitat):
            if index is None:  # version 1 logs name the index
                index = next(
                    i
                    for i, (z, trap) in enumerate(state.traps)
                    if z == zone and trap.card == card and trap.habitat == habitat
                )
            state = replace(state, traps=state.traps[:index] + state.traps[index + 1 :])
            is_item = card in card_index() and kind_of(card) == "item"
            return _discard_extra(state, card) if is_item else state
        case CardCopied(hand=hand, card=card):
            return _push(state, hand, card, "copy")
        case NightFell(night=night):
            state = replace(state, phase="night")
            if night >= state.terms.days:
                return replace(state, phase="over", winner="hunters", reason="days_passed")
            return state
        case NightReset():
            return _night_reset(state)
        case Upgraded(hand=hand, upgrade=name):
            return _upgraded(state, hand, name)
        case UpgradesDone():
            queue = state.queue[1:]
            return replace(state, queue=queue, phase="upgrade" if queue else "dawn")
        case BeastRestored():
            return _hand(state, BEAST, wounds=0)
    return state


# -- helpers ---------------------------------------------------------------------------


def trail_cards(state: BeastState, locations: tuple[str, ...]) -> tuple[int, ...]:
    """The active cards a trail on each of `locations` stands for: on each location its
    earliest cards without a trail (No Movement cards leave none), one per token."""
    marked: list[int] = []
    for location in locations:
        marked.append(
            next(
                i
                for i, card in enumerate(state.active)
                if card.location == location
                and card.direction != "X"
                and i not in state.trailed
                and i not in marked
            )
        )
    return tuple(marked)


def _set(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _without(items: tuple[str, ...], item: str) -> tuple[str, ...]:
    if item not in items:
        return items
    index = items.index(item)
    return items[:index] + items[index + 1 :]


def _hand(state: BeastState, index: int, **changes: Any) -> BeastState:
    return replace(state, hands=_set(state.hands, index, replace(state.hands[index], **changes)))


def _top(state: BeastState, **changes: Any) -> BeastState:
    return replace(state, frames=(*state.frames[:-1], replace(state.frames[-1], **changes)))


def _count(state: BeastState, name: str, amount: int = 1) -> BeastState:
    stats = dict(state.stats)
    stats[name] = stats.get(name, 0) + amount
    return replace(state, stats=tuple(sorted(stats.items())))


def per_pass(state: BeastState, seat: int) -> int:
    """Cards a seat keeps from each pack (2 players: the hunter seat keeps two)."""
    return 2 if state.players == 2 and seat != state.beast.seat else 1


def _picks(state: BeastState, packs: tuple[tuple[str, ...], ...]) -> tuple[int, ...]:
    return tuple(min(per_pass(state, seat), len(pack)) for seat, pack in enumerate(packs))


def _set_up(state: BeastState, event: GameSetUp) -> BeastState:
    contract = contracts()[event.contract]
    board = boards()[contract.map]
    mat = beast_mat(event.beast)
    beast = Hand(
        character=event.beast,
        seat=0,
        health=mat.health,
        location=board.centre,
        abilities=abilities_of(event.beast),
        grudges=contract.beast_grudges,
    )
    hunters = tuple(
        Hand(
            character=name,
            seat=seat,
            health=hunter_mat(name).health,
            abilities=abilities_of(name),
            grudges=contract.hunter_grudges,
        )
        for name, seat in zip(event.hunters, event.controllers, strict=True)
    )
    placed = tuple(
        Piece(kind=kind, location=loc)
        for loc in board.locations
        for kind in board.pieces.get(loc, ())
        if not contract.leaves_off(loc, kind)
    )
    summons = tuple(Summon(name=f"{mat.summon.name}{i + 1}") for i in range(mat.summon.count))
    state = replace(
        state,
        contract=event.contract,
        map=contract.map,
        phase="start",
        first_time=event.first_time,
        hands=(beast, *hunters),
        standee=board.centre,
        pieces=placed,
        summons=summons,
        lives=contract.beast_lives,
    )
    return _push(state, BEAST, "", "start")


def _placed(state: BeastState, hand: int) -> BeastState:
    if not state.queue or state.queue[0] != hand:
        return state
    queue = state.queue[1:]
    if queue:
        return replace(state, queue=queue)
    if state.phase == "place":
        return replace(state, queue=(), phase="dawn")
    return replace(state, queue=tuple(range(len(state.hands))), phase="upgrade")


def _remove_card(state: BeastState, hand: int, card: str) -> BeastState:
    held = state.hands[hand]
    for field in ("actions", "abilities", "extras"):
        cards: tuple[str, ...] = getattr(held, field)
        if card in cards:
            return _hand(state, hand, **{field: _without(cards, card)})
    return state


def _narrow_zones(state: BeastState, index: int) -> BeastState:
    """After a step of a zone-bound move, keep the zones the mover is still in: a card
    played on the centre (in three zones) is bound to the zone its first step enters."""
    frame = state.frames[-1]
    effect = frame.effects[index]
    if effect.op != "move" or not effect.zone:
        return state
    here = state.board.zones_of(state.hands[frame.hand].location)
    kept = tuple(z for z in frame.zones if z in here)
    return _top(state, zones=kept) if kept and kept != frame.zones else state


def _push(state: BeastState, hand: int, card: str, slot: str) -> BeastState:
    effects: tuple[Effect, ...]
    if slot == "start":
        effects = START_MOVE
    elif slot == "flee":
        effects = FLEE_MOVE
    else:
        effects = side_of(card, hand == BEAST).effects
    mode = "seq" if slot in ("start", "flee") else side_of(card, hand == BEAST).mode
    where = state.hands[hand].location
    frame = Frame(
        hand=hand,
        card=card,
        slot=slot,
        effects=effects,
        mode=mode,
        pending=tuple(range(len(effects))),
        zones=state.board.zones_of(where),
    )
    return replace(state, frames=(*state.frames, frame))


def _played(state: BeastState, event: CardPlayed) -> BeastState:
    name = event.name
    state = _remove_card(state, event.hand, name)
    if event.slot in ("any", "ability"):
        state = replace(state, slots=(*state.slots, event.slot))
    if event.slot == "reaction":
        state = replace(state, window="", reactors=())
    return _push(state, event.hand, name, event.slot)


def _resolved(state: BeastState) -> BeastState:
    frame = state.frames[-1]
    state = replace(state, frames=state.frames[:-1])
    if frame.slot == "start":
        return replace(state, phase="place", queue=state.hunters)
    if frame.slot in ("start", "flee", "copy", "upgrade") or not frame.card:
        return state
    kind = kind_of(frame.card)
    if kind == "action":
        return replace(state, discard=(*state.discard, frame.card))
    if kind == "ability":
        return _hand(state, frame.hand, spent=(*state.hands[frame.hand].spent, frame.card))
    if any(trap.card == frame.card for _, trap in state.traps):
        return state  # a set trap stays in play until triggered
    return _discard_extra(state, frame.card)


def _discard_extra(state: BeastState, card: str) -> BeastState:
    """An item or talent goes face down next to its deck."""
    pile = f"{kind_of(card)}_discard"
    return replace(state, **{pile: (*getattr(state, pile), card)})


def _damaged(state: BeastState, event: Damaged) -> BeastState:
    if event.kind == "beast":
        state = _hand(state, BEAST, wounds=state.beast.wounds + event.amount)
        return _count(state, "beast_wounds", event.amount)
    if event.kind == "hunter":
        hand = int(event.ref)
        return _hand(state, hand, wounds=state.hands[hand].wounds + event.amount)
    if event.kind == "piece":
        index = int(event.ref)
        piece = state.pieces[index]
        return replace(
            state,
            pieces=_set(state.pieces, index, replace(piece, wounds=piece.wounds + event.amount)),
        )
    return state


def _killed(state: BeastState, event: Killed) -> BeastState:
    if event.kind == "beast":
        lives = state.lives - 1
        state = replace(state, lives=lives)
        if lives <= 0:
            return replace(state, phase="over", winner="hunters", reason="beast_killed")
        return state
    if event.kind == "hunter":
        items = state.hands[int(event.ref)].extras
        state = replace(state, item_discard=(*state.item_discard, *items))
        state = _hand(state, int(event.ref), dead=True, location="", extras=(), grudges=0)
        return _count(state, "hunter_kills")
    if event.kind == "piece":
        index = int(event.ref)
        piece = state.pieces[index]
        state = replace(state, pieces=_set(state.pieces, index, replace(piece, alive=False)))
        settler = pieces()[piece.kind].settler
        state = _count(state, "settler_kills" if settler else "animal_kills")
        if settler and state.stat("settler_kills") >= state.terms.settler_kills:
            return replace(state, phase="over", winner="beast", reason="settlers_killed")
        return state
    if event.kind == "summon":
        state = replace(
            state,
            summons=tuple(
                replace(s, location="") if s.name == event.ref else s for s in state.summons
            ),
        )
        return _count(state, "summons_killed")
    if event.kind == "tower":
        return replace(state, towers=_without(state.towers, event.ref))
    return state


def _gained(state: BeastState, event: CardGained) -> BeastState:
    card = event.card.get()
    held = state.hands[event.hand]
    if event.deck == "action":
        state = replace(state, action_deck=state.action_deck[1:])
        return _hand(state, event.hand, actions=(*held.actions, card))
    if event.from_row:
        row: tuple[str, ...] = getattr(state, f"{event.deck}_row")
        state = replace(state, **{f"{event.deck}_row": _without(row, card)})
    else:
        deck: tuple[str, ...] = getattr(state, f"{event.deck}_deck")
        state = replace(state, **{f"{event.deck}_deck": deck[1:]})
    return _hand(state, event.hand, extras=(*held.extras, card))


def _night_reset(state: BeastState) -> BeastState:
    discarded = tuple(card for hand in state.hands for card in hand.actions)
    hands = tuple(
        replace(h, actions=(), abilities=(*h.abilities, *h.spent), spent=()) for h in state.hands
    )
    restored = tuple(replace(p, wounds=0) if p.alive else p for p in state.pieces)
    dead = tuple(h for h in state.hunters if state.hands[h].dead)
    phase, queue = ("respawn", dead) if dead else ("upgrade", tuple(range(len(hands))))
    return replace(
        state,
        hands=hands,
        pieces=restored,
        discard=(*state.discard, *discarded),
        phase=phase,
        queue=queue,
        item_row=(),
        talent_row=(),
        item_discard=(*state.item_discard, *state.item_row),
        talent_discard=(*state.talent_discard, *state.talent_row),
    )


def _upgraded(state: BeastState, hand: int, name: str) -> BeastState:
    held = state.hands[hand]
    mat = beast_mat(held.character) if hand == BEAST else hunter_mat(held.character)
    upgrade = next(u for u in mat.upgrades if u.name == name)
    state = _hand(state, hand, grudges=held.grudges - upgrade.cost, upgrades=(*held.upgrades, name))
    if upgrade.kind != "immediate":
        return state
    frame = Frame(
        hand=hand,
        card=name,
        slot="upgrade",
        effects=upgrade.effects,
        mode="seq",
        pending=tuple(range(len(upgrade.effects))),
        zones=state.board.zones_of(state.hands[hand].location),
    )
    return replace(state, frames=(*state.frames, frame))
