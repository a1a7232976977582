"""The folds of a Beast viewer's replay (`shadow`) that need a value the
viewer could not see: one small function per event type, each filling the unseen value
with a token ("?7") or a seen card the viewer knows is there, so the reducer moves it as
it moves the real card, or folding the event by hand where the reducer would need the
card's name (a face-down discard, a trap being played, set, resolved or set off).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import msgspec

from skald.core.beast.data import (
    card_index,
    cards,
    characters,
    is_trap_item,
    kind_of,
    side_of,
)
from skald.core.beast.evolve import evolve
from skald.core.beast.legal import PACK_SIZES
from skald.core.beast.state import BEAST, BeastState
from skald.events.beast import (
    BeastMoved,
    BeastRevealed,
    CardAssigned,
    CardDiscarded,
    CardDiscardedFaceDown,
    CardDrafted,
    CardGained,
    CardPlayed,
    CardResolved,
    CardSetAside,
    DayBegan,
    DeckShuffled,
    HandDealt,
    HunterLooted,
    NightReset,
    PackDealt,
    PacksPassed,
    RowDealt,
    Step,
    TrailsPlaced,
    TrapCard,
    TrapSet,
    TrapTriggered,
)
from skald.events.secret import Secret
from skald.events.viewer import Viewer
from skald.projections.beast.knowledge.groups import (
    Group,
    is_token,
    joined,
    pick_token,
    recalled,
    trap_token,
)

replace = msgspec.structs.replace


class Draft(msgspec.Struct, frozen=True):
    """What the viewer remembers of the draft packs: which pack lies at each seat, what it
    last saw in each, and the picks it did not see made from them since (the hand, or -1
    for the hunters' pool, and the picked card's token)."""

    ids: tuple[int, ...] = ()
    seen: tuple[tuple[int, tuple[str, ...]], ...] = ()
    picks: tuple[tuple[int, tuple[tuple[int, str], ...]], ...] = ()

    def saw(self, pack: int, cards: tuple[str, ...]) -> Draft:
        """The viewer holds `pack` and sees `cards` in it."""
        return replace(self, seen=(*[x for x in self.seen if x[0] != pack], (pack, cards)))

    def unseen_pick(self, pack: int, into: int, token: str) -> Draft:
        """Someone the viewer cannot see took a card from `pack`."""
        before = dict(self.picks).get(pack, ())
        picks = [x for x in self.picks if x[0] != pack]
        return replace(self, picks=(*picks, (pack, (*before, (into, token)))))


class Reader(Protocol):
    """What a fold reads and changes of the viewer's replay (`shadow.Reader`): its viewer
    and what it may see, the draft it remembers, its groups and tokens."""

    viewer: Viewer
    kinds: dict[str, str]
    excluded: dict[str, frozenset[str]]
    draft: Draft
    groups: tuple[Group, ...]
    revealed: str

    def sees(self, secret: Secret[Any] | None) -> bool:
        """The viewer may read this hidden value."""

    @property
    def beast_eyes(self) -> bool:
        """The viewer sees the Beast's side."""

    @property
    def hunter_eyes(self) -> bool:
        """The viewer sees the hunters' side."""

    def token(self, kind: str) -> str:
        """A fresh unseen card of `kind`."""

    def named_token(self, name: str) -> str:
        """A fresh unseen card of the kind of card `name`."""

    def let_go(self, held: tuple[str, ...], keep: Callable[[str], bool] = ...) -> tuple[str, ...]:
        """`held` with its seen cards turned back into tokens (except those `keep` keeps)."""

    def filled(self, event: Any, **values: Any) -> Any:
        """`event` with its unseen Secrets carrying `values`."""


# -- the folds that need the unseen values (one per event type) ------------------------


def hand_field(state: BeastState, hand: int, field: str, held: tuple[str, ...]) -> BeastState:
    hands = list(state.hands)
    hands[hand] = replace(hands[hand], **{field: held})
    return replace(state, hands=tuple(hands))


def _first_token(held: tuple[str, ...]) -> str:
    return next(c for c in held if is_token(c))


