"""Builds the audit fixtures in fixtures/audit/: one clean recorded game per game and
doctored copies, each with the verdict it must get (fixtures/audit/expected.json).

Run `python -m tests.audit_fixtures` to rebuild them. The doctored logs are made by a
careful forger (tests/forgery.py): every hash after the change is recomputed, so only
the rules re-derivation can catch them — except the plain reorder, which the chain catches.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from skald.core.beowulf.data import catalog
from skald.core.beowulf.printed import face_words
from skald.core.engine import Engine
from skald.core.errors import IllegalMove
from skald.core.rules import get_rules
from skald.core.state import fold
from skald.core.store import EventStore
from skald.events.envelope import Envelope
from skald.events.secret import seal
from skald.events.viewer import REFEREE
from skald.projections.bots.autoplay import autoplay
from skald.projections.table import Table
from tests.forgery import forge, jsonl, rehash

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "audit"
Builder = Callable[[list[Envelope[Any]]], tuple[list[Envelope[Any]], dict[str, Any]]]


def recorded_game(game: str, players: int, seed: str) -> list[Envelope[Any]]:
    """A finished autoplayed game's referee log, with a fixed clock."""
    randomness = random.Random(f"fixture-{game}")  # a fixed "service key": rebuilds are stable
    table = Table(
        Engine(
            EventStore("sqlite://"),
            clock=lambda: datetime(2026, 11, 1, 20, 0, tzinfo=UTC),
            random_hex=lambda size: randomness.randbytes(size).hex(),
        )
    )
    result = autoplay(table, game, players, seed=seed, bot_seed=7, game_id=f"fixture-{game}")
    return table.log(result.id, REFEREE)


def first(envelopes: list[Envelope[Any]], tag: str, after: int = 0) -> Envelope[Any]:
    """The first envelope with event tag `tag` after seq `after`."""
    return next(
        env for env in envelopes if env.seq > after and type(env.event).__struct_config__.tag == tag
    )


def beowulf_undrawn_tile(log: list[Envelope[Any]]) -> tuple[list[Envelope[Any]], dict[str, Any]]:
    """A seat plays a tile it never drew: its move and the placed tile are rewritten."""
    placed = first(log, "beowulf.tile_placed", after=40)
    marker = log[placed.seq - 2]
    hand_faces = {catalog()[t].face for t in _hand_before(log, placed.seq, placed.event.seat)}
    act = catalog()[placed.event.tile].act
    stranger = next(
        t
        for t, spec in catalog().items()
        if spec.act == act and spec.face not in hand_faces and spec.ability is None
    )
    face = catalog()[stranger].face
    square = marker.event.move.split()[-1]
    doctored = forge(
        log, marker.seq, lambda e: msgspec.structs.replace(e, move=f"play {face} {square}")
    )
    doctored = forge(doctored, placed.seq, lambda e: msgspec.structs.replace(e, tile=stranger))
    return doctored, {"seq": marker.seq, "rule": f"no {face_words(face)} tile in hand"}


def _hand_before(log: list[Envelope[Any]], seq: int, seat: int) -> list[str]:
    rules, state = get_rules("beowulf"), None
    for env in log[: seq - 2]:
        state = fold(rules, state, env)
    assert state is not None
    return list(state.rules.hands[seat])


def beowulf_changed_draw(log: list[Envelope[Any]]) -> tuple[list[Envelope[Any]], dict[str, Any]]:
    """A drawn tile is swapped for another of the same act, with a valid commitment."""
    drawn = first(log, "beowulf.tile_drawn", after=30)
    secret = drawn.event.tile
    act = catalog()[secret.value].act
    other = next(t for t, spec in catalog().items() if spec.act == act and t != secret.value)
    doctored = forge(
        log,
        drawn.seq,
        lambda e: msgspec.structs.replace(e, tile=seal(other, secret.audience, secret.salt)),
    )
    return doctored, {"seq": drawn.seq, "rule": "differs from what the rules derive"}


def beowulf_reordered(log: list[Envelope[Any]]) -> tuple[list[Envelope[Any]], dict[str, Any]]:
    """Two decisions swapped in place, hashes untouched: the chain breaks."""
    doctored = list(log)
    doctored[20], doctored[21] = doctored[21], doctored[20]
    return doctored, {"seq": 21, "rule": "hash chain"}


def beowulf_reordered_rehashed(
    log: list[Envelope[Any]],
) -> tuple[list[Envelope[Any]], dict[str, Any]]:
    """Two decisions swapped and the chain recomputed: the rules catch it."""
    moves = [i for i, env in enumerate(log) if type(env.event).__name__ == "MoveMade"]
    a, b = moves[5], moves[6]
    reordered = log[:a] + log[b : moves[7]] + log[a:b] + log[moves[7] :]
    return rehash(reordered), {"seq": a + 1, "rule": "turn (waiting for"}


