"""What could be true of a Beast game, as lines a player reads (`describe`, for
`knowledge.possible.describe_possible`): where the Beast may be, the unseen cards in
each hidden place, the groups of them known by name and their bounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from skald.projections.narrative.common import listing, plural

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


def describe(possible: Any, players: Sequence[str]) -> str:
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
