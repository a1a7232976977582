"""Hägar's face-down loot as a viewer can track it: tokens, groups and arrangements.

Each place a piece can lie in holds a *token*; a token names the place, not a piece.
Every piece belongs to one *group* (the group's pieces are disjoint from every other's),
and each token, in every world the viewer cannot rule out, holds a piece of one group.
Which group a token's piece comes from is certain for most tokens (`of`); after an unseen
move between pieces of several groups it depends on which piece moved, and the possible
answers are the *arrangements*: for the `mixed` tokens, one group each, with the share of
the hidden histories that leave them so. The worlds are, exactly:

    the union over the arrangements of: each group's pieces in any order over the tokens
    that arrangement (or `of`) gives it.

Each world lies in exactly one arrangement (the groups' pieces are disjoint, so a world
names the group of every token's piece) and each arrangement holds every order of every
group's pieces, so the union is disjoint and each per-token question is read off the
arrangements with no search: a token may hold exactly the pieces of the groups it has in
some arrangement. It stays exact under the three things the log can say (an induction on
the events, checked against brute-force enumeration in tests/test_hagar_exact.py):

- a piece the viewer sees at a token (`observe`): the arrangements whose group there
  cannot hold it are dropped, and the token becomes a group of its own (the piece's group,
  the same in every arrangement left, loses it);
- a piece leaving an ordered reach of tokens, unseen (`move`): each arrangement splits
  into one per token of the reach that may have left (the source keeps the others' pieces
  in their order; in the fold the reach's last token names the piece that moved), the
  same arrangements reached twice are summed. Seen, only the tokens whose group holds the
  seen piece may have left, and the piece is then known. The reach is what the log says
  the piece may have come from: one field of a Viking's card (a robbery at sea names it
  from rules version 5; before, the fold took the ship's cargo and the hands as one reach,
  the gap projections/hagar/knowledge.py describes).

The weights count hidden histories (every deal as likely, every unseen choice among the
tokens of a reach as likely: the ambush draw is one, the rules' only other hidden
choices, a forced or jettisoned piece, are a player's and are counted alike), kept as
shares summing to one. Where the order within a Viking's field did not matter (the
"mixing" of the subset formulation: a group's pieces outside the source and destination
are a sub-multiset of the group) the worlds would be wider: the source keeps its pieces'
order, so a known piece in the first of four places is, after one unseen robbery, in the
first place or with the robber, never in the third.

The arrangements are bounded (`LIMIT`): past it, every group that some arrangement
mixes is merged into one (its pieces anywhere over its tokens, the arrangements gone),
which is wider than the log allows, never narrower; `merged` then says so for good.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import msgspec

TOKEN = 1 << 20
"""Token numbers start here (piece ids are small)."""
LIMIT = 4096
"""At most this many arrangements are kept (then the groups they mix are merged)."""

Branch = Callable[[tuple[int, ...]], Iterable[tuple[int, ...]]]
"""For the groups of some tokens in one arrangement, their groups in each arrangement it
becomes (once per hidden history: twice when two histories lead there)."""


class StoredGroups(msgspec.Struct, frozen=True, array_like=True):
    """`Groups` as data, for a fold kept in the store (projections/knowledge/store.py)."""

    of: dict[int, int]
    pieces: dict[int, set[int]]
    mixed: tuple[int, ...]
    arrangements: tuple[tuple[tuple[int, ...], float], ...]
    next_token: int
    next_group: int
    merged: bool


class Groups:
    """Tokens, their groups and the arrangements of the mixed ones (mutable while folding)."""

    def __init__(self) -> None:
        self.of: dict[int, int] = {}
        self.pieces: dict[int, set[int]] = {}
        self.mixed: tuple[int, ...] = ()
        self.arrangements: dict[tuple[int, ...], float] = {(): 1.0}
        self.next_token = TOKEN
        self.next_group = 0
        self.merged = False

    # -- as data ---------------------------------------------------------------------------

    def stored(self) -> StoredGroups:
        return StoredGroups(
            self.of,
            self.pieces,
            self.mixed,
            tuple(self.arrangements.items()),
            self.next_token,
            self.next_group,
            self.merged,
        )

    @classmethod
    def from_stored(cls, data: StoredGroups) -> Groups:
        groups = cls()
        groups.of = dict(data.of)
        groups.pieces = {group: set(held) for group, held in data.pieces.items()}
        groups.mixed = tuple(data.mixed)
        groups.arrangements = {tuple(key): share for key, share in data.arrangements}
        groups.next_token, groups.next_group = data.next_token, data.next_group
        groups.merged = data.merged
        return groups

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Groups) and self.stored() == other.stored()

    def copy(self) -> Groups:
        """An independent copy (the sets are copied, not shared)."""
        return Groups.from_stored(self.stored())

    # -- reading ---------------------------------------------------------------------------

    def value(self, token: int) -> int | None:
        """The piece `token` holds in every world, if there is one."""
        group = self.of.get(token)
        if group is None or len(self.pieces[group]) != 1:
            return None
        return next(iter(self.pieces[group]))

    def groups_of(self, token: int) -> list[int]:
        """The groups `token`'s piece may come from (one unless it is mixed)."""
        if token in self.of:
            return [self.of[token]]
        index = self.mixed.index(token)
        return sorted({key[index] for key in self.arrangements})

    def may_hold(self, token: int) -> set[int]:
        """Exactly the pieces `token` holds in some world."""
        return set().union(*(self.pieces[group] for group in self.groups_of(token)))

    # -- what the log says -----------------------------------------------------------------

    def new(self, held: Sequence[int]) -> list[int]:
        """Fresh tokens for `held` pieces in one group (a piece each, order unknown)."""
        tokens = list(range(self.next_token, self.next_token + len(held)))
        self.next_token += len(held)
        group = self._group(held)
        self.of.update(dict.fromkeys(tokens, group))
        return tokens

    def known(self, piece: int) -> int:
        """A fresh token holding `piece`, seen."""
        return self.new([piece])[0]

    def observe(self, token: int, piece: int) -> None:
        """The viewer saw `token` holds `piece`: it becomes a group of its own."""
        if self.value(token) == piece:
            return
        holder = self._holder(piece)
        seen = self._group([piece], out_of=holder)
        self._update((token,), lambda groups: [(seen,)] if groups == (holder,) else [])

    def move(self, reach: Sequence[int], piece: int | None) -> int:
        """One piece of the ordered `reach` left it (`piece` when the viewer saw it): the
        token to move is the reach's last, the arrangements say whose piece it is now."""
        reach = tuple(reach)
        if piece is None:
            if self._uniform(reach):
                return reach[-1]  # the same group everywhere: any order of it stays one
            self._update(reach, _any_left)
            return reach[-1]
        holder = self._holder(piece)
        seen = self._group([piece], out_of=holder)

        def left(groups: tuple[int, ...]) -> Iterable[tuple[int, ...]]:
            for index, group in enumerate(groups):
                if group == holder:
                    yield (*groups[:index], *groups[index + 1 :], seen)

        self._update(reach, left)
        return reach[-1]

    # -- the arrangements ------------------------------------------------------------------

    def _group(self, held: Sequence[int], out_of: int | None = None) -> int:
        group = self.next_group
        self.next_group += 1
        self.pieces[group] = set(held)
        if out_of is not None:
            self.pieces[out_of] -= set(held)
        return group

    def _holder(self, piece: int) -> int:
        for group, held in self.pieces.items():
            if piece in held:
                return group
        raise ValueError("the log shows a piece no place can hold")  # an altered log

    def _uniform(self, tokens: tuple[int, ...]) -> bool:
        groups = {self.of.get(token) for token in tokens}
        return len(groups) == 1 and None not in groups

    def _update(self, tokens: tuple[int, ...], branch: Branch) -> None:
        """Each arrangement replaced by those `branch` makes of its groups at `tokens`."""
        index = {token: i for i, token in enumerate(self.mixed)}
        rest = tuple(t for t in self.mixed if t not in tokens)
        after: dict[tuple[int, ...], float] = {}
        for key, share in self.arrangements.items():
            groups = tuple(key[index[t]] if t in index else self.of[t] for t in tokens)
            kept = tuple(key[index[t]] for t in rest)
            for changed in branch(groups):
                whole = kept + changed
                after[whole] = after.get(whole, 0.0) + share
        if not after:
            raise ValueError("the log shows a piece where no world has it")  # altered log
        for empty in [g for g, held in self.pieces.items() if not held]:
            del self.pieces[empty]
        self._settle(rest + tokens, after)

    def _settle(self, tokens: tuple[int, ...], after: dict[tuple[int, ...], float]) -> None:
        """Tokens every arrangement agrees on become certain; the rest stay mixed, the
        arrangements keyed by them (in token order) and summed to shares of one."""
        keys = list(after)
        varying = {i for i in range(len(tokens)) if len({key[i] for key in keys}) > 1}
        for i, token in enumerate(tokens):
            if i not in varying:
                self.of[token] = keys[0][i]
            else:
                self.of.pop(token, None)
        order = sorted(varying, key=lambda i: tokens[i])
        summed: dict[tuple[int, ...], float] = {}
        for key, share in after.items():
            narrowed = tuple(key[i] for i in order)
            summed[narrowed] = summed.get(narrowed, 0.0) + share
        total = sum(summed.values())
        self.mixed = tuple(tokens[i] for i in order)
        self.arrangements = {key: summed[key] / total for key in sorted(summed)}
        if len(self.arrangements) > LIMIT:
            self._merge()

    def _merge(self) -> None:
        """Past `LIMIT`: every group an arrangement mixes becomes one (wider, `merged`)."""
        mixing = {group for key in self.arrangements for group in key}
        into = min(mixing)
        for token, group in self.of.items():
            if group in mixing:
                self.of[token] = into
        self.of.update(dict.fromkeys(self.mixed, into))
        for group in mixing - {into}:
            self.pieces[into] |= self.pieces.pop(group)
        self.mixed, self.arrangements = (), {(): 1.0}
        self.merged = True


def _any_left(groups: tuple[int, ...]) -> Iterable[tuple[int, ...]]:
    """Any token of the reach may have left: the others keep their order, the last token
    (the one the fold moves) takes the group of the one that left."""
    for index, group in enumerate(groups):
        yield (*groups[:index], *groups[index + 1 :], group)