def hagar_changed_roll(log: list[Envelope[Any]]) -> tuple[list[Envelope[Any]], dict[str, Any]]:
    """A rune-stick throw is changed (one more point), the chain recomputed."""
    thrown = first(log, "hagar.sticks_thrown", after=30)
    doctored = forge(log, thrown.seq, lambda e: msgspec.structs.replace(e, points=e.points + 1))
    return doctored, {"seq": thrown.seq, "rule": "differs from what the rules derive"}


def beast_illegal_hidden_step(
    log: list[Envelope[Any]],
) -> tuple[list[Envelope[Any]], dict[str, Any]]:
    """The Beast's secret step is rewritten to a direction the map does not allow there;
    the step's card and its commitments are re-sealed and the chain recomputed."""
    rules, state = get_rules("beast"), None
    for env in log:
        event = env.event
        hidden = getattr(event, "hidden_move", None)
        if env.seq > 40 and hidden is not None and hidden.value.startswith("step"):
            assert state is not None
            for direction in "NESWX":
                try:
                    rules.decide(
                        state.rules,
                        event.seat,
                        rules.parse(f"step {direction}"),
                        state.rng(env.seq),
                    )
                except IllegalMove:
                    return _rewrite_step(log, env.seq, direction)
        state = fold(rules, state, env)
    raise AssertionError("no Beast step with an illegal direction in this game")


def _rewrite_step(
    log: list[Envelope[Any]], seq: int, direction: str
) -> tuple[list[Envelope[Any]], dict[str, Any]]:
    def marker(event: Any) -> Any:
        move = event.hidden_move
        return msgspec.structs.replace(
            event, hidden_move=seal(f"step {direction}", move.audience, move.salt)
        )

    def card(event: Any) -> Any:
        step = event.card
        moved = msgspec.structs.replace(step.value, direction=direction)
        return msgspec.structs.replace(event, card=seal(moved, step.audience, step.salt))

    doctored = forge(forge(log, seq, marker), seq + 1, card)
    return doctored, {"seq": seq, "rule": f"'step {direction}' is not legal"}


DOCTORS: dict[str, Builder] = {
    "beowulf_undrawn_tile": beowulf_undrawn_tile,
    "beowulf_changed_draw": beowulf_changed_draw,
    "beowulf_reordered": beowulf_reordered,
    "beowulf_reordered_rehashed": beowulf_reordered_rehashed,
}
OTHER_GAMES: dict[str, tuple[int, dict[str, Builder]]] = {
    "hagar": (2, {"hagar_changed_roll": hagar_changed_roll}),
    "beast": (2, {"beast_illegal_hidden_step": beast_illegal_hidden_step}),
}


def fixture_text(envelopes: list[Envelope[Any]]) -> str:
    """A fixture's text: without the end line `skald log --json` writes (the fixtures
    predate it; the tests add it where an import needs it), so a rebuild leaves the games
    it does not change byte for byte as they were."""
    return jsonl(envelopes, ended=False)


def build() -> dict[str, Any]:
    """Write every fixture and return the expected verdicts."""
    FIXTURES.mkdir(parents=True, exist_ok=True)
    clean = recorded_game("beowulf", 2, "fixture-beowulf")
    (FIXTURES / "beowulf_clean.jsonl").write_text(fixture_text(clean))
    expected: dict[str, Any] = {"beowulf_clean.jsonl": {"verdict": "clean"}}
    for name, doctor in DOCTORS.items():
        doctored, verdict = doctor(clean)
        (FIXTURES / f"{name}.jsonl").write_text(fixture_text(doctored))
        expected[f"{name}.jsonl"] = {"verdict": "anomalies", **verdict}
    for game, (players, doctors) in OTHER_GAMES.items():
        recorded = recorded_game(game, players, f"fixture-{game}")
        (FIXTURES / f"{game}_clean.jsonl").write_text(fixture_text(recorded))
        expected[f"{game}_clean.jsonl"] = {"verdict": "clean"}
        for name, doctor in doctors.items():
            doctored, verdict = doctor(recorded)
            (FIXTURES / f"{name}.jsonl").write_text(fixture_text(doctored))
            expected[f"{name}.jsonl"] = {"verdict": "anomalies", **verdict}
    (FIXTURES / "expected.json").write_text(json.dumps(expected, indent=2) + "\n")
    return expected


if __name__ == "__main__":
    for file, verdict in build().items():
        print(f"{file}: {verdict}")
