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
- Wounds: not a limit. "Wound tokens come in values of 3 and 1" (rulebook "Attacking"):
  the twelve tokens (six 3s, six 1s) are denominations, as coins are, and a holder's
  wounds are a count; "Every attack deals 1 base damage" (more with upgrades and Ancient
  powers), so every hit places all of its wounds, whatever lies on the table already
  (rules version 6; before, a hit placed only what six 3s and six 1s could still show).
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
