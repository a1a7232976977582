"""Refusals are projections: the one place the text of a refused request is made for the
viewer who asked.

The rules write a refusal for the seat that acts (`decide` names the command, the
position, and at most that seat's own hidden values: "no -1@3 tile in hand (hand: +6 -3
-6)"). That text goes unchanged to whoever may see that seat's hidden values: the seat
itself (every request in play), its team, the referee. A request made on behalf of a seat
whose hidden values the requester may not see (a move for the other side in a seat's own
variation) is refused in words that name only the request, the seat and what is public:
the rules' reason stays unsaid, since it may quote that seat's hand. Syntax errors, turn
and seat errors are about public facts and pass as they are.

`tests/test_information_sets.py` checks, for every game, that the text a requester gets
is byte-identical when what it may not see changes (`perturb_hidden`).
"""

from __future__ import annotations

from collections.abc import Sequence

from skald.core.errors import IllegalMove, SkaldError
from skald.events.viewer import Viewer


def refusal_for(
    error: SkaldError, seat: int, requester: Viewer, players: Sequence[str], notation: str
) -> SkaldError:
    """`error` (raised for `seat`'s request `notation`) as `requester` may read it."""
    if not isinstance(error, IllegalMove) or requester.sees(frozenset({seat})):
        return error
    name = players[seat] if 0 <= seat < len(players) else f"seat {seat}"
    return IllegalMove(
        f"{notation!r} for {name} (seat {seat}) is refused: not a legal move for that seat "
        "here (its reason would show what that seat holds, which is hidden from you)"
    )
