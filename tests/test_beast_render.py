"""Golden renderings: the rulebook's Rush example as the hunters and the Beast see it.

Regenerate after an intended change with `SKALD_UPDATE_GOLDEN=1 pytest -k beast_render`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from skald.events.viewer import Viewer
from skald.projections.beast.view import beast_view, render_view
from tests.test_beast_scenarios import rushed
from tests.test_beast_support import NAMES

FIXTURES = Path(__file__).parent.parent / "fixtures" / "beast"
VIEWERS = {"hunters": Viewer("Bob", frozenset({1})), "beast": Viewer("Ann", frozenset({0}))}


@pytest.mark.parametrize("who", sorted(VIEWERS))
def test_rush_example_renders_as_recorded(who: str) -> None:
    game = rushed()
    game.edit_hand(1, location="C2")
    text = render_view(beast_view(game.state, VIEWERS[who]), NAMES) + "\n"
    golden = FIXTURES / f"rush-example.{who}.txt"
    if os.environ.get("SKALD_UPDATE_GOLDEN"):
        golden.write_text(text)
    assert text == golden.read_text()
    if who == "hunters":
        assert "D2 B" not in text
        assert "Ws B" not in text
        assert "actual D2" not in text
        assert "3 active movement cards" in text
    else:
        assert "actual D2; movement cards No Movement (at C3), east to D3, north to D2" in text
