"""What one viewer of a Beast game can know (`possible`) and one world it cannot tell from
the real one (`sample`): the information-set contract of projections/registry.py.

`possible` reads only the viewer's redacted log (`shadow` replays it):
- for a viewer who does not see the Beast (the hunters, spectators): every location the
  Beast can be on now, with the share of consistent hidden paths ending there
  (`paths`: trails and their order, reveals, failed searches, zones told,
  watchtowers, the movement rules and the movement cards by count);
- every place it cannot see into (the Beast's hand and talents, the set-aside card, the
  hunters' hands, items and traps for the Beast, other seats' draft packs, the face-down
  decks and discards), each with the cards known to lie there and a token per unseen card;
- the groups of unseen cards it knows by name, not by place (`groups`:
  draft picks it did not see, taken by several hands from a pack whose cards it knew; a
  hand's seen items or talents and the one it discarded face down):
  each a set of tokens that hold every card of a set of cards, in some order, the rest of
  them (if more) any unseen cards in no group, as its bounds allow (projections.
  bounds: tokens of it that hold none of some of its cards and at least so many of
  others, what merging groups would lose);
- per hidden place, every card it holds in some consistent world (`may_hold`: an exact
  search over each group's placements, the cards in no group wherever a token of their
  kind may hold one);
- per kind, the cards an unseen one outside the groups may be: that kind's cards minus
  those the viewer can place (by place or by group); per trap habitat it cannot see, the
  habitats still possible.

`sample` is uniform over the consistent worlds: the Beast's path uniformly over every
consistent path (forward filtering, backward sampling); each group's cards dealt onto as
many of its tokens uniformly at random, drawn again while a bound rejects the draw
(`bounds.dealt`: uniform over the placements the bounds allow, token
by token); the other unseen cards by a uniformly random assignment of the cards the
viewer cannot place to the other unseen places (the trap cards first, among the unseen
trap items), every face-down deck in a random order, each trap's habitat uniformly among
those still possible. Where a group's cards lie among its tokens leaves as many tokens
for the other cards whatever it is, so every world is as likely as any other. The one
exception is the rejection's cap: after 1000 draws a bound rejects (a chance of
(1 - a)^1000 where a is the share of draws it accepts: under 0.1% for a above 1/145;
none of the random playouts tried makes a bound at all), the placement is built card by
card among those the search allows: consistent, no longer uniform. It keeps everything
the viewer sees from `state` and replaces the rest, reading nothing else of it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec

from skald.core.beast.data import HABITATS, card_index, cards, is_trap_item
from skald.core.beast.state import BEAST, BeastState
from skald.events.viewer import Viewer
from skald.projections.beast.knowledge.bounds import dealt, spread_any
from skald.projections.beast.knowledge.groups import Group, is_token
from skald.projections.beast.knowledge.path_graph import PathGraph, draw_path, locations
from skald.projections.beast.knowledge.places import DECK_PLACES, places
from skald.projections.beast.knowledge.shadow import Reader
from skald.projections.beast.knowledge.stored import StoredBeastFold, depths, restored, stored
from skald.projections.beast.role import role_of

replace = msgspec.structs.replace


class Holding(msgspec.Struct, frozen=True):
    """A place the viewer cannot see into (`place` as in `places`), with its cards: seen
    ones by name, each unseen one as a token ("?7")."""

    place: str
    cards: tuple[str, ...]


class BeastPossible(msgspec.Struct, frozen=True, kw_only=True):
    """What could be true of everything hidden from one viewer of a Beast game.

    `beast`: where the Beast may be, with the share of consistent hidden paths ending
    there (None when the viewer sees it). `holdings`: the hidden places. `tokens`: the
    kind of each unseen card (action, item, talent, or trap: a trap item) and unseen trap
    habitat. `groups`: unseen cards known to hold every card of a set, in some order, the
    rest of them in no group (each token in at most one group). `unseen`: per kind, the
    cards an unseen one may be besides its group's (if any). `habitats`: per trap habitat
    token, the habitats it may be. `paths`: the hidden paths, for `sample`."""

    game: str = "beast"
    viewer: str
    role: str
    beast: tuple[tuple[str, float], ...] | None
    holdings: tuple[Holding, ...]
    tokens: tuple[tuple[str, str], ...]
    groups: tuple[Group, ...] = ()
    unseen: tuple[tuple[str, tuple[str, ...]], ...]
    habitats: tuple[tuple[str, tuple[str, ...]], ...]
    paths: PathGraph | None = None
    characters: tuple[str, ...] = ()
    """Each hand's character, the Beast's first (public: for the words a player reads)."""
    may_hold: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Per hidden place with cards, every card it holds in some world of `possible`."""

    @property
    def places(self) -> dict[str, tuple[str, ...]]:
        """The hidden places by name."""
        return {h.place: h.cards for h in self.holdings}


