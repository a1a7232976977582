"""`skald bench --only channel`: the live channel's figures, each beside its baseline from
the same run, measured against a real server (short and bounded: 1 s per measurement).

What a figure counts is checked by count, not by its size: how many decisions a second
holds depends on how busy the machine is (the frames per decision per seat include each
game's welcome and first update, a larger share the fewer decisions a game got to)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import msgspec

from skald.api.bench_channel import _measure_ws
from skald.api.bench_work import decision_work
from tests.cli_support import skald
from tests.patience import HUNG
from tests.servers import Server


def test_the_channel_part_measures_decisions_frames_and_open_channels() -> None:
    code, out, err = skald(
        "bench", "--only", "channel", "--json", "--seconds", "1",
        "--channel-clients", "2", "--idle-channels", "1,20",
    )  # fmt: skip
    assert code == 0, err
    figures = {f["name"]: f for f in map(msgspec.json.decode, out.splitlines())}
    move = figures["ws.move.sqlite.2"]
    assert move["baseline"] == "http.move.sqlite.2"
    assert move["value"] > 0
    assert move["baseline_value"] > 0
    assert "errors 0 (REST 0, health 0; 5xx 0)" in move["note"]
    # One frame per decision per seat, and each game's welcome and first update (counted
    # exactly in the test below: their share depends on how many decisions fit the second).
    assert figures["ws.frames.sqlite.2"]["value"] >= 1
    assert figures["ws.bytes.sqlite.2"]["value"] > 100
    assert figures["ws.move.server_cpu.sqlite.2"]["baseline"] == "http.health.server_cpu.sqlite.2"
    assert figures["ws.memory.20"]["baseline"] == "ws.memory.0"
    assert "KiB per open channel" in figures["ws.memory.20"]["note"]
    assert {"ws.memory.1", "ws.memory.20", "ws.idle_cpu.20"} <= set(figures)
    # The engine's work of a decision, timed in process, beside REST's server CPU per decision:
    # it is part of what the server spends per channel decision, the rest its sockets.
    work = figures["ws.work.sqlite.2"]
    assert work["baseline"] == "http.move.server_cpu.sqlite.2"
    assert work["value"] > 0
    assert work["baseline_value"] > 0
    channel_ms = float(work["note"].split("the channel spends ")[1].split(" ms")[0])
    sockets_ms = float(work["note"].split(", so ")[1].split(" ms")[0])
    assert abs(channel_ms - work["value"] - sockets_ms) < 0.002


def test_the_channel_client_counts_one_frame_per_decision_per_seat_and_two_per_game(
    tmp_path: Path,
) -> None:
    """The client behind `ws.frames`: every seat's frames are its game's welcome and first
    update, then one per decision, exactly; measured in rounds until twenty decisions."""
    players = 3
    with Server(f"sqlite:///{tmp_path}/frames.db", tmp_path / "server.log") as server:
        server.start()
        assert server.process is not None
        port, pid = server.port, server.process.pid
        games = decisions = frames = seat_decisions = 0
        began = time.monotonic()
        while decisions < 20:
            assert time.monotonic() - began < HUNG, f"hung: {decisions} decisions"
            tally = asyncio.run(_measure_ws([port], 2, 0.5, "hagar", players, [pid]))
            assert tally.errors == 0, tally
            games += tally.requests  # the client's one request a game: its creation
            decisions += tally.decisions
            frames += tally.frames
            seat_decisions += tally.seat_decisions
    assert seat_decisions == players * decisions
    assert frames == seat_decisions + 2 * players * games, (frames, decisions, games)


def test_decision_work_plays_whole_decisions_through_the_channel_s_frames(
    tmp_path: Path,
) -> None:
    # Half-second runs until more than ten decisions were timed: how many fit in half a
    # second depends on how busy the machine is, not on what is measured.
    decisions, began = 0, time.monotonic()
    while decisions <= 10:
        assert time.monotonic() - began < HUNG, f"hung: {decisions} decisions timed"
        per_decision, made = decision_work(f"sqlite:///{tmp_path}/work.db", 0.5, "hagar", 3)
        if made:
            assert 0 < per_decision < 0.5  # CPU seconds of this process per decision
        decisions += made
    # The decisions were made, not only timed: the store holds every one of their events.
    with sqlite3.connect(tmp_path / "work.db") as db:
        ((stored,),) = db.execute("SELECT count(*) FROM events").fetchall()
    assert stored > decisions
