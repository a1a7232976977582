"""Seat signatures over the wire, against a real `skald serve`: a client signs its decisions
as docs/howto/http.md shows (core/identity.py `sign_decision` is that recipe); REST and the
live channel take them, and refuse a forged, replayed or missing one with a clear error,
writing nothing. The CLI signs with a key it keeps per game and seat."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from skald.core.identity import public_key, sign_decision
from tests.cli_support import skald
from tests.servers import Server
from tests.test_api_play import channel, frame, new_game

TIMEOUT = 10


@pytest.fixture
def base(tmp_path: Path) -> Iterator[str]:
    with Server(f"sqlite:///{tmp_path}/skald.db", tmp_path / "server.log") as server:
        yield server.start()


def _legal(base: str, game_id: str, token: str) -> dict[str, Any]:
    answer = httpx.get(
        f"{base}/games/{game_id}/legal", headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def _signed(legal: dict[str, Any], game_id: str, secret: bytes, kind: str, text: str) -> Any:
    register = legal["seat"] not in {seat for seat, _ in legal["keys"]}
    signing = sign_decision(
        secret, game_id, legal["seat"], legal["seq"], legal["head"], kind, text, register
    )
    return msgspec.to_builtins(signing)


def _post(base: str, game_id: str, route: str, token: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(
        f"{base}/games/{game_id}/{route}", json=body, headers={"Authorization": f"Bearer {token}"}
    )


def test_rest_takes_signed_decisions_and_refuses_forged_ones(base: str) -> None:
    game = new_game(base, "rest-signed")
    game_id, ann_token = game["id"], game["seats"][0]["token"]
    ann, bob = secrets.token_bytes(32), secrets.token_bytes(32)

    def signed(secret: bytes, kind: str = "move", text: str = "", **change: Any) -> Any:
        legal = {**_legal(base, game_id, ann_token), **change}
        return _signed(legal, game_id, secret, kind, text)

    move = _legal(base, game_id, ann_token)["moves"][0]
    made = _post(
        base, game_id, "moves", ann_token, {"move": move, "signed": signed(ann, text=move)}
    )
    assert made.status_code == 201, made.text
    assert dict(map(tuple, made.json()["keys"])) == {0: public_key(ann)}
    undone = _post(base, game_id, "undo", ann_token, {"signed": signed(ann, "undo")})
    assert undone.status_code == 201, undone.text
    seq = httpx.get(f"{base}/games/{game_id}").json()["seq"]
    earlier = _legal(base, game_id, ann_token)["seq"] - 1
    forged = {
        "unsigned": None,
        "another seat's key": signed(bob, text=move),
        "another seq": signed(ann, text=move, seq=earlier),
        "another move": signed(ann, text="pass"),
        "a second key": {**signed(bob, text=move), "key": public_key(bob)},
        "not hex": {**signed(ann, text=move), "digest": "zz"},
    }
    for name, signing in forged.items():
        body = {"move": move} if signing is None else {"move": move, "signed": signing}
        refused = _post(base, game_id, "moves", ann_token, body)
        assert refused.status_code in (403, 422), (name, refused.text)
        assert refused.json()["message"], name
        assert httpx.get(f"{base}/games/{game_id}").json()["seq"] == seq, name
    by_bot = _post(base, game_id, "moves", ann_token, {"move": move, "bot": "my-bot"})
    assert by_bot.status_code == 201, by_bot.text


def test_the_channel_takes_signed_decisions_and_refuses_forged_ones(base: str) -> None:
    game = new_game(base, "channel-signed")
    game_id, ann_token = game["id"], game["seats"][0]["token"]
    ann, eve = secrets.token_bytes(32), secrets.token_bytes(32)

    def at(update: dict[str, Any]) -> dict[str, Any]:
        return {"seat": 0, "seq": update["seq"], "head": update["head"], "keys": update["keys"]}

    with channel(base, game_id, ann_token) as (conn, _):
        first = frame(conn)
        move = first["legal"][0]
        signing = _signed(at(first), game_id, ann, "move", move)
        conn.send(json.dumps({"type": "move", "move": move, "signed": signing}))
        update = frame(conn)
        assert update["type"] == "update", update
        assert dict(map(tuple, update["keys"])) == {0: public_key(ann)}
        conn.send(
            json.dumps({"type": "undo", "signed": _signed(at(update), game_id, eve, "undo", "")})
        )
        refused = frame(conn)
        assert refused["type"] == "error"
        assert refused["error"] == "forbidden"
        conn.send(json.dumps({"type": "undo"}))
        assert frame(conn)["error"] == "forbidden"
        conn.send(
            json.dumps({"type": "undo", "signed": _signed(at(update), game_id, ann, "undo", "")})
        )
        assert frame(conn)["type"] == "update"


def test_the_cli_signs_with_a_key_it_keeps_per_game_and_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = f"sqlite:///{tmp_path}/cli.db"
    keys = tmp_path / "keys"
    monkeypatch.setenv("SKALD_KEYS", str(keys))

    def ok(*args: str) -> str:
        code, out, err = skald(*args, "--db", db)
        assert code == 0, err
        return out

    game_id = ok("new", "beowulf", "--players", "Ann,Bob").strip()
    move = json.loads(ok("legal", game_id, "--as", "Ann", "--json"))[0]
    ok("move", game_id, "--as", "Ann", move)
    assert sorted(p.name for p in (keys / game_id).iterdir()) == ["seat-0.ed25519"]
    assert oct((keys / game_id / "seat-0.ed25519").stat().st_mode)[-3:] == "600"
    ok("undo", game_id, "--as", "Ann")
    log = [
        json.loads(line) for line in ok("log", game_id, "--json", "--as", "referee").splitlines()
    ]
    signed = [e["event"] for e in log if "event" in e and e["event"].get("signed")]
    assert len(signed) == 2
    assert signed[0]["signed"]["key"]
    assert "key" not in signed[1]["signed"]
    monkeypatch.setenv("SKALD_KEYS", str(tmp_path / "elsewhere"))
    code, _, err = skald("move", game_id, "--as", "Ann", move, "--db", db)
    assert code == 7
    assert "key this machine does not hold" in err


def test_the_http_guides_python_example_signs_as_documented(base: str, tmp_path: Path) -> None:
    """docs/howto/http.md's worked example, run as written: its first decision registers
    the seat's key, its second is signed by it; the record says so."""
    page = (Path(__file__).resolve().parent.parent / "docs" / "howto" / "http.md").read_text()
    example = (
        page.split("<!-- signing example -->", 1)[1].split("```python\n", 1)[1].split("```")[0]
    )
    script = tmp_path / "sign.py"
    script.write_text(example)
    game = new_game(base, "doc-example")
    game_id, ann_token, bob_token = game["id"], game["seats"][0]["token"], game["seats"][1]["token"]
    run = [sys.executable, str(script), base, game_id, ann_token, str(tmp_path / "ann.key")]
    said = subprocess.run(run, capture_output=True, text=True, timeout=60, check=True).stdout
    assert said.startswith("seq ")
    bob_move = _legal(base, game_id, bob_token)["moves"][0]
    assert _post(base, game_id, "moves", bob_token, {"move": bob_move}).status_code == 201
    subprocess.run(run, capture_output=True, text=True, timeout=60, check=True)
    events = httpx.get(f"{base}/games/{game_id}/log").json()["events"]
    signed = [e["event"]["signed"] for e in events if e["event"].get("signed")]
    assert len(signed) == 2
    assert signed[0]["key"]
    assert "key" not in signed[1]
    key = bytes.fromhex((tmp_path / "ann.key").read_text())
    assert signed[0]["key"] == public_key(key)