# -- places ----------------------------------------------------------------------------


def hidden_places(state: BeastState, viewer: Viewer) -> tuple[str, ...]:
    """The places `viewer` cannot see into (`state` is the viewer's shadow)."""
    if viewer.referee or not state.hands:
        return ()
    hidden = [*DECK_PLACES]
    for index in range(len(state.hands)):
        if not viewer.sees(state.team(index)):
            hidden += [f"actions/{index}", f"extras/{index}"]
    if not viewer.sees(state.team(BEAST)):
        hidden.append("aside")
    if not viewer.sees(state.hunter_seats):
        hidden.append("pool")
        hidden += [f"trap/{i}" for i in range(len(state.traps))]
        hidden += [f"frame/{i}" for i, f in enumerate(state.frames) if is_token(f.card)]
    hidden += [f"pack/{seat}" for seat in range(len(state.packs)) if seat not in viewer.seats]
    return tuple(hidden)


# -- possible --------------------------------------------------------------------------


def possible(log: Sequence[Any], viewer: Viewer) -> BeastPossible:
    """What could be true of every hidden item, from the viewer's redacted log alone."""
    return known_to(Reader(viewer).read(log))


class BeastFold:
    """A viewer's replay kept to be read on (projections.knowledge.cache): `advanced`
    reads more of the viewer's redacted log into a copy and resumes the path filter from
    the last run (its plan unchanged up to where it resumes), so the result is the very
    `possible` of the whole log read from seq 1. Its `possible` is worked out when first
    asked (a fold read back from the store may only be read on); nothing else changes it."""

    def __init__(self, reader: Reader, known: BeastPossible | None = None) -> None:
        self.reader = reader
        self._known = known

    @property
    def possible(self) -> BeastPossible:
        """What could be true after everything read (the path filter run to here)."""
        if self._known is None:
            self._known = known_to(self.reader)
        return self._known

    @classmethod
    def start(cls, viewer: Viewer) -> BeastFold:
        """Nothing read yet."""
        return cls(Reader(viewer))

    def advanced(self, log: Sequence[Any]) -> BeastFold:
        """This fold with `log` (the next redacted envelopes) read on."""
        return BeastFold(self.reader.copy().read(log))


class BeastKnowledgeFold:
    """A `BeastFold` behind the fold-one-envelope-at-a-time contract of the knowledge cache
    (`registry.KnowledgeFold`): envelopes fed are held and read on in one batch when
    `possible` is asked, since the path filter resumes per batch, not per envelope. Copies
    share the (never changed) `BeastFold` under them, so copying costs nothing.

    It is kept in the store (projections/knowledge/store.py) as `stored`
    lays it out, once `settle` has read what it holds; it counts the engine's undo and
    redo depths as it is fed, so only the replay's undo snapshots the table can still take
    back are stored."""

    Stored = StoredBeastFold
    CODE = (
        "skald.projections.beast.knowledge.stored",
        "skald.projections.beast.knowledge.shadow",
        "skald.projections.beast.knowledge.folds",
        "skald.projections.beast.knowledge.groups",
        "skald.projections.beast.knowledge.bounds",
        "skald.projections.beast.knowledge.paths",
        "skald.projections.beast.knowledge.clues",
        "skald.projections.beast.knowledge.path_graph",
        "skald.projections.beast.knowledge.timeline",
        "skald.projections.beast.knowledge.places",
        "skald.projections.beast.role",
        "skald.events.beast",
    )
    """The modules whose code the stored folds depend on besides this one (their source is
    part of the stored folds' version key)."""

    def __init__(
        self, fold: BeastFold | None = None, held: Sequence[Any] = (), undo: int = 0, redo: int = 0
    ) -> None:
        self._fold = fold
        self._held = list(held)
        self._undo, self._redo = undo, redo
        self._stored: StoredBeastFold | None = None  # stored() of this fold, once asked

    def feed(self, envelope: Any) -> None:
        """Hold the next envelope of the viewer's redacted log."""
        self._held.append(envelope)
        event = getattr(envelope, "event", envelope)
        self._undo, self._redo = depths(self._undo, self._redo, event)
        self._stored = None

    def copy(self) -> BeastKnowledgeFold:
        """An independent fold at the same seq."""
        return BeastKnowledgeFold(self._fold, self._held, self._undo, self._redo)

    def possible(self, viewer: Viewer) -> BeastPossible:
        """`possible` of every envelope fed so far (the held ones read on first)."""
        fold = self._fold
        if fold is None:
            fold = BeastFold.start(viewer)
        elif fold.reader.viewer != viewer:  # read back from the store: the same seats
            reader = fold.reader.copy()
            reader.viewer = viewer
            fold = BeastFold(reader)
        if self._held:
            fold, self._held = fold.advanced(self._held), []
        if fold is not self._fold:
            self._fold, self._stored = fold, None
        return fold.possible

    def settle(self, viewer: Viewer) -> None:
        """Read what is held (and run the path filter to here), so it can be stored."""
        self.possible(viewer)

    def stored(self) -> StoredBeastFold:
        """The fold as data (`stored`), once settled."""
        if self._held:
            raise ValueError("a Beast fold is stored once it has read what it holds")
        if self._stored is None:
            reader = None if self._fold is None else self._fold.reader
            self._stored = stored(reader, self._undo, self._redo)
        return self._stored

    @classmethod
    def from_stored(cls, data: StoredBeastFold) -> BeastKnowledgeFold:
        """The fold back from `stored()`."""
        reader = restored(data)
        return cls(None if reader is None else BeastFold(reader), (), data.undo, data.redo)

    def __eq__(self, other: object) -> bool:
        """The same fold as far as reading on goes: the same stored data (the check a fold
        read back passes before it is stored: projections/knowledge/store.py)."""
        if not isinstance(other, BeastKnowledgeFold):
            return NotImplemented
        if self._held or other._held:  # not settled: only the very same fold
            return self is other
        return self.stored() == other.stored()

    __hash__ = None  # type: ignore[assignment]


