"""What a viewer can know, for every game: its information set and the worlds drawn from it.

The one entry point every hypothetical path uses (a seat's variation, a bot playing on for
a seat, anything that plays forward from a position the viewer cannot fully see):
`believed_state` draws a complete rules state from the viewer's information set, the
game's `possible` over the viewer's redacted log (`registry.redacted_log`), through the
game's `sample`. It never reads the real hidden values: `possible` sees only the redacted
log, and `sample` only what the viewer sees of the state. `possible_for` folds a whole
log; `GET /games/ID/possible` and `skald possible` give the same answer going on from the
fold kept for the viewer (`knowledge_cache.possible_at`).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from skald.core.beowulf.printed import face_words
from skald.core.hagar.board import board
from skald.core.hagar.data import pieces
from skald.events.envelope import Envelope
from skald.events.viewer import Viewer
from skald.projections.hagar.narrative import FATE_CARDS
from skald.projections.narrative.common import listing, plural
from skald.projections.registry import redacted_log, views_for


def possible_for(game: str, log: Sequence[Envelope[Any]], viewer: Viewer) -> Any:
    """The game's `possible` for `viewer` from the full envelopes `log` (redacted here)."""
    views = views_for(game)
    return views.possible(redacted_log(log, viewer), viewer)


def believed_state(
    game: str,
    state: Any,
    viewer: Viewer,
    rnd: random.Random,
    log: Callable[[], Sequence[Envelope[Any]]],
    legacy: bool = False,
) -> Any:
    """`state` (a rules state) with everything `viewer` may not see drawn from its
    information set over `log()` (the full envelopes up to the position; read only when
    something is hidden). `legacy`: a variation stored before information sets, replayed
    with the draw it was made with."""
    views = views_for(game)
    if viewer.referee:
        return state
    if legacy:
        return views.perturb_hidden(state, viewer, rnd)
    possible = views.possible(redacted_log(log(), viewer), viewer)
    return views.sample(state, possible, viewer, rnd)


def believer(game: str) -> Any:
    """`core.history.variations.Believe` for `game` (what `HistoryStore` is given)."""

    def believe(
        state: Any,
        viewer: Viewer,
        rnd: random.Random,
        log: Callable[[], Sequence[Envelope[Any]]],
        legacy: bool,
    ) -> Any:
        return believed_state(game, state, viewer, rnd, log, legacy)

    return believe


# -- in the game's words -------------------------------------------------------------------


def describe_possible(possible: Any, players: Sequence[str]) -> str:
    """What could be true, as lines a player reads (the game's own words where its model
    says them: `describe(possible, players)` in its knowledge module, else every field)."""
    describe = _DESCRIBERS.get(getattr(possible, "game", ""))
    if describe is None:
        fields = msgspec.structs.asdict(possible).items()
        return "\n".join(f"{name}: {value}" for name, value in fields)
    text = describe(possible, players)
    if "\n" not in text:  # the heading alone: nothing is hidden from this viewer
        viewer = getattr(possible, "viewer", "this viewer")
        text += f"\n  nothing: {viewer} sees everything at this point of the game"
    return text


def _beowulf(possible: Any, players: Sequence[str]) -> str:
    lines = [f"Beowulf, act {possible.act}: what {possible.viewer} cannot see"]
    for unseen in possible.unseen:
        faces = ", ".join(_tiles(c.face, c.count) for c in unseen.faces)
        lines.append(
            f"  act {unseen.back} tiles not seen ({unseen.count}: {unseen.in_hands} in "
            f"hands, {unseen.in_pile} in the pile, {unseen.in_box} in the box): {faces or '-'}"
        )
    for hand in possible.hands:
        backs = Counter(hand.backs)
        held = ", ".join(f"{plural(n, f'act {back} tile')}" for back, n in backs.items())
        known = [face_words(p.face) for p in hand.places if p.face]
        counsel = sum(p.good_counsel_only for p in hand.places)
        extra = f"; known: {', '.join(known)}" if known else ""
        extra += f"; {counsel} can only be Good Counsel" if counsel else ""
        other = sum(p.not_good_counsel for p in hand.places)
        extra += f"; {other} cannot be Good Counsel" if other else ""
        by_back: dict[str, list[str]] = {}
        for c in hand.may_hold:
            by_back.setdefault(c.back, []).append(face_words(c.face))
        may = "; ".join(f"act {back}: {', '.join(f)}" for back, f in by_back.items()) or "-"
        lines.append(
            f"  {players[hand.seat]} ({hand.colour}) holds {held or 'no tiles'}{extra}; "
            f"each may be, by its back: {may}"
        )
    for clause in getattr(possible, "not_all_good_counsel", ()):
        lines.append(f"  {_counsel_clause(clause, possible.hands, players)}")
    return "\n".join(lines)


