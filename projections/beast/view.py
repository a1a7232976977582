"""What each viewer sees of a Beast game, and a readable terminal rendering.

Entitlements (rulebook: "One vs Many", "Beast movement", "Traps"):
- everyone: the standee (last known location), how many movement cards are active, the
  trails, hunters, pieces, summons, watchtowers, trap counts per zone, hand sizes, the
  face-up rows and the common discard, and how many items and talents lie face down in
  their discards (not which);
- the Beast's seat: its actual location, its active movement cards, its hand and talents;
- every hunter seat (one team): every hunter's hand and items, and the traps' cards and
  habitats;
- a seat's own draft pack; the referee everything. Deck orders are nobody's.
A hunter's view is built without reading the Beast's location or cards at all.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec

from skald.core.beast.data import HABITATS, beast_mat, cards, is_trap_item
from skald.core.beast.decide import phase_words, resolving_words
from skald.core.beast.legal import acting_hand, to_act
from skald.core.beast.state import BEAST, BeastState
from skald.core.refusal import player_name
from skald.events.beast import Step
from skald.events.envelope import Envelope
from skald.events.viewer import Viewer
from skald.projections.beast import possible_words
from skald.projections.beast.knowledge import possible as beast_knowledge
from skald.projections.beast.knowledge.possible import BeastPossible
from skald.projections.beast.narrative import EFFECT_WORDS, step_words, summon_words
from skald.projections.beast.role import role_of
from skald.projections.narrative.common import listing, plural
from skald.projections.registry import register_views


class HandView(msgspec.Struct, frozen=True, kw_only=True):
    """One character as the viewer may see it; None where it may not."""

    character: str
    seat: int
    health: int
    wounds: int
    grudges: int
    powers: int
    location: str | None
    action_count: int
    actions: tuple[str, ...] | None
    abilities: tuple[str, ...]
    extra_count: int
    extras: tuple[str, ...] | None
    upgrades: tuple[str, ...]
    dead: bool


class TrapView(msgspec.Struct, frozen=True):
    """A face-down trap; card and habitat for the hunters only."""

    zone: str
    card: str | None
    habitat: str | None


class FrameView(msgspec.Struct, frozen=True):
    """A card being resolved."""

    character: str
    card: str
    pending: tuple[str, ...]


class BeastView(msgspec.Struct, frozen=True, kw_only=True):
    """A Beast game as one viewer sees it."""

    viewer: str
    role: str
    contract: str
    map: str
    day: int
    phase: str
    acting: str | None
    waiting: tuple[int, ...]
    standee: str
    active_count: int
    active: tuple[Step, ...] | None
    beast_location: str | None
    trails: tuple[tuple[str, int], ...]
    hands: tuple[HandView, ...]
    pieces: tuple[tuple[str, str, int], ...]
    summons: tuple[tuple[str, str], ...]
    towers: tuple[str, ...]
    traps: tuple[TrapView, ...]
    habitats: tuple[tuple[str, str], ...]
    item_row: tuple[str, ...]
    talent_row: tuple[str, ...]
    decks: tuple[tuple[str, int], ...]
    discard: tuple[str, ...]
    pack: tuple[str, ...] | None
    aside: str | None
    frames: tuple[FrameView, ...]
    window: str
    stats: tuple[tuple[str, int], ...]
    lives: int
    winner: str
    pool_count: int = 0
    pool: tuple[str, ...] | None = None


def _hand(state: BeastState, index: int, role: str) -> HandView:
    hand = state.hands[index]
    own = (
        role == "referee"
        or (role == "beast" and index == BEAST)
        or (role == "hunters" and index != BEAST)
    )
    # The Beast's location is public while it is revealed (no active movement cards: it
    # stands on its standee); hidden, only its own side and the referee see it.
    located = index != BEAST or role in ("beast", "referee") or not state.hidden
    return HandView(
        character=hand.character,
        seat=hand.seat,
        health=state.max_health(index),
        wounds=hand.wounds,
        grudges=hand.grudges,
        powers=hand.powers,
        location=hand.location if located else None,
        action_count=len(hand.actions),
        actions=hand.actions if own else None,
        abilities=hand.abilities,
        extra_count=len(hand.extras),
        extras=hand.extras if own else None,
        upgrades=hand.upgrades,
        dead=hand.dead,
    )


def _trails(state: BeastState) -> tuple[tuple[str, int], ...]:
    counts: dict[str, int] = {}
    for index in state.trailed:
        location = state.active[index].location
        counts[location] = counts.get(location, 0) + 1
    return tuple(sorted(counts.items()))


def _frames(state: BeastState, role: str) -> tuple[FrameView, ...]:
    views = []
    for frame in state.frames:
        secret = is_trap_item(frame.card) if frame.card else False
        shown = frame.card if not secret or role in ("hunters", "referee") else "trap"
        pending = tuple(frame.effects[i].op for i in frame.pending)
        views.append(FrameView(state.hands[frame.hand].character, shown or frame.slot, pending))
    return tuple(views)


def beast_view(state: BeastState, viewer: Viewer) -> BeastView:
    """What `viewer` may see."""
    role = role_of(state, viewer)
    beast_eyes = role in ("beast", "referee")
    hunter_eyes = role in ("hunters", "referee")
    seat = viewer.seat
    pack = None
    if state.packs and seat is not None and seat < len(state.packs):
        pack = state.packs[seat]
    if role == "referee":
        pack = None
    acting = acting_hand(state)
    return BeastView(
        viewer=viewer.name,
        role=role,
        contract=state.contract,
        map=state.map,
        day=state.day,
        phase=state.phase,
        acting=state.hands[acting].character if acting is not None else None,
        waiting=tuple(sorted(to_act(state))),
        standee=state.standee,
        active_count=len(state.active),
        active=state.active if beast_eyes else None,
        beast_location=state.beast.location if beast_eyes and state.hands else None,
        trails=_trails(state),
        hands=tuple(_hand(state, i, role) for i in range(len(state.hands))),
        pieces=tuple((p.location, p.kind, p.wounds) for p in state.pieces if p.alive),
        summons=tuple((s.name, s.location) for s in state.summons if s.location),
        towers=state.towers,
        traps=tuple(
            TrapView(
                state.board.zone_names[zone],
                trap.card if hunter_eyes else None,
                trap.habitat if hunter_eyes else None,
            )
            for zone, trap in state.traps
        ),
        habitats=state.habitats,
        item_row=state.item_row,
        talent_row=state.talent_row,
        decks=(
            ("action", len(state.action_deck)),
            ("item", len(state.item_deck)),
            ("talent", len(state.talent_deck)),
            ("item_discard", len(state.item_discard)),
            ("talent_discard", len(state.talent_discard)),
        ),
        discard=state.discard,
        pack=pack,
        pool_count=len(state.pool),
        pool=state.pool if hunter_eyes else None,
        aside=state.aside if beast_eyes else None,
        frames=_frames(state, role),
        window=state.window,
        stats=state.stats,
        lives=state.lives,
        winner=state.winner,
    )


ROLE_WORDS = {
    "beast": "the Beast's side",
    "hunters": "the hunters' side",
    "referee": "the referee",
    "spectator": "a spectator",
}
"""A viewer's role (`role_of`) in words."""


