"""What each viewer sees of a game of Hägar, and a terminal rendering of it in the
narrative's words (Vikings by their players' names, places and loot as printed).

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

from skald.core.hagar.board import board, whereabouts
from skald.core.hagar.data import cards, pieces
from skald.core.hagar.scoring import feast_reason
from skald.core.hagar.state import Crossing, HagarState, Leg, Result, Throw, Viking
from skald.events.common import Outcome
from skald.events.envelope import Envelope
from skald.events.hagar import CrossroadsReached, DirectionsAnnounced, SticksThrown
from skald.events.viewer import Viewer
from skald.projections.hagar import knowledge as hagar_knowledge
from skald.projections.hagar import possible_words
from skald.projections.hagar.knowledge import HagarPossible
from skald.projections.hagar.narrative import (
    FATE_NAMES,
    HagarNarrator,
    loot_words,
    narrator,
    place_words,
)
from skald.projections.narrative.common import listing, outcome_words, plural
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


PHASE_WORDS = {
    "setup": "to choose a home harbour",
    "throw": "to throw the rune sticks",
    "move": "to move",
    "arrow": "to hand the arrow to another Viking",
    "odin": "to say where Odin carries him",
    "storm": "to choose the piece of cargo the storm takes",
    "ambush": "to ambush or to let the others be",
    "announce": "to announce the way at the crossroads",
    "moved": "has moved",
    "roadside": "to take the loot lying by the road or to leave it",
}
"""What the Viking whose turn it is does now, by phase (`HagarState.phase`)."""


def render(hagar: HagarView, players: Sequence[str]) -> str:
    """A readable terminal rendering: Vikings by their players' names, places as the board
    prints them, loot by kind and value, the turn said as what the Viking does now."""
    told = narrator(tuple(players))
    lines = [f"Hägar ruft zum Beutefest: round {hagar.rounds + 1}; {_turn_words(hagar, told)}"]
    lines += _moment(hagar, told)
    lines.append("Vikings:")
    lines += [f"  {told.actor(v.seat)}: {_viking_words(v)}" for v in hagar.vikings]
    lines += [f"  {told.name(h.seat)}'s loot: {_holdings_words(h)}" for h in hagar.holdings]
    cities = ", ".join(f"{place_words(c.city)} {c.loot}" for c in hagar.cities if c.loot)
    chests = f"{plural(hagar.camp_chests, 'treasure chest')} at the {place_words(board().camp)}"
    lines.append(f"loot in the cities: {cities or 'all plundered'}; {chests}")
    if hagar.roadside:
        lying = ", ".join(f"{place_words(s)} {plural(n, 'piece')}" for s, n in hagar.roadside)
        lines.append(f"loot lying by the road: {lying}")
    lines.append(f"fate deck: {plural(hagar.deck, 'card')}, {len(hagar.discard)} discarded")
    if hagar.result is not None:
        result = Outcome(
            termination="feast", ranking=hagar.result.ranking, scores=hagar.result.scores
        )
        lines.append(f"the feast: {outcome_words(result, told.name)}")
    return "\n".join(lines)


def _turn_words(hagar: HagarView, told: HagarNarrator) -> str:
    """`Bob to move (3 points on land or 5 waves at sea)`; `the Loot Feast is over`."""
    if hagar.phase == "over":
        return "the Loot Feast is over"
    words = f"{told.name(hagar.turn)} {PHASE_WORDS.get(hagar.phase, 'to act')}"
    if hagar.phase == "move" and hagar.leg is not None:
        words += f" ({_leg_words(hagar.leg)})"
    return words


def _leg_words(leg: Leg) -> str:
    """What a throw allows: `3 points on land or 5 waves at sea`, a fate card first on a
    lightning bolt."""
    land, sea = f"{plural(leg.points, 'point')} on land", f"{plural(leg.waves, 'wave')} at sea"
    allowed = {"any": f"{land} or {sea}", "walk": land, "sail": sea}[leg.mode]
    return allowed + ("; lightning: a fate card first on land" if leg.lightning else "")


def _moment(hagar: HagarView, told: HagarNarrator) -> list[str]:
    """The last throw, a crossroads, a drawn fate card, an ambush, the feast to call: in
    the narrative's sentences where it has them."""
    lines: list[str] = []
    if hagar.throw is not None:
        thrown = SticksThrown(**msgspec.structs.asdict(hagar.throw))
        lines.append(f"last throw: {told.say(thrown)}")
    crossing = hagar.crossing
    if crossing is not None:
        reached = CrossroadsReached(seat=hagar.turn, space=crossing.space, mode=crossing.mode)
        lines.append(str(told.say(reached)))
        if crossing.even:
            lines.append(
                str(told.say(DirectionsAnnounced(hagar.turn, crossing.even, crossing.odd)))
            )
    if hagar.pending_card:
        lines.append(f"fate card drawn: {FATE_NAMES.get(hagar.pending_card, hagar.pending_card)}")
    if hagar.ambush_targets:
        targets = listing([told.name(s) for s in hagar.ambush_targets], last="or")
        lines.append(f"{told.name(hagar.turn)} may ambush {targets}")
    if hagar.feast_callable:
        lines.append(f"{told.name(hagar.turn)} may call the Loot Feast")
    return lines


def _viking_words(viking: VikingView) -> str:
    """`on foot at DE road 5, ship at Hamburg harbour; loot 1 carried, 1 on his ship, 2 at
    home; 2 arrows` (where he is in the refusals' words, `whereabouts`)."""
    place = whereabouts(viking.at, viking.ship, viking.aboard)
    loot = f"loot {viking.carried} carried, {viking.cargo} on his ship, {viking.home} at home"
    marks = [plural(viking.arrows, "arrow")] if viking.arrows else []
    marks += ["wounded: straight home"] if viking.wounded else []
    marks += [f"misses {plural(viking.misses_turns, 'turn')}"] if viking.misses_turns else []
    return "; ".join([place, loot, *marks])


def _holdings_words(holdings: Holdings) -> str:
    """A collector's card face up, each piece numbered by its place as the notation names
    it: `carried 1. Wine (2); on the ship nothing; at home 1. Gold (5), 2. Wine (4)`."""
    fields = (
        ("carried", holdings.carried),
        ("on the ship", holdings.cargo),
        ("at home", holdings.home),
    )
    return "; ".join(f"{field} {_pieces(pieces)}" for field, pieces in fields)


def _pieces(pieces: tuple[LootView, ...]) -> str:
    return ", ".join(f"{p.slot}. {loot_words(p.piece)}" for p in pieces) or "nothing"


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

    def render(self, view: HagarView, players: Sequence[str]) -> str:
        """Vikings by their players' names, places and loot as printed."""
        return render(view, players)

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

    def describe(self, possible: Any, players: Sequence[str]) -> str:
        """What could be true, as lines a player reads (`possible_words`)."""
        return possible_words.describe(possible, players)


@register_views("hagar")
def hagar_views() -> HagarViews:
    """The factory the registry calls."""
    return HagarViews()
