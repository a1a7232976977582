"""Bounds: the overlapping constraints that make a Beast viewer's groups of unseen cards
exact (`groups`), and the small search that answers what they allow.

A group says that its tokens hold every card of its cards, the rest of them being cards
in no group. A `Bound` inside a group narrows it: its tokens hold none of its `barred`
cards and at least `least` of its `cards`. Bounds may share tokens with each other, which
groups may not: they say what merging groups into one loses.

They come from an unseen card leaving a place (`mixed`, for `joined`): the place's items
and the card gone then hold, in any order, what the place held. Each group that had
tokens both there and elsewhere keeps, on its tokens elsewhere (untouched), a bound: none
of the merged group's other cards (the seen cards of the place, the other groups' cards)
lies there, and at least as many of its own cards as its tokens in the place could not
hold. With the merged group (all the cards among all the tokens) that is exactly the set
of worlds the log leaves (tests/test_beast_bounds.py checks it against every hidden
history of small random positions; tests/test_beast_exact.py the two smallest cases). A
bound already on some of the place's tokens (not all) says more than any handful of
counts can state once an unseen card leaves the place: the group keeps each reading the
log leaves as an alternative (`normal`), exact up to `WAYS` of them, past which only the
bounds they share are kept (sound, and wider).

A seen card leaving a place was a token of its group there the bounds let hold it
(`picked`: the bounds containing it lose it and the card). Where tokens there in
different bounds may each have been it, the log does not say which: each is kept as an
alternative (groups `_fitting`: that token and the one taken exchanged). A
token gone without the viewer knowing which card it held (a night naming a hand's cards)
takes one from the `least` of each bound it was in (`cleared`).

The search (`spread`) is exact and brute force, memoised: a group's tokens fall into
classes (a place and the bounds they are in, each class with a capacity); one pass over
the group's cards puts each into a class, keeping the bounds' counts so far and only the
partial placements that can still be completed, so it gives each card's possible places
and the places where a token may hold a card in no group. A bipartite matching would not
do: a bound's `least` is a lower count over a set of tokens, and bounds overlap. Groups
hold a few cards (a draft pack's, a hand's) on a few places, so the states stay few, and
a group without bounds needs no search at all.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable, Mapping
from functools import cache

import msgspec

CAP = 1000
"""Draws of a group's cards rejected for a bound before `dealt` falls back (see there)."""
WAYS = 64
"""Alternatives a group keeps before it keeps only what they all say (`normal`)."""


class Bound(msgspec.Struct, frozen=True):
    """Tokens of a group that hold none of `barred` and at least `least` of `cards`."""

    tokens: tuple[str, ...]
    cards: tuple[str, ...] = ()
    least: int = 0
    barred: tuple[str, ...] = ()

    def holds(self, names: Mapping[str, str]) -> bool:
        """The names on the tokens (`names`: token -> card, a group's) meet the bound."""
        on = [names[t] for t in self.tokens if t in names]
        return not set(on) & set(self.barred) and sum(c in self.cards for c in on) >= self.least

    def allows(self, card: str) -> bool:
        """A card of the group may lie on its tokens."""
        return card not in self.barred


def _bound(
    tokens: Iterable[str], cards: Iterable[str], least: int, barred: Iterable[str]
) -> list[Bound]:
    """The bound, or none where it says nothing (one no placement meets is kept: a bound
    on no token that wants a card says that the world it belongs to is not possible)."""
    tokens, cards = tuple(tokens), tuple(sorted(set(cards)))
    barred = tuple(sorted(set(barred) - set(cards)))
    least = max(0, least)
    if not least and (not tokens or not barred):
        return []
    return [Bound(tokens, cards, least, barred)]


def belonging(tokens: tuple[str, ...], cards: tuple[str, ...], every: Iterable[str]) -> list[Bound]:
    """A former group written as a bound of the group it joins: its tokens hold every card
    of its cards and none of the others of `every`."""
    return _bound(tokens, cards, len(cards), set(every) - set(cards))


def moved(
    place: tuple[str, ...],
    touched: Iterable[tuple[tuple[str, ...], tuple[str, ...], tuple[tuple[Bound, ...], ...]]],
    every: Iterable[str],
    named: Mapping[str, str] | None = None,
    loose: Iterable[str] = (),
) -> tuple[tuple[Bound, ...], ...]:
    """The alternatives (`Ways`) after an unseen card left `place` (all tokens now, the first
    one the card gone) that held tokens of the `touched` groups (tokens, cards, their
    alternatives), merged into one group with the cards `every` (`named`: the place's
    tokens that were seen cards, by name; `loose`: its tokens in no group). Where no bound
    covers part of the place, `mixed` says it in one conjunction; where one does, the
    worlds before are written out (each group's tokens hold its cards and none of the
    others', each named token its card, each loose token none) and the card gone was a
    token of any class of the place (`swapped` onto the first): one alternative each."""
    here, every = set(place), tuple(every)
    touched, named = list(touched), dict(named or {})
    found: list[tuple[Bound, ...]] = []
    for chosen in itertools.product(*(ways for _, _, ways in touched)):
        parts = [(t, c, b) for (t, c, _), b in zip(touched, chosen, strict=True)]
        if not any(_partly(b, here) for _, _, bounds in parts for b in bounds):
            found.append(mixed(place, parts, every))
            continue
        written = [b for _, _, bounds in parts for b in bounds]
        if len(parts) > 1 or named or loose:
            for tokens, cards, _ in parts:
                written += belonging(tokens, cards, every)
            for token, name in named.items():
                written += _bound((token,), (name,), 1, ())
            written += _bound(tuple(loose), (), 0, every)
        way = tuple(written)
        found += [swapped(way, token, place[0]) for token in classes(place, way)]
    return tuple(found)


