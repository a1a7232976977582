"""The effect engine: one interpreter for the small vocabulary of effect primitives.

A card being resolved is a `Frame` on the stack. `effect_commands` enumerates every command
that may resolve (part of) its pending effects right now, and `run_effect` turns one of
them into events. `decide` validates by membership in the same enumeration, so `legal`
and `decide` cannot disagree. Hunter commands never depend on the Beast's hidden state;
only the consequences (a search's result, trails) do, and those are public events.

Rulebook sections: Beast movement, Hunter movement & trails, Revealing, Searching,
Attacking, Ancient Powers, Nearby, Watchtowers, Summons, Gain item / beastly talent,
Traps, Transforming locations, Playing Cards (choose one, in any order, then, copy).
A summon goes only on its mat's habitat ("all summons have to be placed on a specific
habitat, unless stated otherwise"; no card here states otherwise): an untransformed centre
takes none, since "The Beast starting location counts as all habitat types except the
settlement" is said of habitat prerequisites, the character's own location.
Placing a summon while all of that kind are on the map: the Beast names the one that
moves ("move an existing summon to its new location": `summon LOC Wolf2`). Placing a
watchtower while all six are out: the player "may move an existing watchtower" — names
the one to move (`tower LOC`) or declines (`skip`), on any card, "then" cards included.
A move effect is "up to n steps". A hunter may stop after the first step. The Beast lays
n movement cards, No Movement for a step not taken, as the rulebook's Rush example plays
"up to three steps" with three cards (a movement with stride upgrades: n plus those), and
stops early only when no card can be laid; the hunters count the cards, so fewer would
tell them it moved less. Not moving at all is ignoring the effect (`skip`), which the
rulebook allows except on "then" cards ("you have the option to ignore one or more effects
... unless they meet either of the requirements 'if', or 'then'"), a flee ("Discard 1
card of any type to move 1 step") and the Beast's opening ("The Beast then gets to move
up two steps by playing two movement cards": always two cards).
Zone-bound effects stay within one zone: the card is bound to "the zone you are in at the
time the card is played"; on the centre (in three zones) the first step out of it
chooses the zone, and the card's effects stay there (no crossing from one zone into
another through the centre). Every effect of a card with the word zone is bound, not only
the one that says it ("the effects on that card are bound within the zone"): steps,
attack and search targets, summon placements, the summons' actions it grants (a summon
outside the zone can only rest) and transforms (`mechanics.bound`).
The effects of an "if" card (a habitat prerequisite, `needs`) are never ignored, like
those of a "then" card ("unless they meet either of the requirements "if", or "then"").
A hunter's card that searches and attacks while the Beast is revealed meets the
prerequisites of search and attack reactions alike: its window (trigger "search attack")
takes either.
Decisions where the text is silent: an effect of a "then" or "if" card that has nothing
to act on may be skipped (else the card could never end);
a hunter's reaction item answers a Beast card that has an attack effect (judged from the
printed card, before anything hidden happens); token supplies as in supply.py.
"""

from __future__ import annotations

from typing import Any

from skald.core.beast.commands import (
    Attack,
    Choose,
    CopyCard,
    Do,
    MoveTower,
    PlaceSummon,
    Rally,
    Search,
    SetTrap,
    Skip,
    StepTo,
    Stop,
    SummonAct,
    Take,
)
from skald.core.beast.data import HABITATS, Effect, beast_mat, card_index, side_of
from skald.core.beast.mechanics import (
    NO_CHOICE,
    TRAPS_PER_ZONE,
    beast_trails,
    bound,
    destinations,
    in_range,
    reveal,
    step,
    stride,
    strike,
    targets,
    tower_trails,
    trails_event,
    within_bound,
)
from skald.core.beast.state import BEAST, BeastState, Frame, Tx
from skald.core.beast.supply import (
    WATCHTOWERS,
    gain_grudges,
    habitat_tokens_left,
    powers_left,
    transformable,
)
from skald.events.beast import (
    CardCopied,
    CardGained,
    DeckShuffled,
    EffectChosen,
    EffectProgressed,
    Healed,
    LocationsTransformed,
    PowersGained,
    ReactionsInvited,
    ReactionWindowOpened,
    Searched,
    SummonActed,
    SummonMoved,
    SummonPlaced,
    TrapCard,
    TrapSet,
    WatchtowerPlaced,
    ZoneDisclosed,
)

