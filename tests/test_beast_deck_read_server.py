"""Issue 23, attack 3 (the Beast deck read), against a real server (`skald serve`), with
nothing but the attacker's own token.

The attack: a seat's variation used to keep each face-down deck's real cards and only
reorder them, while the other side's hidden hand was redrawn from all card names. A
variation played to night deals the item and talent rows from the top of those decks, so
over many variations the one unseen card that never showed in a row was the card the
other side had taken face down from that deck (a hunter named the Beast's face-down
talent in 7 of 7 games, the Beast a hunter's face-down item in 3 of 3).

The position (a first game with a fixed seed and deal, 3 players: Ann the Beast (Fangrir,
seat 0), Bob Helga (seat 1), Cid Iona (seat 2); every move checked legal for the seat to
act first):

- the Beast opens East, East; Helga is placed on A1, Iona on E1;
- day 1: the Beast plays Dark Dealings and takes the talent deck's top card face down;
  Helga plays Incite, ignoring it; Iona plays Avarice and takes the item deck's top card
  face down. Each hand then holds three action cards, the talent and item decks 21
  cards each; nobody has seen the Beast's talent but the Beast, nor Iona's item but Iona.
- the hunter's read: the Beast passes, Helga passes, and Iona's pass would end the day:
  night falls and deals three items and three talents face up from the decks. Cid opens
  150 variations from there (different seeds), each of one move, `Cid: pass`, and reads
  the rows dealt in them from his own export.
- the Beast's read: the Beast passes, Helga plays Rush, Iona Adapt and the Beast Dash
  (each ignoring its effects: a hand holding more cards than another may not pass), then
  Helga and Iona pass, and the Beast's pass would end the day. Ann opens 150 variations
  of `Ann: pass` and reads the item rows dealt.

What the model says (`GET /games/ID/possible` as the attacker): the attacker cannot place
any unseen card of the kind (no groups), every unseen card of the kind sits on one of its
tokens (the deck's 21 and the other side's face-down one), and a variation's world deals
those cards over those tokens uniformly at random (projections/beast/knowledge/possible.py). So
in one variation a given unseen card is among the row's three with probability 3/U (U =
22 unseen cards of the kind), and over 150 variations the real face-down card shows
X ~ Binomial(150, 3/U) times, about 20. The test asserts an exact two-sided binomial test
does not reject that at p < 1e-6 (it rejects X <= 2 or X >= 44). Under the old behaviour
the real face-down card is never in the deck, X = 0, with two-sided p ~ 4.9e-10 < 1e-6:
the test fails there (checked by making the server's
`sample` keep the real decks, reordered, in a throwaway run). Every card dealt is also
one the model calls unseen.

The real game's draws are fixed (`deal`), but a variation's fresh draws are keyed by its
stream id, which holds the game id the server picks: they differ from run to run, so each
test is a statistical one, failing by chance with probability 5.3e-7 (the test's size:
150 variations rather than 60 keep a healthy run from failing by chance).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.servers import bearer as _headers
from tests.servers import serving

PLAYERS = ["Ann", "Bob", "Cid"]  # Fangrir the Beast, Helga, Iona
SEED = "deck read"
VARIATIONS = 150
ROW = 3  # a night deals three cards to each row
P_VALUE = 1e-6
SKIP = "(skip)"  # skip or decline whatever is offered: the card's effects are ignored

TOOK = (
    "step E",
    "step E",
    "place A1",
    "place E1",
    "play Dark Dealings",
    "take deck",  # the Beast's face-down talent
    "end",
    "play Incite",
    SKIP,
    "end",
    "play Avarice",
    "take deck",  # Iona's face-down item
    SKIP,
    "end",
)
HUNTERS_READ = ("pass", "pass")  # the Beast, Helga: Iona's pass ends the day
BEASTS_READ = (
    "pass",
    "play Rush",
    SKIP,
    "end",
    "play Adapt",
    SKIP,
    "end",
    "play Dash",
    SKIP,
    "end",
    "pass",
    "pass",
)  # the Beast, Helga, Iona, the Beast, Helga, Iona: the Beast's pass ends the day


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = f"sqlite:///{tmp_path_factory.mktemp('deckread') / 'skald.db'}"
    with serving(url) as base:
        yield base


class Table:
    """A real game on the server, played move by move as the seat to act."""

    def __init__(self, http: httpx.Client) -> None:
        created = http.post(
            "/games",
            json={
                "game": "beast",
                "players": PLAYERS,
                "seed": SEED,
                "deal": SEED,  # the same deal every run (reproducible)
                "options": {"setup": "first", "hunters": "Helga,Iona"},
            },
        )
        assert created.status_code == 201, created.text
        self.http = http
        self.id: str = created.json()["id"]
        self.tokens = {s["name"]: s["token"] for s in created.json()["seats"]}

    def acting(self) -> tuple[str, list[str]]:
        """The player to act and its legal moves."""
        summary = self.http.get(f"/games/{self.id}").json()
        name = PLAYERS[summary["to_act"][0]]
        return name, self.legal(name)

    def legal(self, name: str) -> list[str]:
        answer = self.http.get(f"/games/{self.id}/legal", headers=self.as_(name))
        assert answer.status_code == 200, answer.text
        moves: list[str] = answer.json()["moves"]
        return moves

    def as_(self, name: str) -> dict[str, str]:
        return _headers(self.tokens[name])

    def play(self, *moves: str) -> int:
        """Play `moves` (SKIP: skip or decline until neither is offered); the last seq."""
        for move in moves:
            if move == SKIP:
                while True:
                    name, legal = self.acting()
                    offered = [m for m in ("skip", "decline") if m in legal]
                    if not offered:
                        break
                    self._move(name, offered[0])
            else:
                name, legal = self.acting()
                assert move in legal, (name, move, legal)
                self._move(name, move)
        seq: int = self.http.get(f"/games/{self.id}").json()["seq"]
        return seq

    def _move(self, name: str, move: str) -> None:
        made = self.http.post(
            f"/games/{self.id}/moves", json={"move": move}, headers=self.as_(name)
        )
        assert made.status_code == 201, made.text

    def face_down(self, name: str, hand: int) -> str:
        """The one face-down card of `hand`, as its own player sees it."""
        view = self.http.get(f"/games/{self.id}/view", headers=self.as_(name)).json()
        extras: list[str] = view["state"]["hands"][hand]["extras"]
        assert len(extras) == 1, extras
        return extras[0]

    def unseen(self, name: str, kind: str) -> list[str]:
        """What `name`'s model says an unseen card of `kind` may be, having checked that
        it places none of them (no groups) and that each lies on one of its tokens, so a
        world deals them over the tokens uniformly."""
        answer = self.http.get(f"/games/{self.id}/possible", headers=self.as_(name))
        assert answer.status_code == 200, answer.text
        possible = answer.json()["possible"]
        assert possible["groups"] == []
        names: list[str] = dict(possible["unseen"])[kind]
        kinds = dict(possible["tokens"])
        tokens = [c for h in possible["holdings"] for c in h["cards"] if kinds.get(c) == kind]
        assert len(tokens) == len(names), (tokens, names)
        return names

    def rows(self, name: str, seq: int, move: str, deck: str) -> list[list[str]]:
        """`name` opens VARIATIONS variations from `seq`, each of `move` alone with its own
        seed, and reads the `deck` row each dealt in its own export."""
        streams = set()
        for n in range(VARIATIONS):
            opened = self.http.post(
                f"/games/{self.id}/variations",
                json={"from": str(seq), "moves": [move], "seed": f"read {n}"},
                headers=self.as_(name),
            )
            assert opened.status_code == 201, opened.text
            streams.add(opened.json()["id"])
        export = self.http.get(
            f"/games/{self.id}/export", params={"format": "jsonl"}, headers=self.as_(name)
        )
        assert export.status_code == 200, export.text
        dealt: dict[str, list[list[str]]] = {s: [] for s in streams}
        started = 0
        for line in export.text.splitlines():
            record: dict[str, Any] = json.loads(line) if line.strip() else {}
            event = record.get("event", {})
            if record.get("stream") in dealt:
                if event.get("type") == "history.variation_started":
                    assert event["hypothetical"]  # drawn from the attacker's information set
                    assert event["seats"] == [PLAYERS.index(name)]
                    started += 1
                if event.get("type") == "beast.row_dealt" and event["deck"] == deck:
                    dealt[record["stream"]].append(event["cards"])
        assert started == len(streams) == VARIATIONS
        assert all(len(r) == 1 and len(r[0]) == ROW for r in dealt.values()), dealt
        return [r[0] for r in dealt.values()]


def binomial_p(observed: int, n: int, p: float) -> float:
    """The exact two-sided binomial test: the probability under Binomial(n, p) of an
    outcome no more likely than `observed`."""
    pmf = [math.comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]
    return min(1.0, sum(q for q in pmf if q <= pmf[observed] * (1 + 1e-9)))


def test_the_binomial_helper_rejects_a_card_that_never_shows() -> None:
    assert binomial_p(0, VARIATIONS, ROW / 22) < P_VALUE  # the old deck read
    assert binomial_p(20, VARIATIONS, ROW / 22) > 0.5
    assert binomial_p(50, VARIATIONS, ROW / 22) < P_VALUE


def assert_read_finds_nothing(rows: list[list[str]], secret: str, unseen: list[str]) -> None:
    """Every card dealt is one the attacker's model calls unseen, and the real face-down
    card shows as often as the model says (two-sided binomial test, p > 1e-6)."""
    assert secret in unseen
    counts = Counter(card for row in rows for card in row)
    assert set(counts) <= set(unseen), set(counts) - set(unseen)
    share = ROW / len(unseen)
    p = binomial_p(counts[secret], len(rows), share)
    assert p > P_VALUE, (
        f"{secret} showed {counts[secret]} times in {len(rows)} rows, "
        f"expected {len(rows) * share:.1f} (p = {p:.2g}): the deck read works"
    )


@pytest.mark.parametrize(
    ("attacker", "moves", "owner", "hand", "kind"),
    [
        # a hunter (Cid, Iona) reads the Beast's face-down talent, with the Beast's token
        ("Cid", HUNTERS_READ, "Ann", 0, "talent"),
        # the Beast (Ann) reads Iona's face-down item, with Iona's token
        ("Ann", BEASTS_READ, "Cid", 2, "item"),
    ],
    ids=["a hunter reads the Beast's talent", "the Beast reads a hunter's item"],
)
def test_variations_deal_the_other_sides_face_down_card_like_any_unseen_one(
    server: str, attacker: str, moves: tuple[str, ...], owner: str, hand: int, kind: str
) -> None:
    with httpx.Client(base_url=server, timeout=60) as http:
        table = Table(http)
        seq = table.play(*TOOK, *moves)
        name, legal = table.acting()
        assert name == attacker
        assert "pass" in legal  # and it ends the day
        secret = table.face_down(owner, hand)  # read with its owner's own token
        attacker_view = http.get(f"/games/{table.id}/view", headers=table.as_(attacker)).text
        assert secret not in attacker_view
        unseen = table.unseen(attacker, kind)
        rows = table.rows(attacker, seq, f"{attacker}: pass", kind)
        assert_read_finds_nothing(rows, secret, unseen)