def role_words(viewer: str, role: str) -> str:
    """Whose eyes a view is through: `the hunters' side`; a viewer who is not the referee
    but sees as one (the game is over under reveal=end) is told why."""
    if role == "referee" and viewer != "referee":
        return "the game is over: everything is shown"
    return ROLE_WORDS.get(role, role)


def side_lines(
    aside: str | None, pool: Sequence[str] | None, pack: Sequence[str] | None
) -> list[str]:
    """What the viewer holds apart from the hands (a view's `aside`, `pool`, `pack`): the
    card set aside for it after the draft, the cards its side drafted and has still to
    assign, its draft pack."""
    lines = []
    if aside:
        lines.append(f"set aside for you after the draft: {aside}")
    if pool:
        lines.append(f"drafted, to assign to your hunters: {', '.join(pool)}")
    if pack is not None:
        lines.append(f"your draft pack: {', '.join(pack) or '(empty)'}")
    return lines


WINNER_WORDS = {"beast": "the Beast won", "hunters": "the hunters won"}


def render_view(view: BeastView, players: Sequence[str]) -> str:
    """The map as a grid and the table around it: characters with their players' names,
    the phase, cards and what is resolving in words."""
    from skald.core.beast.data import boards, contracts

    if not view.map:
        return "Beast: not set up yet"
    board = boards()[view.map]
    habitats = dict(board.habitat) | dict(view.habitats)
    trails = dict(view.trails)
    lines = [
        f"Beast - {contracts()[view.contract].title} on {board.title}; "
        f"{phase_words(view.phase, view.day)}; seen by {view.viewer} "
        f"({role_words(view.viewer, view.role)})"
    ]
    header = "    " + "".join(f"{chr(65 + c):<14}" for c in range(board.cols))
    lines.append(header)
    for row in range(board.rows):
        cells = []
        for col in range(board.cols):
            loc = f"{chr(65 + col)}{row + 1}"
            cells.append(
                f"{_cell(view, loc, habitats, trails):<14}" if loc in habitats else f"{'~~':<14}"
            )
        lines.append(f"{row + 1:>2}  " + "".join(cells).rstrip())
    lines.append(
        "key: S settlement F forest W swamp C cave * centre, ~~ no location (off the map); "
        "b last known Beast, "
        "B Beast (actual), ~n trails, T watchtower, f/n farmer/noble, s/o/r "
        "sheep/boar/bear, hunters by initials"
    )
    hidden = "revealed" if view.active_count == 0 else f"{view.active_count} active movement cards"
    trail = beast_mat(view.hands[0].character).trail
    lines.append(
        f"Beast {view.hands[0].character} ({trail} trails): last known "
        f"{view.standee}, {hidden}"
        + (f"; actual {view.beast_location}" if view.beast_location else "")
        + (f"; movement cards {', '.join(map(step_words, view.active))}" if view.active else "")
    )
    lines += table_lines(view, players)
    if view.winner:
        lines.append(WINNER_WORDS.get(view.winner, view.winner))
    elif view.acting:  # else several act at once (the draft): the header names them
        lines.append(f"to act: {view.acting}")
    return "\n".join(lines)