# -- commands --------------------------------------------------------------------------


def effect_commands(state: BeastState) -> list[Any]:
    """Every command that may resolve the top frame's effects now."""
    frame = state.frames[-1]
    if frame.mode == "choose" and len(frame.pending) == len(frame.effects) > 1:
        return [Choose(i + 1) for i in frame.pending]
    if frame.current >= 0:
        return _continue_commands(state, frame, frame.effects[frame.current])
    indices = frame.pending if frame.mode == "any" else frame.pending[:1]
    commands: list[Any] = []
    for index in indices:
        commands += [
            c for c in _start_commands(state, frame, frame.effects[index]) if c not in commands
        ]
    first = frame.effects[frame.pending[0]] if frame.pending else None
    # The Beast's opening is not an effect to ignore: "The Beast then gets to move up two
    # steps by playing two movement cards" ("Player starting positions").
    binding = frame.mode == "then" or frame.slot in ("flee", "start") or conditional(frame)
    if first is not None and (
        not binding
        or not _start_commands(state, frame, first)
        or (first.op == "watchtower" and _towers_all_out(state, frame.hand))
    ):
        commands.append(Skip())
    return commands


def conditional(frame: Frame) -> bool:
    """A card with an "if" (a habitat prerequisite, `needs`): rulebook "Play cards": "You
    have the option to ignore one or more effects on the card you played, unless they meet
    either of the requirements "if", or "then"." Its effects are resolved, none ignored."""
    if frame.slot not in ("any", "ability", "reaction", "copy") or frame.card not in card_index():
        return False
    return bool(side_of(frame.card, frame.hand == BEAST).needs)


def _towers_all_out(state: BeastState, hand: int) -> bool:
    """All six watchtowers are on the map and none stands where `hand` is."""
    where = state.hands[hand].location
    return len(state.towers) >= WATCHTOWERS and where not in state.towers


def _continue_commands(state: BeastState, frame: Frame, effect: Effect) -> list[Any]:
    if effect.op == "move":
        steps: list[Any] = [StepTo(d) for d in destinations(state, frame.hand, frame)]
        # The Beast lays the movement's full count: "up to N steps" is N movement cards,
        # No Movement for a step not taken (rulebook "Example Beast movement"); it stops
        # early only when no card can be laid. A hunter's standee may stop.
        return steps if frame.hand == BEAST and steps else [*steps, Stop()]
    return [*_summon_acts(state, frame), Stop()]


def _start_commands(state: BeastState, frame: Frame, effect: Effect) -> list[Any]:
    hand = frame.hand
    match effect.op:
        case "move":
            # Stopping before the first step is ignoring the effect: that is `skip`.
            return [StepTo(d) for d in destinations(state, hand, frame)]
        case "watchtower" if _towers_all_out(state, hand):
            return [MoveTower(t) for t in state.towers]
        case "search":
            return [Search(loc) for loc in _search_range(state, frame, effect)]
        case "attack":
            reach = within_bound(state, frame, in_range(state, hand, effect.range))
            powers = state.hands[hand].powers
            return [Attack(t, k) for t in targets(state, hand, reach) for k in range(powers + 1)]
        case "summon":
            return _summon_commands(state, frame)
        case "item" | "talent":
            row: tuple[str, ...] = getattr(state, f"{effect.op}_row")
            deck: tuple[str, ...] = getattr(state, f"{effect.op}_deck")
            discards: tuple[str, ...] = getattr(state, f"{effect.op}_discard")
            return [
                *(Take(c) for c in dict.fromkeys(row)),
                *([Take("deck")] if deck or discards else []),
            ]
        case "trap":
            if habitat_tokens_left(state) <= 0:
                return []
            counts = {z: sum(1 for zone, _ in state.traps if zone == z) for z in state.board.zones}
            return [
                SetTrap(state.board.zone_names[z], h)
                for z, n in counts.items()
                if n < TRAPS_PER_ZONE
                for h in HABITATS
            ]
        case "copy":
            return [
                CopyCard(c)
                for c in dict.fromkeys(state.discard)
                if not any(e.op == "copy" for e in side_of(c, hand == BEAST).effects)
            ]
        case op if op in NO_CHOICE:
            return [Do()]
    return []