def _counsel_clause(clause: Any, hands: Sequence[Any], players: Sequence[str]) -> str:
    """`at least one of Bob's act I tile and Cid's act I tile is not Good Counsel (...)`:
    a clause's places by seat and back (`2 of Bob's 3 act I tiles` where the others are
    not in it)."""
    counted = Counter((place.seat, place.back) for place in clause.places)
    parts = []
    for (seat, back), n in counted.items():
        hand = next(h for h in hands if h.seat == seat)
        held = sum(p.back == back for p in hand.places)
        tiles = plural(held, f"act {back} tile")
        whose = f"{players[seat]}'s"
        if n == held:
            parts.append(f"{whose} act {back} tile" if n == 1 else f"{whose} {tiles}")
        else:
            parts.append(f"{n} of {whose} {tiles}")
    return (
        f"at least one of {listing(parts)} is not Good Counsel "
        "(some seat could still act; each alone may be one)"
    )


def _tiles(face: str, count: int) -> str:
    """`+1 Treasure (3)`, `+2 ×2`: a face as printed, with how many."""
    return face_words(face) + (f" ×{count}" if count > 1 else "")


def _hagar(possible: Any, players: Sequence[str]) -> str:
    lines = [f"Hägar: what {possible.viewer} cannot see"]
    for piece in possible.pieces:
        values = ", ".join(
            f"{v.name} {v.value}" + (f" ×{v.count}" if v.count > 1 else "") for v in piece.values
        )
        field = {"carried": "carries", "cargo": "has on his ship", "home": "has at home"}
        lines.append(
            f"  {players[piece.seat]} {field[piece.field]}, piece {piece.slot}: "
            + ("it is " if piece.known else "one of ")
            + values
        )
    lines += _hagar_whereabouts(possible, players)
    cards = ", ".join(f"{FATE_CARDS.get(kind, kind)} ×{n}" for kind, n in possible.fate.cards)
    cards = cards or "none"
    lines.append(f"  the fate deck ({possible.fate.size} cards, in any order): {cards}")
    if not possible.exact:
        lines.append(
            "  (too many ambushes between others to follow each piece: "
            "some pieces may be narrower than shown)"
        )
    return "\n".join(lines)


def _hagar_whereabouts(possible: Any, players: Sequence[str]) -> list[str]:
    """A line per piece the viewer saw whose place it has lost track of (an unseen ambush
    between others), with where it may be and the share of the hidden histories: `the
    Gold 6 seen earlier is in one of: Bob's ship, piece 2 (67%), Cid's ship, piece 1 (33%)`."""
    lines = []
    for index, group in enumerate(possible.groups):
        places = Counter[Any]()
        for arrangement in possible.arrangements:
            for spot, held in zip(possible.mixed, arrangement.groups, strict=True):
                if held == index:
                    places[spot] += arrangement.share
        if len(group.pieces) != 1 or not places:
            continue
        (piece,) = group.pieces
        where = ", ".join(f"{_hagar_spot(s, players)} ({share:.0%})" for s, share in places.items())
        lines.append(f"  the {_hagar_piece(piece)} seen earlier is in one of: {where}")
    return lines


def _hagar_spot(spot: Any, players: Sequence[str]) -> str:
    fields = {"carried": "hand", "cargo": "ship", "home": "home"}
    if spot.place in fields:
        return f"{players[int(spot.key)]}'s {fields[spot.place]}, piece {spot.index + 1}"
    name = board().spaces[spot.key].name or spot.key if spot.key in board().spaces else spot.key
    if spot.place == "stack":
        return f"the stack of {name}, piece {spot.index + 1}"
    if spot.place == "roadside":
        return f"by the road at {name}, piece {spot.index + 1}"
    return "out of the game"


def _hagar_piece(piece: int) -> str:
    known = pieces()[piece]
    return f"{known.name} {known.value}"


_BEAST_PLACES = {
    "action_deck": "the action deck",
    "item_deck": "the item deck",
    "talent_deck": "the talent deck",
    "item_discard": "the item discard pile",
    "talent_discard": "the talent discard pile",
    "aside": "the card set aside",
    "pool": "the hunters' card pool",
}
# The side a viewer plays, in words (a referee's or spectator's name says enough).
_BEAST_ROLES = {"hunters": "the hunters", "beast": "the Beast"}
_BEAST_KINDS = {"action": "action card", "item": "item", "talent": "talent", "trap": "trap item"}


def _beast_place(place: str, players: Sequence[str], characters: Sequence[str]) -> str:
    """A hidden place in words: `actions/2` -> `Varja's action cards` (a hand by its
    character, `possible.characters`: every hand has one)."""
    kind, _, index = place.partition("/")
    if not index:
        return _BEAST_PLACES.get(place, place)
    number = int(index)
    if kind in ("actions", "extras"):
        owner = "the Beast" if number == 0 else characters[number]
        return f"{owner}'s " + ("action cards" if kind == "actions" else "items and talents")
    if kind == "pack":
        who = players[number] if number < len(players) else f"seat {number + 1}"
        return f"{who}'s draft pack"
    if kind == "trap":
        return f"trap {number + 1}"
    return "the card being played"