FRAME_SLOTS = ("start", "flee", "upgrade", "copy")
"""The frames that resolve no card of their own (`FrameView.card` is then the slot)."""


def _frame_words(frame: FrameView) -> str:
    """`Resolving Helga's Vigil: the watchtower still to come.`, `Resolving Fangrir's first
    move: the move still to come.`, `Resolving a trap played by Iona: nothing left.`"""
    slot = frame.card if frame.card in FRAME_SLOTS else ""
    what = resolving_words(frame.character, "" if slot else frame.card, slot)
    if what.startswith("a "):
        what += f" played by {frame.character}"
    elif not what.startswith(frame.character):
        what = f"{frame.character}'s {what}"
    pending = listing([f"the {EFFECT_WORDS.get(op, op)}" for op in frame.pending])
    return f"Resolving {what}: {pending or 'nothing'} still to come."


PIECE_CODES = {"farmer": "f", "noble": "n", "sheep": "s", "boar": "o", "bear": "r"}
HABITAT_LETTERS = {"settlement": "S", "forest": "F", "swamp": "W", "cave": "C", "centre": "*"}


def _cell(view: BeastView, loc: str, habitats: dict[str, str], trails: dict[str, int]) -> str:
    marks = HABITAT_LETTERS[habitats[loc]]
    marks += "".join(PIECE_CODES[kind] for where, kind, _ in view.pieces if where == loc)
    if view.standee == loc:
        marks += " b"
    if view.beast_location == loc:
        marks += " B"
    marks += "".join(f" {h.character[:2]}" for h in view.hands[1:] if h.location == loc)
    marks += "".join(f" {n}" for n, where in view.summons if where == loc)
    if loc in view.towers:
        marks += " T"
    if trails.get(loc):
        marks += f" ~{trails[loc]}"
    return marks


