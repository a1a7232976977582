"""The common supply of tokens (rulebook "Components", "Setup: Supply") and what happens
when a supply runs out.

The component list is the limit; the rulebook never says what happens when a supply is
empty, so the rule here is the literal one, the same for every token: what is not in
the supply cannot be placed, and a token comes back to the supply when it leaves play.

- Trails (30): a trail token marks one active movement card. With all 30 on the map no
  further trail is placed (the hunters see the count, so a missing trail then tells them
  nothing); when several are due and fewer are left, the earliest cards get them.
  Trails come back when the Beast is revealed.
- Grudges (18 tokens: six 3s and twelve 1s, value 30): counted by value. Tokens can
  always be changed to fit any split of 30 between the at most four hands (each needs at
  most two 1s beyond its 3s), so the value is the whole limit. A gain larger than what
  is left gains what is left; paid and discarded grudges come back.
- Wounds (12 tokens: six 3s and six 1s, value 24): wounds on the Beast's and hunters' mats
  and beneath animals and settlers are tokens, each holder's count made of as many 3s as
  fit and 1s for the rest (three 1s replace a 3 when the 3s are out). A hit places as many
  wounds as the tokens allow; but a hit that would kill always kills (its tokens come
  straight back), so nobody is unkillable at the brink. Summons and watchtowers are
  removed at the first damage and hold no token. Wounds come back on death, healing,
  respawn and the night's restore.
- Habitat tokens (27): one per transformed location (transforming it again swaps the
  token) and one under each set trap. A transform places tokens on its locations in
  order (your location first, then by compass) while tokens last; no trap can be set
  without a token. A triggered trap's token comes back.
- Upgrade tokens (18): one per unlocked upgrade; none left, no more upgrades.
- Watchtowers (6): placing a seventh moves the oldest (rulebook). Ancient powers (3):
  a gain takes what is left.
"""

from __future__ import annotations

from skald.core.beast.state import BeastState, Tx
from skald.events.beast import GrudgesGained

TRAIL_TOKENS = 30
GRUDGE_VALUE = 30
WOUND_TOKENS = {3: 6, 1: 6}
HABITAT_TOKENS = 27
UPGRADE_TOKENS = 18
WATCHTOWERS = 6
ANCIENT_POWERS = 3


def trails_left(state: BeastState) -> int:
    """Trail tokens still in the supply."""
    return TRAIL_TOKENS - len(state.trailed)


def habitat_tokens_left(state: BeastState) -> int:
    """Habitat tokens still in the supply (transformed locations and traps hold the rest)."""
    return HABITAT_TOKENS - len(state.habitats) - len(state.traps)


def upgrades_left(state: BeastState) -> int:
    """Upgrade tokens still in the supply."""
    return UPGRADE_TOKENS - sum(len(h.upgrades) for h in state.hands)


def powers_left(state: BeastState) -> int:
    """Ancient power tokens still in the supply."""
    return ANCIENT_POWERS - sum(h.powers for h in state.hands)


def gain_grudges(tx: Tx, hand: int, amount: int) -> None:
    """Gain up to `amount` grudges, as many as the supply holds."""
    left = GRUDGE_VALUE - sum(h.grudges for h in tx.state.hands)
    if min(amount, left) > 0:
        tx.emit(GrudgesGained(hand=hand, amount=min(amount, left)))


def transformable(state: BeastState, places: tuple[str, ...]) -> tuple[str, ...]:
    """The locations a transform can reach with the habitat tokens left, in order."""
    held = dict(state.habitats)
    left = habitat_tokens_left(state)
    chosen: list[str] = []
    for place in places:
        if place in held:
            chosen.append(place)  # the old token goes back: a swap
        elif left > 0:
            chosen.append(place)
            left -= 1
    return tuple(chosen)


def wounds_fit(values: list[int]) -> bool:
    """True when the wound tokens can show these counts (3s first, then 1s)."""
    threes = sum(v // 3 for v in values)
    ones = sum(v % 3 for v in values) + 3 * max(0, threes - WOUND_TOKENS[3])
    return ones <= WOUND_TOKENS[1]


def wounds_placed(state: BeastState, kind: str, ref: str, amount: int, health: int) -> int:
    """How many of `amount` wounds a hit places on a holder (a killing hit: all of them)."""
    holders: dict[tuple[str, str], int] = {("beast", "beast"): state.beast.wounds}
    holders |= {
        ("hunter", str(h)): state.hands[h].wounds for h in state.hunters if not state.hands[h].dead
    }
    holders |= {("piece", str(i)): p.wounds for i, p in enumerate(state.pieces) if p.alive}
    current = holders.get((kind, ref), 0)
    if current + amount >= health:
        return amount
    for placed in range(amount, 0, -1):
        trial = holders | {(kind, ref): current + placed}
        if wounds_fit(list(trial.values())):
            return placed
    return 0
