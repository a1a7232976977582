"""Beast told in the rulebook's words: the Beast's movement cards, trails, reveals and
searches, the hunters' steps, the draft, each card played by its name and half, attacks,
wounds, traps, summons, nights and their rewards.

The Beast's steps are the Beast's to know: the hunters and spectators read "The Beast
moved (hidden)" and the Beast's seat "Fangrir moved west to B3 (Rush)". Cards drafted or
dealt, traps and face-down discards are named only for the side that may see them.
Characters are named as on their mats; the cast (who plays which character) is told at
setup and kept as the narrator reads on, as are the pieces on the map (to name the sheep
a Beast attacked) and the card resolving (to say what moved the Beast).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from skald.core.beast.data import (
    Effect,
    beast_mat,
    boards,
    card_index,
    contracts,
    hunter_mat,
    kind_of,
    side_of,
)
from skald.core.beast.state import BEAST
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
    RewardEarned,
    RowDealt,
    Searched,
    Step,
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
    ZoneDisclosed,
)
from skald.events.common import GameFinished
from skald.projections.narrative.common import known, listing, plural, termination_words

DIRECTIONS = {"N": "north", "E": "east", "S": "south", "W": "west"}
CAUSES = {
    "attack": "when it attacked",
    "search": "by a search",
    "card": "by a card",
    "game_end": "at the end of the game",
}
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")
EFFECT_WORDS = {
    "move": "move",
    "attack": "attack",
    "search": "search",
    "reveal": "reveal",
    "summon": "summoning",
    "transform": "transformation",
    "item": "item gain",
    "talent": "talent gain",
    "draw": "draw",
    "grudge": "grudge",
    "power": "ancient power",
    "heal": "healing",
    "watchtower": "watchtower",
    "trap": "trap",
    "copy": "copy",
    "divine": "divination",
}
MOVE = (Effect(op="move"),)
AFTER = {
    "action": " and discarded",
    "ability": " (the ability is spent until the night)",
    "item": " and discarded face down",
    "talent": " and discarded face down",
}


class Resolving(NamedTuple):
    """What is being resolved, as the narrator names it: a card (`Rush`), a hunter's
    flee or the Beast's start (`Helga's flee`), a face-down card, an upgrade; `card` is
    the card's name where it has one (it says what moved the Beast)."""

    label: str
    effects: tuple[Effect, ...] | None
    card: str = ""
    hand: int = BEAST
    after: str = ""
    """Where the card goes once resolved: ` and discarded`."""

    def effect(self, index: int) -> str:
        """`the move of Rush`, `the second attack of Frenzy`, `the first effect of a
        face-down card` (effects unknown to this reader)."""
        if self.effects is None or not 0 <= index < len(self.effects):
            return f"the {ORDINALS[min(index, 5)]} effect of {self.label}"
        ops = [effect.op for effect in self.effects]
        op = ops[index]
        nth = f"{ORDINALS[min(ops[:index].count(op), 5)]} " if ops.count(op) > 1 else ""
        return f"the {nth}{EFFECT_WORDS.get(op, op)} of {self.label}"


def card_words(name: str, beast: bool | None = None) -> str:
    """A card by its name, with its half for an action card: `Charge (hunters' half)`."""
    if name not in card_index():
        return name
    kind = kind_of(name)
    if kind == "action" and beast is not None:
        return f"{name} ({'Beast' if beast else 'hunter'} half)"
    if kind in ("item", "talent", "ability"):
        return f"the {kind} {name}"
    return name


def cards_words(names: tuple[str, ...]) -> str:
    return listing(list(names))


def step_words(step: Step) -> str:
    """`west to B3`, `No Movement (at A3)`."""
    if step.direction in DIRECTIONS:
        return f"{DIRECTIONS[step.direction]} to {step.location}"
    return f"No Movement (at {step.location})"


def summon_words(summon: str) -> str:
    """`Wolf1` -> `Wolf 1`."""
    stem = summon.rstrip("0123456789")
    return f"{stem} {summon[len(stem) :]}" if stem != summon else summon


STEP_WORDS = {
    "N": "north",
    "E": "east",
    "S": "south",
    "W": "west",
    "X": "nowhere (No Movement)",
}
"""A step's direction in the notation, in words."""


class BeastNarrator:
    """Sentences for Beast's events, for one reader; keeps the cast and the card resolving."""

    def __init__(self, players: tuple[str, ...]) -> None:
        self.players = players
        self.characters: list[str] = ["the Beast"]
        self.controllers: list[int] = [0]
        self.pieces: list[tuple[str, str]] = []
        self.towers: list[str] = []
        self.resolving: list[Resolving] = []

    def seat(self, seat: int) -> str:
        return self.players[seat] if 0 <= seat < len(self.players) else f"seat {seat}"

    def hand(self, hand: int) -> str:
        """A hand by its character's name (`Fangrir`, `Helga`)."""
        if 0 <= hand < len(self.characters):
            return self.characters[hand]
        return f"hunter {hand}"

    def actor(self, seat: int) -> str:
        """`Ann (the Beast)`, `Bob (hunter)`."""
        role = "the Beast" if seat == 0 else "hunter"
        return f"{self.seat(seat)} ({role})"

    def move_words(self, move: str) -> str:
        """A move in notation with its step's direction in words: `step N` -> `step north`,
        `Wolf1 step W` -> `Wolf1 step west`, the Beast's `step X` -> `step nowhere (No
        Movement)`; every other word as it is (cards and places are named already)."""
        words = move.split(" ")
        for i in range(1, len(words)):
            if words[i - 1] == "step" and words[i] in STEP_WORDS:
                words[i] = STEP_WORDS[words[i]]
        return " ".join(words)

    def deed(self, event: Any, seat: int) -> bool:
        """Whether `event` is `seat`'s doing: its seat's or its character's (the hand it
        names, the one attacking, the card resolving), unless the game did it (deals,
        shuffles, days and nights, trails, reveals, a trap springing)."""
        if isinstance(event, GAME_EVENTS):
            return False
        if isinstance(event, CardDrafted):
            return event.seat == seat
        hand = getattr(event, "hand", None)
        if isinstance(event, Damaged | Killed):
            kind, _, ref = event.by.partition(":")
            if kind in ("beast", "summon"):  # the Beast's summons are the Beast's
                hand = BEAST
            else:
                hand = int(ref) if kind == "hunter" and ref.isdigit() else None
        elif isinstance(event, BeastMoved):
            hand = BEAST
        elif hand is None and self.resolving:
            hand = self.resolving[-1].hand
        return hand is not None and self._controller(hand) == seat

    def _controller(self, hand: int) -> int | None:
        return self.controllers[hand] if 0 <= hand < len(self.controllers) else None

    def say(self, event: Any) -> str | None:
        """The sentence for a Beast event, or None for another game's."""
        text = self._setup(event) or self._movement(event) or self._map(event)
        text = text or self._cards(event) or self._reactions(event)
        text = text or self._fight(event) or self._night(event)
        return f"{text[:1].upper()}{text[1:]}" if text else None

    # -- setup and the draft --------------------------------------------------------------

    def _setup(self, event: Any) -> str | None:
        match event:
            case GameSetUp():
                text = self._cast(event)
                self.resolving = [Resolving(f"{self.hand(BEAST)}'s opening", MOVE, "", BEAST)]
                return text
            case DeckShuffled(deck=deck, order=order):
                shown = known(order)
                count = f" ({plural(len(shown), 'card')})" if shown else ""
                return f"The {deck} deck was shuffled face down{count}."
            case RowDealt(deck=deck, cards=cards):
                return f"{cards_words(cards)} were laid face up in the {deck} row."
            case PackDealt(seat=seat, pack=pack):
                shown = known(pack)
                text = f"{self.seat(seat)} was dealt a draft pack"
                return text + (f" ({cards_words(shown)})." if shown else ".")
            case CardSetAside(card=card):
                shown = known(card)
                return "An action card was set aside for the Beast" + (
                    f" ({shown})." if shown else "."
                )
            case CardDrafted(seat=seat, hand=hand, card=card, pooled=pooled):
                shown = known(card)
                what = shown if shown else "a card"
                whom = "for the hunters" if pooled else f"for {self.hand(hand)}"
                return f"{self.seat(seat)} kept {what} from the pack {whom}."
            case CardAssigned(hand=hand, card=card):
                shown = known(card)
                return f"{self.hand(hand)} was given " + (
                    f"{shown} from the draft." if shown else "a drafted card."
                )
            case PacksPassed(packs=packs):
                held = [
                    f"{self.seat(seat)} now holds {cards_words(shown)}"
                    for seat, pack in enumerate(packs)
                    if (shown := known(pack))
                ]
                return "The packs were passed on" + (f"; {'; '.join(held)}." if held else ".")
            case HandDealt(hand=hand, cards=cards):
                dealt = known(cards)
                if not dealt:
                    return f"{self.hand(hand)} was dealt action cards."
                return (
                    f"{self.hand(hand)} was dealt {plural(len(dealt), 'action card')} "
                    f"({cards_words(dealt)})."
                )
            case DayBegan(day=day):
                return f"Day {day} begins with the Beast."
        return None

    def _cast(self, event: GameSetUp) -> str:
        self.characters = [event.beast, *event.hunters]
        self.controllers = [0, *event.controllers]
        contract = contracts().get(event.contract)
        board = boards().get(contract.map) if contract is not None else None
        if contract is not None and board is not None:
            self.pieces = [
                (kind, loc)
                for loc in board.locations
                for kind in board.pieces.get(loc, ())
                if not contract.leaves_off(loc, kind)
            ]
        hunters = listing(
            [
                f"{name} ({self.seat(seat)})"
                for name, seat in zip(event.hunters, event.controllers, strict=False)
            ]
        )
        first = " It is a first game." if event.first_time else ""
        title = contract.title if contract is not None else event.contract.replace("-", " ")
        return (
            f"The contract is {title}. {self.seat(0)} plays the "
            f"Beast {event.beast}; the hunters are {hunters}.{first}"
        )

    # -- moving, trails, searching --------------------------------------------------------

    def _movement(self, event: Any) -> str | None:
        match event:
            case BeastMoved(card=card):
                step = known(card)
                card_name = self.resolving[-1].card if self.resolving else ""
                because = f" ({card_name})" if card_name else ""
                if step is None:
                    return f"The Beast moved (hidden){because}."
                if step.direction not in DIRECTIONS:
                    return f"{self.hand(BEAST)} stayed at {step.location} (No Movement){because}."
                return f"{self.hand(BEAST)} moved {step_words(step)}{because}."
            case TrailsPlaced(locations=locations):
                if not locations:
                    return "No trail appeared."
                return f"Trails appeared on {listing(list(locations))}."
            case BeastRevealed(cards=cards, location=location, cause=cause):
                steps = "; ".join(step_words(step) for step in cards)
                shown = f" Its movement cards: {steps}." if steps else ""
                return (
                    f"{self.hand(BEAST)} was revealed at {location} "
                    f"{CAUSES.get(cause, cause.replace('_', ' '))}.{shown}"
                )
            case HunterPlaced(hand=hand, location=location):
                return f"{self.hand(hand)} was placed in {location}."
            case HunterMoved(hand=hand, location=location):
                return f"{self.hand(hand)} moved to {location}."
            case Searched(hand=hand, location=location, found=found):
                result = "the Beast was there!" if found else "nothing was found"
                return f"{self.hand(hand)} searched {location}: {result}."
            case ZoneDisclosed(zones=zones):
                return f"The Beast disclosed that it is in {listing(list(zones), 'or')}."
        return None

    def _map(self, event: Any) -> str | None:
        match event:
            case SummonPlaced(summon=summon, location=location):
                return f"{summon_words(summon)} was placed at {location}."
            case SummonMoved(summon=summon, location=location):
                return f"{summon_words(summon)} moved to {location}."
            case SummonActed(summon=summon):
                return f"{summon_words(summon)} acted."
            case LocationsTransformed(locations=locations, habitat=habitat):
                return f"{listing(list(locations))} became {habitat}."
            case WatchtowerPlaced(location=location, moved_from=moved_from):
                if moved_from and moved_from in self.towers:
                    self.towers[self.towers.index(moved_from)] = location
                    return f"The watchtower on {moved_from} was moved to {location}."
                self.towers.append(location)
                return f"A watchtower was raised on {location}."
        return None

    # -- cards ----------------------------------------------------------------------------

    def _cards(self, event: Any) -> str | None:
        match event:
            case CardPlayed(hand=hand, card=card, slot=slot, hidden=hidden):
                if card == "trap":
                    shown = known(hidden)
                    self.resolving.append(
                        self._card(shown, hand) if shown else _FACE_DOWN._replace(hand=hand)
                    )
                    return f"{self.hand(hand)} played a trap face down" + (
                        f" ({shown})." if shown else "."
                    )
                if not card:
                    self.resolving.append(Resolving(f"{self.hand(hand)}'s flee", MOVE, "", hand))
                    return f"{self.hand(hand)} flees: one step of movement."
                self.resolving.append(self._card(card, hand))
                as_reaction = " as a reaction" if slot == "reaction" else ""
                return f"{self.hand(hand)} played {card_words(card, hand == BEAST)}{as_reaction}."
            case EffectChosen(index=index):
                return f"{_capital(self._current().effect(index))} was chosen."
            case EffectProgressed(index=index, done=done):
                return (
                    f"{_capital(self._current().effect(index))} {'is over' if done else 'goes on'}."
                )
            case CardResolved(card=card):
                resolved = self.resolving.pop() if self.resolving else None
                if card == "trap":
                    return "The trap was set."
                if not card or resolved is None or not resolved.card:
                    return f"{_capital(resolved.label if resolved else 'the move')} is over."
                return f"{resolved.label} was resolved{resolved.after}."
        return None

    def _reactions(self, event: Any) -> str | None:
        match event:
            case ReactionWindowOpened(trigger=trigger):
                return f"The Beast may react to the {trigger.replace('_', ' ')}."
            case ReactionWindowClosed():
                return "The Beast's chance to react is over."
            case ReactionsInvited(trigger=trigger, hands=hands):
                who = listing([self.hand(h) for h in hands], "or")
                return f"{who} may react to the Beast's {trigger.replace('_', ' ')}."
            case ReactionDeclined(hand=hand):
                return f"{self.hand(hand)} did not react."
            case CardDiscarded(hand=hand, card=card):
                return f"{self.hand(hand)} discarded {card_words(card, hand == BEAST)} face up."
            case CardDiscardedFaceDown(hand=hand, card=card):
                shown = known(card)
                return f"{self.hand(hand)} discarded a card face down" + (
                    f" ({shown})." if shown else "."
                )
            case CardGained(hand=hand, deck=deck, card=card, from_row=from_row):
                shown = known(card)
                where = "from the face-up row" if from_row else "from the top of the deck"
                what = f"the {deck} {shown}" if shown else f"an {deck} card"
                return f"{self.hand(hand)} gained {what} {where}."
            case CardCopied(hand=hand, card=card):
                self.resolving.append(self._card(card, hand, copied=True))
                return f"{self.hand(hand)} played the effect of {card} from the discard."
            case TurnEnded(hand=hand, passed=passed):
                ended = "passed" if passed else "ended their turn"
                return f"{self.hand(hand)} {ended}."
        return None

    def _current(self) -> Resolving:
        return self.resolving[-1] if self.resolving else _FACE_DOWN

    def _card(self, card: str, hand: int, copied: bool = False) -> Resolving:
        """A card played (or copied) by `hand`, with its effects for that side."""
        try:
            effects: tuple[Effect, ...] | None = side_of(card, hand == BEAST).effects
            kind = kind_of(card)
        except KeyError:  # a forged name: said as it is, its effects unknown
            effects, kind = None, ""
        after = "" if copied else AFTER.get(kind, "")
        return Resolving(card, effects, card, hand, after)

    def _upgrade(self, hand: int, name: str) -> Resolving | None:
        """An upgrade that acts at once (it is resolved like a card), else None."""
        character = self.hand(hand)
        try:
            mat = beast_mat(character) if hand == BEAST else hunter_mat(character)
        except KeyError:
            return None
        upgrade = next((u for u in mat.upgrades if u.name == name), None)
        if upgrade is None or upgrade.kind != "immediate":
            return None
        return Resolving(f"{character}'s upgrade {name}", upgrade.effects, name, hand)

    # -- fights -------------------------------------------------------------------------

    def _target(self, kind: str, ref: str) -> str:
        if kind == "beast":
            return self.hand(BEAST)
        if kind == "hunter" and ref.isdigit():
            return self.hand(int(ref))
        if kind == "piece" and ref.isdigit() and int(ref) < len(self.pieces):
            piece, location = self.pieces[int(ref)]
            return f"the {piece} on {location}"
        if kind == "tower" and ref.isdigit() and int(ref) < len(self.towers):
            return f"the watchtower on {self.towers[int(ref)]}"
        if kind == "summon":
            return summon_words(ref)
        return f"a {kind}"

    def _by(self, by: str) -> str:
        if by == "beast":
            return self.hand(BEAST)
        kind, _, ref = by.partition(":")
        if kind == "hunter" and ref.isdigit():
            return self.hand(int(ref))
        if kind == "summon":
            return summon_words(ref)
        return f"a {kind}" if kind in ("trap",) else by.replace(":", " ")

    def _fight(self, event: Any) -> str | None:
        match event:
            case Damaged(kind=kind, ref=ref, amount=amount, by=by):
                return (
                    f"{self._by(by)} dealt {plural(amount, 'wound')} to {self._target(kind, ref)}."
                )
            case Killed(kind=kind, ref=ref, by=by):
                return f"{self._target(kind, ref)} was killed by {self._by(by)}."
            case HunterLooted(hand=hand, card=card):
                shown = known(card)
                return f"{self.hand(BEAST)} took an action card from {self.hand(hand)}" + (
                    f" ({shown})." if shown else "."
                )
            case GrudgesGained(hand=hand, amount=amount):
                verb = "gained" if amount >= 0 else "paid"
                return f"{self.hand(hand)} {verb} {plural(abs(amount), 'grudge')}."
            case PowersGained(hand=hand, amount=amount):
                verb = "gained" if amount >= 0 else "used"
                return f"{self.hand(hand)} {verb} {plural(abs(amount), 'ancient power')}."
            case Healed(hand=hand, amount=amount):
                return f"{self.hand(hand)} healed {plural(amount, 'wound')}."
            case TrapSet(zone=zone, trap=trap):
                shown = known(trap)
                detail = f" ({shown.card} on {shown.habitat})" if shown else ""
                return f"A trap was set in the {zone} zone{detail}."
            case TrapTriggered(zone=zone, card=card, habitat=habitat):
                return f"The {card} in the {zone} zone sprang ({habitat})."
        return None

    # -- night and the end ----------------------------------------------------------------

    def _night(self, event: Any) -> str | None:
        match event:
            case NightFell(night=night):
                return f"Everyone passed: night {night} falls."
            case RewardEarned(side=side, night=night):
                who = "The Beast" if side == "beast" else "The hunters"
                return f"{who} met night {night}'s requirement and earned its reward."
            case NightReset():
                return (
                    "The night cleared the action hands and the rows; abilities came back "
                    "and wounds left pieces and towers."
                )
            case Upgraded(hand=hand, upgrade=upgrade):
                if (immediate := self._upgrade(hand, upgrade)) is not None:
                    self.resolving.append(immediate)
                return f"{self.hand(hand)} unlocked {upgrade}."
            case UpgradesDone(hand=hand):
                return f"{self.hand(hand)} finished upgrading."
            case BeastRestored():
                return f"{self.hand(BEAST)} rose again at full health."
            case GameFinished(outcome=outcome):
                if not outcome.ranking:
                    return None
                winners = outcome.ranking[0]
                side = "The Beast wins" if BEAST in winners else "The hunters win"
                return f"The game is over ({termination_words(outcome.termination)}): {side}."
        return None


_FACE_DOWN = Resolving("a face-down card", None)
GAME_EVENTS = (
    GameSetUp,
    DeckShuffled,
    RowDealt,
    PackDealt,
    PacksPassed,
    HandDealt,
    CardSetAside,
    DayBegan,
    TrailsPlaced,
    BeastRevealed,
    ZoneDisclosed,
    ReactionWindowOpened,
    ReactionWindowClosed,
    ReactionsInvited,
    HunterLooted,
    TrapTriggered,
    NightFell,
    RewardEarned,
    NightReset,
    BeastRestored,
    GameFinished,
)
"""What the game does, whichever decision set it off."""


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def narrator(players: tuple[str, ...]) -> BeastNarrator:
    """The Beast narrator for a table."""
    return BeastNarrator(players)
