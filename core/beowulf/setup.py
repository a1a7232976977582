"""Setting up the game and each act (rulebook "Setup", "Beginning Acts II and III").

Before Act I every seat has its full supply of figures and 50 saga points. Setup: the
Act I tiles are shuffled (rng label `act1/pile`) and each seat is dealt two. The first
player is seat 0 (the table seats the youngest player first). Acts II and III are set up
in the decision that ended the act before (see `scoring.close_act`): the new act's pile is
shuffled, and its first player is the one who would have been next.

Refilling: the English rulebook says players below two tiles *may* refill at random; we
follow it. Each such seat decides (`refill` / `keep`), one after another in turn order
from the new act's first player, before the act's first turn; bots should choose
`refill` (it is listed first by `legal`). A refill takes the top tiles of the new pile.
The table option `refill=always` (the Hungarian edition's "must") deals the refills at
once instead; the default is `refill=ask`.
"""

from __future__ import annotations

from skald.core.beowulf.data import STARTING_SUPPLY, act_tiles
from skald.core.beowulf.evolve import evolve
from skald.core.beowulf.state import HAND_TARGET, STARTING_POINTS, BeowulfState
from skald.core.derive import Derivation
from skald.core.errors import InvalidOption
from skald.core.rng import Rng
from skald.events.base import Event
from skald.events.beowulf import ActBegan, PileShuffled, TilesDealt
from skald.events.common import GameCreated

REFILL_POLICIES = ("ask", "always")
LAST_SPACE_POLICIES = ("forfeit", "offer")


def initial(created: GameCreated) -> BeowulfState:
    """Before Act I: supplies and saga points, no board yet; reads table option `refill`."""
    refill = dict(created.options).get("refill", "ask")
    if refill not in REFILL_POLICIES:
        raise InvalidOption(
            f"option refill={refill!r}: must be one of {', '.join(REFILL_POLICIES)}"
        )
    last_space = dict(created.options).get("last_space", "forfeit")
    if last_space not in LAST_SPACE_POLICIES:
        raise InvalidOption(
            f"option last_space={last_space!r}: must be one of {', '.join(LAST_SPACE_POLICIES)}"
        )
    return new_state(
        len(created.players), auto_refill=refill == "always", last_removal=last_space == "offer"
    )


def new_state(seats: int, auto_refill: bool = False, last_removal: bool = False) -> BeowulfState:
    """Before Act I: full supplies, 50 saga points each, empty hands."""
    return BeowulfState(
        seats=seats,
        auto_refill=auto_refill,
        last_removal=last_removal,
        hands=((),) * seats,
        supply=(STARTING_SUPPLY,) * seats,
        points=(STARTING_POINTS,) * seats,
    )


def opening(state: BeowulfState, rng: Rng) -> tuple[Event, ...]:
    """Act I: shuffle its pile, deal two tiles to each seat."""
    d = Derivation(state, rng, evolve)
    d.emit(ActBegan(act=1, first=0))
    order = shuffle_pile(d, 1)
    for seat in range(state.seats):
        hand = order[seat * HAND_TARGET : (seat + 1) * HAND_TARGET]
        deal(d, seat, hand, seat * HAND_TARGET)
    return d.result()


def next_act(d: Derivation[BeowulfState], act: int, first: int) -> None:
    """Set up Act II or III: its pile, then the refills (asked, or dealt at once)."""
    state = d.state
    turn_order = [(first + i) % state.seats for i in range(state.seats)]
    short = tuple(s for s in turn_order if len(state.hands[s]) < HAND_TARGET)
    if not state.auto_refill:
        d.emit(ActBegan(act=act, first=first, refills=short))
        shuffle_pile(d, act)
        return
    d.emit(ActBegan(act=act, first=first))
    order, index = shuffle_pile(d, act), 0
    for seat in short:
        count = HAND_TARGET - len(state.hands[seat])
        deal(d, seat, order[index : index + count], index)
        index += count


def deal(d: Derivation[BeowulfState], seat: int, tiles: tuple[str, ...], index: int) -> None:
    """A deal of `tiles` (taken from pile position `index`) seen only by `seat`."""
    act = d.state.act
    secret = d.seal(tiles, {seat}, f"act{act}/deal{index}")
    d.emit(TilesDealt(seat=seat, act=act, count=len(tiles), tiles=secret))


def pile_index(state: BeowulfState) -> int:
    """How many tiles have left the current act's pile."""
    return len(act_tiles(state.act)) - len(state.pile)


def shuffle_pile(d: Derivation[BeowulfState], act: int) -> tuple[str, ...]:
    """Shuffle an act's pile face down (seen by nobody); its order."""
    label = f"act{act}/pile"
    order = d.shuffle(act_tiles(act), label)
    d.emit(PileShuffled(act=act, size=len(order), order=d.seal(order, (), label)))
    return order
