"""Non-interference over the live channel's frames (api/channel.py): for every registered
game, at states all through one engine game, the frame a viewer is sent is the same byte
for byte when only what it may not see changes: the state's hidden part (`perturb_hidden`)
and the hidden values of the events it is sent (`doctor_hidden`). The game is the one the
conformance suite plays (tests/test_conformance.py), checked with its helpers."""

from __future__ import annotations

import random

import msgspec
import pytest

from skald.api.channel import encode_update
from skald.core.state import GameState
from skald.events.viewer import Viewer
from skald.projections.registry import views_for
from skald.projections.table import effective_viewer, legal_moves, update_for
from tests.test_conformance import GAMES, doctor_hidden, full_log, played, viewers


def frame_text(state: GameState, envelopes: list, viewer: Viewer) -> str:
    seat = viewer.seat
    legal = None if seat is None else legal_moves(state, seat)
    return encode_update(update_for("g", state, envelopes, viewer, legal, None)).decode()


@pytest.mark.parametrize("game", GAMES)
def test_a_frame_ignores_what_its_viewer_cannot_see(game: str) -> None:
    record = played(game)
    envelopes = full_log(game)
    views = views_for(game)
    rnd = random.Random(13)
    seqs = sorted(record.live)
    changed = compared = 0
    for seq in seqs[1 :: max(1, len(seqs) // 40)]:
        state = record.live[seq]
        since = envelopes[max(0, seq - 4) : seq]  # the last few events, as after a decision
        for viewer in viewers(state):
            sees = effective_viewer(state, viewer)
            other = msgspec.structs.replace(
                state, rules=views.perturb_hidden(state.rules, sees, rnd)
            )
            doctored = [doctor_hidden(env, sees, rnd) for env in since]
            changed += other != state or doctored != since
            compared += 1
            assert frame_text(other, doctored, viewer) == frame_text(state, since, viewer), (
                f"{game} seq {seq}: {viewer.name}'s frame shows what it may not see"
            )
    assert compared > 0
    assert changed > 0, f"{game}: nothing hidden was ever changed"
