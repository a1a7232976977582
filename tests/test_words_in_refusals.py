"""What a person reads speaks the game's language: refusals name the player (never `seat
N`), places as the board prints them, tiles and spaces that do not exist said so; log
lines credit what the game does to the game; variations are named `v2`, never by their
stream id."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from skald.core.beowulf.data import catalog
from skald.core.beowulf.printed import face_words
from skald.core.engine import Engine
from skald.core.errors import IllegalMove, NotFound
from skald.core.store import EventStore
from skald.projections.table import Table

SEAT_INDEX = re.compile(r"\bseat \d")


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(Engine(EventStore(f"sqlite:///{tmp_path / 'words.db'}")))


def _refusal(table: Table, game_id: str, seat: int, move: str) -> str:
    with pytest.raises(IllegalMove) as raised:
        table.decide(game_id, seat, "move", move, None)
    return str(raised.value)


def _new(table: Table, game: str, players: list[str]) -> str:
    return table.create(game, players, seed="words", reproducible=True)


def test_a_beowulf_refusal_names_ann_and_what_does_not_exist(table: Table) -> None:
    game_id = _new(table, "beowulf", ["Ann", "Bob"])
    text = _refusal(table, game_id, 0, "play +9 Z9")
    assert text.startswith("'play +9 Z9' by Ann (brown, Act I): "), text
    assert "+9 is not a Beowulf tile" in text
    assert "Z9 is not on the board" in text
    assert not SEAT_INDEX.search(text), text


def test_a_hagar_refusal_names_the_player_and_places_as_printed(table: Table) -> None:
    game_id = _new(table, "hagar", ["Ann", "Bob", "Cid"])
    text = _refusal(table, game_id, 0, "start london-port")
    assert text.startswith("Ann may not start from London harbour"), text
    assert "Hägar's fjord (west)" in text
    assert not re.search(r"\b[a-z]+-(port|west|east|\d)\b", text), text
    assert not SEAT_INDEX.search(text), text


def test_a_beast_refusal_names_the_player_and_character(table: Table) -> None:
    game_id = _new(table, "beast", ["Ann", "Bob"])
    for move in ("step W", "step W"):
        table.decide(game_id, 0, "move", move, None)
    text = _refusal(table, game_id, 1, "step N")
    assert "is not legal for Bob (Helga)" in text, text
    assert not SEAT_INDEX.search(text), text


def test_what_the_game_does_is_credited_to_the_game(table: Table) -> None:
    game_id = _new(table, "beast", ["Ann", "Bob"])
    for move in ("step W", "step W", "place A1", "place A5"):
        seat = 0 if move.startswith("step") else 1
        table.decide(game_id, seat, "move", move, None)
    told = table.narrated(game_id, table.viewer(game_id, "Bob"))
    shuffles = [t for t in told if "deck was shuffled" in t.sentence]
    assert shuffles
    assert {t.actor for t in shuffles} == {"the game"}
    assert all("effect" not in t.sentence or " of " in t.sentence for t in told)
    assert not any(t.sentence.startswith(("The card:", "The move:")) for t in told)


def test_a_variation_is_named_by_its_number_alike_missing_or_hidden(table: Table) -> None:
    game_id = _new(table, "beowulf", ["Ann", "Bob"])
    with pytest.raises(NotFound) as raised:
        table.histories().variation_log(game_id, table.viewer(game_id, "Bob"), 2)
    assert str(raised.value) == "this game has no variation v2 that you may read"
    assert game_id not in str(raised.value)


def test_a_beowulf_tile_not_in_hand_is_refused_with_the_hand_as_printed(table: Table) -> None:
    game_id = _new(table, "beowulf", ["Ann", "Bob"])
    table.decide(game_id, 0, "move", "draw", None)
    hand = table.show(game_id, table.viewer(game_id, "Ann")).state.seats[0].hand
    missing = next(
        t.face for t in catalog().values() if t.act == 1 and t.face not in hand and t.value < 0
    )
    text = _refusal(table, game_id, 0, f"play {missing} C3")
    printed = ", ".join(face_words(face) for face in sorted(set(hand)))
    assert f"no {face_words(missing)} tile in hand (your hand: {printed})" in text, text
    assert "\N{MINUS SIGN}" in text
    assert f" {missing} tile" not in text, text  # the notation's hyphen-minus is not printed
