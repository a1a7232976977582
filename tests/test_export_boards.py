"""The readable exports draw every position on the game's own board (the web table's
`board.svg`), with the annotations' markup on the places it names, captioned by the move
it follows. Checked in the real browser (Debian's Chromium through Playwright): per game,
the board is that game's (Beowulf's squares and figures, the Beast map's locations and
hunters, Hägar's named places and ships), each mark's drawn shape sits on its place's
drawn shape, and the caption names the annotated decision. The Markdown export carries the
same SVG boards.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from skald.core.engine import Engine
from skald.core.history.locations import places
from skald.core.store import EventStore
from skald.events.common import MoveMade
from skald.events.viewer import REFEREE
from skald.projections.bots.autoplay import autoplay
from skald.projections.table import Table
from tests.browser_support import chromium

GAMES = {"beowulf": 2, "beast": 2, "hagar": 3}
OWN_BOARD = {
    # each game's board: a selector that must match, and texts that must be drawn
    "beowulf": ("rect.square, g.figure", ()),
    "beast": ("g.hunter", ("A1", "C3")),
    "hagar": ("g.ship, g.viking", ("Paris", "Byzantine camp")),
}

MEASURE = """(svg) => {
  const box = (el) => { const b = el.getBBox(); return [b.x, b.y, b.width, b.height]; };
  const placeOf = (name) => svg.querySelector(`[data-at="${name}"], [data-square="${name}"]`);
  return [...svg.querySelectorAll('[data-mark-at]')].map((mark) => ({
    shape: mark.dataset.shape, at: mark.dataset.markAt, to: mark.dataset.markTo || null,
    mark: box(mark), start: mark.tagName === 'line' ?
      [Number(mark.getAttribute('x1')), Number(mark.getAttribute('y1'))] : null,
    place: box(placeOf(mark.dataset.markAt).querySelector('rect, circle')),
  }));
}"""


def annotated(game: str) -> tuple[Table, str, int, list[str]]:
    """A short bot game with one note on a middle decision marking three places."""
    table = Table(Engine(EventStore("sqlite://")))
    game_id = autoplay(table, game, GAMES[game], seed="boards", max_decisions=24).id
    log = table.log(game_id, REFEREE)
    moves = [env.seq for env in log if isinstance(env.event, MoveMade)]
    seq = moves[len(moves) // 2]
    state = table.histories()._store.state_at(game_id, game_id, seq)
    names = sorted(places(game, state.rules) or ())
    chosen = [names[1], names[len(names) // 2], names[-2]]
    marks = [
        f"circle {chosen[0]} red",
        f"cross {chosen[1]} blue",
        f"label {chosen[2]} green X",
        f"arrow {chosen[0]} {chosen[2]} black",
    ]
    table.histories().annotate(game_id, REFEREE, str(seq), comment="here", marks=marks)
    return table, game_id, seq, chosen


def inside(point: tuple[float, float], box: list[float], slack: float = 0.5) -> bool:
    x, y, w, h = box
    return x - slack <= point[0] <= x + w + slack and y - slack <= point[1] <= y + h + slack


def centre(box: list[float]) -> tuple[float, float]:
    return box[0] + box[2] / 2, box[1] + box[3] / 2


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_html_export_draws_the_games_own_board_with_markup_on_its_places(
    game: str, tmp_path: Path
) -> None:
    table, game_id, seq, chosen = annotated(game)
    page = tmp_path / f"{game}.html"
    page.write_text(table.histories().export(game_id, REFEREE, "html"), encoding="utf-8")
    selector, texts = OWN_BOARD[game]
    with chromium() as browser:
        tab: Any = browser.new_page()
        tab.goto(page.as_uri())
        tab.locator("#skald-verdict[data-verdict]").wait_for()  # shown once checked
        boards = tab.locator("#skald-shown svg.board")
        assert boards.count() >= 2  # the markup's board and the end of the game
        marked = tab.locator("figure", has=tab.locator("g.markup"))
        assert marked.count() == 1
        caption = marked.locator("figcaption").inner_text()
        assert caption.startswith(f"Markup after {seq}. "), caption
        svg = marked.locator("svg.board")
        assert svg.locator(selector).count() > 0, f"{game}: not its own board"
        drawn = svg.evaluate("(s) => s.textContent")
        for name in texts:
            assert name in drawn, (game, name)
        measured = svg.evaluate(MEASURE)
        assert sorted(m["shape"] for m in measured) == ["arrow", "circle", "cross", "label"]
        for mark in measured:
            if mark["shape"] == "arrow":
                assert inside(tuple(mark["start"]), mark["place"]), mark
            elif mark["shape"] == "label":
                cx, cy = centre(mark["mark"])
                px, py = centre(mark["place"])
                assert abs(cx - px) < 2, mark
                assert abs(cy - py) < 30, mark
            else:
                assert inside(centre(mark["mark"]), mark["place"]), mark
        assert {m["at"] for m in measured} == set(chosen)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_markdown_export_carries_the_same_board(game: str) -> None:
    table, game_id, _, chosen = annotated(game)
    markdown = table.histories().export(game_id, REFEREE, "md")
    html = table.histories().export(game_id, REFEREE, "html")
    svgs = re.findall(r"<svg.*?</svg>", markdown)
    assert svgs
    assert svgs == re.findall(r"<svg.*?</svg>", html)
    assert any(f'data-mark-at="{chosen[1]}"' in svg for svg in svgs)


def test_each_beowulf_acts_final_position_is_drawn_before_its_scoring_clears_it() -> None:
    table = Table(Engine(EventStore("sqlite://")))
    game_id = autoplay(table, "beowulf", 2, seed="final-positions").id
    markdown = table.histories().export(game_id, REFEREE, "md")
    finals = re.findall(r"<figure>(<svg.*?</svg>)<figcaption>(Act I+ is over[^<]*)", markdown)
    assert [caption.split(" is over")[0] for _, caption in finals] == ["Act I", "Act II", "Act III"]
    for svg, caption in finals:
        assert 'class="figure"' in svg, caption  # the figures still stand
        assert 'class="tile"' in svg, caption
        assert "Final position, after " in caption
