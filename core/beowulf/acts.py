"""Opening and closing acts (rulebook "Setup", "End of an Act", "Beginning Acts II and III").

Setup: the Act I tiles are shuffled (rng label `act1/pile`) and each seat is dealt two.
The first player is seat 0 (the table seats the youngest player first).
End of an act, all in the decision that triggered it: Betrayal turns tiles face down,
every figure scores and leaves the board (Drakkars back to the supply), board tiles and
the rest of the pile go to the box. The next act is set up at once: its pile is
shuffled, and the first player is the one who would have been next.

Refilling: the English rulebook says players below two tiles *may* refill at random; we
follow it. Each such seat decides (`refill` / `keep`), one after another in turn order
from the new act's first player, before the act's first turn; bots should choose
`refill` (it is listed first by `legal`). A refill takes the top tiles of the new pile.
The table option `refill=always` (the Hungarian edition's "must") deals the refills at
once instead; the default is `refill=ask`.
"""

from __future__ import annotations

from core.beowulf.scoring import betrayed, score_figures
from core.beowulf.state import HAND_TARGET, BeowulfState, board_tiles, geometry
from core.beowulf.tiles import act_tiles
from core.rng import Rng
from events.base import Event
from events.beowulf import (
    ActBegan,
    ActEnded,
    FigureScored,
    PileShuffled,
    TilesBetrayed,
    TilesDealt,
)
from events.secret import seal


def open_game(state: BeowulfState, rng: Rng) -> tuple[Event, ...]:
    """Act I: shuffle its pile, deal two tiles to each seat."""
    shuffled = _shuffle(1, rng)
    events: list[Event] = [ActBegan(act=1, first=0), shuffled]
    order = shuffled.order.get()
    for seat in range(state.seats):
        hand = order[seat * HAND_TARGET:(seat + 1) * HAND_TARGET]
        events.append(deal(seat, 1, hand, seat * HAND_TARGET, rng))
    return tuple(events)


def deal(seat: int, act: int, tiles: tuple[str, ...], index: int, rng: Rng) -> TilesDealt:
    """A deal of `tiles` (taken from pile position `index`) seen only by `seat`."""
    secret = seal(tiles, frozenset({seat}), rng.salt(f"act{act}/deal{index}"))
    return TilesDealt(seat=seat, act=act, count=len(tiles), tiles=secret)


def pile_index(state: BeowulfState) -> int:
    """How many tiles have left the current act's pile."""
    return len(act_tiles(state.act)) - len(state.pile)


def close_act(state: BeowulfState, last_seat: int, reason: str, rng: Rng
              ) -> tuple[Event, ...]:
    """Score the act, clear the board and, before Act III ends, set up the next act."""
    board, tiles = geometry(state), board_tiles(state)
    events: list[Event] = []
    down = betrayed(board, tiles, state.printed)
    if down:
        events.append(TilesBetrayed(act=state.act,
                                    squares=tuple(board.name(sq) for sq in sorted(down))))
    figures = {sq: f.kind for sq, f in enumerate(state.figures) if f is not None}
    for score in score_figures(board, tiles, figures, state.printed):
        owner = state.figures[score.at]
        assert owner is not None
        events.append(FigureScored(act=state.act, seat=owner.seat, kind=score.kind,
                                   at=board.name(score.at), sum=score.sum,
                                   diamonds=score.diamonds, points=score.points))
    next_seat = (last_seat + 1) % state.seats
    events.append(ActEnded(act=state.act, reason=reason, next_seat=next_seat))
    if state.act < 3:
        events += _next_act(state, state.act + 1, next_seat, rng)
    return tuple(events)


def _next_act(state: BeowulfState, act: int, first: int, rng: Rng) -> list[Event]:
    turn_order = [(first + i) % state.seats for i in range(state.seats)]
    short = tuple(s for s in turn_order if len(state.hands[s]) < HAND_TARGET)
    shuffled = _shuffle(act, rng)
    if not state.auto_refill:
        return [ActBegan(act=act, first=first, refills=short), shuffled]
    events: list[Event] = [ActBegan(act=act, first=first), shuffled]
    order, index = shuffled.order.get(), 0
    for seat in short:
        count = HAND_TARGET - len(state.hands[seat])
        events.append(deal(seat, act, order[index:index + count], index, rng))
        index += count
    return events


def _shuffle(act: int, rng: Rng) -> PileShuffled:
    label = f"act{act}/pile"
    order = rng.shuffle(label, act_tiles(act))
    return PileShuffled(act=act, size=len(order), order=seal(order, frozenset(), rng.salt(label)))