def _search_range(state: BeastState, frame: Frame, effect: Effect) -> list[str]:
    reach = within_bound(state, frame, in_range(state, frame.hand, effect.range))
    if effect.where != "trail":
        return list(reach)
    trails = {state.active[i].location for i in state.trailed} | {state.standee}
    return [loc for loc in reach if loc in trails]


def _summon_commands(state: BeastState, frame: Frame) -> list[Any]:
    mat = beast_mat(state.beast.character)
    near = within_bound(state, frame, state.board.within(state.beast.location, 2))
    # "All summons have to be placed on a specific habitat, unless stated otherwise":
    # the mat's habitat itself, so not the centre unless transformed into it (the centre
    # "counts as all habitat types" only for a character's habitat prerequisites).
    places = [loc for loc in near if state.habitat(loc) == mat.summon.habitat]
    commands: list[Any]
    if any(not s.location for s in state.summons):
        commands = [PlaceSummon(loc) for loc in places]
    else:
        # "If all summons are currently on the map ... move an existing summon": which
        # one is the Beast's choice.
        commands = [
            PlaceSummon(loc, s.name) for loc in places for s in state.summons if s.location != loc
        ]
    if any(s.location for s in state.summons):
        commands.append(Rally())
    return commands


def _summon_acts(state: BeastState, frame: Frame) -> list[Any]:
    ability = beast_mat(state.beast.character).summon.ability
    allowed = bound(state, frame)
    commands: list[Any] = []
    for summon in state.summons:
        if not summon.location or summon.name in frame.acted:
            continue
        here = summon.location
        if allowed is None or here in allowed:  # a zone-bound card's summons act in its zone
            commands += [
                SummonAct(summon.name, "step", (d,))
                for d, there in state.board.roads[here].items()
                if allowed is None or there in allowed
            ]
            commands += [
                SummonAct(summon.name, "attack", (t,)) for t in targets(state, BEAST, (here,))
            ]
            if ability.op == "move":
                commands += [
                    SummonAct(summon.name, "ability", (loc,))
                    for loc in state.board.within(here, ability.n)
                    if loc != here and (allowed is None or loc in allowed)
                ]
            else:
                commands.append(SummonAct(summon.name, "ability"))
        commands.append(SummonAct(summon.name, "rest"))
    return commands


def may_react(state: BeastState) -> bool:
    """Whether the Beast could hold a reaction, judged from public facts only: it holds a
    talent (their number is public, their names may not be) or a reaction ability."""
    beast = state.beast
    return bool(beast.extras) or any(side_of(a, True).react for a in beast.abilities)


def hunters_may_react(state: BeastState) -> tuple[int, ...]:
    """The hunters who could hold a reaction, judged from public facts only: the living
    ones holding an item (their number is public, their names may not be)."""
    return tuple(h for h in state.hunters if not state.hands[h].dead and state.hands[h].extras)


def open_window(tx: Tx, hand: int, card: str) -> None:
    """Let the Beast answer a hunter's searching card, or an attack on it while revealed;
    let the hunters answer a Beast card that attacks. Both triggers are the played card's
    printed effects, which everyone sees: nothing hidden decides whether a window opens."""
    if hand == BEAST:
        asked = hunters_may_react(tx.state)
        if asked and any(e.op == "attack" for e in side_of(card, True).effects):
            tx.emit(ReactionsInvited(trigger="attack", hands=asked))
        return
    if not may_react(tx.state):
        return
    ops = {e.op for e in side_of(card, False).effects}
    # A card that searches and attacks (Hunt) while the Beast is revealed meets both
    # prerequisites: the window takes reactions to either ("search attack").
    triggers = [
        trigger
        for trigger, met in (("search", "search" in ops), ("attack", "attack" in ops))
        if met and (trigger == "search" or not tx.state.hidden)
    ]
    if triggers:
        tx.emit(ReactionWindowOpened(trigger=" ".join(triggers)))


