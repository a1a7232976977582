"""Groups of unseen cards (action cards, items, talents) a Beast viewer knows the names
of, not the places: a set of tokens of its shadow (`shadow`) that
together hold every card of a set of cards, their other cards (as many as the tokens
beyond those cards) being any unseen cards in no group.

The draft makes them, and so does every unseen card leaving a place whose cards the
viewer knows some of: a loot from a hand, a face-down discard of an item or talent (the
hand's seen cards, its tokens and the card discarded become one group: each seen card is
still in the hand or is the one on the discard pile), a card taken unseen from a deck
that holds such tokens or known cards (a reshuffled discard). In the draft, when someone
the viewer cannot see takes a card from a pack whose cards it knows (it saw the pack, or
knows it holds a group's cards), the pack's cards become one group and the card taken
one of its tokens (`joined`), so the picks from it keep, wherever they go, that they are
among those cards; when the pack comes back to the viewer, the cards still in it are
named, and what is left of the group is exactly the cards gone. The hunter player's pool
(two players) is one place where its picks wait: a card given from it to a hunter unseen
joins the pool's cards, seen and unseen, into one group across the hunters' hands.

A group is kept as the shadow changes (`settled`, after every event while there is
one): a token no longer in the shadow and a card of the group now named there leave it
together (a card seen leaving a hand is a token of its group there: `pick_token`); a
group with no other cards whose tokens all lie in one place names them there. When what
leaves does not match (a token gone without a card of its group showing), the group is
dropped: its tokens become any unseen card again, wider than the viewer's deduction,
never narrower. Where tokens of several groups, or a group's and one in none, may be the
one an unseen move takes, the groups are joined (`joined`).

How exact it is. An unseen card leaves a place whose cards may each be the one (a hand,
a pack, the pool, a deck): after it, the place and where the card went hold the same
cards as the place did, in any order. The merge of the place's groups, its seen cards and
its other tokens into one group says that all those cards lie among those tokens; what it
loses, where two constraints meet and one reaches out of the place (a seen card, or a
group wholly in the place, beside a group with a token elsewhere; two groups that each
reach out), the merged group keeps as bounds (`bounds`: each former
group's tokens elsewhere hold none of the merged group's other cards, and at least as
many of their own as the place could not hold). No answer made of groups that share no
token is exact there; the merged group with its bounds is: its worlds are those the log
leaves (tests/test_beast_exact.py, the two smallest cases; tests/test_beast_bounds.py,
small random positions against every hidden history). Where the log leaves several
readings (a later move meeting a bound on part of a place, a seen card that tokens in
different bounds may each have held, a card in no group leaving a place holding tokens of
two groups with room) the group keeps each as an alternative (`Group.ways`, see
`bounds.normal`), exact up to `WAYS` of them. It stays wider, never
narrower, past that many, and where a group is dropped (above).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable
from itertools import product

import msgspec

from skald.core.beast.state import BeastState
from skald.projections.beast.knowledge.bounds import (
    Bound,
    belonging,
    classes,
    cleared,
    moved,
    normal,
    picked,
    spread,
    swapped,
)
from skald.projections.beast.knowledge.places import places

Ways = tuple[tuple[Bound, ...], ...]

replace = msgspec.structs.replace


class Group(msgspec.Struct, frozen=True):
    """Unseen cards (`tokens`) that hold every card of `cards` (no more than the tokens),
    the rest of them being any unseen cards in no group, as its `bounds` allow
    (`bounds`: tokens of it that hold none of some of its cards, and at
    least so many of others)."""

    tokens: tuple[str, ...]
    cards: tuple[str, ...]
    bounds: tuple[Bound, ...] = ()
    ways: Ways = ()
    """Alternatives, one of which holds besides `bounds` (none: `bounds` alone)."""

    @property
    def alternatives(self) -> Ways:
        """Each conjunction of bounds any world meets one of."""
        return tuple((*self.bounds, *way) for way in self.ways) or (self.bounds,)

    @property
    def others(self) -> int:
        """How many of its tokens are cards in no group."""
        return len(self.tokens) - len(self.cards)


def is_token(name: str) -> bool:
    """An unseen card or habitat in the shadow."""
    return name.startswith("?")


def bounded(tokens: tuple[str, ...], cards: tuple[str, ...], ways: Ways) -> Group:
    """The group whose worlds are those any of `ways` allows (bounds `normal`)."""
    shared, rest = normal(tokens, cards, ways)
    return Group(tokens, cards, shared, rest)


def grouped(groups: Iterable[Group]) -> dict[str, Group]:
    """Each grouped token's group."""
    return {token: group for group in groups for token in group.tokens}