STAT_WORDS: dict[str, tuple[str, str]] = {
    "reveals": ("time the Beast was revealed", "times the Beast was revealed"),
    "misses": ("search found nothing", "searches found nothing"),
    "transforms": ("location transformed", "locations transformed"),
    "beast_wounds": ("wound dealt to the Beast", "wounds dealt to the Beast"),
    "hunter_kills": ("hunter killed", "hunters killed"),
    "settler_kills": ("settler killed", "settlers killed"),
    "animal_kills": ("animal killed", "animals killed"),
    "summons_killed": ("summoned creature killed", "summoned creatures killed"),
}
"""The game's tallies (core/beast/evolve.py `_count`) in words: one, many."""


def _stat_words(name: str, count: int) -> str:
    """`5 locations transformed`; a tally this table does not know, by its name."""
    one, many = STAT_WORDS.get(name, (name.replace("_", " "), ""))
    return plural(count, one, many or None)


def table_lines(view: BeastView, players: Sequence[str]) -> list[str]:
    """Everything on the table but the map, in words: each character's hand line
    (indented), the summons, the traps, the rows and the discard, what the viewer holds
    apart, the cards resolving, a reaction's window, the game's tallies (`skald show` and
    the drawn board's panel alike)."""
    lines = [_hand_line(index, hand, view, players) for index, hand in enumerate(view.hands)]
    if view.summons:
        summons = ", ".join(f"{summon_words(n)} at {loc}" for n, loc in view.summons)
        lines.append(f"summons: {summons}")
    if view.traps:
        lines.append(
            "traps: "
            + ", ".join(
                f"{t.zone}" + (f" ({t.card}, {t.habitat})" if t.card else " (face down)")
                for t in view.traps
            )
        )
    lines.append(
        f"items: {_listed(view.item_row, '')}; talents: {_listed(view.talent_row, '')}; "
        f"discard: {_listed(view.discard, '')}"
    )
    lines += side_lines(view.aside, view.pool, view.pack)
    lines += [_frame_words(frame) for frame in view.frames]
    if view.window:
        lines.append(f"the {view.window.replace('_', ' ')} may be answered by a reaction")
    if view.stats:
        lines.append("so far: " + ", ".join(_stat_words(name, count) for name, count in view.stats))
    return lines


def _hand_line(index: int, hand: HandView, view: BeastView, players: Sequence[str]) -> str:
    """`Helga (Bob) at D2: 0/6 wounds, 2 grudges, 0 powers; actions: none; abilities:
    Seer; items: Outpost` (the Beast's extra cards are talents)."""
    cards = _listed(hand.actions, plural(hand.action_count, "card"))
    extras = _listed(hand.extras, f"{hand.extra_count} hidden")
    if hand.dead:
        where = "dead"
    elif hand.location is None and view.active_count == 0:
        where = view.standee  # revealed: the standee stands where the Beast is
    elif hand.location is None:
        where = "hidden location"
    else:
        where = hand.location
    extra = "talents" if index == BEAST else "items"
    at = f"at {where}" if where else "not placed yet"
    return (
        f"  {hand.character} ({player_name(players, hand.seat)}) {at}: "
        f"{hand.wounds}/{hand.health} wounds, {plural(hand.grudges, 'grudge')}, "
        f"{plural(hand.powers, 'power')}; actions: {cards}; "
        f"abilities: {_listed(hand.abilities, '')}; {extra}: {extras}"
        + (f"; upgrades: {', '.join(hand.upgrades)}" if hand.upgrades else "")
    )


