"""Refusals are projections: the one place the text of a refused request is made for the
viewer who asked.

The rules write a refusal for the seat that acts (`decide` names the command, the
position, and at most that seat's own hidden values, as printed: "no -1 with an Act III
back tile in hand (your hand: +6, -3, -6 Drunkenness)", with minus signs). They do not
know who sits where: a seat in their text is a `Seat`, which `named` writes as the
player's name (the engine does so for every request, in play and in variations), so a
person reads "Ann", never "seat 0". That text goes unchanged to whoever may see that
seat's hidden values: the seat itself (every request in play), its team, the referee. A
request made on behalf of a seat whose hidden values the requester may not see (a move
for the other side in a seat's own variation) is refused in words that name only the
request, the seat and what is public: the rules' reason stays unsaid, since it may quote
that seat's hand. Syntax errors, turn and seat errors are about public facts and pass as
they are.

`tests/test_information_sets.py` checks, for every game, that the text a requester gets
is byte-identical when what it may not see changes (`perturb_hidden`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from skald.core.errors import IllegalMove, SkaldError
from skald.events.viewer import Viewer

E = TypeVar("E", bound=SkaldError)


def player_name(players: Sequence[str], seat: int) -> str:
    """A seat as a person reads it: its player's name (`seat 5` off the table)."""
    return players[seat] if 0 <= seat < len(players) else f"seat {seat}"


def named(error: E, players: Sequence[str]) -> E | IllegalMove:
    """`error` with every seat in its text written as its player's name."""
    if not isinstance(error, IllegalMove):
        return error
    return error.named(lambda seat: player_name(players, seat))


def refusal_for(
    error: SkaldError, seat: int, requester: Viewer, players: Sequence[str], notation: str
) -> SkaldError:
    """`error` (raised for `seat`'s request `notation`) as `requester` may read it."""
    error = named(error, players)
    if not isinstance(error, IllegalMove) or requester.sees(frozenset({seat})):
        return error
    return IllegalMove(
        f"{notation!r} for {player_name(players, seat)} is refused: not a legal move for "
        "them here (the reason would show what they hold, which is hidden from you)"
    )
