"""The Beast board's side panel shows what a side holds apart from its hands (found by a
review: at two players the hunters' drafted cards, still to assign, were nowhere on the
table page, only in `skald show`), to that side only; and a viewer who sees everything
because the game is over is told why, not shown as `spectator (referee)`."""

from __future__ import annotations

import random
import re

from skald.core.engine import Engine
from skald.core.store import EventStore
from skald.events.viewer import SPECTATOR, seat_viewer
from skald.projections.beast.view import role_words
from skald.projections.boards import board_svg
from skald.projections.table import Table


def _in_draft_with_a_pool() -> tuple[Table, str]:
    """A two-player Beast game played at random until the hunters hold drafted cards."""
    table = Table(Engine(EventStore("sqlite://")))
    game_id = table.create("beast", ["Ann", "Bob"], seed="panel", reproducible=True)
    rnd = random.Random(1)
    for _ in range(300):
        if table.show(game_id, seat_viewer(1, "Bob")).state.pool:
            return table, game_id
        seat = table.summary(game_id).to_act[0]
        table.act(game_id, seat, "move", rnd.choice(table.legal(game_id, seat)))
    raise AssertionError("the hunters never held drafted cards")


def test_the_hunters_drafted_cards_are_on_their_board_only() -> None:
    table, game_id = _in_draft_with_a_pool()
    bob = table.show(game_id, seat_viewer(1, "Bob"))
    pool = bob.state.pool
    assert pool
    drawn = board_svg("beast", bob.state, bob.players)
    # the panel's lines as one text: a long line wraps between words, so a card's name
    # may go on over two lines (`Dark` / `Dealings`)
    panel = " ".join(re.findall(r'class="panel-line"[^>]*>([^<]*)</text>', drawn))
    assert "drafted, to assign to your hunters:" in panel
    assert all(card in panel for card in pool), (pool, panel)
    for viewer in (seat_viewer(0, "Ann"), SPECTATOR):
        other = table.show(game_id, viewer)
        assert "drafted, to assign" not in board_svg("beast", other.state, other.players)


def test_a_viewer_seeing_everything_after_the_end_is_told_why() -> None:
    assert role_words("spectator", "referee") == "the game is over: everything is shown"
    assert role_words("referee", "referee") == "the referee"
    assert role_words("Bob", "hunters") == "the hunters' side"
