"""The SVG boards (projections.boards) drawn from real views: well-formed, every place a
move can name is marked, and nothing the viewer may not see is drawn."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from skald.core.errors import NotFound
from skald.events.viewer import REFEREE, SPECTATOR, seat_viewer
from skald.projections.beowulf.board import hand_line
from skald.projections.boards import board_svg
from skald.projections.table import Table

SVG = "{http://www.w3.org/2000/svg}"


def _play(table: Table, game_id: str, decisions: int) -> None:
    """Play the middle legal move `decisions` times (a fixed, seeded game)."""
    for _ in range(decisions):
        turn = table.turn(game_id)
        seat = turn.to_act[0]
        moves = table.legal(game_id, seat)
        table.move(game_id, seat, moves[len(moves) // 2])


def _places(svg: str) -> set[str]:
    root = ET.fromstring(svg)
    return {node.attrib["data-at"] for node in root.iter() if "data-at" in node.attrib}


def test_beowulf_board_marks_every_square_and_hides_other_hands(table: Table) -> None:
    game_id = table.create("beowulf", ["Ann", "Bob"], seed="boards", reproducible=True)
    _play(table, game_id, 6)
    ann, bob = seat_viewer(0, "Ann"), seat_viewer(1, "Bob")
    ann_view = table.show(game_id, ann)
    svg = board_svg("beowulf", ann_view.state)
    state = ann_view.state
    free = {f"{chr(65 + c)}{r + 1}" for r in range(state.rows) for c in range(state.cols)} - set(
        state.printed_throats
    )
    assert free <= _places(svg)
    ann_hand = hand_line(list(state.seats[0].hand))
    assert ann_hand in svg
    bob_svg = board_svg("beowulf", table.show(game_id, bob).state)
    assert ann_hand not in bob_svg
    assert f"hand: {len(state.seats[0].hand)} tiles" in bob_svg
    assert "pile, top first:" not in bob_svg
    assert "pile, top first:" in board_svg("beowulf", table.show(game_id, REFEREE).state)
    # Each seat by its player's name, its colour beside it (the panel said only "brown")
    named = board_svg("beowulf", ann_view.state, ["Ann", "Bob"])
    colours = [seat.colour for seat in state.seats]
    assert f"Ann ({colours[0]}) · " in named
    assert f"Bob ({colours[1]}) · " in named


def test_beast_hidden_path_only_for_the_beast_and_the_referee(table: Table) -> None:
    game_id = table.create("beast", ["Ann", "Bob"], seed="boards", reproducible=True)
    for _ in range(60):  # until the Beast has hidden steps on its path
        view = table.show(game_id, REFEREE).state
        if view.active_count:
            break
        _play(table, game_id, 1)
    assert view.active_count, "the Beast never moved"
    beast = board_svg("beast", table.show(game_id, seat_viewer(0, "Ann")).state)
    hunter = board_svg("beast", table.show(game_id, seat_viewer(1, "Bob")).state)
    spectator = board_svg("beast", table.show(game_id, SPECTATOR).state)
    assert 'class="hidden-path"' in beast
    assert 'class="beast-actual"' in beast
    for svg in (hunter, spectator):
        assert 'class="hidden-path"' not in svg
        assert 'class="beast-actual"' not in svg
        assert 'class="standee"' in svg
        assert view.beast_location not in {
            t.text for t in ET.fromstring(svg).iter(f"{SVG}title")
        } - {None}
    assert {"A1", "C3"} <= _places(hunter)


def test_hagar_board_names_spaces_and_escapes_names(table: Table) -> None:
    game_id = table.create("hagar", ["<b>Ann</b>", "Bob & co"], seed="boards")
    shown = table.show(game_id, SPECTATOR)
    svg = board_svg("hagar", shown.state, shown.players)
    ET.fromstring(svg)  # well-formed: the names are escaped
    assert "&lt;b&gt;Ann&lt;/b&gt;" in svg
    assert "<b>" not in svg
    assert {"paris", "fjord-west", "london-port", "north-1"} <= _places(svg)


def test_unknown_game_has_no_board() -> None:
    with pytest.raises(NotFound, match="no board drawing"):
        board_svg("chess", {})
