"""Groups of unseen cards a Beast viewer knows the names of, not the places: a set of
tokens of its shadow (projections.beast_shadow) that together hold exactly a set of
cards, in some order.

The draft makes them. When a pack the viewer saw comes back to it (or the draft ends
with it empty), the cards gone from it since its last look are the picks it did not
see; when those went to more than one hand, each of those picks is one of those cards
and every one of them is in one of those hands (projections.beast_folds `_recall`).

A group is kept as the shadow changes (`settled`, after every event while there is
one): a token no longer in the shadow and a card now named there leave it together (a
card seen leaving a hand that holds a token of the group was that token:
beast_folds `_swap_in` picks it); a group of one token names it. When what leaves does
not match (a token gone without its card showing, or the other way), or an unseen card
leaves a place where a group's token is one of several kinds of card
(`loosened`), the group is dropped: its tokens become any unseen card again, wider than
the viewer's deduction, never narrower.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from skald.core.beast.state import BeastState

replace = msgspec.structs.replace


class Group(msgspec.Struct, frozen=True):
    """Unseen cards (`tokens`, as many as `cards`) that are exactly `cards`, in some
    order."""

    tokens: tuple[str, ...]
    cards: tuple[str, ...]


def grouped(groups: Iterable[Group]) -> dict[str, Group]:
    """Each grouped token's group."""
    return {token: group for group in groups for token in group.tokens}


def pick_token(held: tuple[str, ...], name: str, groups: tuple[Group, ...]) -> str | None:
    """The token of `held` that seen card `name` was, as it leaves: one of its group's if
    it is a group's card, else one in no group (None: no such token)."""
    of = grouped(groups)
    home = next((g for g in groups if name in g.cards), None)
    return next((c for c in held if c.startswith("?") and of.get(c) is home), None)


def loosened(held: Iterable[str], groups: tuple[Group, ...]) -> tuple[Group, ...]:
    """`groups` without those a token of `held` is in, unless `held` is nothing but
    tokens of one group (then any of them may be the one an unseen move takes)."""
    held = tuple(held)
    of = grouped(groups)
    touched = {id(of[c]) for c in held if c in of}
    if not touched:
        return groups
    if len(touched) == 1 and all(c in of for c in held):
        return groups
    return tuple(g for g in groups if id(g) not in touched)


def settled(state: BeastState, groups: tuple[Group, ...]) -> tuple[BeastState, tuple[Group, ...]]:
    """The groups after the shadow changed to `state` (see the module docstring), and the
    shadow with each group of one token named."""
    from skald.projections.beast_knowledge import places

    where: dict[str, str] = {}
    named: set[str] = set()
    for place, held in places(state).items():
        for card in held:
            if card.startswith("?"):
                where[card] = place
            else:
                named.add(card)
    kept: list[Group] = []
    for group in groups:
        tokens = tuple(t for t in group.tokens if t in where)
        left = tuple(c for c in group.cards if c not in named)
        if len(tokens) != len(left) or not tokens:
            continue
        named_one = _named(state, where[tokens[0]], *tokens, *left) if len(tokens) == 1 else None
        if named_one is not None:
            state = named_one
            continue
        kept.append(group if tokens == group.tokens else Group(tokens, left))
    return state, tuple(kept)


def _named(state: BeastState, place: str, token: str, name: str) -> BeastState | None:
    """`state` with `token` in `place` (a hand's action cards or the pool) named `name`
    (None: a place no group's token is named in)."""
    kind, _, index = place.partition("/")
    if kind == "actions":
        hands = list(state.hands)
        hand = hands[int(index)]
        hands[int(index)] = replace(
            hand, actions=tuple(name if c == token else c for c in hand.actions)
        )
        return replace(state, hands=tuple(hands))
    if kind == "pool":
        return replace(state, pool=tuple(name if c == token else c for c in state.pool))
    return None