def known_to(reader: Reader) -> BeastPossible:
    """What a replay so far says could be true (the viewer's log read up to here)."""
    viewer = reader.viewer
    shadow = reader.shadow
    every = places(shadow)
    hidden = hidden_places(shadow, viewer)
    holdings = tuple(Holding(place, every.get(place, ())) for place in hidden)
    tokens = sorted(
        {c for h in holdings for c in h.cards if is_token(c) and c not in reader.excluded},
        key=_order,
    )
    habitat_tokens = [
        trap.habitat
        for index, (_, trap) in enumerate(shadow.traps)
        if f"trap/{index}" in hidden and is_token(trap.habitat)
    ]
    hidden_tokens = set(tokens)
    groups = tuple(g for g in reader.groups if hidden_tokens.issuperset(g.tokens))
    placed = {c for held in every.values() for c in held if not is_token(c)}
    placed.update(c for g in groups for c in g.cards)
    hidden_path = shadow.hands and not reader.beast_eyes
    graph = reader.path_filter().graph() if hidden_path else None
    unseen = {kind: _unplaced(kind, placed) for kind in ("action", "item", "talent", "trap")}
    kinds = {t: reader.kinds[t] for t in tokens}
    return BeastPossible(
        viewer=viewer.name,
        role=role_of(shadow, viewer),
        beast=tuple(locations(graph).items()) if graph is not None else None,
        holdings=holdings,
        tokens=tuple(kinds.items()),
        groups=groups,
        unseen=tuple(unseen.items()),
        habitats=tuple(
            (t, tuple(h for h in HABITATS if h not in reader.excluded.get(t, ())))
            for t in habitat_tokens
        ),
        paths=graph,
        characters=tuple(hand.character for hand in shadow.hands),
        may_hold=_may_hold(holdings, groups, kinds, unseen),
    )


