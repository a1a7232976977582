"""After the game under reveal=end every hidden value is shown to everyone (README): the
seat's view over HTTP says so too, as the log, the lines, the board and the audit already
did; under reveal=referee it stays hidden. (A review found /view still hid the hands and
the pile from a spectator of a finished reveal=end game.)"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from skald.core.engine import Engine
from skald.core.store import EventStore
from skald.projections.bots.autoplay import autoplay
from skald.projections.table import Table
from tests.cli_support import skald
from tests.servers import serving


def finished(url: str, reveal: str) -> str:
    store = EventStore(url)
    try:
        table = Table(Engine(store))
        return autoplay(table, "beowulf", 2, seed="reveal", options={"reveal": reveal}).id
    finally:
        store.dispose()


@pytest.mark.parametrize(("reveal", "shown"), [("end", True), ("referee", False)])
def test_a_spectators_view_of_a_finished_game_follows_the_reveal_policy(
    tmp_path: Path, reveal: str, shown: bool
) -> None:
    url = f"sqlite:///{tmp_path / 'reveal.db'}"
    game_id = finished(url, reveal)
    with serving(url) as base:
        view = httpx.get(f"{base}/games/{game_id}/view", timeout=30)
        earlier = httpx.get(f"{base}/games/{game_id}/view", params={"at": 20}, timeout=30)
    assert view.status_code == earlier.status_code == 200
    assert view.json()["outcome"] is not None
    for answer in (view, earlier):
        hands = [seat["hand"] for seat in answer.json()["state"]["seats"]]
        assert all(hand is not None for hand in hands) is shown, hands


@pytest.mark.parametrize(("reveal", "shown"), [("end", True), ("referee", False)])
def test_skald_show_of_a_finished_game_follows_the_reveal_policy(
    tmp_path: Path, reveal: str, shown: bool
) -> None:
    url = f"sqlite:///{tmp_path / 'reveal.db'}"
    game_id = finished(url, reveal)
    code, out, err = skald("show", game_id, "--json", "--db", url)
    assert code == 0, err
    hands = [seat["hand"] for seat in json.loads(out)["state"]["seats"]]
    assert all(hand is not None for hand in hands) is shown, hands