def _taken(reader: Reader, state: BeastState, hand: int, field: str) -> tuple[BeastState, str]:
    """An unseen card leaves a hidden hand: a token of it. Any card of the hand may be the
    one (a flee's face-down discard is the fleeing side's choice, a loot is random), so a
    seen card is not claimed still there: the hand's seen cards, its tokens and the card
    gone are one group (`groups.joined`), which keeps that the seen cards
    are among them, in the hand or gone."""
    held: tuple[str, ...] = getattr(state.hands[hand], field)
    held, reader.groups = joined(held, reader.groups, reader.named_token)
    state = hand_field(state, hand, field, held)
    return state, _first_token(held)


def _expose(reader: Reader, state: BeastState, hand: int, name: str) -> BeastState:
    """A seen card comes out of a hand the viewer cannot see: it was one of its tokens (one
    of its group's, if it is a group's card: `groups`)."""
    if name not in card_index() or kind_of(name) == "ability":
        return state
    field = "actions" if kind_of(name) == "action" else "extras"
    return hand_field(state, hand, field, _swap_in(reader, getattr(state.hands[hand], field), name))


def _deck_shuffled(reader: Reader, state: BeastState, event: DeckShuffled) -> BeastState | None:
    if reader.sees(event.order):
        return None
    deck = event.deck
    if deck == "action":
        every = len(cards().action)
        if state.first_time and state.day == 0:
            setup = characters().first_time["large" if state.players == 4 else "small"]
            every -= sum(len(h) for h in setup.cards)
        order = tuple(reader.token("action") for _ in range(every))
    else:
        discards: tuple[str, ...] = getattr(state, f"{deck}_discard")
        group = getattr(cards(), deck)
        order = discards or tuple(reader.token(deck) for _ in group)
    return evolve(state, reader.filled(event, order=order))


def _remove_from_deck(
    reader: Reader, state: BeastState, deck: str, names: tuple[str, ...]
) -> BeastState:
    """Seen cards taken from a face-down deck: each was one of its tokens (its group's if
    it is a group's card: `groups.pick_token`)."""
    pile = list(getattr(state, f"{deck}_deck"))
    for name in names:
        if name in pile:
            pile.remove(name)
        elif any(is_token(c) for c in pile):
            token, reader.groups = pick_token(tuple(pile), name, reader.groups)
            pile.remove(token or _first_token(tuple(pile)))
    return replace(state, **{f"{deck}_deck": tuple(pile)})


def _row_dealt(reader: Reader, state: BeastState, event: RowDealt) -> BeastState:
    trimmed = _remove_from_deck(reader, state, event.deck, event.cards)
    row = (*getattr(state, f"{event.deck}_row"), *event.cards)
    return replace(trimmed, **{f"{event.deck}_row": row})


def _pack_dealt(reader: Reader, state: BeastState, event: PackDealt) -> BeastState | None:
    ids = reader.draft.ids if event.seat else ()
    draft = replace(reader.draft, ids=(*ids, event.seat))
    reader.draft = replace(draft, seen=(), picks=()) if not event.seat else draft
    if reader.sees(event.pack):
        reader.draft = reader.draft.saw(event.seat, event.pack.get())
        return None
    pack = state.action_deck[: PACK_SIZES[state.players]]
    return evolve(state, reader.filled(event, pack=pack))


def _card_set_aside(reader: Reader, state: BeastState, event: CardSetAside) -> BeastState | None:
    if reader.sees(event.card):
        return None
    return evolve(state, reader.filled(event, card=state.action_deck[0]))


def _swap_in(reader: Reader, held: tuple[str, ...], name: str) -> tuple[str, ...]:
    """A seen card leaves a place the viewer cannot see into: it was one of its tokens,
    one of its group's if it is a group's card (`groups.pick_token`)."""
    if name in held or not any(is_token(c) for c in held):
        return held
    token, reader.groups = pick_token(held, name, reader.groups)
    index = held.index(token or _first_token(held))
    return (*held[:index], name, *held[index + 1 :])


