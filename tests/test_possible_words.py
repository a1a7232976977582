"""`possible`'s text names Hägar's fate cards as cards (found by a review: `the fate deck
(31 cards, in any order): arrow ×8, ..., heavy ×2, mead ×3, ..., road ×2`, the deck's
codes, where the log says `heavy loot`, `a night in the mead hall`, `a good road`)."""

from __future__ import annotations

import re
from pathlib import Path

from skald.projections.hagar.narrative import FATE_CARDS
from tests.cli_support import skald


def test_the_fate_deck_is_listed_by_card_names(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'fate.db'}"
    code, out, err = skald("new", "hagar", "--players", "Ann,Bob", "--db", db)
    assert code == 0, err
    code, text, err = skald("possible", out.strip(), "--as", "Ann", "--db", db)
    assert code == 0, err
    deck = next(line for line in text.splitlines() if "the fate deck (" in line)
    listed = re.findall(r"([A-Za-z ]+) ×\d+", deck.split(": ", 1)[1])
    assert listed, deck
    assert {name.strip() for name in listed} <= set(FATE_CARDS.values()), deck
