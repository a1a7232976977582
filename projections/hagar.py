"""What each viewer sees of a game of Hägar, and a terminal rendering of it.

A seat sees every public thing (positions, how many pieces each Viking carries, has on his
ship and at home, arrows, the city stack sizes, the last throw) and the identity of its
own pieces only. A spectator sees the public part; the referee sees everything, including
the order of the city stacks and of the fate deck. After the feast all loot is face up.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any

import msgspec

from skald.core.hagar.board import board
from skald.core.hagar.data import cards, pieces
from skald.core.hagar.scoring import feast_reason
from skald.core.hagar.state import Crossing, HagarState, Leg, Result, Throw, Viking
from skald.events.envelope import Envelope
from skald.events.viewer import Viewer
from skald.projections import hagar_knowledge
from skald.projections.hagar_knowledge import HagarPossible
from skald.projections.registry import register_views


class LootView(msgspec.Struct, frozen=True, kw_only=True):
    """One piece, face up, with its slot on the collector's card (1-based)."""

    slot: int
    piece: int
    kind: str
    name: str
    value: int
    gift: bool


class Holdings(msgspec.Struct, frozen=True, kw_only=True):
    """A collector's card face up: field 1 (carried), field 2 (ship), field 3 (home)."""

    seat: int
    carried: tuple[LootView, ...]
    cargo: tuple[LootView, ...]
    home: tuple[LootView, ...]


class VikingView(msgspec.Struct, frozen=True, kw_only=True):
    """A Viking and his ship as everyone sees them."""

    seat: int
    at: str
    ship: str
    aboard: bool
    carried: int
    cargo: int
    home: int
    arrows: int
    wounded: bool
    robbed_camp: bool
    must: str
    misses_turns: int


class CityView(msgspec.Struct, frozen=True, kw_only=True):
    city: str
    loot: int
    vikings: tuple[int, ...]


class HagarView(msgspec.Struct, frozen=True, kw_only=True):
    """A game of Hägar as one viewer may see it."""

    viewer: str
    turn: int
    phase: str
    rounds: int
    throw: Throw | None
    leg: Leg | None
    crossing: Crossing | None
    ambush_targets: tuple[int, ...]
    pending_card: str | None
    feast_callable: bool
    vikings: tuple[VikingView, ...]
    holdings: tuple[Holdings, ...]
    cities: tuple[CityView, ...]
    camp_chests: int
    roadside: tuple[tuple[str, int], ...]
    deck: int
    discard: tuple[str, ...]
    removed: int
    result: Result | None = None
    sympathy: tuple[tuple[int, int], ...] = ()
    stacks: tuple[tuple[str, tuple[LootView, ...]], ...] | None = None
    deck_order: tuple[str, ...] | None = None


def _loot(ids: tuple[int, ...]) -> tuple[LootView, ...]:
    return tuple([_piece(slot, piece) for slot, piece in enumerate(ids, start=1)])


@functools.lru_cache(maxsize=1024)  # the card's slots times the box's pieces, at most
def _piece(slot: int, piece: int) -> LootView:
    """One piece face up in a slot (frozen, so one copy serves every view)."""
    known = pieces()[piece]
    return LootView(
        slot=slot, piece=piece, kind=known.kind, name=known.name, value=known.value, gift=known.gift
    )


def _holdings(seat: int, viking: Viking) -> Holdings:
    return Holdings(
        seat=seat, carried=_loot(viking.carried), cargo=_loot(viking.cargo), home=_loot(viking.home)
    )


def _public(seat: int, viking: Viking) -> VikingView:
    return VikingView(
        seat=seat,
        at=viking.at,
        ship=viking.ship,
        aboard=viking.aboard,
        carried=len(viking.carried),
        cargo=len(viking.cargo),
        home=len(viking.home),
        arrows=len(viking.arrows),
        wounded=viking.wounded,
        robbed_camp=viking.robbed_camp,
        must=viking.must,
        misses_turns=viking.skip,
    )


def view(state: HagarState, viewer: Viewer) -> HagarView:
    """Only what `viewer` is entitled to."""
    everything = viewer.referee or state.revealed
    visible = range(state.players) if everything else sorted(viewer.seats)
    return HagarView(
        viewer=viewer.name,
        turn=state.turn,
        phase=state.phase,
        rounds=state.rounds,
        throw=state.throw,
        leg=state.leg,
        crossing=state.crossing,
        ambush_targets=state.targets,
        pending_card=cards()[state.card].kind if state.card >= 0 else None,
        feast_callable=state.phase == "throw" and bool(feast_reason(state, state.turn)),
        vikings=tuple([_public(s, v) for s, v in enumerate(state.vikings)]),
        holdings=tuple([_holdings(s, state.vikings[s]) for s in visible]),
        cities=_cities(state),
        camp_chests=len(state.camp),
        roadside=tuple([(space, len(pieces)) for space, pieces in state.roadside]),
        deck=len(state.deck),
        discard=tuple([cards()[c].kind for c in state.discard]),
        removed=len(state.removed),
        result=state.result,
        sympathy=state.sympathy,
        stacks=tuple((c, _loot(state.stack(c))) for c in board().cities)
        if viewer.referee
        else None,
        deck_order=tuple(cards()[c].kind for c in state.deck) if viewer.referee else None,
    )


def _cities(state: HagarState) -> tuple[CityView, ...]:
    """Each city's stack size and the Vikings on foot there (`state.on_foot_at`), from one
    pass over the Vikings."""
    on_foot: dict[str, list[int]] = {}
    for seat, viking in enumerate(state.vikings):
        if not viking.aboard:
            on_foot.setdefault(viking.at, []).append(seat)
    return tuple(
        [
            CityView(city=city, loot=len(state.stacks[index]), vikings=tuple(on_foot.get(city, ())))
            for index, city in enumerate(board().cities)
        ]
    )


