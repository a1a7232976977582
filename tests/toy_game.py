"""A tiny hidden-information game for testing the engine without any real game's rules.

Two to three seats. At the start a deck of cards 1..9 is shuffled (order hidden from all)
and each seat is dealt one card (seen by that seat only). In turn, a seat either `bet N`
(public, undoable) or `draw` (a hidden draw: a barrier). After six decisions the game ends;
the highest total of cards in hand wins, ties share.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from skald.core.errors import IllegalMove, InvalidNotation
from skald.core.notation_numbers import parse_number
from skald.core.rng import Rng
from skald.core.rules import BaseRules, register
from skald.events.base import Event
from skald.events.common import GameCreated, Outcome
from skald.events.envelope import Envelope
from skald.events.secret import Secret, seal
from skald.events.viewer import Viewer
from skald.projections.registry import register_views


class DeckShuffled(Event, frozen=True, tag="toy.deck_shuffled"):
    barrier = True
    order: Secret[tuple[int, ...]]


class CardDealt(Event, frozen=True, tag="toy.card_dealt"):
    barrier = True
    seat: int
    card: Secret[int]


class BetPlaced(Event, frozen=True, tag="toy.bet_placed"):
    seat: int
    amount: int


class Bet(msgspec.Struct, frozen=True):
    amount: int


class Draw(msgspec.Struct, frozen=True):
    pass


class ToyState(msgspec.Struct, frozen=True):
    players: int
    deck: tuple[int, ...] = ()
    hands: tuple[tuple[int, ...], ...] = ()
    bets: tuple[int, ...] = ()
    turn: int = 0
    decisions: int = 0
    draws: int = 0


@register("toy")
class ToyRules(BaseRules):
    name = "toy"
    title = "Toy"
    min_players = 2
    max_players = 3
    event_types = (DeckShuffled, CardDealt, BetPlaced)

    def initial(self, created: GameCreated) -> ToyState:
        n = len(created.players)
        return ToyState(players=n, hands=((),) * n, bets=(0,) * n)

    def start(self, state: ToyState, rng: Rng) -> tuple[Any, ...]:
        order = rng.shuffle("deck", tuple(range(1, 10)))
        events: list[Any] = [DeckShuffled(order=seal(order, frozenset(), rng.salt("deck")))]
        for seat in range(state.players):
            events.append(
                CardDealt(seat=seat, card=seal(order[seat], {seat}, rng.salt(f"deal/{seat}")))
            )
        return tuple(events)

    def decide(self, state: ToyState, seat: int, command: Any, rng: Rng) -> tuple[Any, ...]:
        if isinstance(command, Bet):
            if not 1 <= command.amount <= 5:
                raise IllegalMove(f"bet {command.amount}: bets are 1 to 5")
            return (BetPlaced(seat=seat, amount=command.amount),)
        if not state.deck:
            raise IllegalMove("draw: the deck is empty")
        return (
            CardDealt(seat=seat, card=seal(state.deck[0], {seat}, rng.salt(f"draw/{state.draws}"))),
        )

    def evolve(self, state: ToyState, event: Any) -> ToyState:
        replace = msgspec.structs.replace
        match event:
            case DeckShuffled(order=order):
                return replace(state, deck=order.get())
            case CardDealt(seat=seat, card=card):
                hands = list(state.hands)
                hands[seat] = (*hands[seat], card.get())
                started = all(state.hands)
                return replace(
                    state,
                    hands=tuple(hands),
                    deck=state.deck[1:],
                    draws=state.draws + started,
                    **self._advance(state, started),
                )
            case BetPlaced(seat=seat, amount=amount):
                bets = list(state.bets)
                bets[seat] += amount
                return replace(state, bets=tuple(bets), **self._advance(state, True))
        return state

    @staticmethod
    def _advance(state: ToyState, counts: bool) -> dict[str, int]:
        if not counts:
            return {}
        return {"turn": (state.turn + 1) % state.players, "decisions": state.decisions + 1}

    def legal(self, state: ToyState, seat: int) -> Iterable[Any]:
        yield from (Bet(n) for n in range(1, 6))
        if state.deck:
            yield Draw()

    def to_act(self, state: ToyState) -> frozenset[int]:
        return frozenset() if state.decisions >= 6 else frozenset({state.turn})

    def outcome(self, state: ToyState) -> Outcome | None:
        if state.decisions < 6:
            return None
        totals = tuple(sum(hand) for hand in state.hands)
        ranks = sorted(set(totals), reverse=True)
        ranking = tuple(tuple(s for s, t in enumerate(totals) if t == r) for r in ranks)
        return Outcome(termination="completed", ranking=ranking, scores=totals)

    def parse(self, text: str) -> Any:
        words = text.split()
        if words == ["draw"]:
            return Draw()
        if len(words) == 2 and words[0] == "bet":
            return Bet(parse_number(text, words[1], what="a bet"))
        raise InvalidNotation(f"{text!r}: expected 'draw' or 'bet N'")

    def format(self, command: Any) -> str:
        return "draw" if isinstance(command, Draw) else f"bet {command.amount}"


class ToyPossible(msgspec.Struct, frozen=True, kw_only=True):
    """What a viewer cannot see: the cards it has not seen, how many each other hand
    holds (any of them), and how many lie in the deck (in any order)."""

    game: str = "toy"
    viewer: str
    unseen: tuple[int, ...]
    hands: tuple[tuple[int, int], ...]
    deck: int


def toy_possible(log: Sequence[Envelope[Any]], viewer: Viewer) -> ToyPossible:
    """From the redacted log: every dealt card the viewer saw, and who got how many."""
    seen: set[int] = set()
    counts: dict[int, int] = {}
    deck = 9
    for envelope in log:
        event = envelope.event
        if isinstance(event, CardDealt):
            deck -= 1
            counts[event.seat] = counts.get(event.seat, 0) + 1
            if event.card.known:
                seen.add(event.card.get())
    others = tuple(sorted((s, n) for s, n in counts.items() if not viewer.sees(frozenset({s}))))
    unseen = tuple(c for c in range(1, 10) if c not in seen)
    return ToyPossible(viewer=viewer.name, unseen=unseen, hands=others, deck=deck)


def toy_sample(state: ToyState, known: ToyPossible, viewer: Viewer, rnd: random.Random) -> ToyState:
    """Uniform over the consistent deals: the unseen cards shuffled, dealt to the other
    hands, the rest the deck (the viewer's own hands and the public part kept)."""
    if viewer.referee:
        return state
    cards = list(known.unseen)
    rnd.shuffle(cards)
    hands = list(state.hands)
    for seat, count in known.hands:
        hands[seat], cards = tuple(cards[:count]), cards[count:]
    return msgspec.structs.replace(state, hands=tuple(hands), deck=tuple(cards[: known.deck]))


class ToyView(msgspec.Struct, frozen=True):
    hand: tuple[int, ...] | None
    hand_sizes: tuple[int, ...]
    bets: tuple[int, ...]
    deck_size: int


@register_views("toy")
class ToyViews:
    def view(self, state: ToyState, viewer: Viewer) -> ToyView:
        seat = viewer.seat
        hand = state.hands[seat] if seat is not None else None
        return ToyView(
            hand=hand,
            hand_sizes=tuple(len(h) for h in state.hands),
            bets=state.bets,
            deck_size=len(state.deck),
        )

    def render(self, view: ToyView, players: Sequence[str]) -> str:
        bets = ", ".join(f"{name} {bet}" for name, bet in zip(players, view.bets, strict=False))
        return f"hand {view.hand} bets {bets or 'none'} deck {view.deck_size}"

    def possible(self, log: Sequence[Envelope[Any]], viewer: Viewer) -> ToyPossible:
        return toy_possible(log, viewer)

    def sample(
        self, state: ToyState, possible: ToyPossible, viewer: Viewer, rnd: random.Random
    ) -> ToyState:
        return toy_sample(state, possible, viewer, rnd)

    def describe(self, possible: ToyPossible, players: Sequence[str]) -> str:
        hands = ", ".join(f"{players[s]} holds {n}" for s, n in possible.hands)
        cards = " ".join(map(str, possible.unseen))
        return f"cards not seen: {cards}; {hands or 'no other hand'}; deck {possible.deck}"

    def perturb_hidden(self, state: ToyState, viewer: Viewer, rnd: random.Random) -> ToyState:
        """The deck reordered, and the cards of hands `viewer` cannot see traded with it."""
        if viewer.referee:
            return state
        deck = list(state.deck)
        rnd.shuffle(deck)
        hands = [list(hand) for hand in state.hands]
        for seat, hand in enumerate(hands):
            if viewer.sees(frozenset({seat})):
                continue
            for index, card in enumerate(hand):
                if deck:
                    swap = rnd.randrange(len(deck))
                    hand[index], deck[swap] = deck[swap], card
        return msgspec.structs.replace(
            state, deck=tuple(deck), hands=tuple(tuple(hand) for hand in hands)
        )
