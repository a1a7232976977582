"""Variations: a game (or another variation) continued from one seq on a stream of its own,
through the same decision kernel as play.

A variation starts with `VariationStarted` and its base state is its parent's state after
seq `at`, with three changes:
- the key is a fresh one derived from the variation's stated `seed` and id, so every draw in
  the variation is drawn afresh (never the game's real future draws);
- undo stops at its start (the parent's undo snapshots are dropped);
- when the author could not see everything (a seat while the game runs, or under
  reveal=referee), everything that seat may not see is drawn afresh from the seed by the
  game's `sample` over the author's information set (`possible`, computed from the
  parent's log redacted for the author: `projections/knowledge/possible.py`), and the variation
  says `hypothetical`. That draw depends only on what the author saw, never on the real
  hidden values, so playing the variation tells the seat nothing it could not see.
  Variations stored before information sets (`worlds=""`) replay with the draw they were
  made with (`Believe`'s `legacy` flag); they are never opened or extended anew.

Moves are derived by `core.kernel.derive` (`Move`/`Undo`/`Redo` as in play), the game ends
by `kernel.finish`; import re-derives every decision the same way and compares bytes.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Protocol

import msgspec

from skald.core import kernel
from skald.core.codec import encode_event
from skald.core.errors import IllegalMove
from skald.core.kernel import Request
from skald.core.rules import Rules
from skald.core.state import GameState, fold
from skald.events.common import GameKey
from skald.events.envelope import Envelope, seal_envelope
from skald.events.history import SAMPLED, VariationStarted
from skald.events.secret import Secret, seal
from skald.events.viewer import Viewer

LogOf = Callable[[], Sequence[Envelope[Any]]]
"""The parent's full envelopes from seq 1 to the variation's start (read only when needed)."""


class Believe(Protocol):
    """`(rules_state, viewer, rnd, log, legacy)`: the rules state with everything `viewer`
    may not see drawn from its information set (computed from `log()` redacted for
    `viewer`); `legacy`: a variation stored before information sets, drawn as it was."""

    def __call__(
        self, state: Any, viewer: Viewer, rnd: random.Random, log: LogOf, legacy: bool
    ) -> Any: ...


def _derived(seed: str, stream: str, label: str) -> bytes:
    message = f"{stream}\x00{label}".encode()
    return hmac.new(b"skald/variation/v1\x00" + seed.encode(), message, hashlib.sha256).digest()


def variation_key(seed: str, stream: str) -> Secret[GameKey]:
    """The variation's own key: every later draw and salt comes from its seed and id."""
    key = GameKey(key=_derived(seed, stream, "key").hex())
    return seal(key, frozenset(), _derived(seed, stream, "salt")[:16].hex())


def author_seats(author: int) -> frozenset[int]:
    """The seats a new variation by `author` is seen from (`VariationStarted.seats`): the
    author's own seat; none for the referee. Not its team's (a Beast hunter's): a draft
    pack is dealt to one seat, and a world drawn from what every hunter saw showed a
    teammate's pack to the author through the variation's refusals and draws. Variations
    stored with a team keep it (their draw replays as it was made)."""
    return frozenset() if author < 0 else frozenset({author})


def sees_author(viewer: Viewer, author: int) -> bool:
    """Whether `viewer` may see the variations `author` opens: the referee sees all, a seat
    its own (`author_seats`). Decided from the author alone, which a variation's number (or
    its note) tells before anything of it is read, so a read of the game's history costs
    what its reader may see, never what the others opened."""
    return viewer.sees(author_seats(author))


def sees_variation(viewer: Viewer, start: VariationStarted) -> bool:
    """Whether `viewer` may see a variation: its author's (`sees_author`), and one of the
    seats it is seen from (`start.seats`). A variation stored with its author's team (before
    `author_seats`) is so seen by its author, not by the teammates: whether another's
    variation is seen is never decided by reading it."""
    return sees_author(viewer, start.author) and viewer.sees(start.seats)


def base_state(
    parent: GameState,
    started: VariationStarted,
    envelope: Envelope[Any],
    believe: Believe,
    log: LogOf,
) -> GameState:
    """The state a variation starts from (after its `VariationStarted` envelope)."""
    rules_state = parent.rules
    if started.hypothetical:
        rnd = random.Random(_derived(started.seed, envelope.stream, "hidden"))
        viewer = Viewer("variation", started.seats)
        rules_state = believe(rules_state, viewer, rnd, log, started.worlds != SAMPLED)
    return msgspec.structs.replace(
        parent,
        id=envelope.stream,
        key=variation_key(started.seed, envelope.stream),
        rules=rules_state,
        undo=(),
        redo=(),
        version=envelope.seq,
        last_hash=envelope.hash,
        seat_keys=(),  # a variation is a line to explore, not the record: its moves go unsigned
    )


def replay(rules: Rules, base: GameState, envelopes: Sequence[Envelope[Any]]) -> GameState:
    """The variation's state after `envelopes` (those after its start)."""
    state = base
    for envelope in envelopes:
        state = fold(rules, state, envelope)
    return state


def derive(
    rules: Rules, state: GameState, seat: int, request: Request, now: datetime
) -> tuple[list[Envelope[Any]], GameState]:
    """The sealed envelopes of one request at `state` (the game's end included) and the
    state after them; raises the error play would raise."""
    pending = list(kernel.derive(rules, state, seat, request))
    sealed = []
    while pending:
        event, actor = pending.pop(0)
        envelope = seal_envelope(state.id, state.version + 1, now, actor, event, state.last_hash)
        state = fold(rules, state, envelope)
        sealed.append(envelope)
        if not pending:
            finished = kernel.finish(rules, state)
            if finished is not None:
                pending.append((finished, "system"))
    return sealed, state


def rederive(rules: Rules, base: GameState, envelopes: Sequence[Envelope[Any]]) -> str:
    """Re-derive every decision of a variation; the first difference, or "" when none."""
    state = base
    index = 0
    while index < len(envelopes):
        logged = envelopes[index]
        try:
            decision = kernel.request_of(logged.event, state.scheme)
        except IllegalMove as error:
            return f"seq {logged.seq}: {error}"
        if decision is None:
            return f"seq {logged.seq}: expected a decision, found {type(logged.event).__name__}"
        try:
            derived, _ = derive(rules, state, *decision, logged.recorded_at)
        except Exception as error:  # any refusal is the finding
            return f"seq {logged.seq}: the rules refuse it: {error}"
        batch = envelopes[index : index + len(derived)]
        for mine, theirs in zip(derived, batch, strict=False):
            if encode_event(mine.event) != encode_event(theirs.event) or mine.actor != theirs.actor:
                return f"seq {theirs.seq}: the rules derive another event here"
        if len(batch) < len(derived):
            return f"seq {logged.seq}: the decision is cut short"
        state = replay(rules, state, batch)
        index += len(derived)
    return ""
