"""`skald bench --only channel`: the live channel's figures, each beside its baseline from
the same run, measured against a real server (short and bounded: 1 s per measurement)."""

from __future__ import annotations

import msgspec

from tests.cli_support import skald


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
    # One frame per decision per seat, but for each game's welcome and first update.
    assert 1 <= figures["ws.frames.sqlite.2"]["value"] < 1.5
    assert figures["ws.bytes.sqlite.2"]["value"] > 100
    assert figures["ws.move.server_cpu.sqlite.2"]["baseline"] == "http.health.server_cpu.sqlite.2"
    assert figures["ws.memory.20"]["baseline"] == "ws.memory.0"
    assert "KiB per open channel" in figures["ws.memory.20"]["note"]
    assert {"ws.memory.1", "ws.memory.20", "ws.idle_cpu.20"} <= set(figures)
