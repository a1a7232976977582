"""Every place a card of a Beast game can lie, by name (`actions/0`, `pack/2`, `item_deck`,
`trap/1`, `frame/0`, ...): the names the deduction's groups and holdings use. Below both
the groups (`groups`) and the viewer's information set (`possible`).
"""

from __future__ import annotations

from skald.core.beast.state import BeastState

DECK_PLACES = ("action_deck", "item_deck", "talent_deck", "item_discard", "talent_discard")
UNPLAYED = ("copy", "upgrade", "start", "flee")  # frames that hold no card of their own


def places(state: BeastState) -> dict[str, tuple[str, ...]]:
    """Every place a card can lie, with its cards (a frame: the card being resolved)."""
    found: dict[str, tuple[str, ...]] = {}
    for index, hand in enumerate(state.hands):
        found[f"actions/{index}"] = hand.actions
        found[f"extras/{index}"] = hand.extras
    for seat, pack in enumerate(state.packs):
        found[f"pack/{seat}"] = pack
    found["aside"] = (state.aside,) if state.aside else ()
    found["pool"] = state.pool
    for name in (*DECK_PLACES, "item_row", "talent_row", "discard"):
        found[name] = getattr(state, name)
    for index, (_, trap) in enumerate(state.traps):
        found[f"trap/{index}"] = (trap.card, trap.habitat)
    for index, frame in enumerate(state.frames):
        if frame.slot not in UNPLAYED and frame.card:
            found[f"frame/{index}"] = (frame.card,)
    return found
