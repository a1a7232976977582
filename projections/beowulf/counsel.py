"""Beowulf's hidden hand places: which can hold a Good Counsel tile and which another tile,
counted exactly (the worlds of `knowledge`, told apart only by these two classes).

What the log says of the hidden places (`knowledge`): some can only be Good
Counsel (their seat passed), some cannot be (the one place that let a seat act), and at
most one clause "at least one of these places is not Good Counsel" (a turn began with the
pile exhausted and several places could be the tile that let a seat act). The unseen
tiles of each act are dealt to that act's places, the rest lie in the pile and the box,
which take any tile. Within one act, tiles of the same class are interchangeable for
every constraint, so a world is a class for each place and then tiles of those classes:
the classes fit when, for every act, the places that must be Good Counsel are no more
than its unseen Good Counsel tiles and those that must be another tile no more than its
other unseen tiles (Hall's condition: the pile and the box take whatever is left). So:

- a place can be Good Counsel (or another tile) exactly when the classes still fit with
  it so, and some clause place other than it can then be another tile (`Classes`);
- the clause is reduced to the places that can be another tile at all, and dropped when
  every world keeps it anyway (`binding`);
- a world is drawn uniformly by choosing the clause places' classes with the weight of
  the worlds each choice leaves (`patterns`), then tiles uniformly within the classes.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

GC, OTHER = "good_counsel", "other"


@dataclass(frozen=True)
class Hidden:
    """One hidden place: its act, what the log says of its class (`GC`, `OTHER` or None),
    and whether it is one of the clause's places."""

    act: int
    must: str | None
    in_clause: bool


@dataclass(frozen=True)
class Pools:
    """The unseen tiles of each act by class: Good Counsel and the others."""

    counsel: dict[int, int]
    other: dict[int, int]

    def fits(self, places: Sequence[Hidden], musts: Sequence[str | None]) -> bool:
        """True when places with these classes (None: either) can all get tiles."""
        need = Counter((p.act, m) for p, m in zip(places, musts, strict=True) if m is not None)
        return all(
            n <= (self.counsel if must == GC else self.other).get(act, 0)
            for (act, must), n in need.items()
        )


def can_be(places: Sequence[Hidden], pools: Pools, index: int, cls: str) -> bool:
    """True when some world puts a tile of class `cls` in place `index` and keeps the
    clause (some clause place holds another tile)."""
    musts = [p.must for p in places]
    if musts[index] not in (None, cls):
        return False
    musts[index] = cls
    clause = [i for i, p in enumerate(places) if p.in_clause]
    if not clause or any(musts[i] == OTHER for i in clause):
        return pools.fits(places, musts)
    for witness in clause:
        if musts[witness] is None:
            trial = list(musts)
            trial[witness] = OTHER
            if pools.fits(places, trial):
                return True
    return False


def binding(places: Sequence[Hidden], pools: Pools) -> list[int]:
    """The clause's places that can hold another tile, when some world (of the places'
    own constraints) would break it by making all of them Good Counsel; else []."""
    musts = [p.must for p in places]
    clause = [i for i, p in enumerate(places) if p.in_clause and p.must != GC]
    if any(musts[i] == OTHER for i in clause):
        return []
    reduced = []
    for i in clause:
        trial = list(musts)
        trial[i] = OTHER
        if pools.fits(places, trial):
            reduced.append(i)
    broken = list(musts)
    for i in reduced:
        broken[i] = GC
    return reduced if reduced and pools.fits(places, broken) else []


def _falling(n: int, k: int) -> int:
    return math.perm(n, k) if 0 <= k <= n else 0


def weight(places: Sequence[Hidden], pools: Pools, musts: Sequence[str | None]) -> int:
    """How many ways the unseen tiles fill the places with these classes (the pile's and
    the box's share is the same for every choice, so it is left out)."""
    total = 1
    for act in {p.act for p in places}:
        mine = [m for p, m in zip(places, musts, strict=True) if p.act == act]
        counsel, other = pools.counsel.get(act, 0), pools.other.get(act, 0)
        g, o = mine.count(GC), mine.count(OTHER)
        free = len(mine) - g - o
        total *= _falling(counsel, g) * _falling(other, o) * _falling(counsel + other - g - o, free)
    return total


def pattern(
    places: Sequence[Hidden],
    pools: Pools,
    clauses: Sequence[Sequence[int]],
    rnd: random.Random,
) -> list[str | None]:
    """Classes for the places, the clauses' places each chosen (no clause all Good
    Counsel), drawn with the weight of the worlds each choice leaves: tiles then drawn
    uniformly within the classes give a world uniform over those keeping the clauses."""
    base = [p.must for p in places]
    chosen = sorted({i for clause in clauses for i in clause})
    choices, weights = [], []
    for classes in _products(len(chosen)):
        musts = list(base)
        for i, c in zip(chosen, classes, strict=True):
            if musts[i] not in (None, c):
                break
            musts[i] = c
        else:
            if all(any(musts[i] == OTHER for i in clause) for clause in clauses):
                choices.append(musts)
                weights.append(weight(places, pools, musts))
    return rnd.choices(choices, weights=weights)[0]


def _products(n: int) -> list[tuple[str, ...]]:
    if n == 0:
        return [()]
    return [(c, *rest) for c in (GC, OTHER) for rest in _products(n - 1)]