def _listed(names: tuple[str, ...] | None, unseen: str) -> str:
    """Cards the viewer sees by name (`none` for no card), else `unseen` (their count)."""
    if names is None:
        return unseen
    return ", ".join(names) or "none"


def perturb_hidden(state: BeastState, viewer: Viewer, rnd: random.Random) -> BeastState:
    """A state differing only in what `viewer` may not see: the Beast's hidden path (its
    untrailed movement cards and, while hidden, its location), the cards in hidden hands
    and packs, the set-aside card, set traps, and the order of the face-down decks."""
    if viewer.referee or state.winner or not state.hands:
        return state
    replace = msgspec.structs.replace
    every = cards()
    hands = list(state.hands)
    for index, hand in enumerate(hands):
        if viewer.sees(state.team(index)):
            continue
        extras = every.talent if index == BEAST else every.item
        hands[index] = replace(
            hand,
            actions=tuple(rnd.choice(every.action).name for _ in hand.actions),
            extras=tuple(rnd.choice(extras).name for _ in hand.extras),
        )
    changes: dict[str, object] = {}
    if not viewer.sees(state.team(BEAST)):
        locations = state.board.locations
        changes["active"] = tuple(
            card if i in state.trailed else Step(rnd.choice("NESWX"), rnd.choice(locations))
            for i, card in enumerate(state.active)
        )
        if state.active:
            hands[BEAST] = replace(hands[BEAST], location=rnd.choice(locations))
        if state.aside:
            changes["aside"] = rnd.choice(every.action).name
    if not viewer.sees(state.hunter_seats):
        changes["pool"] = tuple(rnd.choice(every.action).name for _ in state.pool)
        changes["traps"] = tuple(
            (zone, replace(trap, card=rnd.choice(every.item).name, habitat=rnd.choice(HABITATS)))
            for zone, trap in state.traps
        )
    changes["packs"] = tuple(
        pack
        if viewer.sees(frozenset({seat}))
        else tuple(rnd.choice(every.action).name for _ in pack)
        for seat, pack in enumerate(state.packs)
    )
    for deck in ("action_deck", "item_deck", "talent_deck"):
        order = list(getattr(state, deck))
        rnd.shuffle(order)
        changes[deck] = tuple(order)
    return replace(state, hands=tuple(hands), **changes)


@register_views("beast")
class BeastViews:
    """The Beast views for the registry."""

    def view(self, state: BeastState, viewer: Viewer) -> BeastView:
        """What `viewer` sees."""
        return beast_view(state, viewer)

    def render(self, view: BeastView, players: Sequence[str]) -> str:
        """A readable rendering (a hunter's never shows where the Beast is)."""
        return render_view(view, players)

    def perturb_hidden(self, state: BeastState, viewer: Viewer, rnd: random.Random) -> BeastState:
        """The Beast's or the hunters' secrets changed, whichever `viewer` cannot see."""
        return perturb_hidden(state, viewer, rnd)

    def possible(self, log: Sequence[Envelope[Any]], viewer: Viewer) -> BeastPossible:
        """What could be true of every hidden item, from `viewer`'s redacted log alone."""
        return beast_knowledge.possible(log, viewer)

    def knowledge_fold(self) -> beast_knowledge.BeastKnowledgeFold:
        """`possible` as a fold to read on from (projections/knowledge/cache.py)."""
        return beast_knowledge.BeastKnowledgeFold()

    def sample(
        self, state: BeastState, possible: BeastPossible, viewer: Viewer, rnd: random.Random
    ) -> BeastState:
        """A world drawn uniformly from `possible` (projections/beast/knowledge/possible.py)."""
        return beast_knowledge.sample(state, possible, viewer, rnd)

    def describe(self, possible: Any, players: Sequence[str]) -> str:
        """What could be true, as lines a player reads (`possible_words`)."""
        return possible_words.describe(possible, players)
