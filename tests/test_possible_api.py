"""What a seat can know, against a real server (`skald serve`): `GET /games/ID/possible`
and `skald possible`, and the variation oracle of issue 23 attempted with nothing but a
seat's own token.

The oracle: Ann opens variations at Bob's turn and plays, on Bob's behalf, `draw` then a
tile face. Before information sets, the refusal listed Bob's hand in the variation, and
that hand was the real one with tiles swapped for pile tiles (a tile really in Bob's hand
never appeared there), so ~500 probes and a likelihood fit gave Bob's hand. Now:
- no refusal names a tile face besides the one Ann asked for (so never Bob's hand);
- how often a face is accepted is what the model predicts from Ann's own log alone (the
  probability it lies among Bob's two tiles and his draw, drawn from the tiles Ann has not
  seen): over 500 probes, the faces really in Bob's hand are accepted neither more nor
  less often than that (a two-sided z-test at p < 0.001), so a likelihood fit has nothing
  to recover.
- variation numbers are per author: Bob's first is v2 however many Ann opened.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.cli_support import skald
from tests.servers import bearer as _headers
from tests.servers import serving

PROBES = 500
Z_BOTH = 3.2905
FACE = re.compile(r"(?<![\w@])[+-][0-9]{1,2}(?:[tcdbsghx#]|\$[0-9]{1,2})?|\b0[tcdbsghx#]")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    url = f"sqlite:///{tmp_path_factory.mktemp('possible') / 'skald.db'}"
    with serving(url) as base:
        yield base, url


@pytest.fixture(scope="module")
def game(server: tuple[str, str]) -> dict[str, str]:
    base, _ = server
    created = httpx.post(
        f"{base}/games",
        json={"game": "beowulf", "players": ["Ann", "Bob"], "seed": "oracle", "reproducible": True},
        timeout=30,
    ).json()
    tokens = {s["name"]: s["token"] for s in created["seats"]}
    ann = {"Authorization": f"Bearer {tokens['Ann']}"}
    moved = httpx.post(
        f"{base}/games/{created['id']}/moves",
        json={"move": "place beowulf C3"},
        headers=ann,
        timeout=30,
    )
    assert moved.status_code == 201, moved.text
    return {
        "id": created["id"],
        "ann": tokens["Ann"],
        "bob": tokens["Bob"],
        "referee": created["referee_token"],
        "seq": str(moved.json()["seq"]),
    }


def _real_hand(base: str, game: dict[str, str], seat: int) -> list[str]:
    view = httpx.get(
        f"{base}/games/{game['id']}/view", headers=_headers(game["referee"]), timeout=30
    ).json()
    hand: list[str] = view["state"]["seats"][seat]["hand"]
    return hand


def test_possible_over_http_is_what_the_token_may_know(
    server: tuple[str, str], game: dict[str, str]
) -> None:
    base, url = server
    route = f"{base}/games/{game['id']}/possible"
    as_ann = httpx.get(route, headers=_headers(game["ann"]), timeout=30)
    assert as_ann.status_code == 200, as_ann.text
    known = as_ann.json()
    assert known["viewer"] == "Ann"
    (bob,) = known["possible"]["hands"]
    assert bob["seat"] == 1
    assert len(bob["places"]) == 2
    may_hold = {c["face"] for c in bob["may_hold"]}
    assert set(_real_hand(base, game, 1)) <= may_hold  # sound: the truth is possible
    ann_hand = _real_hand(base, game, 0)
    unseen = Counter(
        c["face"]
        for u in known["possible"]["unseen"]
        for c in u["faces"]
        for _ in range(c["count"])
    )
    assert sum(unseen.values()) == known["possible"]["pile"] + 2  # the pile and Bob's two
    assert "Bob (green) holds 2 act I tiles" in known["text"]
    assert "@I" not in known["text"]  # as printed
    assert "Throat" in known["text"]
    spectator = httpx.get(route, timeout=30).json()
    assert [h["seat"] for h in spectator["possible"]["hands"]] == [0, 1]
    assert set(ann_hand) <= {c["face"] for c in spectator["possible"]["hands"][0]["may_hold"]}
    earlier = httpx.get(route, params={"at": 3}, headers=_headers(game["ann"]), timeout=30)
    assert earlier.status_code == 200
    assert earlier.json()["seq"] == 3
    assert httpx.get(route, params={"at": 999}, timeout=30).status_code == 404
    code, out, err = skald("possible", game["id"], "--as", "Ann", "--db", url)
    assert code == 0, err
    assert out.strip() == known["text"]


def test_the_variation_oracle_learns_nothing(server: tuple[str, str], game: dict[str, str]) -> None:
    base, _ = server
    ann = _headers(game["ann"])
    known = httpx.get(f"{base}/games/{game['id']}/possible", headers=ann, timeout=30).json()
    act_one = next(u for u in known["possible"]["unseen"] if u["act"] == 1)
    faces = Counter({c["face"]: c["count"] for c in act_one["faces"]})
    probed = sorted(f for f in faces if not f.endswith("g"))  # Good Counsel moves a figure
    unseen = act_one["count"]
    accepted: Counter[str] = Counter()
    asked: Counter[str] = Counter()
    for probe in range(PROBES):
        face = probed[probe % len(probed)]
        answer = httpx.post(
            f"{base}/games/{game['id']}/variations",
            json={
                "from": game["seq"],
                "moves": ["Bob: draw", f"Bob: play {face} A1"],
                "seed": f"probe-{probe}",
            },
            headers=ann,
            timeout=30,
        )
        asked[face] += 1
        if answer.status_code == 201:
            accepted[face] += 1
            continue
        assert answer.status_code == 422, answer.text
        text = answer.json().get("detail", answer.text)
        named = set(FACE.findall(str(text).replace(f"play {face}", "")))
        assert not named, (face, text)
        assert "hand" not in str(text).split("is refused")[-1].replace("holds", ""), text
    # The model's chance that `face` is among Bob's two tiles and his draw.
    expected = variance = observed = 0.0
    for face in set(_real_hand(base, game, 1)):
        if face not in asked:
            continue
        chance = 1 - math.comb(unseen - faces[face], 3) / math.comb(unseen, 3)
        expected += asked[face] * chance
        variance += asked[face] * chance * (1 - chance)
        observed += accepted[face]
    assert variance > 0
    z = (observed - expected) / math.sqrt(variance)
    assert abs(z) < Z_BOTH, (observed, expected, z)


def test_variation_numbers_cannot_be_counted(server: tuple[str, str], game: dict[str, str]) -> None:
    base, _ = server
    for seed in ("ann-1", "ann-2"):
        ann = httpx.post(
            f"{base}/games/{game['id']}/variations",
            json={"from": game["seq"], "moves": ["Bob: place beowulf A1"], "seed": seed},
            headers=_headers(game["ann"]),
            timeout=30,
        )
        assert ann.status_code == 201, ann.text
    opened = httpx.post(
        f"{base}/games/{game['id']}/variations",
        json={"from": game["seq"], "moves": ["Bob: place beowulf A1"], "seed": "bob"},
        headers=_headers(game["bob"]),
        timeout=30,
    )
    assert opened.status_code == 201, opened.text
    assert opened.json()["id"] == f"{game['id']}~v2"  # Bob's first, whatever Ann opened
    # Nor does anything Bob may read count Ann's: the notes stream does not list them.
    bob = _headers(game["bob"])
    export = httpx.get(
        f"{base}/games/{game['id']}/export", params={"format": "jsonl"}, headers=bob, timeout=30
    )
    assert export.status_code == 200, export.text
    assert "history.variation_noted" not in export.text
    assert f"{game['id']}~v1" not in export.text
    listed = httpx.get(f"{base}/games/{game['id']}/variations", headers=bob, timeout=30).json()
    assert [v["id"] for v in listed["variations"]] == ["v2"]


def test_cli_possible_speaks_the_games_words(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'h.db'}"
    code, game_id, err = skald(
        "new", "hagar", "--players", "Ann,Bob,Cid", "--seed", "s", "--db", db
    )
    assert code == 0, err
    code, out, err = skald("possible", game_id.strip(), "--as", "Ann", "--db", db)
    assert code == 0, err
    assert "the fate deck" in out
    assert "in any order" in out


def test_cli_possible_says_so_when_nothing_is_hidden(tmp_path: Path) -> None:
    """A finished Beast game under reveal=end hides nothing from anyone: the text says so in
    a sentence, and names no internal role (it said "Bob (referee)" and stopped there)."""
    db = f"sqlite:///{tmp_path / 'b.db'}"
    code, out, err = skald("demo", "--game", "beast", "--players", "3", "--db", db)
    assert code == 0, err
    game_id = re.search(r"^game ([0-9a-f]+):", out + err, re.MULTILINE)
    assert game_id is not None, err
    code, out, err = skald("possible", game_id.group(1), "--as", "1", "--at", "200", "--db", db)
    assert code == 0, err
    assert out.splitlines() == [
        "Beast: what Bob cannot see",
        "  nothing: Bob sees everything at this point of the game",
    ]
