"""What could be true of a Beowulf game, as lines a player reads (`describe`, for
`knowledge.possible.describe_possible`): the unseen tiles by act and face, each other
hand's possible tiles, and what a Counsel clause says.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from skald.core.beowulf.printed import face_words
from skald.projections.narrative.common import listing, plural


def describe(possible: Any, players: Sequence[str]) -> str:
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