def _card_drafted(reader: Reader, state: BeastState, event: CardDrafted) -> BeastState | None:
    pack = state.packs[event.seat]
    draft = reader.draft
    which = draft.ids[event.seat] if event.seat < len(draft.ids) else -1
    if reader.sees(event.card):
        name = event.card.get()
        seen = dict(draft.seen)
        if which in seen:
            reader.draft = draft.saw(which, _without_one(seen[which], name))
        packs = list(state.packs)
        packs[event.seat] = _swap_in(reader, pack, name)
        return evolve(replace(state, packs=tuple(packs)), event)
    pack, reader.groups = joined(pack, reader.groups, reader.named_token)
    packs = list(state.packs)
    packs[event.seat] = pack
    state = replace(state, packs=tuple(packs))
    token = _first_token(pack)
    reader.draft = draft.unseen_pick(which, -1 if event.pooled else event.hand, token)
    return evolve(state, reader.filled(event, card=token))


def _without_one(cards_: tuple[str, ...], name: str) -> tuple[str, ...]:
    if name not in cards_:
        return cards_
    index = cards_.index(name)
    return cards_[:index] + cards_[index + 1 :]


def _recall(reader: Reader, state: BeastState, pack: int, now: tuple[str, ...]) -> BeastState:
    """The viewer sees `pack` again (or it is empty): the cards gone from it since it last
    saw it are the unseen picks, their tokens those cards in some order (a group,
    `groups`, named where they all went to one place)."""
    draft = reader.draft
    picks = dict(draft.picks).get(pack, ())
    reader.draft = replace(draft, picks=tuple(x for x in draft.picks if x[0] != pack))
    before = dict(draft.seen).get(pack)
    if not picks or before is None:
        return state
    gone = list(before)
    for name in now:
        if name in gone:
            gone.remove(name)
    if len(gone) == len(picks):  # (a pick's token may be named already, or let go)
        drafted = {c for held in (state.pool, *(h.actions for h in state.hands)) for c in held}
        tokens = tuple(t for _, t in picks if t in drafted)
        reader.groups = recalled(tokens, tuple(gone), reader.groups)
    return state


def _night_reset(reader: Reader, state: BeastState, event: NightReset) -> BeastState:
    """The action cards left in the hands go face up onto the common discard, named hand by
    hand (rules version 8 on): every unseen one is named as it goes. An older log names
    none of them (the event's list is empty while the hands hold cards): they stay unseen."""
    held = [hand.actions for hand in state.hands]
    if len(event.discarded) == sum(len(actions) for actions in held):
        names = iter(event.discarded)
        for index, actions in enumerate(held):
            state = hand_field(state, index, "actions", tuple(next(names) for _ in actions))
    return evolve(state, event)


def _card_assigned(reader: Reader, state: BeastState, event: CardAssigned) -> BeastState | None:
    if reader.sees(event.card):
        return None
    pool, reader.groups = joined(state.pool, reader.groups, reader.named_token)
    return evolve(replace(state, pool=pool), reader.filled(event, card=_first_token(pool)))


def _packs_passed(reader: Reader, state: BeastState, event: PacksPassed) -> BeastState:
    n = state.players
    packs = tuple(
        secret.get() if reader.sees(secret) else state.packs[(seat - 1) % n]
        for seat, secret in enumerate(event.packs)
    )
    ids = reader.draft.ids
    if len(ids) == n:
        reader.draft = replace(reader.draft, ids=tuple(ids[(seat - 1) % n] for seat in range(n)))
        for seat, secret in enumerate(event.packs):
            if reader.sees(secret):
                pack = reader.draft.ids[seat]
                state = _recall(reader, state, pack, packs[seat])
                reader.draft = reader.draft.saw(pack, packs[seat])
    return replace(state, packs=packs, picks=_picks(state, packs))


def _day_began(reader: Reader, state: BeastState, event: DayBegan) -> BeastState | None:
    for pack, _ in reader.draft.picks:  # every pack is empty now
        state = _recall(reader, state, pack, ())
    return evolve(state, event)


