"""Beast, fourth rules pass (rules version 6, issue 24): each deviation found, as a scenario
quoting the rulebook sentence it follows, played by legal moves from a seeded first game
(every move checked legal first). Where a scenario needs a position that legal play
reaches only over many days (every settlement transformed, six wounds of 1 on the table),
that position is arranged with `BeastGame.edit` and named as such; the step that went
wrong is then legal play again.

Drenched Lands (north up; S settlement, F forest, W swamp, C cave, * centre, ~ no land):

        A     B     C     D     E
    1   S     W     ~     F     S
    2   F     C     W     W     F
    3   W     F     *     C     W
    4   C     W     W     F     C
    5   S     F     ~     W     S
"""

from __future__ import annotations

import pytest

from skald.core.beast.data import (
    Effect,
    beast_mat,
    card_index,
    characters,
    check_sources,
    side_of,
)
from tests.test_beast_examples import play
from tests.test_beast_support import day_one

# -- 3. Ancient powers and hunters' grudges only from the rulebook's sources ------------


def test_bolster_gives_assar_no_ancient_power() -> None:
    """Rulebook "Ancient Powers": "Ancient powers are gained from contract rewards, items,
    beastly talents and certain upgrades." Bolster is an action card: Assar (the first
    game's third player, who starts with it) played it and went from 0 to 1 Ancient power.
    Its reconstructed top half now heals and gives a grudge ("Hunters gain grudges ... by
    playing certain action or item cards")."""
    game = day_one(3)
    assert [game.state.hands[h].character for h in game.state.hunters] == ["Helga", "Assar"]
    play(game, "pass")  # the Beast
    play(game, "play Rush", "skip", "end")  # Helga ignores her Rush
    assar = game.state.hands[2]
    assert "Bolster" in assar.actions
    assert assar.powers == 0
    play(game, "play Bolster", "do", "do", "end")
    assert game.state.hands[2].powers == 0
    assert game.state.hands[2].grudges == assar.grudges + 1


def test_every_source_of_powers_and_hunter_grudges_is_one_the_rulebook_names() -> None:
    """Rulebook "Ancient Powers" (as above) and "Grudges": "Hunters gain grudges by
    completing contract rewards and by playing certain action or item cards." No action
    or ability card gives an Ancient power; no hunter's ability or upgrade gives grudges
    (Rally, Hollow, Bolster, Dark Rituals and Muster did); the loader refuses such data."""
    beasts = {b.name for b in characters().beast}
    for name, (kind, card) in card_index().items():
        sides = {
            "action": (True, False),
            "item": (False,),
            "talent": (True,),
            "ability": (getattr(card, "owner", "") in beasts,),
        }[kind]
        for beast in sides:
            ops = {e.op for e in side_of(name, beast).effects}
            if "power" in ops:
                assert kind in ("item", "talent"), name
            if "grudge" in ops and not beast:
                assert kind in ("action", "item"), name
    for hunter in characters().hunter:
        for upgrade in hunter.upgrades:
            assert "grudge" not in {e.op for e in upgrade.effects}, upgrade.name
    assert beast_mat("Mara").upgrades  # Mara's powers come from an upgrade (Dread)
    with pytest.raises(ValueError, match="not a source of Ancient powers"):
        check_sources((Effect(op="power"),), "action", False, "Bolster")
    with pytest.raises(ValueError, match="not a source of grudges"):
        check_sources((Effect(op="grudge"),), "upgrade", False, "Muster")
    check_sources((Effect(op="grudge"),), "ability", True, "a Beast ability")