def _beast(possible: Any, players: Sequence[str]) -> str:
    role = _BEAST_ROLES.get(possible.role)
    side = f" ({role})" if role else ""
    lines = [f"Beast: what {possible.viewer}{side} cannot see"]
    if possible.beast:
        spread = ", ".join(f"{where} {share:.0%}" for where, share in possible.beast)
        lines.append(
            f"  where the Beast may be ({plural(len(possible.beast), 'place')}, with the share of "
            f"the hidden paths that end there): {spread}"
        )
    kinds = dict(possible.tokens)
    habitats = dict(possible.habitats)
    for holding in possible.holdings:
        if not holding.cards:
            continue
        where = _beast_place(holding.place, players, possible.characters)
        if holding.place.startswith("trap/"):
            card, habitat = holding.cards
            card_text = "an unseen trap item" if card in kinds else card
            habitat_text = listing(habitats[habitat], "or") if habitat in habitats else habitat
            lines.append(f"  {where}: {card_text}, set in a {habitat_text} location")
            continue
        seen = [c for c in holding.cards if c not in kinds]
        unseen = len(holding.cards) - len(seen)
        text = plural(len(holding.cards), "card")
        if unseen and seen:
            text += f", {unseen} not known; known: {', '.join(seen)}"
        elif unseen:
            text += ", none known"
        else:
            text += f", all known: {', '.join(seen)}"
        lines.append(f"  {where}: {text}")
    lines += _beast_groups(possible, players)
    grouped = {c for group in getattr(possible, "groups", ()) for c in group.tokens}
    for kind, names in possible.unseen:
        if names:
            card = _BEAST_KINDS.get(kind, kind)
            if any(kinds.get(t) == kind for t in grouped):
                card = f"{card} in no such group"
            lines.append(f"  an unseen {card} may be: {', '.join(names)}")
    return "\n".join(lines)


def _beast_groups(possible: Any, players: Sequence[str]) -> list[str]:
    """A line per group of unseen cards known by name, not by place: `Avarice and Pursuit:
    unseen cards of Helga's action cards and Varja's action cards, 1 in each`, or, where
    the group's tokens hold other cards too, `...: 2 of the 3 unseen cards of Helga's
    action cards (2) and Varja's action cards (1)`."""
    lines = []
    for group in getattr(possible, "groups", ()):
        counts = {h.place: sum(1 for t in group.tokens if t in h.cards) for h in possible.holdings}
        held = [(place, n) for place, n in counts.items() if n]
        if len(group.cards) == len(group.tokens) and len({n for _, n in held}) == 1:
            whose = listing(
                [_beast_place(place, players, possible.characters) for place, _ in held], "and"
            )
            share = f"unseen cards of {whose}, {held[0][1]} in each"
        else:
            whose = listing(
                [f"{_beast_place(p, players, possible.characters)} ({n})" for p, n in held], "and"
            )
            share = f"{len(group.cards)} of the {len(group.tokens)} unseen cards of {whose}"
        lines.append(f"  {listing(group.cards)}: {share}")
        lines += [f"    {_beast_bound(b, possible, players)}" for b in group.bounds]
        for index, way in enumerate(getattr(group, "ways", ())):  # one of them holds
            said = "; ".join(_beast_bound(b, possible, players) for b in way) or "nothing more"
            lines.append(f"    {'or' if index else 'either'}: {said}")
    return lines


def _beast_bound(bound: Any, possible: Any, players: Sequence[str]) -> str:
    """A group's bound in words: `of them, Varja's action cards (1): none of Haste, at
    least 1 of Avarice` (projections.beast.knowledge.bounds)."""
    held = [
        (h.place, n) for h in possible.holdings if (n := sum(t in h.cards for t in bound.tokens))
    ]
    whose = listing(
        [f"{_beast_place(p, players, possible.characters)} ({n})" for p, n in held], "and"
    )
    said = [f"none of {listing(bound.barred, 'or')}"] if bound.barred else []
    if bound.least:
        said.append(f"at least {bound.least} of {listing(bound.cards, 'and')}")
    return f"of them, {whose}: {', '.join(said)}"


def _toy(possible: Any, players: Sequence[str]) -> str:
    hands = ", ".join(f"{players[s]} holds {n}" for s, n in possible.hands)
    cards = " ".join(map(str, possible.unseen))
    return f"cards not seen: {cards}; {hands or 'no other hand'}; deck {possible.deck}"


_DESCRIBERS: dict[str, Callable[[Any, Sequence[str]], str]] = {
    "beowulf": _beowulf,
    "hagar": _hagar,
    "beast": _beast,
    "toy": _toy,
}