def merged(
    groups: tuple[Group, ...],
    touched: Iterable[Group],
    tokens: Iterable[str] = (),
    cards: Iterable[str] = (),
) -> tuple[tuple[Group, ...], Group]:
    """`groups` without the `touched` ones, and the one group those make with `tokens`
    and `cards` added, keeping their bounds (every merge below)."""
    chosen = {id(g): g for g in touched}
    kept = tuple(g for g in groups if id(g) not in chosen)
    every_token = (*(t for g in chosen.values() for t in g.tokens), *tokens)
    every_card = (*(c for g in chosen.values() for c in g.cards), *cards)
    ways = product(*(g.alternatives for g in chosen.values()))
    return kept, bounded(every_token, every_card, tuple(sum(way, ()) for way in ways))


def joined(
    held: tuple[str, ...], groups: tuple[Group, ...], fresh: Callable[[str], str]
) -> tuple[tuple[str, ...], tuple[Group, ...]]:
    """An unseen card is about to leave `held` (any of them may be the one): its seen
    cards become tokens (`fresh` gives one per name) and every token of it joins one
    group with them, with the groups its tokens were in, bounded as each of those was
    (nothing changes when `held` is all tokens in no group, or all of one group's but for
    that group's bounds on some of them: `bounds.mixed`)."""
    of = grouped(groups)
    touched = {id(of[c]): of[c] for c in held if c in of}
    names = tuple(c for c in held if not is_token(c))
    loose = [c for c in held if is_token(c) and c not in of]
    if not names and (not touched or (len(touched) == 1 and not loose)):
        (group,) = touched.values() or [Group((), ())]
        if not any(group.alternatives):
            return held, groups
        ways = moved(held, [((), (), group.alternatives)], ())
        fresh_group = bounded(group.tokens, group.cards, ways)
        return held, tuple(fresh_group if g is group else g for g in groups)
    renamed = tuple(c if is_token(c) else fresh(c) for c in held)
    ungrouped = (t for t in renamed if t not in of)  # its loose tokens and the renamed
    kept, group = merged(groups, touched.values(), ungrouped, sorted(names))
    parts = [(g.tokens, g.cards, g.alternatives) for g in touched.values()]
    named = {t: c for t, c in zip(renamed, held, strict=True) if not is_token(c)}
    ways = moved(renamed, parts, group.cards, named, loose)
    return renamed, (*kept, bounded(group.tokens, group.cards, ways))


def pick_token(
    held: tuple[str, ...], name: str | None, groups: tuple[Group, ...]
) -> tuple[str | None, tuple[Group, ...]]:
    """The token of `held` that seen card `name` was, as it leaves, and the groups after:
    a token of its group its bounds let hold it (`_fitting`); else (or for `name` None, a
    card known to be in no group) one in no group, or failing that one of a group's
    others (which then has one token fewer; several such groups here are joined first,
    any of them may have held it). None: no token fits."""
    of = grouped(groups)
    home = next((g for g in groups if name in g.cards), None)
    if home is not None:
        fit = _fitting(home, [c for c in held if of.get(c) is home], name)
        if fit is None:
            return None, groups
        token, ways = fit
        after = bounded(home.tokens, home.cards, ways)
        return token, tuple(after if g is home else g for g in groups)
    loose = next((c for c in held if is_token(c) and c not in of), None)
    if loose is not None:
        return loose, groups
    roomy = {id(of[c]): of[c] for c in held if c in of and of[c].others}
    if not roomy:
        return None, groups
    kept, group = merged(groups, roomy.values())
    if len(roomy) > 1:  # which group's token it was: each group's tokens keep its cards
        member = tuple(b for g in roomy.values() for b in belonging(g.tokens, g.cards, group.cards))
        ways = tuple((*way, *member) for way in group.alternatives)
        group = bounded(group.tokens, group.cards, ways)
    candidates = [c for c in held if c in group.tokens]
    token, ways = _fitting(group, candidates, None) or (candidates[0], ((),))  # else: wider
    tokens = tuple(t for t in group.tokens if t != token)
    return token, (*kept, bounded(tokens, group.cards, ways))


