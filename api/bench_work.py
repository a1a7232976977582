"""The engine's share of a live-channel decision, measured in process: `skald bench`'s
`ws.work` figure.

A decision over the live channel costs the server the engine's work (the rules' check and
events, the hash chain, the store's transaction, the signed receipt, and every seat's frame:
its redacted events, its view, the acting seat's legal moves, encoded once) plus the
sockets and the event loop (a message read, a frame written per seat). Here the first part
is timed alone: the same `Table.act` and `Frames` the channel runs, on the same store, with
no socket, no event loop and no client, in this process's CPU time. Beside the REST
server's CPU per decision from the same run it says how much of a goal stated as a ratio
to REST the work alone already takes (the channel at ×1.6 of REST's decisions/s may cost at
most 1/1.6 of REST's CPU per decision, sockets included).
"""

from __future__ import annotations

import random
import time
from typing import Any

import msgspec

from skald.api.channel import Frame, Frames
from skald.core.engine import Engine
from skald.core.signing import open_signer
from skald.core.store import EventStore
from skald.events.viewer import Viewer, seat_viewer
from skald.projections.table import Table


class Heard(msgspec.Struct):
    """What the client reads of a frame: its type, and of an update what the next decision
    needs (the view, the events and the receipt are skipped, not built: the client stays
    cheap beside the server it measures)."""

    type: str
    seq: int | None = None
    to_act: list[int] = []
    outcome: Any = None
    legal: list[str] | None = None
    head: str = ""
    keys: list[tuple[int, str]] = []


HEARD = msgspec.json.Decoder(Heard)


def decision_work(url: str, seconds: float, game: str, players: int) -> tuple[float, int]:
    """Play `game` in process on the store at `url` for about `seconds`, a random legal
    move at a time: the CPU seconds per decision of the decision and of every seat's
    frame after it, and the number of decisions timed."""
    store = EventStore(url)
    try:
        table = Table(Engine(store), open_signer(store))
        frames = Frames(table)
        rnd = random.Random(0)
        spent, decisions = 0.0, 0
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            names = [f"W{i + 1}" for i in range(players)]
            game_id = table.create(game, names)
            viewers: list[Viewer] = [seat_viewer(i, name) for i, name in enumerate(names)]
            heard = [HEARD.decode(f.data) for f in _built(frames, game_id, viewers, None)]
            while heard[0].outcome is None and heard[0].to_act and time.monotonic() < deadline:
                seat = heard[0].to_act[0]
                move = rnd.choice(heard[seat].legal or [""])
                had = heard[0].seq
                started = time.process_time()
                table.act(game_id, seat, "move", move, had)
                built = _built(frames, game_id, viewers, had)
                spent += time.process_time() - started
                decisions += 1
                heard = [HEARD.decode(frame.data) for frame in built]
        return spent / max(decisions, 1), decisions
    finally:
        store.dispose()


def _built(frames: Frames, game_id: str, viewers: list[Viewer], had: int | None) -> list[Frame]:
    """Every seat's frame, as the channel builds them after a decision of this process."""
    built = frames.frames(game_id, [(viewer, had) for viewer in viewers], held=had is not None)
    ready = [frame for frame in built if frame is not None]
    if len(ready) != len(built):
        raise RuntimeError("a seat's frame was not built after a decision")
    return ready
