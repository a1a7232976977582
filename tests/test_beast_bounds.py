"""The Beast viewer's groups with their bounds (projections/beast/knowledge/groups.py,
projections/beast/knowledge/bounds.py) against pen and paper: small random positions, a few cards
in a few places, some of them known only by group, and a few moves the viewer sees only
in part (an unseen card leaving a place, a seen card leaving one). Every hidden history is
enumerated by hand (which item left, at each unseen move) and gives the worlds the log
leaves: where each named card lies. The model's worlds are every placement of its groups'
cards on their tokens its bounds allow.

- after one unseen move, from groups without bounds (where `joined` alone was wider), the
  two sets are equal, and `spread` gives each card exactly the places the worlds give it;
- after any number of moves, the two sets are equal too: a group keeps, where the log
  leaves several ways its constraints may read, each of them (its `ways`); the three
  shapes that were wider before (drawn in their test) are checked one by one;
- `dealt` draws the placements the bounds allow uniformly (fixed seed, chi-square at
  p < 0.001), and its fallback after `CAP` rejections still meets them.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from skald.projections.beast.knowledge.bounds import CAP, Bound, dealt, spread_any
from skald.projections.beast.knowledge.groups import Group, is_token, joined, pick_token, trimmed
from tests.test_beast_knowledge import P_VALUE, chi_square_p

PLACES = ("hand", "there", "yonder", "gone")
World = frozenset[tuple[str, str]]  # (card, place) for every card known by name


class Position:
    """The viewer's model (places of items: names or tokens, and groups) beside every
    world the log leaves (each a card -> place, and how many cards each place holds)."""

    def __init__(self, rnd: random.Random) -> None:
        self.issued = 0
        self.places: dict[str, list[str]] = {p: [] for p in PLACES}
        self.groups: tuple[Group, ...] = ()
        names = iter("ABCDEFGHIJK")
        for _ in range(rnd.randint(1, 3)):  # groups, their tokens spread over the places
            tokens = [self.token(rnd.choice(PLACES[:3])) for _ in range(rnd.randint(1, 2))]
            cards = tuple(next(names) for _ in range(rnd.randint(1, len(tokens))))
            self.groups += (Group(tuple(tokens), cards),)
        for _ in range(rnd.randint(0, 2)):  # seen cards and cards in no group
            self.places[rnd.choice(PLACES[:3])].append(next(names))
        for _ in range(rnd.randint(0, 1)):
            self.token(rnd.choice(PLACES[:3]))
        self.worlds = self.modelled()
        self.sizes = {p: len(held) for p, held in self.places.items()}

    @classmethod
    def drawn(cls, places: dict[str, list[str]], groups: tuple[Group, ...]) -> Position:
        """A position drawn by hand: the places' items and the groups."""
        position = cls.__new__(cls)
        position.places = {p: list(places.get(p, [])) for p in PLACES}
        position.groups = groups
        held = [c for cards in position.places.values() for c in cards]
        position.issued = max(int(c[1:]) for c in held if is_token(c))
        position.worlds = position.modelled()
        position.sizes = {p: len(cards) for p, cards in position.places.items()}
        return position

    def token(self, place: str) -> str:
        self.issued += 1
        self.places[place].append(f"?{self.issued}")
        return f"?{self.issued}"

    def where(self) -> dict[str, str]:
        return {c: p for p, held in self.places.items() for c in held}

    def modelled(self) -> set[World]:
        """The worlds the model allows: its groups' placements its bounds allow."""
        where = self.where()
        seen = frozenset((c, p) for c, p in where.items() if not is_token(c))
        found: set[World] = set()
        per_group = [
            [frozenset((c, where[t]) for t, c in names.items()) for names in allowed(g)]
            for g in self.groups
        ]
        for combination in itertools.product(*per_group):
            found.add(seen.union(*combination))
        return found

    def spread_places(self) -> dict[str, set[str]]:
        """Each card's places as `spread` gives them (seen cards: where they are)."""
        where = self.where()
        found = {c: {p} for c, p in where.items() if not is_token(c)}
        for g in self.groups:
            found.update(spread_any(g.tokens, g.cards, g.alternatives, where.__getitem__).cards)
        return {c: set(p) for c, p in found.items()}

    # -- moves ----------------------------------------------------------------------

    def unseen_leaves(self, place: str, to: str) -> None:
        """One item of `place`, any of them, goes to `to` unseen."""
        held = tuple(self.places[place])
        renamed, self.groups = joined(held, self.groups, lambda _: self.fresh())
        gone = next(c for c in renamed if is_token(c))
        self.places[place] = [c for c in renamed if c != gone]
        self.places[to].append(gone)
        size = self.sizes[place]
        worlds = set()
        for world in self.worlds:
            here = [c for c, p in world if p == place]
            for card in here:
                worlds.add(world - {(card, place)} | {(card, to)})
            if len(here) < size:  # a card in no group went
                worlds.add(world)
        self.worlds = worlds
        self.sizes[place] -= 1
        self.sizes[to] += 1

    def fresh(self) -> str:
        self.issued += 1
        return f"?{self.issued}"

    def seen_leaves(self, place: str, card: str | None) -> None:
        """`card` is seen leaving `place` (it lies "open" after; None: a card in no group)."""
        held = tuple(self.places[place])
        if card in held:
            self.places[place].remove(card)
        else:
            token, self.groups = pick_token(held, card, self.groups)
            self.places[place].remove(token or next(c for c in held if is_token(c)))
            where = self.where()
            kept = (trimmed(g, where, {card} - {None}) for g in self.groups)
            self.groups = tuple(g for g in kept if g is not None)
        size = self.sizes[place]
        if card is None:
            self.worlds = {w for w in self.worlds if sum(p == place for _, p in w) < size}
        else:
            self.worlds = {w - {(card, place)} for w in self.worlds if (card, place) in w}
        self.sizes[place] -= 1

    def move(self, rnd: random.Random) -> bool:
        """A random move the log allows (False: none was made)."""
        place = rnd.choice([p for p in PLACES if self.places[p]] or ["hand"])
        if not self.places[place]:
            return False
        if rnd.random() < 0.6:
            self.unseen_leaves(place, rnd.choice([p for p in PLACES if p != place]))
            return True
        cards: list[str | None] = sorted({c for w in self.worlds for c, p in w if p == place})
        size = self.sizes[place]
        if any(sum(p == place for _, p in w) < size for w in self.worlds):
            cards.append(None)  # a card in no group may be there
        if not cards:
            return False
        self.seen_leaves(place, rnd.choice(cards))
        return True