def _may_hold(
    holdings: tuple[Holding, ...],
    groups: tuple[Group, ...],
    kinds: dict[str, str],
    unseen: dict[str, tuple[str, ...]],
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Every card each hidden place holds in some world: its seen cards, each group's
    cards where its bounds let one lie (`bounds.spread`, exact), and the
    cards in no group of each kind where a token of that kind may hold one (a trap item on
    an item token only while there are more of them than trap tokens to fill)."""
    place_of = {c: h.place for h in holdings for c in h.cards if c in kinds}
    found = {h.place: {c for c in _cards_of(h) if not is_token(c)} for h in holdings}
    slots = {t for t in kinds if kinds[t] != "habitat"} - {t for g in groups for t in g.tokens}
    for group in groups:
        allowed = spread_any(group.tokens, group.cards, group.alternatives, place_of.__getitem__)
        for card, where in allowed.cards.items():
            for place in where:
                found[place].add(card)
        slots.update(t for t in group.tokens if place_of[t] in allowed.room)
    spare_traps = len(unseen["trap"]) > sum(kinds[t] == "trap" for t in slots)
    for token in slots:
        kind = kinds[token]
        names = unseen[kind]
        if kind == "item" and not spare_traps:
            names = tuple(c for c in names if c not in unseen["trap"])
        found[place_of[token]].update(names)
    # A trap being set lies in its frame and on its trap at once (one token, two places):
    # each place may hold what the other may.
    shared: dict[str, set[str]] = {}
    for holding in holdings:
        for card in _cards_of(holding):
            if card in kinds:
                shared.setdefault(card, set()).add(holding.place)
    for sharing in shared.values():
        if len(sharing) > 1:
            both = set().union(*(found[place] for place in sharing))
            for place in sharing:
                found[place] = set(both)
    order = {name: index for index, name in enumerate(card_index())}
    return tuple(
        (h.place, tuple(sorted(found[h.place], key=lambda c: order.get(c, -1))))
        for h in holdings
        if found[h.place]
    )


def _cards_of(holding: Holding) -> tuple[str, ...]:
    """A place's cards (a trap's card, not its habitat)."""
    return holding.cards[:1] if holding.place.startswith("trap/") else holding.cards


def _order(token: str) -> int:
    return int(token[1:])


def _unplaced(kind: str, placed: set[str]) -> tuple[str, ...]:
    group = cards().item if kind == "trap" else getattr(cards(), kind)
    return tuple(
        c.name for c in group if c.name not in placed and (kind != "trap" or is_trap_item(c.name))
    )


# -- sample ----------------------------------------------------------------------------


def sample(
    state: BeastState, known: BeastPossible, viewer: Viewer, rnd: random.Random
) -> BeastState:
    """A complete state drawn uniformly from the worlds in `known`: `state` with every part
    hidden from `viewer` replaced (see the module docstring for the weights)."""
    if viewer.referee or not state.hands:
        return state
    if known.paths is not None:
        state = _with_path(state, known.paths, rnd)
    names = _deal(state, known, rnd)
    habitats = {t: rnd.choice(allowed) for t, allowed in known.habitats}
    for holding in known.holdings:
        held = tuple(names.get(c, c) for c in holding.cards)
        if holding.place in DECK_PLACES[:3]:
            shuffled = list(held)
            rnd.shuffle(shuffled)
            held = tuple(shuffled)
        state = _put(state, holding.place, held, habitats)
    return state


def _with_path(state: BeastState, graph: PathGraph, rnd: random.Random) -> BeastState:
    location, active, trailed, zones = draw_path(graph, rnd)
    beast = replace(state.beast, location=location)
    bound = iter(zones)
    frames = tuple(replace(f, zones=next(bound)) if f.hand == BEAST else f for f in state.frames)
    return replace(
        state, hands=(beast, *state.hands[1:]), active=active, trailed=trailed, frames=frames
    )


def _deal(state: BeastState, known: BeastPossible, rnd: random.Random) -> dict[str, str]:
    """A name for every unseen card token: each group's cards among its tokens, and the
    cards the viewer cannot place among the others, at random."""
    hidden = set(known.places)
    seen = {
        c
        for place, held in places(state).items()
        if place not in hidden
        for c in held
        if c in card_index()
    }
    seen |= {c for h in known.holdings for c in h.cards if not is_token(c)}
    names: dict[str, str] = {}
    for group in known.groups:  # its cards on as many of its tokens as its bounds allow
        names.update(dealt(group.tokens, group.cards, group.alternatives, rnd))
        seen.update(group.cards)
    free = {
        kind: [c.name for c in getattr(cards(), kind) if c.name not in seen]
        for kind in ("action", "item", "talent")
    }
    for kind in ("trap", "action", "item", "talent"):
        wanted = [t for t, k in known.tokens if k == kind and t not in names]
        pool = free["item"] if kind == "trap" else free[kind]
        fits = [c for c in pool if kind != "trap" or is_trap_item(c)]
        if len(fits) < len(wanted):
            raise ValueError(
                f"beast sample: {len(wanted)} unseen {kind} cards, {len(fits)} to deal"
            )
        chosen = rnd.sample(fits, len(wanted))
        for token, name in zip(wanted, chosen, strict=True):
            names[token] = name
            pool.remove(name)
    return names


def _put(
    state: BeastState, place: str, held: tuple[str, ...], habitats: dict[str, str]
) -> BeastState:
    """`state` with one place holding `held`."""
    kind, _, index = place.partition("/")
    if kind in ("actions", "extras"):
        hands = list(state.hands)
        hands[int(index)] = replace(hands[int(index)], **{kind: held})
        return replace(state, hands=tuple(hands))
    if kind == "pack":
        packs = list(state.packs)
        packs[int(index)] = held
        return replace(state, packs=tuple(packs))
    if kind == "aside":
        return replace(state, aside=held[0] if held else "")
    if kind == "trap":
        zone, trap = state.traps[int(index)]
        shown = replace(trap, card=held[0], habitat=habitats.get(held[1], held[1]))
        traps = list(state.traps)
        traps[int(index)] = (zone, shown)
        return replace(state, traps=tuple(traps))
    if kind == "frame":
        frames = list(state.frames)
        frames[int(index)] = replace(frames[int(index)], card=held[0])
        return replace(state, frames=tuple(frames))
    return replace(state, **{place: held})