# -- running ---------------------------------------------------------------------------


def reshuffle(tx: Tx, deck: str) -> None:
    """An empty item or talent deck becomes its shuffled face-down discards (rulebook:
    discarded items and talents go face down next to their deck)."""
    state = tx.state
    discards: tuple[str, ...] = getattr(state, f"{deck}_discard")
    if getattr(state, f"{deck}_deck") or not discards:
        return
    order = tx.shuffle(discards, label=f"beast/reshuffle/{deck}/{state.shuffles}")
    tx.emit(DeckShuffled(deck=deck, order=tx.seal(order, frozenset())))


def run_effect(tx: Tx, command: Any) -> None:
    """Turn one (already validated) effect command into events."""
    state = tx.state
    frame = state.frames[-1]
    if isinstance(command, Choose):
        tx.emit(EffectChosen(command.index - 1))
        return
    if isinstance(command, Skip):
        tx.emit(EffectProgressed(frame.pending[0], True))
        return
    index = (
        frame.current
        if frame.current >= 0
        else next(
            i
            for i in (frame.pending if frame.mode == "any" else frame.pending[:1])
            if command in _start_commands(state, frame, frame.effects[i])
        )
    )
    effect = frame.effects[index]
    if effect.op == "move":
        _move(tx, frame, index, effect, command)
    elif effect.op == "summon":
        _summon(tx, frame, index, command)
    elif isinstance(command, CopyCard):
        # The copying card's effect is done before the copied card goes on top of it.
        tx.emit(EffectProgressed(index, True), CardCopied(hand=frame.hand, card=command.card))
        open_window(tx, frame.hand, command.card)
    else:
        _one_shot(tx, frame, effect, command)
        if not tx.state.winner:
            tx.emit(EffectProgressed(index, True))


def _move(tx: Tx, frame: Frame, index: int, effect: Effect, command: Any) -> None:
    # The cards this movement laid: the steps taken in this effect so far, and this one.
    steps = frame.progress + (1 if isinstance(command, StepTo) else 0)
    if isinstance(command, StepTo):
        step(tx, frame.hand, command.direction)
        done = frame.progress + 1 >= stride(tx.state, frame, effect)
        tx.emit(EffectProgressed(index, done))
    else:
        tx.emit(EffectProgressed(index, True))
        done = True
    if done and frame.hand == BEAST and tx.state.hidden:
        first = len(tx.state.active) - steps
        tx.emit(trails_event(tx.state, beast_trails(tx.state, first)))


def _one_shot(tx: Tx, frame: Frame, effect: Effect, command: Any) -> None:
    state = tx.state
    hand = frame.hand
    where = state.hands[hand].location
    match command:
        case Search(location=location):
            found = location == state.beast.location
            tx.emit(Searched(hand=hand, location=location, found=found))
            if found:
                reveal(tx, "search")
        case Attack(target=target, powers=powers):
            if hand == BEAST:
                reveal(tx, "attack")
                if tx.state.winner:
                    return
            if powers:
                tx.emit(PowersGained(hand=hand, amount=-powers))
            amount = effect.n + tx.state.passive(hand, "damage") + powers
            by = "beast" if hand == BEAST else f"hunter:{hand}"
            strike(tx, target, amount, by)
        case Take(card=card):
            from_row = card != "deck"
            if not from_row:
                reshuffle(tx, effect.op)
                state = tx.state
            deck: tuple[str, ...] = getattr(state, f"{effect.op}_deck")
            name = card if from_row else deck[0]
            audience = frozenset(range(state.players)) if from_row else state.team(hand)
            tx.emit(
                CardGained(
                    hand=hand, deck=effect.op, card=tx.seal(name, audience), from_row=from_row
                )
            )
        case MoveTower(source=source):
            tx.emit(WatchtowerPlaced(location=where, moved_from=source))
            if tx.state.hidden:
                tx.emit(trails_event(tx.state, tower_trails(tx.state)))
        case SetTrap(zone=zone_name, habitat=habitat):
            zone = next(z for z, n in state.board.zone_names.items() if n == zone_name)
            tx.emit(
                TrapSet(
                    zone=zone,
                    trap=tx.seal(TrapCard(frame.card, habitat, effect.n), state.hunter_seats),
                )
            )
        case Do():
            _no_choice(tx, frame, where, effect)


