"""Seeds, shared deals and seat entropy as users reach them: `skald new`, `skald entropy`
and `POST /games`."""

from __future__ import annotations

import hashlib
from pathlib import Path

from fastapi.testclient import TestClient
from typer.testing import CliRunner

from skald.api.main import create_app
from skald.cli.main import app

RUNNER = CliRunner()


def cli(tmp_path: Path, *args: str) -> str:
    result = RUNNER.invoke(app, [*args, "--db", f"sqlite:///{tmp_path}/s.db"])
    assert result.exit_code == 0, result.stderr
    return result.stdout.strip()


def referee_hands(tmp_path: Path, game_id: str) -> str:
    return cli(tmp_path, "show", game_id, "--as", "referee", "--json")


def test_skald_entropy_prints_a_commit_and_its_reveal() -> None:
    result = RUNNER.invoke(app, ["entropy", "pocket dice, rolled twice"])
    commit, reveal = result.stdout.splitlines()
    digest = hashlib.sha256(b"pocket dice, rolled twice").hexdigest()
    assert commit == f"entropy commit {digest}"
    assert reveal == "entropy reveal pocket dice, rolled twice"
    fresh = [RUNNER.invoke(app, ["entropy"]).stdout.split()[-1] for _ in range(2)]
    assert fresh[0] != fresh[1]
    assert len(fresh[0]) == 32


def test_a_shared_deal_deals_alike_and_a_bare_seed_does_not(tmp_path: Path) -> None:
    def state_of(*flags: str) -> str:
        game_id = cli(tmp_path, "new", "beowulf", "--players", "Ann,Bob", *flags)
        shown = referee_hands(tmp_path, game_id)
        return shown.split('"state":', 1)[1]

    shared = [state_of("--seed", "s", "--deal", "round-1") for _ in range(2)]
    assert shared[0] == shared[1]
    bare = [state_of("--seed", "s") for _ in range(2)]
    assert bare[0] != bare[1]
    reproducible = [state_of("--seed", "s", "--reproducible") for _ in range(2)]
    assert reproducible[0] != reproducible[1]  # the game id is the deal


def test_post_games_takes_reproducible_and_deal(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path}/api.db")) as client:
        body = {"game": "toy", "players": ["Ann", "Bob"], "seed": "t", "deal": "d"}
        games = [client.post("/games", json=body).json() for _ in range(2)]
        views = [
            client.get(
                f"/games/{g['id']}/view", headers={"Authorization": f"Bearer {g['referee_token']}"}
            ).json()
            for g in games
        ]
        assert views[0]["state"] == views[1]["state"]
        log = client.get(f"/games/{games[0]['id']}/log").json()["events"]
        assert log[0]["event"]["seed_chosen"] is True
        refused = client.post(
            "/games", json={"game": "toy", "players": ["Ann", "Bob"], "deal": "d"}
        )
        assert refused.status_code == 422
        assert "needs a chosen seed" in refused.text