def _partly(bound: Bound, here: set[str]) -> bool:
    """The bound covers some of the place's tokens, not all."""
    return any(t in here for t in bound.tokens) and not here <= set(bound.tokens)


def mixed(
    place: Iterable[str],
    touched: Iterable[tuple[tuple[str, ...], tuple[str, ...], tuple[Bound, ...]]],
    every: Iterable[str],
) -> tuple[Bound, ...]:
    """The bounds after an unseen card left `place` (its tokens, the card gone one of them)
    that held tokens of the `touched` groups (tokens, cards, bounds), merged into one group
    with the cards `every` (see the module docstring), where no bound covers part of it."""
    place = tuple(place)
    here, every = set(place), set(every)
    found: list[Bound] = []
    for tokens, cards, bounds in touched:
        away = [t for t in tokens if t not in here]
        if len(away) < len(tokens):
            least = len(cards) - (len(tokens) - len(away))
            found += _bound(away, cards, least, every - set(cards))
        found += bounds
    return tuple(found)


def classes(tokens: Iterable[str], bounds: tuple[Bound, ...]) -> list[str]:
    """One of `tokens` for each set of bounds they are in (tokens alike for the bounds)."""
    found: dict[frozenset[int], str] = {}
    for token in tokens:
        found.setdefault(frozenset(i for i, b in enumerate(bounds) if token in b.tokens), token)
    return list(found.values())


def swapped(bounds: tuple[Bound, ...], one: str, other: str) -> tuple[Bound, ...]:
    """The bounds with tokens `one` and `other` exchanged (two tokens of one place: the
    same worlds, place by place, with the other token named as the one that moves)."""
    if one == other:
        return bounds
    swap = {one: other, other: one}
    return tuple(
        msgspec.structs.replace(b, tokens=tuple(swap.get(t, t) for t in b.tokens)) for b in bounds
    )


def picked(bounds: tuple[Bound, ...], token: str, name: str | None) -> tuple[Bound, ...]:
    """The bounds once `token` is known to have held `name` (None: a card in no group) and
    has left the group."""
    found: list[Bound] = []
    for bound in bounds:
        mine = token in bound.tokens
        tokens = tuple(t for t in bound.tokens if t != token)
        cards = tuple(c for c in bound.cards if c != name)
        least = bound.least - (mine and name in bound.cards)
        found += _bound(tokens, cards, least, (c for c in bound.barred if c != name))
    return tuple(found)


def cleared(
    bounds: tuple[Bound, ...], tokens: Iterable[str], cards: Iterable[str]
) -> tuple[Bound, ...]:
    """The bounds of a group left with `tokens` and `cards`: each token gone may have held
    one of a bound's cards (its `least` falls by one), each card gone lies elsewhere."""
    present, left = set(tokens), set(cards)
    found: list[Bound] = []
    for bound in bounds:
        kept = [t for t in bound.tokens if t in present]
        least = bound.least - (len(bound.tokens) - len(kept))
        own = [c for c in bound.cards if c in left]
        if least > min(len(kept), len(own)):  # not what the group allows: let it go (wider)
            continue
        found += _bound(kept, own, least, (c for c in bound.barred if c in left))
    return tuple(found)


# -- the search ------------------------------------------------------------------------


class Spread(msgspec.Struct, frozen=True):
    """What a group allows: each card's possible places, the places where one of its tokens
    may hold a card in no group, and whether it allows anything at all."""

    cards: dict[str, frozenset[str]]
    room: frozenset[str]
    feasible: bool


