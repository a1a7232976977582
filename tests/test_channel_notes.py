"""The live channel's notes frames against a real `skald serve` (tests/servers.py): a
channel whose hello asks for `notes` is told when what its viewer may read of the game's
annotations and variations changed, and only then.

The secrecy attack: a seat counting the notes and variations hidden from it by the frames
it gets. Its frames must be the same whether the other side opened none or several
variations or wrote none or several private notes, and such a note reaches it in no
other way either (not listed, not exported: tests/test_notes_private.py compares every
payload byte for byte). The ordering checks rest on the channel's guarantee that one game's
frames go out in the order they were made: a notes frame made for a change comes before
the update of a move made after the change."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.cli_support import skald
from tests.conftest import fresh_store_url
from tests.servers import Server, pg_database
from tests.servers import bearer as auth
from tests.test_api_play import TIMEOUT, channel, close_code, frame, frame_legal, new_game


def open_notes(base: str, game_id: str, token: str | None = None) -> ClientConnection:
    """A channel following the notes, past its welcome and first update."""
    conn = connect(
        base.replace("http://", "ws://") + f"/games/{game_id}/play", open_timeout=TIMEOUT
    )
    hello: dict[str, Any] = {"type": "hello", "notes": True}
    if token:
        hello["token"] = token
    conn.send(json.dumps(hello))
    welcome = frame(conn)
    assert welcome["type"] == "welcome", welcome
    first = frame(conn)
    assert first["type"] == "update", first
    return conn


def note(base: str, game_id: str, token: str, at: int, audience: str = "public") -> None:
    made = httpx.post(
        f"{base}/games/{game_id}/annotations",
        json={"at": str(at), "comment": f"{audience} remark", "audience": audience},
        headers=auth(token),
    )
    assert made.status_code == 201, made.text


def branch(base: str, game: dict[str, Any], token: str, actor_token: str) -> str:
    """A variation opened by `token`'s seat from the game's seq, with one move."""
    at = httpx.get(f"{base}/games/{game['id']}").json()["seq"]
    made = httpx.post(
        f"{base}/games/{game['id']}/variations",
        json={"from": str(at), "moves": [frame_legal(base, game, actor_token)], "seed": "s"},
        headers=auth(token),
    )
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def move(base: str, game: dict[str, Any], tokens: list[str]) -> int:
    """One move by the seat to act, through REST; the seq it made."""
    summary = httpx.get(f"{base}/games/{game['id']}").json()
    token = tokens[summary["to_act"][0]]
    made = httpx.post(
        f"{base}/games/{game['id']}/moves",
        json={"move": frame_legal(base, game, token)},
        headers=auth(token),
    )
    assert made.status_code in (200, 201), made.text
    return int(made.json()["seq"])


def types_until_update(conn: ClientConnection) -> list[str]:
    """The types of the frames up to and including the next update."""
    seen = []
    while not seen or seen[-1] != "update":
        seen.append(frame(conn)["type"])
    return seen


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One server for the module's tests (each on games of its own): a start costs seconds,
    more on a loaded machine."""
    folder = tmp_path_factory.mktemp("notes")
    with Server(f"sqlite:///{folder}/skald.db", folder / "server.log") as server:
        server.start()
        yield server


@pytest.fixture
def base(served: Server) -> str:
    return served.base


def test_a_public_note_tells_every_reader_that_asked(base: str) -> None:
    game = new_game(base)
    tokens = [seat["token"] for seat in game["seats"]]
    ann, spectator = open_notes(base, game["id"], tokens[0]), open_notes(base, game["id"])
    with channel(base, game["id"], tokens[1]) as (plain, _):
        assert frame(plain)["type"] == "update"
        note(base, game["id"], tokens[1], 1)
        assert frame(ann) == {"type": "notes"}
        assert frame(spectator) == {"type": "notes"}
        move(base, game, tokens)
        assert types_until_update(plain) == ["update"]  # it did not ask for notes
        assert types_until_update(ann) == ["update"]  # one frame for one note
    ann.close()
    spectator.close()


def test_hidden_variations_send_a_seat_nothing(base: str) -> None:
    """Bob's variations are his side's alone: Ann's channel gets the same frames whether
    he opened none or three, and his own is told of each; his note for his seat is not
    listed to Ann at all."""
    seen: dict[int, list[str]] = {}
    for hidden in (0, 3):
        game = new_game(base, seed=f"hidden-{hidden}")
        tokens = [seat["token"] for seat in game["seats"]]
        ann, bob = open_notes(base, game["id"], tokens[0]), open_notes(base, game["id"], tokens[1])
        frames: list[str] = []
        for _ in range(hidden):
            branch(base, game, tokens[1], tokens[0])
            assert frame(bob) == {"type": "notes"}  # every reader's digests are taken at once
        move(base, game, tokens)
        frames += types_until_update(ann)
        assert types_until_update(bob) == ["update"]
        note(base, game["id"], tokens[1], 2, audience="seat")
        assert frame(bob) == {"type": "notes"}
        move(base, game, tokens)
        frames += types_until_update(ann)
        listed = httpx.get(
            f"{base}/games/{game['id']}/annotations", headers=auth(tokens[0])
        ).json()["annotations"]
        assert listed == []
        seen[hidden] = frames
        ann.close()
        bob.close()
    assert seen[0] == seen[3] == ["update", "update"]