def _fitting(group: Group, candidates: list[str], name: str | None) -> tuple[str, Ways] | None:
    """The token of `candidates` (the group's tokens in one place) that held `name` as the
    bounds allow, and the group's alternatives after. Where tokens there in different
    bounds may each have held it (the log does not say which), each is an alternative:
    the bounds with that token and the one taken exchanged (`swapped`), then picked."""
    if not candidates:
        return None
    if not any(group.alternatives):
        return candidates[0], group.alternatives
    fits: list[tuple[tuple[Bound, ...], str]] = []
    for way in group.alternatives:
        for token in classes(candidates, way):
            if name is not None and not all(b.allows(name) for b in way if token in b.tokens):
                continue
            tokens = tuple(t for t in group.tokens if t != token)
            cards = tuple(c for c in group.cards if c != name)
            if spread(tokens, cards, picked(way, token, name)).feasible:
                fits.append((way, token))
    if not fits:
        return None
    chosen = fits[0][1]
    return chosen, tuple(picked(swapped(way, token, chosen), chosen, name) for way, token in fits)


def trap_token(
    held: tuple[str, ...], groups: tuple[Group, ...], fits: Callable[[str], bool]
) -> tuple[str, tuple[Group, ...]]:
    """The token of `held` (some of them tokens) that an unseen card `fits` accepts (a trap
    item played face down) was, and the groups after: the groups here with such a card are
    dropped (it may be theirs: wider, never narrower), then it is a card in no group
    (`pick_token`); where no token fits, every group here is dropped."""
    here = set(held)
    kept = tuple(g for g in groups if not (here & set(g.tokens) and any(map(fits, g.cards))))
    token, kept = pick_token(held, None, kept)
    if token is None:
        kept = tuple(g for g in kept if not here & set(g.tokens))
        token = next(c for c in held if is_token(c))
    return token, kept


def recalled(
    picks: tuple[str, ...], gone: tuple[str, ...], groups: tuple[Group, ...]
) -> tuple[Group, ...]:
    """The picks' tokens (those still in the shadow) are the cards `gone`, in some order:
    one group with them, joined with the groups they or those cards are in."""
    of = grouped(groups)
    touched = [g for g in groups if set(g.tokens) & set(picks) or set(g.cards) & set(gone)]
    kept, group = merged(groups, touched, (t for t in picks if t not in of))
    cards = tuple(sorted({*group.cards, *gone}))
    if len(cards) > len(group.tokens):  # not what the shadow holds: drop them (wider)
        return kept
    return (*kept, replace(group, cards=cards))


def settled(state: BeastState, groups: tuple[Group, ...]) -> tuple[BeastState, tuple[Group, ...]]:
    """The groups after the shadow changed to `state` (see the module docstring), and the
    shadow with the groups that are all their cards and lie in one place named there."""
    where: dict[str, str] = {}
    named: set[str] = set()
    for place, held in places(state).items():
        for card in held:
            if is_token(card):
                where[card] = place
            else:
                named.add(card)
    kept: list[Group] = []
    for group in groups:
        left = trimmed(group, where, named)
        if left is None:
            continue
        homes = {where[t] for t in left.tokens}
        if len(left.tokens) == len(left.cards) and len(homes) == 1:
            names = dict(zip(left.tokens, left.cards, strict=True))
            named_there = _named(state, homes.pop(), names)
            if named_there is not None:
                state = named_there
                continue
        kept.append(left)
    return state, tuple(kept)


def trimmed(group: Group, present: Container[str], named: Container[str]) -> Group | None:
    """`group` once its tokens not `present` have gone and its cards `named` have been
    seen, as many of each (its bounds `cleared`); None: those do not match (the group is
    dropped: wider, never narrower) or no card is left."""
    tokens = tuple(t for t in group.tokens if t in present)
    left = tuple(c for c in group.cards if c not in named)
    lost = len(group.tokens) - len(tokens)
    if lost != len(group.cards) - len(left) or not left:
        return None
    if lost == 0:
        return group
    return bounded(tokens, left, tuple(cleared(w, tokens, left) for w in group.alternatives))


def _named(state: BeastState, place: str, names: dict[str, str]) -> BeastState | None:
    """`state` with the tokens in `place` (a hand's action cards or items and talents, a
    pack, the pool or a discard) named as `names` says (None: a place no group's token is
    named in: a deck, whose cards leave by position)."""
    kind, _, index = place.partition("/")

    def name(held: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(names.get(c, c) for c in held)

    if kind in ("actions", "extras"):
        hands = list(state.hands)
        hand = hands[int(index)]
        hands[int(index)] = replace(hand, **{kind: name(getattr(hand, kind))})
        return replace(state, hands=tuple(hands))
    if kind == "pack":
        packs = list(state.packs)
        packs[int(index)] = name(packs[int(index)])
        return replace(state, packs=tuple(packs))
    if kind in ("pool", "item_discard", "talent_discard"):
        return replace(state, **{kind: name(getattr(state, kind))})
    return None