def _picks(state: BeastState, packs: tuple[tuple[str, ...], ...]) -> tuple[int, ...]:
    from skald.core.beast.evolve import per_pass

    return tuple(min(per_pass(state, seat), len(pack)) for seat, pack in enumerate(packs))


def _hand_dealt(reader: Reader, state: BeastState, event: HandDealt) -> BeastState | None:
    if reader.sees(event.cards):
        return None
    if event.hand == BEAST and state.aside:
        dealt: tuple[str, ...] = (state.aside,)
    else:  # a first game's starting cards are the rulebook's, known to all
        setup = characters().first_time["large" if state.players == 4 else "small"]
        dealt = setup.cards[event.hand]
    return evolve(state, reader.filled(event, cards=dealt))


def _card_played(reader: Reader, state: BeastState, event: CardPlayed) -> BeastState | None:
    if event.hidden is None or reader.sees(event.hidden):
        if event.card and not reader.viewer.sees(state.team(event.hand)):
            state = _expose(reader, state, event.hand, event.card)
        return evolve(state, event)
    # a hunter's trap, played face down: one of its unseen items (a seen trap is let go)
    extras = state.hands[event.hand].extras
    if not any(is_token(c) for c in extras):
        extras = reader.let_go(extras)
    else:
        extras = reader.let_go(extras, keep=lambda c: not is_trap_item(c))
    token, reader.groups = trap_token(extras, reader.groups, is_trap_item)
    reader.kinds[token] = "trap"
    stand_in = next(c.name for c in cards().item if is_trap_item(c.name))
    index = extras.index(token)
    state = hand_field(
        state, event.hand, "extras", (*extras[:index], stand_in, *extras[index + 1 :])
    )
    state = evolve(state, reader.filled(event, hidden=stand_in))
    top = replace(state.frames[-1], card=token)
    return replace(state, frames=(*state.frames[:-1], top))


def _card_resolved(reader: Reader, state: BeastState, event: CardResolved) -> BeastState | None:
    card = state.frames[-1].card if state.frames else ""
    if not is_token(card):
        return None
    state = replace(state, frames=state.frames[:-1])
    if any(trap.card == card for _, trap in state.traps):
        return state
    return replace(state, item_discard=(*state.item_discard, card))


def _card_discarded(reader: Reader, state: BeastState, event: CardDiscarded) -> BeastState:
    if not reader.viewer.sees(state.team(event.hand)):
        state = _expose(reader, state, event.hand, event.card)
    return evolve(state, event)


def _discarded_face_down(
    reader: Reader, state: BeastState, event: CardDiscardedFaceDown
) -> BeastState | None:
    if reader.sees(event.card):
        return None
    state, token = _taken(reader, state, event.hand, "extras")
    extras = list(state.hands[event.hand].extras)
    extras.remove(token)
    state = hand_field(state, event.hand, "extras", tuple(extras))
    pile = "talent_discard" if event.hand == BEAST else "item_discard"
    return replace(state, **{pile: (*getattr(state, pile), token)})


def _hunter_looted(reader: Reader, state: BeastState, event: HunterLooted) -> BeastState:
    if reader.sees(event.card):
        if not reader.viewer.sees(state.team(event.hand)):
            state = _expose(reader, state, event.hand, event.card.get())
        return evolve(state, event)
    state, token = _taken(reader, state, event.hand, "actions")
    return evolve(state, reader.filled(event, card=token))


def _card_gained(reader: Reader, state: BeastState, event: CardGained) -> BeastState:
    deck = event.deck
    if reader.sees(event.card):
        if event.from_row:
            return evolve(state, event)
        name = event.card.get()
        trimmed = _remove_from_deck(reader, state, deck, (name,))
        held = state.hands[event.hand]
        field = "actions" if deck == "action" else "extras"
        return hand_field(trimmed, event.hand, field, (*getattr(held, field), name))
    if event.from_row:  # a spectator: which open card went is not in its log
        row = reader.let_go(getattr(state, f"{deck}_row"))
        state = replace(state, **{f"{deck}_row": row})
        return evolve(state, reader.filled(event, card=row[0]))
    # any card of the deck may be the one (its order is unseen): as a hand's (`_taken`)
    pile: tuple[str, ...] = getattr(state, f"{deck}_deck")
    pile, reader.groups = joined(pile, reader.groups, reader.named_token)
    state = replace(state, **{f"{deck}_deck": pile})
    return evolve(state, reader.filled(event, card=_first_token(pile)))


