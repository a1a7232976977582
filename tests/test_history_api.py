"""The history routes through TestClient on PostgreSQL and SQLite (the store matters:
notes and variation streams are appended beside the game's)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from skald.api.main import create_app


@pytest.fixture
def client(store_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(store_url)) as test_client:
        yield test_client


def test_annotate_branch_and_export_with_tokens(client: TestClient) -> None:
    created = client.post(
        "/games", json={"game": "beowulf", "players": ["Ann", "Bob"], "seed": "3"}
    ).json()
    game_id = created["id"]
    ann = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    bob = {"Authorization": f"Bearer {created['seats'][1]['token']}"}
    noted = client.post(
        f"/games/{game_id}/annotations",
        json={"at": "5", "comment": "Ann only", "audience": "seat", "marks": ["cross B2"]},
        headers=ann,
    )
    assert noted.status_code == 201, noted.text
    assert noted.json()["event"]["private"]["value"]["comment"] == "Ann only"
    branched = client.post(
        f"/games/{game_id}/variations",
        json={"from": "5", "moves": ["place beowulf C3"], "name": "centre", "seed": "x"},
        headers=bob,
    )
    assert branched.status_code == 201, branched.text
    assert branched.json() == {"id": f"{game_id}~v2"}
    as_ann = client.get(f"/games/{game_id}/export", params={"format": "text"}, headers=ann)
    as_bob = client.get(f"/games/{game_id}/export", params={"format": "text"}, headers=bob)
    assert "Ann only" in as_ann.text
    assert "Ann only" not in as_bob.text
    assert '( v2 "centre"' in as_bob.text
    assert '( v2 "centre"' not in as_ann.text
    page = client.get(f"/games/{game_id}/export", params={"format": "html"})
    assert page.headers["content-type"].startswith("text/html")
    assert "<svg" in page.text
    # a spectator may read but not write; bad input is a 422 and writes nothing
    refused = client.post(f"/games/{game_id}/annotations", json={"at": "5", "comment": "x"})
    assert refused.status_code == 403
    bad = client.post(
        f"/games/{game_id}/annotations", json={"at": "5", "glyph": "!!!"}, headers=ann
    )
    assert bad.status_code == 422
    for moves in ({"moves": []}, {}):  # a variation is its moves: none is refused (as the CLI)
        empty = client.post(
            f"/games/{game_id}/variations", json={"from": "5", **moves}, headers=ann
        )
        assert empty.status_code == 422, empty.text
    after = client.get(f"/games/{game_id}/export", params={"format": "jsonl"}, headers=ann)
    assert after.text.count('"type":"history.annotated"') == 1
    assert f"{game_id}~v1" not in after.text
    unknown = client.get("/games/nope/export", headers=ann)
    assert unknown.status_code in (401, 404)


def test_refused_annotations_are_named_in_the_apis_words(client: TestClient) -> None:
    """A blank comment (line and paragraph separators are blanks too), nothing at all: a
    422 that names the problem without the command line's flags, and nothing written."""
    created = client.post("/games", json={"game": "beowulf", "players": ["Ann", "Bob"]}).json()
    game_id = created["id"]
    ann = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    path = f"/games/{game_id}/annotations"
    blank = client.post(path, json={"at": "3", "comment": "\u2028\u2029 "}, headers=ann)
    assert blank.status_code == 422
    assert blank.json()["message"] == "the comment is empty (only blanks)"
    empty = client.post(path, json={"at": "3"}, headers=ann)
    assert empty.status_code == 422
    assert "give a comment, a glyph or a mark" in empty.json()["message"]
    assert "--" not in blank.json()["message"] + empty.json()["message"]
    log = client.get(f"/games/{game_id}/export", params={"format": "jsonl"}, headers=ann)
    assert '"type":"history.annotated"' not in log.text


def test_a_note_in_a_seats_variation_stays_with_that_side(client: TestClient) -> None:
    created = client.post("/games", json={"game": "beowulf", "players": ["Ann", "Bob"]}).json()
    game_id = created["id"]
    ann = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    bob = {"Authorization": f"Bearer {created['seats'][1]['token']}"}
    opened = client.post(
        f"/games/{game_id}/variations",
        json={"from": str(created["seq"]), "moves": ["Ann: place beowulf A1"]},
        headers=bob,
    )
    assert opened.status_code == 201, opened.text
    short = opened.json()["id"].removeprefix(f"{game_id}~")
    path = f"/games/{game_id}/annotations"
    noted = client.post(path, json={"at": f"{short}@1", "comment": "BOB-ONLY"}, headers=bob)
    assert noted.status_code == 201, noted.text
    assert noted.json()["event"]["audience"] == "seat"
    public = client.post(
        path, json={"at": f"{short}@1", "comment": "x", "audience": "public"}, headers=bob
    )
    assert public.status_code == 422
    assert "cannot be public" in public.json()["message"]
    for headers in (ann, {}):
        listed = client.get(path, headers=headers)
        assert listed.status_code == 200
        assert "BOB-ONLY" not in listed.text
        exported = client.get(
            f"/games/{game_id}/export", params={"format": "jsonl"}, headers=headers
        )
        assert "BOB-ONLY" not in exported.text
    assert "BOB-ONLY" in client.get(path, headers=bob).text


def test_seqs_may_be_numbers_and_refusals_name_the_problem(client: TestClient) -> None:
    """`at`/`from` take 5 as "5"; a control character in a comment, a variation move for a
    seat that does not exist and a variation by a spectator are refused in words that
    name the problem, and nothing is written."""
    created = client.post("/games", json={"game": "beowulf", "players": ["Ann", "Bob"]}).json()
    game_id = created["id"]
    ann = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    notes = f"/games/{game_id}/annotations"
    assert client.post(notes, json={"at": 3, "comment": "n"}, headers=ann).status_code == 201
    control = client.post(notes, json={"at": "3", "comment": "bell\x07 ring"}, headers=ann)
    assert control.status_code == 422
    assert "control character (U+0007)" in control.json()["message"]
    variations = f"/games/{game_id}/variations"
    zed = client.post(variations, json={"from": 3, "moves": ["Zed: place beowulf A1"]}, headers=ann)
    assert zed.status_code == 404
    assert "no seat 'Zed' (seats: Ann, Bob)" in zed.json()["message"]
    spectator = client.post(
        variations, json={"from": created["seq"], "moves": ["Ann: place beowulf A1"]}
    )
    assert spectator.status_code == 403
    assert "cannot open a variation" in spectator.json()["message"]
    listed = client.get(notes, headers=ann).json()["annotations"]
    assert [item["comment"] for item in listed] == ["n"]
    assert client.get(f"/games/{game_id}/variations", headers=ann).json()["variations"] == []