def _normalized(text: str, game_id: str) -> str:
    """A payload with what differs between two games of one server by construction put
    in words: the game's id, times, and hashes, salts, commitments and signatures (each
    named by its first appearance, so that which equals which is kept)."""
    text = text.replace(game_id, "GAME")
    text = re.sub(r"\d{4}-\d\d-\d\d[T ][0-9:.]+(?:Z|[+-]\d\d:\d\d)?", "TIME", text)
    names: dict[str, str] = {}
    return re.sub(r"[0-9a-f]{16,}", lambda m: names.setdefault(m[0], f"H{len(names)}"), text)


def test_hidden_notes_send_a_seat_and_a_spectator_nothing(base: str) -> None:
    """Ann's private notes (for her seat, for the referee) are hers: Bob's and a
    spectator's channels get the same frames whether she wrote none or three, before,
    between and after Bob's public note and the moves, and they list and export the same
    (up to what differs between two games by construction); Ann's own channel is told of
    each note for her seat, and she lists them."""
    seen: dict[int, list[Any]] = {}
    for hidden in (0, 3):
        made = httpx.post(  # one seed and one deal: both games are dealt alike
            f"{base}/games",
            json={
                "game": "beowulf",
                "players": ["Ann", "Bob"],
                "seed": "hidden-notes",
                "reproducible": True,
                "deal": "notes",
            },
        )
        assert made.status_code == 201, made.text
        game = made.json()
        tokens = [seat["token"] for seat in game["seats"]]
        ann, bob = open_notes(base, game["id"], tokens[0]), open_notes(base, game["id"], tokens[1])
        spectator = open_notes(base, game["id"])
        got: list[Any] = []
        for step in range(3):
            if step < hidden:
                audience = "referee" if step == 1 else "seat"
                note(base, game["id"], tokens[0], 1 + step, audience=audience)
                if audience == "seat":
                    assert frame(ann) == {"type": "notes"}
            if step == 1:
                note(base, game["id"], tokens[1], 2)
                for conn in (ann, bob, spectator):
                    assert frame(conn) == {"type": "notes"}
            move(base, game, tokens)
            got += [types_until_update(bob), types_until_update(spectator)]
            assert types_until_update(ann) == ["update"]
        for token in (tokens[1], None):
            headers = auth(token) if token else {}
            listed = httpx.get(f"{base}/games/{game['id']}/annotations", headers=headers)
            got.append(_normalized(listed.text, game["id"]))
            for format in ("jsonl", "text", "md", "html"):
                exported = httpx.get(
                    f"{base}/games/{game['id']}/export", params={"format": format}, headers=headers
                )
                assert "seat remark" not in exported.text
                assert "referee remark" not in exported.text
                got.append(_normalized(exported.text, game["id"]))
        mine = httpx.get(f"{base}/games/{game['id']}/annotations", headers=auth(tokens[0]))
        comments = [item.get("comment") for item in mine.json()["annotations"]]
        assert comments == ["seat remark"] * min(hidden, 1) + ["public remark"] + [
            "seat remark"
        ] * (hidden == 3)
        seen[hidden] = got
        for conn in (ann, bob, spectator):
            conn.close()
    assert seen[0] == seen[3]
    assert seen[0][:2] == [["update"], ["update"]]


def test_a_note_written_by_the_cli_is_told(base: str, served: Server) -> None:
    """SQLite has no notifications: the watch's poll finds the notes stream moved."""
    game = new_game(base)
    tokens = [seat["token"] for seat in game["seats"]]
    ann = open_notes(base, game["id"], tokens[0])
    db = served.url
    code, _out, err = skald(
        "annotate", game["id"], "--as", "Bob", "--at", "1", "--comment", "x", "--db", db
    )
    assert code == 0, err
    assert frame(ann) == {"type": "notes"}
    ann.close()


def test_a_channel_following_notes_stays_open_after_the_end(base: str) -> None:
    """The last update closes a plain channel (1000); one that follows the notes stays,
    and hears of a note written after the end."""
    game = new_game(base, seed="end")
    tokens = [seat["token"] for seat in game["seats"]]
    ann = open_notes(base, game["id"], tokens[0])
    with channel(base, game["id"], tokens[1]) as (plain, _):
        last = frame(plain)
        told: dict[str, Any] = {}
        outcome = None
        for _ in range(400):
            summary = httpx.get(f"{base}/games/{game['id']}").json()
            if summary["outcome"] is not None:
                outcome = summary["outcome"]
                break
            seq = move(base, game, tokens)
            # both channels read as the game goes (a client that stops reading for the
            # whole game leaves its pings unanswered and is rightly cut off)
            while last["seq"] < seq:
                last = frame(plain)
            while told.get("seq", 0) < seq:
                told = frame(ann)
                assert told["type"] in ("update", "notes")
        assert outcome is not None
        while last["outcome"] is None:
            last = frame(plain)
        assert close_code(plain) == 1000
    while told.get("outcome") is None:
        told = frame(ann)
        assert told["type"] in ("update", "notes")
    note(base, game["id"], tokens[1], 3)
    assert frame(ann) == {"type": "notes"}
    ann.close()
    assert last["outcome"] == told["outcome"]


@pytest.mark.postgres
def test_a_note_on_one_server_is_told_on_another(tmp_path: Path) -> None:
    with (
        pg_database("skald_notes", fresh_store_url("postgresql", tmp_path)) as url,
        Server(url, tmp_path / "a.log") as one,
        Server(url, tmp_path / "b.log") as two,
    ):
        first, second = one.start(), two.start()
        game = new_game(first)
        tokens = [seat["token"] for seat in game["seats"]]
        ann = open_notes(second, game["id"], tokens[0])
        note(first, game["id"], tokens[1], 1)
        assert frame(ann) == {"type": "notes"}
        branch(first, game, tokens[0], tokens[0])  # her own variation, on the other server
        assert frame(ann) == {"type": "notes"}
        ann.close()