def _trap_set(reader: Reader, state: BeastState, event: TrapSet) -> BeastState | None:
    if reader.sees(event.trap):
        return None
    habitat = reader.token("habitat")
    reader.excluded[habitat] = frozenset()
    trap = TrapCard(
        state.frames[-1].card,
        habitat,
        side_of(next(c.name for c in cards().item if is_trap_item(c.name)), False).effects[0].n,
    )
    return evolve(state, reader.filled(event, trap=trap))


def _trap_triggered(reader: Reader, state: BeastState, event: TrapTriggered) -> BeastState:
    """The trap shown is the one the event names by its place among its zone's traps (rules
    version 7 on: the view lists the traps in the order set, so the table sees which went).
    Older logs do not name it: the first in its zone that may be it, where a face-down card
    (a token) may be any trap item, never the trap an ability or upgrade set (its card was
    seen). Which of two that may both be it went is not in those logs (issue 23)."""
    if event.among is not None:
        index = state.trap_index(event.zone, event.among)
        shown = replace(state.traps[index][1], card=event.card, habitat=event.habitat)
        traps = (*state.traps[:index], (event.zone, shown), *state.traps[index + 1 :])
        return evolve(replace(state, traps=traps), event)
    for index, (zone, trap) in enumerate(state.traps):
        card_fits = trap.card == event.card or (is_token(trap.card) and is_trap_item(event.card))
        habitat_fits = trap.habitat == event.habitat or (
            is_token(trap.habitat) and event.habitat not in reader.excluded.get(trap.habitat, ())
        )
        if zone == event.zone and card_fits and habitat_fits:
            shown = replace(trap, card=event.card, habitat=event.habitat)
            traps = (*state.traps[:index], (zone, shown), *state.traps[index + 1 :])
            state = replace(state, traps=traps)
            break
    return evolve(state, replace(event, index=None))


def _beast_moved(reader: Reader, state: BeastState, event: BeastMoved) -> BeastState | None:
    if reader.sees(event.card):
        return None
    return evolve(state, reader.filled(event, card=Step("X", state.beast.location)))


def _trails_placed(reader: Reader, state: BeastState, event: TrailsPlaced) -> BeastState | None:
    if reader.beast_eyes:
        return None
    count = len(state.trailed) + len(event.locations)
    return replace(state, trailed=tuple(range(count)))


def _beast_revealed(reader: Reader, state: BeastState, event: BeastRevealed) -> BeastState:
    state = evolve(state, event)
    beast = replace(state.beast, location=event.location)
    state = replace(state, hands=(beast, *state.hands[1:]))
    if not reader.hunter_eyes and event.cause != "game_end":  # traps are not set off then
        reader.revealed = event.location
    return state


FOLDS: dict[type, Callable[[Reader, BeastState, Any], BeastState | None]] = {
    DeckShuffled: _deck_shuffled,
    RowDealt: _row_dealt,
    PackDealt: _pack_dealt,
    CardSetAside: _card_set_aside,
    CardDrafted: _card_drafted,
    CardAssigned: _card_assigned,
    PacksPassed: _packs_passed,
    DayBegan: _day_began,
    NightReset: _night_reset,
    HandDealt: _hand_dealt,
    CardPlayed: _card_played,
    CardResolved: _card_resolved,
    CardDiscarded: _card_discarded,
    CardDiscardedFaceDown: _discarded_face_down,
    HunterLooted: _hunter_looted,
    CardGained: _card_gained,
    TrapSet: _trap_set,
    TrapTriggered: _trap_triggered,
    BeastMoved: _beast_moved,
    TrailsPlaced: _trails_placed,
    BeastRevealed: _beast_revealed,
}
