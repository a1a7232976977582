"""One rule for the blanks around a seq given to annotations and variations: dropped, on
the command line and in the API alike, as every other seq option of the CLI (`show --at`,
`log --from/--to`, integers) drops them. `--at ' 6 '` is seq 6 and is echoed as 6; blanks
alone are no seq (the option's own 'required' message); blanks inside a seq are refused
naming the value; nothing is written on a refusal."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from skald.api.main import create_app
from tests.cli_support import one_line, skald


@pytest.fixture
def game(tmp_path: Path) -> tuple[str, str]:
    """A Beowulf game with one decision (seq 6 is its move), and its store's URL."""
    db = f"sqlite:///{tmp_path}/seq.db"
    code, out, _ = skald("new", "beowulf", "--players", "Ann,Bob", "--seed", "5", "--db", db)
    assert code == 0
    game_id = out.strip()
    assert skald("move", game_id, "--as", "Ann", "place beowulf C3", "--db", db)[0] == 0
    return db, game_id


def notes_text(db: str, game_id: str) -> str:
    code, out, _ = skald("export", game_id, "--as", "referee", "--format", "text", "--db", db)
    assert code == 0
    return out


@pytest.mark.parametrize("at", [" 6", "6 ", " 6 ", "\t6\n"])
def test_blanks_around_a_seq_are_dropped_and_the_seq_echoed(game: tuple[str, str], at: str) -> None:
    db, game_id = game
    code, out, err = skald(
        "annotate", game_id, "--as", "Ann", "--at", at, "--comment", "centre", "--db", db
    )
    assert (code, err) == (0, "")
    assert out == "annotated 6 (public): notes seq 1\n"
    assert "{@6 Ann public: centre}" in notes_text(db, game_id)


def test_a_variations_seq_takes_the_same_rule(game: tuple[str, str]) -> None:
    db, game_id = game
    code, out, err = skald(
        "variation", game_id, "place beowulf D4", "--as", "Ann", "--from", " 5 ", "--db", db
    )
    assert (code, out) == (0, f"{game_id}~v1\n"), err
    code, out, _ = skald(
        "annotate", game_id, "--as", "Ann", "--at", " v1@1 ", "--comment", "alt", "--db", db
    )
    assert code == 0
    assert out.startswith("annotated v1@1 (seat): notes seq "), out
    # the rule the other seq options follow (integers)
    code, out, _ = skald("log", game_id, "--from", " 6 ", "--to", "6 ", "--db", db)
    assert (code, out.split()[0]) == (0, "6")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["annotate", "--at", "  ", "--comment", "x"], "--at SEQ is required"),
        (["annotate", "--at", "\t", "--comment", "x"], "--at SEQ is required"),
        (["variation", "--from", "  "], "give --from SEQ (12, or v2@5) or --extend v2"),
        (["annotate", "--at", "v1@ 6", "--comment", "x"], "'v1@ 6'"),
        (["annotate", "--at", "6 7", "--comment", "x"], "'6 7'"),
        (["annotate", "--at", "+6", "--comment", "x"], "'+6'"),
    ],
)
def test_blanks_alone_or_inside_are_refused_and_nothing_written(
    game: tuple[str, str], args: list[str], message: str
) -> None:
    db, game_id = game
    before = notes_text(db, game_id)
    code, out, err = skald(args[0], game_id, "--as", "Ann", *args[1:], "--db", db)
    assert (code, out) == (3, "")
    assert message in one_line(err)
    assert notes_text(db, game_id) == before


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path}/api.db")) as test_client:
        yield test_client


def test_the_api_drops_the_same_blanks(client: TestClient) -> None:
    created = client.post(
        "/games", json={"game": "beowulf", "players": ["Ann", "Bob"], "seed": "3"}
    ).json()
    game_id = created["id"]
    ann = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    notes = f"/games/{game_id}/annotations"
    noted = client.post(notes, json={"at": " 5 ", "comment": "n"}, headers=ann)
    assert noted.status_code == 201, noted.text
    legal = client.get(f"/games/{game_id}/legal", headers=ann).json()
    opened = client.post(
        f"/games/{game_id}/variations",
        json={"from": f" {legal['seq']}", "moves": legal["moves"][:1]},
        headers=ann,
    )
    assert opened.status_code == 201, opened.text
    for at in ("  ", "v1@ 1", "5 6"):
        refused = client.post(notes, json={"at": at, "comment": "x"}, headers=ann)
        assert refused.status_code == 422, at
        assert repr(at) in refused.json()["message"]
    listed = client.get(notes, headers=ann).json()["annotations"]
    assert [(item["at"], item["comment"]) for item in listed] == [("5", "n")]