def _pieces(pieces: tuple[LootView, ...]) -> str:
    return ", ".join(f"{p.slot}:{p.name} {p.value}" for p in pieces) or "-"


def render(hagar: HagarView) -> str:
    """A readable terminal rendering."""
    lines = [
        f"Hägar ruft zum Beutefest: round {hagar.rounds + 1}, seat {hagar.turn} to act "
        f"({hagar.phase})"
    ]
    if hagar.throw is not None:
        t = hagar.throw
        bolt = f", {t.lightning} lightning" if t.lightning else ""
        lines.append(f"last throw (seat {t.seat}): {t.points} points / {t.waves} waves{bolt}")
    if hagar.crossing is not None:
        c = hagar.crossing
        called = f": even {c.even}, odd {c.odd}" if c.even else ""
        lines.append(f"crossroads at {c.space}{called}")
    if hagar.pending_card:
        lines.append(f"fate card drawn: {hagar.pending_card}")
    if hagar.ambush_targets:
        lines.append(f"ambush possible on seats {list(hagar.ambush_targets)}")
    if hagar.feast_callable:
        lines.append("the Loot Feast may be called")
    lines.append("Vikings:")
    for v in hagar.vikings:
        place = f"aboard at {v.ship}" if v.aboard else f"on foot at {v.at}, ship at {v.ship}"
        marks = (f", arrows {v.arrows}" if v.arrows else "") + (" WOUNDED" if v.wounded else "")
        lines.append(
            f"  seat {v.seat}: {place}; carried {v.carried}, ship {v.cargo}, home {v.home}{marks}"
        )
    for h in hagar.holdings:
        lines.append(
            f"  loot of seat {h.seat}: carried [{_pieces(h.carried)}] ship "
            f"[{_pieces(h.cargo)}] home [{_pieces(h.home)}]"
        )
    cities = ", ".join(f"{c.city} {c.loot}" for c in hagar.cities if c.loot)
    lines.append(f"cities: {cities or 'all plundered'}; camp chests {hagar.camp_chests}")
    if hagar.roadside:
        lines.append("roadside: " + ", ".join(f"{s} {n}" for s, n in hagar.roadside))
    lines.append(f"fate deck {hagar.deck}, discards {len(hagar.discard)}")
    if hagar.result is not None:
        scores = ", ".join(f"seat {s}: {p}" for s, p in enumerate(hagar.result.scores))
        lines.append(f"feast scores: {scores}; winners {list(hagar.result.ranking[0])}")
    return "\n".join(lines)


def perturb_hidden(state: HagarState, viewer: Viewer, rnd: random.Random) -> HagarState:
    """Every face-down loot piece `viewer` cannot see (the city stacks, other Vikings'
    collector's cards, loot by the road, pieces the storm took) trades places with another
    such piece, and the fate deck is reordered; every count stays the same."""
    if viewer.referee or state.revealed:
        return state
    replace = msgspec.structs.replace
    hidden = [s for s in range(state.players) if s not in viewer.seats]
    places: list[tuple[int, ...]] = [
        *state.stacks,
        *(pieces for _, pieces in state.roadside),
        state.removed,
    ]
    places += [
        getattr(state.vikings[s], field) for s in hidden for field in ("carried", "cargo", "home")
    ]
    loot = [piece for place in places for piece in place]
    rnd.shuffle(loot)
    refilled = iter(loot)

    def refill(place: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(next(refilled) for _ in place)

    stacks = tuple(refill(stack) for stack in state.stacks)
    roadside = tuple((space, refill(pieces)) for space, pieces in state.roadside)
    removed = refill(state.removed)
    vikings = list(state.vikings)
    for s in hidden:
        viking = vikings[s]
        vikings[s] = replace(
            viking,
            carried=refill(viking.carried),
            cargo=refill(viking.cargo),
            home=refill(viking.home),
        )
    deck = list(state.deck)
    rnd.shuffle(deck)
    return replace(
        state,
        stacks=stacks,
        roadside=roadside,
        removed=removed,
        vikings=tuple(vikings),
        deck=tuple(deck),
    )


class HagarViews:
    """The view functions registered for `hagar`."""

    def view(self, state: HagarState, viewer: Viewer) -> HagarView:
        return view(state, viewer)

    def render(self, view: HagarView) -> str:
        return render(view)

    def perturb_hidden(self, state: HagarState, viewer: Viewer, rnd: random.Random) -> HagarState:
        """Face-down loot and the fate deck's order changed where `viewer` cannot see."""
        return perturb_hidden(state, viewer, rnd)

    def possible(self, log: Sequence[Envelope[Any]], viewer: Viewer) -> HagarPossible:
        """Each face-down piece's possible values, the fate deck (`hagar_knowledge`)."""
        return hagar_knowledge.possible(log, viewer)

    def knowledge_fold(self) -> hagar_knowledge.HagarFold:
        """`possible` folded an envelope at a time (`hagar_knowledge.HagarFold`)."""
        return hagar_knowledge.HagarFold()

    def sample(
        self, state: HagarState, possible: HagarPossible, viewer: Viewer, rnd: random.Random
    ) -> HagarState:
        """A world uniform over those in `possible` (`hagar_knowledge.sample`)."""
        return hagar_knowledge.sample(state, possible, viewer, rnd)


@register_views("hagar")
def hagar_views() -> HagarViews:
    """The factory the registry calls."""
    return HagarViews()
