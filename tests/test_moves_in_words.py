"""A seat's legal moves in the game's words (a review found the table page's buttons
reading `play 0# C2` beside a hand that read `Throat`): Beowulf's notation names a tile by
its code, and the table page's read (`GET /games/ID/table?legal=true`) says each such
move as printed, for its button; the narrative's `chose “…”` lines say it so too."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from skald.projections.narrative import Narrator
from tests.cli_support import skald
from tests.patience import HUNG
from tests.servers import bearer, legal_moves, serving

CODED = re.compile(r"[+-]?\d+[a-z#$]")  # a face with an ability or treasure code: `0#`, `-2d`


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(f"sqlite:///{tmp_path_factory.mktemp('words') / 'skald.db'}") as url:
        yield url


def test_beowulf_moves_say_tiles_as_printed() -> None:
    said = Narrator("beowulf", ("Ann", "Bob")).common.move_words
    assert said("play 0# C2") == "play Throat C2"
    assert said("play -2d A1") == "play \N{MINUS SIGN}2 Drunkenness A1"
    assert said("cash +1$3") == "cash +1 Treasure (3)"
    assert said("place thane E4") == "place thane E4"  # squares and verbs as they are
    assert said("play +3 C3") == "play +3 C3"


def test_beast_steps_say_their_direction() -> None:
    said = Narrator("beast", ("Ann", "Bob")).common.move_words
    assert said("step X") == "step nowhere (No Movement)"  # the review: `X` said nothing
    assert said("Wolf1 step W") == "Wolf1 step west"
    assert said("play Step Lightly") == "play Step Lightly"  # a card's name as it is


def test_the_table_read_gives_each_coded_move_its_words(base: str) -> None:
    with httpx.Client(base_url=base, timeout=HUNG) as http:
        created = http.post("/games", json={"game": "beowulf", "players": ["Ann", "Bob"]})
        assert created.status_code == 201, created.text
        game = created.json()
        tokens = [seat["token"] for seat in game["seats"]]
        rnd, coded_seen = random.Random(7), 0
        for _ in range(400):
            summary = http.get(f"/games/{game['id']}").json()
            if summary["outcome"] is not None:
                break
            seat = summary["to_act"][0]
            read = http.get(
                f"/games/{game['id']}/table",
                params={"legal": "true", "board": "false"},
                headers=bearer(tokens[seat]),
            ).json()["legal"]
            assert read["moves"] == legal_moves(http, game["id"], tokens[seat])
            for move in read["moves"]:
                words = read["words"].get(move, move)
                assert not any(CODED.fullmatch(word) for word in words.split()), (move, words)
                coded_seen += any(CODED.fullmatch(word) for word in move.split())
            assert set(read["words"]) <= set(read["moves"])
            moved = http.post(
                f"/games/{game['id']}/moves",
                json={"move": rnd.choice(read["moves"]), "expected_seq": summary["seq"]},
                headers=bearer(tokens[seat]),
            )
            assert moved.status_code == 201, moved.text
        assert coded_seen, "no move with a coded tile came up: the check saw nothing"


def test_a_move_may_be_sent_in_its_words(base: str, tmp_path: Path) -> None:
    """`skald legal` lists each move with its words where they differ, and a move is taken
    in those words too, by the CLI and by the REST route (the review: `skald move
    "start Hägar's fjord (east)"` was refused); words that are no legal move get the
    notation's own refusal, and nothing is written."""
    db = f"sqlite:///{tmp_path / 'words.db'}"
    code, out, err = skald("new", "hagar", "--players", "Ann,Bob", "--db", db)
    assert code == 0, err
    game_id = out.strip()
    code, listed, err = skald("legal", game_id, "--as", "Ann", "--db", db)
    assert code == 0, err
    assert re.search(r"^start fjord-west +\(start Hägar's fjord \(west\)\)$", listed, re.M)
    code, out, err = skald("move", game_id, "start Hägar's fjord (west)", "--as", "Ann", "--db", db)
    assert code == 0, err
    seq = json.loads(skald("show", game_id, "--json", "--db", db)[1])["seq"]
    code, out, err = skald("move", game_id, "start Hägar's castle", "--as", "Bob", "--db", db)
    assert code == 3, (out, err)
    assert "Hägar's castle" in err
    assert json.loads(skald("show", game_id, "--json", "--db", db)[1])["seq"] == seq
    with httpx.Client(base_url=base, timeout=HUNG) as http:
        created = http.post("/games", json={"game": "hagar", "players": ["Ann", "Bob"]}).json()
        answer = http.post(
            f"/games/{created['id']}/moves",
            json={"move": "start Hägar's fjord (east)"},
            headers=bearer(created["seats"][0]["token"]),
        )
        assert answer.status_code == 201, answer.text
