"""The information-set contract at every seq, for every viewer, of every game's playouts
(tests/test_information_sets.py checks the whole contract every few seqs; this checks it
at all of them).

For each viewer, the viewer's redacted log is folded once, envelope by envelope, through
the game's own incremental fold (`knowledge_fold`, what the service keeps), and beside it
the same log with every sealed commitment replaced. At every seq:
- soundness: the real hidden state is one of the worlds `possible` describes (and, where
  the game's `TIGHT` check says so cheaply, that they are exactly the possible ones);
- non-interference: `possible` is the same for the recommitted log (other hidden values
  behind the same redacted log);
- consistency: the world `sample` draws is among them and looks to the viewer exactly
  like the real one (its view, the seats to act, its seats' legal commands), and is the
  very world drawn from a `perturb_hidden` copy of the real state;
- the fold agrees with `possible` of the whole log wherever the service would compute it
  from nothing (every `CHECKPOINT_EVERY` seqs and at the end).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from skald.core.rules import get_rules
from skald.events.viewer import Viewer
from skald.projections.knowledge.cache import CHECKPOINT_EVERY
from skald.projections.registry import redacted_log, views_for
from tests.test_information_sets import (
    MEMBERS,
    TIGHT,
    Playout,
    _recommitted,
    playouts,
    viewers,
)

GAMES = ["beowulf", "hagar", pytest.param("beast", marks=pytest.mark.slow)]
"""The games with an incremental fold (the toy game has none; the other test checks it at
every seq already)."""


def _check_viewer(played: Playout, viewer: Viewer, states: list[Any]) -> int:
    """Every seq of one playout as one viewer; returns the number of seqs checked."""
    game = played.game
    rules, views, member = get_rules(game), views_for(game), MEMBERS[game]
    log = redacted_log(played.log, viewer)
    recommitted = _recommitted(log)
    fold, other_fold = views.knowledge_fold(), views.knowledge_fold()
    checked = 0
    for seq, (envelope, twin) in enumerate(zip(log, recommitted, strict=True), start=1):
        fold.feed(envelope)
        other_fold.feed(twin)
        if seq < 2:
            continue
        where = f"{game} seq {seq} as {viewer.name}"
        known, real = fold.possible(viewer), states[seq]
        assert member(known, real, viewer), f"unsound at {where}"
        assert other_fold.possible(viewer) == known, f"possible reads a hidden value at {where}"
        TIGHT.get(game, lambda known: None)(known)
        if seq % CHECKPOINT_EVERY == 0 or seq == len(log):
            assert views.possible(log[:seq], viewer) == known, f"fold != whole log at {where}"
        world = views.sample(real, known, viewer, random.Random(seq))
        assert member(known, world, viewer), f"sample outside possible at {where}"
        assert views.view(world, viewer) == views.view(real, viewer), where
        assert rules.to_act(world) == rules.to_act(real), where
        for seat in viewer.seats:
            assert list(rules.legal(world, seat)) == list(rules.legal(real, seat)), where
        perturbed = views.perturb_hidden(real, viewer, random.Random(-seq))
        again = views.sample(perturbed, known, viewer, random.Random(seq))
        assert again == world, f"sample reads a hidden value at {where}"
        checked += 1
    return checked


@pytest.mark.parametrize("game", GAMES)
def test_the_contract_holds_at_every_seq(game: str) -> None:
    checked = 0
    for played in playouts(game):
        players = len(played.engine.load(played.game_id).players)
        states = [None] + [
            played.engine.load(played.game_id, seq).rules for seq in range(1, len(played.log) + 1)
        ]
        for viewer in viewers(players):
            checked += _check_viewer(played, viewer, states)
        assert checked >= len(played.log) - 1
    assert checked > 100