def allowed(group: Group) -> list[dict[str, str]]:
    """Every placement of the group's cards on its tokens (token -> card) its bounds allow."""
    every = (
        dict(zip(chosen, group.cards, strict=True))
        for chosen in itertools.permutations(group.tokens, len(group.cards))
    )
    return [
        names
        for names in every
        if any(all(b.holds(names) for b in way) for way in group.alternatives)
    ]


def positions(count: int, seed: int) -> Iterator[tuple[int, random.Random, Position]]:
    for index in range(count):
        rnd = random.Random(f"{seed}/{index}")
        yield index, rnd, Position(rnd)


def by_card(worlds: set[World]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for world in worlds:
        for card, place in world:
            found.setdefault(card, set()).add(place)
    return found


def test_one_unseen_move_from_unbounded_groups_leaves_exactly_the_worlds_of_the_log() -> None:
    """400 positions: one unseen card leaves a random place for another; the model's
    worlds (groups and bounds) are the log's, and `spread` gives each card the places the
    worlds give it."""
    wider = 0
    for index, rnd, position in positions(400, 1):
        place = rnd.choice(PLACES[:3])
        if not position.places[place]:
            continue
        position.unseen_leaves(place, "gone")
        modelled = position.modelled()
        assert modelled == position.worlds, index
        assert position.spread_places() == by_card(position.worlds), index
        wider += any(g.bounds for g in position.groups)
    assert wider > 40  # positions where the merge alone was wider


def test_any_moves_leave_exactly_the_worlds_of_the_log() -> None:
    """400 positions, up to five moves each (unseen cards leaving places, seen ones: a
    group's, a seen one's, one in no group): after every move the model's worlds are the
    log's, and `spread` gives each card the places the worlds give it. (Before a group
    kept alternatives, 27 of them ended wider: a later unseen move meeting a bound on part
    of a place, a seen card that tokens in different bounds may each have held, a card in
    no group leaving a place with tokens of two groups with room.)"""
    ways = 0
    for index, rnd, position in positions(400, 2):
        for _ in range(rnd.randint(1, 5)):
            if not position.move(rnd):
                break
            assert position.modelled() == position.worlds, index
            assert position.spread_places() == by_card(position.worlds), index
        ways += any(g.ways for g in position.groups)
    assert ways > 5  # positions where only alternatives say it exactly


@pytest.mark.parametrize(
    ("places", "groups", "moves"),
    [
        # 1. A later unseen move meets a bound on part of a place. A hunter (there) holds
        # item D, seen, and one of two tokens of which one is B; the other lies in the
        # item deck (yonder, reshuffled from the discards) beside E, seen. The hunter
        # flees, one of its two face down (there -> hand, the discard): the deck's token
        # is now "not D" (D was in the hand), a bound on part of the deck. A card is then
        # drawn from the deck unseen (yonder -> gone). The model let D lie in the deck
        # and B in both the discard and the deck's leaving card: 12 worlds for 8.
        pytest.param(
            {"there": ["?2", "D"], "yonder": ["?3", "E"]},
            (Group(("?2", "?3"), ("B",)),),
            [("unseen_leaves", "there", "hand"), ("unseen_leaves", "yonder", "gone")],
            id="unseen-move-meets-a-bound-on-part-of-a-place",
        ),
        # 2. A seen card that tokens in different bounds may each have held. The deck
        # (there) holds a token of each of two groups, A and B on two tokens, C on two,
        # and E, seen; the other tokens lie in a hunter's hand (hand). A card is drawn
        # from the deck into the hand unseen, then B is seen leaving the hand (played):
        # it was the pair's first token or the one drawn. The model let A and C lie
        # together in the hand: 6 worlds for 5.
        pytest.param(
            {"hand": ["?1", "?4"], "there": ["?2", "?3", "E"]},
            (Group(("?1", "?2"), ("A", "B")), Group(("?3", "?4"), ("C",))),
            [("unseen_leaves", "there", "hand"), ("seen_leaves", "hand", "B")],
            id="seen-card-from-tokens-in-different-bounds",
        ),
        # 3. A card in no group leaves a place holding tokens of two groups with room.
        # The deck (there) holds one of X's two tokens (the other in a hand) and one of
        # Y's (the other yonder); a card the viewer never saw is dealt from it face up:
        # it was X's token there or Y's, not both. The model joined the groups and let X
        # and Y lie both in the deck: 6 worlds for 3.
        pytest.param(
            {"there": ["?2", "?4"], "hand": ["?1"], "yonder": ["?3"]},
            (Group(("?1", "?2"), ("X",)), Group(("?3", "?4"), ("Y",))),
            [("seen_leaves", "there", None)],
            id="card-in-no-group-leaves-two-roomy-groups",
        ),
    ],
)
def test_the_shapes_that_were_wider_leave_exactly_the_worlds_of_the_log(
    places: dict[str, list[str]], groups: tuple[Group, ...], moves: list[tuple[Any, ...]]
) -> None:
    """The three position shapes where the model was wider than the log (each drawn in
    its comment): after the moves, the model's worlds (its groups' alternatives) are the
    ones every hidden history of the log leaves, and `spread` gives each card the places
    they give it."""
    position = Position.drawn(places, groups)
    for name, *args in moves:
        getattr(position, name)(*args)
    assert position.modelled() == position.worlds
    assert position.spread_places() == by_card(position.worlds)


# -- drawing ---------------------------------------------------------------------------


TWO_GROUPS = Group(
    ("?1", "?3", "?2", "?4"),
    ("Avarice", "Haste"),
    (
        Bound(("?2",), ("Avarice",), 0, ("Haste",)),
        Bound(("?4",), ("Haste",), 0, ("Avarice",)),
    ),
)


def placements(group: Group) -> list[frozenset[tuple[str, str]]]:
    return [frozenset(names.items()) for names in allowed(group)]


def test_dealt_is_uniform_over_the_placements_the_bounds_allow() -> None:
    """The two groups of tests/test_beast_exact.py merged, with their bounds (Avarice not
    on ?4, Haste not on ?2): 7 of the 12 placements of the merged group; 7,000 draws with
    a fixed seed fall on them as a fair die would (chi-square, p >= 0.001)."""
    allowed = placements(TWO_GROUPS)
    assert len(allowed) == 7
    rnd = random.Random(23)
    counts = Counter(
        frozenset(dealt(TWO_GROUPS.tokens, TWO_GROUPS.cards, (TWO_GROUPS.bounds,), rnd).items())
        for _ in range(7000)
    )
    assert set(counts) == set(allowed)
    observed = [counts[p] for p in allowed]
    assert chi_square_p(observed, [1000.0] * 7) >= P_VALUE


def test_dealt_falls_back_to_a_placement_the_bounds_allow() -> None:
    """A placement rarer than one draw in `CAP`: of 8 cards on 8 tokens, each bound pins one
    card on one token (1 in 40,320): after `CAP` rejections the fallback still meets every
    bound."""
    tokens = tuple(f"?{i}" for i in range(8))
    cards = tuple("ABCDEFGH")
    bounds = tuple(Bound((t,), (c,), 1) for t, c in zip(tokens, cards, strict=True))
    names = dealt(tokens, cards, (bounds,), random.Random(0))
    assert names == dict(zip(tokens, cards, strict=True))
    assert CAP < 40320


def test_a_seen_card_is_taken_from_a_token_its_bounds_let_hold_it() -> None:
    """Haste seen leaving a place that holds ?2 (barred from Haste) and ?1: it was ?1."""
    token, (after,) = pick_token(("?2", "?1"), "Haste", (TWO_GROUPS,))
    assert token == "?1"
    assert after.bounds == (Bound(("?4",), (), 0, ("Avarice",)),)  # Avarice is ?1's or ?2's


def test_a_seen_card_that_tokens_in_different_bounds_may_have_held_keeps_every_world() -> None:
    """A hand holds ?1 (no H) and ?2 (no K) of a group of A, H and K, whose third token
    lies there; A is seen leaving the hand. Either token may have held it: A on ?1 leaves H
    in the hand and K there, A on ?2 leaves K in the hand and H there. Taking ?1 with its
    bounds kept would lose the second; the bounds first lose what they say of the hand."""
    group = Group(
        ("?1", "?2", "?3"),
        ("A", "H", "K"),
        (Bound(("?1",), barred=("H",)), Bound(("?2",), barred=("K",))),
    )
    where = {"?1": "hand", "?2": "hand", "?3": "there"}
    exact = {
        frozenset((c, where[t]) for t, c in names.items() if c != "A")
        for names in allowed(group)
        if any(c == "A" and where[t] == "hand" for t, c in names.items())
    }
    assert len(exact) == 2
    token, (after,) = pick_token(("?1", "?2"), "A", (group,))
    assert token is not None
    left = trimmed(after, set(where) - {token}, {"A"})
    assert left is not None
    assert {frozenset((c, where[t]) for t, c in names.items()) for names in allowed(left)} == exact