def _no_choice(tx: Tx, frame: Frame, where: str, effect: Effect) -> None:
    state = tx.state
    hand = frame.hand
    match effect.op:
        case "reveal":
            reveal(tx, "card")
        case "transform":
            reach = (where,) if effect.range == 0 else state.board.nearby(where)
            places = transformable(state, within_bound(state, frame, reach))
            habitat = beast_mat(state.beast.character).habitat if hand == BEAST else "settlement"
            if places:
                tx.emit(LocationsTransformed(locations=places, habitat=habitat))
        case "grudge":
            gain_grudges(tx, hand, effect.n)
        case "power":
            if min(effect.n, powers_left(state)) > 0:
                tx.emit(PowersGained(hand=hand, amount=min(effect.n, powers_left(state))))
        case "heal":
            amount = min(effect.n, state.hands[hand].wounds)
            if amount:
                tx.emit(Healed(hand=hand, amount=amount))
        case "watchtower":
            if where not in state.towers:
                tx.emit(WatchtowerPlaced(location=where))
                if tx.state.hidden:
                    tx.emit(trails_event(tx.state, tower_trails(tx.state)))
        case "divine":
            tx.emit(
                ZoneDisclosed(
                    zones=tuple(
                        state.board.zone_names[z]
                        for z in state.board.zones_of(state.beast.location)
                    )
                )
            )
        case "draw":
            for _ in range(min(effect.n, len(state.action_deck))):
                card = tx.state.action_deck[0]
                tx.emit(
                    CardGained(
                        hand=hand,
                        deck="action",
                        card=tx.seal(card, state.team(hand)),
                        from_row=False,
                    )
                )


def _summon(tx: Tx, frame: Frame, index: int, command: Any) -> None:
    state = tx.state
    match command:
        case PlaceSummon(location=location, summon=named):
            free = [s.name for s in state.summons if not s.location]
            chosen = named or free[0]
            tx.emit(SummonPlaced(summon=chosen, location=location), EffectProgressed(index, True))
        case Rally():
            tx.emit(EffectProgressed(index, False))
        case Stop():
            tx.emit(EffectProgressed(index, True))
        case SummonAct():
            _summon_act(tx, command)
            if tx.state.winner:
                return
            state = tx.state
            top = state.frames[-1]
            waiting = [s for s in state.summons if s.location and s.name not in top.acted]
            if not waiting:
                tx.emit(EffectProgressed(index, True))


def _summon_act(tx: Tx, command: SummonAct) -> None:
    state = tx.state
    here = state.summon_at(command.summon)
    ability = beast_mat(state.beast.character).summon.ability
    if command.verb == "step":
        tx.emit(
            SummonMoved(summon=command.summon, location=state.board.roads[here][command.args[0]])
        )
    elif command.verb == "attack":
        strike(tx, command.args[0], 1, f"summon:{command.summon}")
    elif command.verb == "ability" and ability.op == "move":
        tx.emit(SummonMoved(summon=command.summon, location=command.args[0]))
    elif command.verb == "ability" and transformable(state, (here,)):
        habitat = beast_mat(state.beast.character).habitat
        tx.emit(LocationsTransformed(locations=(here,), habitat=habitat))
    if not tx.state.winner:
        tx.emit(SummonActed(summon=command.summon))
