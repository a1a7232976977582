"""Fresh-eyes review of secrecy (against a real server): what a hostile seat, or anyone
with no token, can learn through the product that it may not see.

Each test is one leak, written as the attack a player would run."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.servers import bearer, served_sqlite


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from served_sqlite(tmp_path_factory, "review-secrecy")


def _beowulf(http: httpx.Client) -> tuple[str, dict[str, str]]:
    created = http.post("/games", json={"game": "beowulf", "players": ["Ann", "Bob"]})
    assert created.status_code == 201, created.text
    body = created.json()
    return body["id"], {s["name"]: s["token"] for s in body["seats"]}


def test_private_notes_in_a_variation_do_not_show_that_it_exists(base: str) -> None:
    """Variations are numbered per author so that nobody learns how many variations the
    others opened (docs/explain/secrecy.md). But a note in a variation is listed to
    everyone, sealed, with its anchor: Ann annotates her own variations (the default
    audience there is her seat), and Bob, or anyone with no token, reads from
    `GET /games/ID/annotations` and from the jsonl export's notes stream that Ann's
    variations v1 and v4 exist (so she opened at least two) and how long they are
    (`v4@3`: it has a seq 3)."""
    with httpx.Client(base_url=base, timeout=60) as http:
        game, tokens = _beowulf(http)
        for _ in range(2):
            opened = http.post(
                f"/games/{game}/variations",
                json={"from": 5, "moves": ["place beowulf C3", "Bob: draw"]},
                headers=bearer(tokens["Ann"]),
            )
            assert opened.status_code == 201, opened.text
        assert opened.json()["id"] == f"{game}~v4"  # Ann's second
        for anchor in ("v1@2", "v4@3"):
            noted = http.post(
                f"/games/{game}/annotations",
                json={"at": anchor, "comment": "my plan"},
                headers=bearer(tokens["Ann"]),
            )
            assert noted.status_code == 201, noted.text
        for headers in (bearer(tokens["Bob"]), {}):
            listed = http.get(f"/games/{game}/annotations", headers=headers).json()
            anchors = [item["at"] for item in listed["annotations"]]
            assert anchors == [], f"{listed['viewer']} reads Ann's variations' anchors {anchors}"
            exported = http.get(
                f"/games/{game}/export", params={"format": "jsonl"}, headers=headers
            ).text
            assert f"{game}~v4" not in exported, "the jsonl export names Ann's variation v4"
