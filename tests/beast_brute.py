"""Pen and paper for a Beast viewer's items and talents: every hidden history its redacted
log allows, enumerated, to check `possible` (projections/beast/knowledge/possible.py) against.

A world is where every item and talent the viewer has seen by name lies (a hand, a deck,
a discard, a row, a played card), each other card being a blank of its kind (a card the
viewer never saw, all alike). The log is read event by event as the viewer reads it; at
each event whose card it cannot see, every card that could be the one is tried (a flee's
face-down discard: any item or talent of the hand; a card taken unseen from a deck: any
card of it, the deck's order being unseen), and a world is dropped where a seen card
could not have come from where the event takes it. Decks are kept as sets, so a
reshuffle needs no branching: which card is drawn branches when it is drawn.

Independent of the model: it never reads the shadow, its tokens or its groups. It does
read the real state's public parts (which card a resolved frame holds) beside the log.
Traps, undo and hidden trap plays are not modelled (`Unsupported`): the scripted games
that use it have none.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from skald.core.beast.data import card_index, cards, kind_of
from skald.core.beast.evolve import evolve
from skald.core.beast.state import BeastState
from skald.core.rules import get_rules
from skald.events.beast import (
    CardDiscarded,
    CardDiscardedFaceDown,
    CardGained,
    CardPlayed,
    CardResolved,
    DeckShuffled,
    Killed,
    NightReset,
    RowDealt,
    TrapSet,
    TrapTriggered,
)
from skald.events.common import DecisionRedone, DecisionUndone
from skald.events.secret import redact
from skald.events.viewer import Viewer

KINDS = ("item", "talent")
BLANK = {"item": "_item", "talent": "_talent"}
World = dict[str, tuple[str, ...]]  # place -> its cards, sorted (names and blanks)
Key = tuple[tuple[str, tuple[str, ...]], ...]


class Unsupported(Exception):
    """An event this brute force does not model."""


def _key(world: World) -> Key:
    return tuple(sorted(world.items()))


def _sorted(held: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(held))


def _without(held: tuple[str, ...], card: str) -> tuple[str, ...]:
    left = list(held)
    left.remove(card)
    return tuple(left)


def _named(world: World) -> set[str]:
    return {c for held in world.values() for c in held if c not in BLANK.values()}


def _take(world: World, place: str, name: str) -> World | None:
    """`world` with seen card `name` gone from `place` (as itself, or a blank there if the
    world has not named it), or None if it cannot have come from there."""
    held = world[place]
    if name in held:
        return {**world, place: _without(held, name)}
    blank = BLANK[_kind(name)]
    if blank in held and name not in _named(world):
        return {**world, place: _without(held, blank)}
    return None


def _kind(card: str) -> str:
    """item or talent (a blank's too)."""
    return card[1:] if card in BLANK.values() else kind_of(card)


def _put(world: World, place: str, card: str) -> World:
    return {**world, place: _sorted((*world[place], card))}


def _hand_place(hand: int) -> str:
    return f"extras/{hand}"


class Brute:
    """Every world of one viewer's log so far (`read` event by event)."""

    def __init__(self, viewer: Viewer, hands: int) -> None:
        self.viewer = viewer
        empty: World = {_hand_place(h): () for h in range(hands)}
        for kind in KINDS:
            for suffix in ("deck", "discard", "row", "frame"):
                empty[f"{kind}_{suffix}"] = ()
        self.worlds: dict[Key, World] = {_key(empty): empty}

    def read(self, event: Any, before: BeastState) -> None:
        """Every world after `event` (the real event; only what the viewer sees of it is
        used) in a game whose public state before it is `before`."""
        shown = redact(event, self.viewer)
        after: dict[Key, World] = {}
        for world in self.worlds.values():
            for following in self._step(world, event, shown, before):
                after[_key(following)] = following
        if not after:
            raise AssertionError(f"no world is left after {type(event).__name__}")
        self.worlds = after

    def _sees(self, secret: Any) -> bool:
        return self.viewer.sees(secret.audience)

    def _step(self, world: World, event: Any, shown: Any, before: BeastState) -> list[World]:  # noqa: C901 (one case per event type)
        match event:
            case DecisionUndone() | DecisionRedone():
                raise Unsupported(type(event).__name__)
            case TrapSet() | TrapTriggered():
                card = event.card if isinstance(event, TrapTriggered) else before.frames[-1].card
                if card in card_index() and kind_of(card) in KINDS:
                    raise Unsupported("an item trap")
            case DeckShuffled(deck=deck) if deck in KINDS:
                pile = world[f"{deck}_discard"]
                if not pile and not world[f"{deck}_deck"]:  # the set-up shuffle
                    pile = (BLANK[deck],) * len(getattr(cards(), deck))
                merged = _sorted((*world[f"{deck}_deck"], *pile))
                return [{**world, f"{deck}_deck": merged, f"{deck}_discard": ()}]
            case RowDealt(deck=deck, cards=dealt) if deck in KINDS:
                for name in dealt:
                    taken = _take(world, f"{deck}_deck", name)
                    if taken is None:
                        return []
                    world = _put(taken, f"{deck}_row", name)
                return [world]
            case CardGained(deck=deck) if deck in KINDS:
                return self._gained(world, event, shown)
            case CardPlayed(card=card) if card in card_index() and kind_of(card) in KINDS:
                if event.hidden is not None:
                    raise Unsupported("a trap played face down")
                taken = _take(world, _hand_place(event.hand), card)
                return [] if taken is None else [_put(taken, f"{kind_of(card)}_frame", card)]
            case CardResolved():
                card = before.frames[-1].card if before.frames else ""
                slot = before.frames[-1].slot if before.frames else ""
                if not card or slot in ("copy", "upgrade", "start", "flee"):
                    return [world]
                if kind_of(card) not in KINDS:
                    return [world]
                kind = kind_of(card)
                return [
                    _put(
                        {**world, f"{kind}_frame": _without(world[f"{kind}_frame"], card)},
                        f"{kind}_discard",
                        card,
                    )
                ]
            case CardDiscarded(card=card) if card in card_index() and kind_of(card) in KINDS:
                taken = _take(world, _hand_place(event.hand), card)
                return [] if taken is None else [_put(taken, f"{kind_of(card)}_discard", card)]
            case CardDiscardedFaceDown():
                place = _hand_place(event.hand)
                options = [shown.card.get()] if self._sees(shown.card) else set(world[place])
                found = []
                for card in options:
                    taken = _take(world, place, card)
                    if taken is not None:
                        found.append(_put(taken, f"{_kind(card)}_discard", card))
                return found
            case NightReset():
                for kind in KINDS:
                    pile = _sorted((*world[f"{kind}_discard"], *world[f"{kind}_row"]))
                    world = {**world, f"{kind}_discard": pile, f"{kind}_row": ()}
                return [world]
            case Killed(kind="hunter", ref=ref):
                place = _hand_place(int(ref))
                pile = _sorted((*world["item_discard"], *world[place]))
                return [{**world, "item_discard": pile, place: ()}]
        return [world]

    def _gained(self, world: World, event: CardGained, shown: CardGained) -> list[World]:
        deck, hand = event.deck, _hand_place(event.hand)
        pile = f"{deck}_row" if event.from_row else f"{deck}_deck"
        if self._sees(shown.card):
            taken = _take(world, pile, shown.card.get())
            return [] if taken is None else [_put(taken, hand, shown.card.get())]
        return [_put({**world, pile: _without(world[pile], c)}, hand, c) for c in set(world[pile])]

    # -- what the worlds say ------------------------------------------------------------

    def places(self, hidden: Iterable[str]) -> set[frozenset[tuple[str, str]]]:
        """Each world as (card, place) for the named cards in the `hidden` places."""
        hidden = set(hidden)
        return {
            frozenset(
                (c, place)
                for place, held in world.items()
                if place in hidden
                for c in held
                if c not in BLANK.values()
            )
            for world in self.worlds.values()
        }

    def may_hold(self, hidden: Iterable[str]) -> dict[str, set[str]]:
        """Per hidden place, every card it holds in some world (a blank: every card of its
        kind the viewer never saw)."""
        found: dict[str, set[str]] = {}
        for world in self.worlds.values():
            never = {k: {c.name for c in getattr(cards(), k)} - _named(world) for k in KINDS}
            for place in hidden:
                for card in world.get(place, ()):
                    if card in BLANK.values():
                        found.setdefault(place, set()).update(never[card[1:]])
                    else:
                        found.setdefault(place, set()).add(card)
        return found

    def hidden(self, state: BeastState) -> set[str]:
        """The places of items and talents the viewer cannot see into."""
        found = {f"{k}_{s}" for k in KINDS for s in ("deck", "discard")}
        seen = (h for h in range(len(state.hands)) if not self.viewer.sees(state.team(h)))
        return found | {_hand_place(h) for h in seen}

    def check_sizes(self, state: BeastState) -> None:
        """Every world holds as many cards in each place as the real state, and the very
        cards of every place the viewer sees."""
        real = {
            **{_hand_place(h): hand.extras for h, hand in enumerate(state.hands)},
            **{
                f"{k}_{s}": getattr(state, f"{k}_{s}")
                for k in KINDS
                for s in ("deck", "discard", "row")
            },
        }
        hidden = self.hidden(state)
        for world in self.worlds.values():
            for place, held in real.items():
                assert len(world[place]) == len(held), (place, world[place], held)
                if place not in hidden:
                    assert world[place] == _sorted(held), (place, world[place], held)


def replay(log: list[Any], viewer: Viewer, check: bool = True) -> Brute:
    """The brute force over the whole log (GameCreated first)."""
    rules = get_rules("beast")
    state = rules.initial(log[0])
    brute = Brute(viewer, 5)
    for event in log[1:]:
        if not type(event).__module__.endswith("events.beast"):
            if isinstance(event, (DecisionUndone, DecisionRedone)):
                raise Unsupported(type(event).__name__)
            continue
        brute.read(event, state)
        state = evolve(state, event)
        if check:
            brute.check_sizes(state)
    return brute


# -- the model's worlds, to compare ---------------------------------------------------------


def model_worlds(possible: Any, places: Iterable[str]) -> set[frozenset[tuple[str, str]]]:
    """Every world of `possible` as (card, place) for the named items and talents in
    `places`: its seen cards there, and each group's cards put on its tokens in every way
    its constraints allow (tokens alike in place and bounds taken as one class)."""
    import itertools

    places = set(places)
    place_of = {c: h.place for h in possible.holdings for c in h.cards}
    seen = frozenset(
        (c, h.place)
        for h in possible.holdings
        if h.place in places
        for c in h.cards
        if not c.startswith("?")
    )
    per_group = [
        _group_worlds(group, place_of)
        for group in possible.groups
        if any(place_of[t] in places for t in group.tokens)
    ]
    return {seen.union(*combo) for combo in itertools.product(*per_group)}


def _group_worlds(group: Any, place_of: dict[str, str]) -> set[frozenset[tuple[str, str]]]:
    """Every placement of the group's cards on its token classes that some alternative's
    bounds all allow. A partial placement is given up once no alternative can still hold
    (each bound checked for what it can still become: a barred card placed on its tokens,
    or too few of its cards left for its `least`), and a whole one is checked with the
    bounds themselves, as before: the same worlds, without walking every dead branch (a
    Beast game's groups have millions)."""
    ways = group.alternatives
    every = [b for way in ways for b in way]
    classes: dict[tuple[str, frozenset[int]], list[str]] = {}
    for token in group.tokens:
        key = (place_of[token], frozenset(i for i, b in enumerate(every) if token in b.tokens))
        classes.setdefault(key, []).append(token)
    keys = list(classes)
    sizes = [len(classes[key]) for key in keys]
    on = [[k for k, key in enumerate(keys) if j in key[1]] for j in range(len(every))]
    wanted = [set(b.cards) for b in every]
    barred = [set(b.barred) for b in every]
    cards = group.cards
    # left[i][j]: how many of bound j's cards are among the cards still to place from i on
    left = [
        [sum(c in wanted[j] for c in cards[i:]) for j in range(len(every))]
        for i in range(len(cards) + 1)
    ]
    per_way: list[list[int]] = []
    start = 0
    for way in ways:
        per_way.append(list(range(start, start + len(way))))
        start += len(way)
    found: set[frozenset[tuple[str, str]]] = set()

    def possible(j: int, i: int, used: tuple[int, ...], has: list[int], dead: set[int]) -> bool:
        if j in dead:
            return False
        free = sum(sizes[k] - used[k] for k in on[j])
        return has[j] + min(left[i][j], free) >= every[j].least

    def place(i: int, used: tuple[int, ...], names: dict[str, str], has: list[int],
              dead: set[int]) -> None:  # fmt: skip
        if not any(all(possible(j, i, used, has, dead) for j in js) for js in per_way):
            return
        if i == len(cards):
            if any(all(b.holds(names) for b in way) for way in ways):
                found.add(frozenset((c, place_of[t]) for t, c in names.items()))
            return
        card = cards[i]
        for k, key in enumerate(keys):
            if used[k] < sizes[k]:
                token = classes[key][used[k]]
                after = (*used[:k], used[k] + 1, *used[k + 1 :])
                more, gone = list(has), set(dead)
                for j in key[1]:
                    more[j] += card in wanted[j]
                    if card in barred[j]:
                        gone.add(j)
                place(i + 1, after, {**names, token: card}, more, gone)

    place(0, tuple(0 for _ in keys), {}, [0] * len(every), set())
    return found