def spread(
    tokens: tuple[str, ...],
    cards: tuple[str, ...],
    bounds: tuple[Bound, ...],
    place_of: Callable[[str], str] = lambda _: "",
    fixed: Mapping[str, str] | None = None,
) -> Spread:
    """Every placement of `cards` on `tokens` the bounds allow, by place (`place_of` each
    token's; `fixed`: a card -> the place it must be in, to check a real state)."""
    if not bounds and fixed is None:  # any token may hold any card
        homes = frozenset(map(place_of, tokens))
        room = homes if len(tokens) > len(cards) else frozenset()
        return Spread(dict.fromkeys(cards, homes), room, len(tokens) >= len(cards))
    classes: dict[tuple[str, frozenset[int]], int] = {}
    for token in tokens:
        key = (place_of(token), frozenset(i for i, b in enumerate(bounds) if token in b.tokens))
        classes[key] = classes.get(key, 0) + 1
    keys = list(classes)
    allowed = [
        [
            k
            for k, (place, inside) in enumerate(keys)
            if all(bounds[i].allows(card) for i in inside)
            and (fixed is None or fixed.get(card, place) == place)
        ]
        for card in cards
    ]
    least = tuple(b.least for b in bounds)
    counts = [[int(card in b.cards) for b in bounds] for card in cards]

    def step(
        state: tuple[tuple[int, ...], tuple[int, ...]], i: int, k: int
    ) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        room, got = state
        if not room[k]:
            return None
        room = (*room[:k], room[k] - 1, *room[k + 1 :])
        inside = keys[k][1]
        got = tuple(min(n + counts[i][j] * (j in inside), least[j]) for j, n in enumerate(got))
        return room, got

    @cache
    def completes(i: int, state: tuple[tuple[int, ...], tuple[int, ...]]) -> bool:
        if i == len(cards):
            return state[1] == least
        return any(
            (after := step(state, i, k)) is not None and completes(i + 1, after) for k in allowed[i]
        )

    start = (tuple(classes.values()), tuple(0 for _ in bounds))
    if not completes(0, start):
        return Spread({c: frozenset() for c in cards}, frozenset(), False)
    places: dict[str, set[str]] = {c: set() for c in cards}
    level = {start}
    for i, card in enumerate(cards):
        following = set()
        for state in level:
            for k in allowed[i]:
                after = step(state, i, k)
                if after is not None and completes(i + 1, after):
                    following.add(after)
                    places[card].add(keys[k][0])
        level = following
    room = frozenset(keys[k][0] for state in level for k, n in enumerate(state[0]) if n)
    return Spread({c: frozenset(p) for c, p in places.items()}, room, True)


def spread_any(
    tokens: tuple[str, ...],
    cards: tuple[str, ...],
    ways: tuple[tuple[Bound, ...], ...],
    place_of: Callable[[str], str] = lambda _: "",
    fixed: Mapping[str, str] | None = None,
) -> Spread:
    """`spread` over the worlds of any of the alternatives `ways` (their union)."""
    found = [s for s in (spread(tokens, cards, w, place_of, fixed) for w in ways) if s.feasible]
    if not found:
        return Spread({c: frozenset() for c in cards}, frozenset(), False)
    return Spread(
        {c: frozenset().union(*(s.cards[c] for s in found)) for c in cards},
        frozenset().union(*(s.room for s in found)),
        True,
    )


def dealt(
    tokens: tuple[str, ...],
    cards: tuple[str, ...],
    ways: tuple[tuple[Bound, ...], ...],
    rnd: random.Random,
) -> dict[str, str]:
    """A token for each card (token -> card), uniformly among the placements any of the
    alternatives `ways` allows: a uniform placement on the tokens, drawn again while every
    alternative rejects it (without bounds, the one draw `sample` always made). After `CAP`
    rejections (a chance of (1 - a)^CAP for a share a of draws accepted), a placement
    built one card at a time among the tokens the search leaves it: always allowed, no
    longer uniform."""
    for _ in range(CAP if any(ways) else 1):
        names = dict(zip(rnd.sample(tokens, len(cards)), cards, strict=True))
        if any(all(b.holds(names) for b in way) for way in ways):
            return names
    return _built(tokens, cards, ways, rnd)


def _built(
    tokens: tuple[str, ...],
    cards: tuple[str, ...],
    ways: tuple[tuple[Bound, ...], ...],
    rnd: random.Random,
) -> dict[str, str]:
    """A placement some alternative allows, one card at a time on a token the search
    leaves it."""
    names: dict[str, str] = {}
    free = list(tokens)
    for index, card in enumerate(cards):
        rest = cards[index + 1 :]
        options = []
        for token in free:
            fixed = {**{c: t for t, c in names.items()}, card: token}
            if spread_any(
                tuple(free + list(names)),
                (*names.values(), card, *rest),
                ways,
                lambda t: t,
                fixed,
            ).feasible:
                options.append(token)
        if not options:
            raise ValueError(f"beast sample: no placement of {card} meets the bounds")
        token = rnd.choice(options)
        names[token] = card
        free.remove(token)
    return names


def normal(
    tokens: tuple[str, ...], cards: tuple[str, ...], ways: Iterable[tuple[Bound, ...]]
) -> tuple[tuple[Bound, ...], tuple[tuple[Bound, ...], ...]]:
    """Alternatives as a group keeps them: the bounds they all share, and what each says
    besides (none where one is left). Alternatives no placement meets are dropped, the
    same ones once; past `WAYS` of them, only the shared bounds are kept (wider)."""
    unique = list(dict.fromkeys(tuple(sorted(set(w), key=repr)) for w in ways))
    feasible = [w for w in unique if spread(tokens, cards, w).feasible] or unique[:1]
    if len(feasible) > WAYS:
        feasible = [tuple(b for b in feasible[0] if all(b in w for w in feasible[1:]))]
    shared = tuple(b for b in feasible[0] if all(b in w for w in feasible[1:]))
    if len(feasible) == 1:
        return shared, ()
    return shared, tuple(tuple(b for b in w if b not in shared) for w in feasible)
