"""Re-deriving a whole game from its log with full information: the audit's rule check.

Every decision in the log (`MoveMade`, entropy, undo, redo) is replayed through the rules'
own `decide` with the revealed seed; the events the rules derive must be exactly the events
that were logged after it, the opening draws must be what `start` derives from the seed,
and the game must finish exactly when the rules say. Because every random outcome and every
salt comes from the seed by a stable label, this one check proves each draw fair and each
hidden move legal. The first anomaly stops the walk: nothing after it can be trusted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from core.codec import event_tag
from core.engine import to_act
from core.errors import Forbidden, IllegalMove, SkaldError
from core.rng import Rng
from core.rules import Rules, get_rules
from core.state import GameState, fold
from events.common import (
    DecisionRedone,
    DecisionUndone,
    EntropyAdded,
    GameCreated,
    GameFinished,
    MoveMade,
)
from events.envelope import SYSTEM, Envelope


class Finding(msgspec.Struct, frozen=True, kw_only=True):
    """One anomaly: where, which rule or check it breaks, and the detail."""

    seq: int
    rule: str
    detail: str = ""


class Rederivation(msgspec.Struct, frozen=True, kw_only=True):
    """What the re-derivation checked and what it found."""

    decisions: int = 0
    derived_events: int = 0
    random_events: int = 0
    checked_through: int = 0
    findings: tuple[Finding, ...] = ()

    @property
    def clean(self) -> bool:
        """True when nothing was found."""
        return not self.findings


class _Walk:
    """The state of one re-derivation walk."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.state: GameState | None = None
        self.expected: list[tuple[Any, str]] = []
        self.counts = {"decisions": 0, "derived_events": 0, "random_events": 0}

    def step(self, envelope: Envelope[Any]) -> Finding | None:
        finding = self._check(envelope)
        if finding is None:
            self.state = fold(self.rules, self.state, envelope)
            self._expect_follow_ups(envelope)
        return finding

    def _check(self, envelope: Envelope[Any]) -> Finding | None:
        event, seq = envelope.event, envelope.seq
        if self.expected:
            wanted, actor = self.expected.pop(0)
            if event != wanted:
                return Finding(seq=seq, rule="logged event differs from what the rules derive",
                               detail=f"expected {event_tag(wanted)} {_short(wanted)}; "
                                      f"found {event_tag(event)} {_short(event)}")
            if envelope.actor != actor:
                return Finding(seq=seq, rule="wrong actor",
                               detail=f"expected {actor}, found {envelope.actor}")
            self.counts["derived_events"] += 1
            self.counts["random_events"] += bool(getattr(event, "barrier", False)) and not \
                isinstance(event, GameFinished)
            return None
        if self.state is None:
            if not isinstance(event, GameCreated):
                return Finding(seq=seq, rule="a game log starts with skald.game_created")
            if not event.seed.known or not event.seed.verifies():
                return Finding(seq=seq, rule="the seed is not revealed or does not match "
                                             "its commitment")
            if event.rules_version != self.rules.version:
                return Finding(seq=seq, rule=f"played under {event.game} rules version "
                                             f"{event.rules_version}; this build re-derives "
                                             f"version {self.rules.version} only")
            return None
        return self._check_decision(envelope)

    def _check_decision(self, envelope: Envelope[Any]) -> Finding | None:
        state, event, seq = self.state, envelope.event, envelope.seq
        assert state is not None
        if state.outcome is not None:
            return Finding(seq=seq, rule="event after the end of the game")
        if not isinstance(event, MoveMade | EntropyAdded | DecisionUndone | DecisionRedone):
            return Finding(seq=seq, rule="event not derived from any decision",
                           detail=f"{event_tag(event)} {_short(event)}")
        if envelope.actor != str(event.seat):
            return Finding(seq=seq, rule="wrong actor",
                           detail=f"seat {event.seat} but actor {envelope.actor}")
        self.counts["decisions"] += 1
        try:
            self.expected = self._derive(state, event)
        except SkaldError as error:
            return Finding(seq=seq, rule=str(error), detail=f"{event_tag(event)} {_short(event)}")
        return None

    def _derive(self, state: GameState, event: Any) -> list[tuple[Any, str]]:
        rules, seat = self.rules, event.seat
        if isinstance(event, DecisionUndone):
            if not state.undo:
                raise IllegalMove("undo across a barrier (a draw or roll cannot be taken back)")
            if state.option("undo", "author") == "author" and state.undo[-1].seat != seat:
                raise Forbidden("undo by a seat that did not make the decision")
            return []
        if isinstance(event, DecisionRedone):
            if not state.redo:
                raise IllegalMove("redo with nothing undone")
            return []
        if seat not in to_act(rules, state):
            raise Forbidden(f"seat {seat} acted out of turn")
        if isinstance(event, EntropyAdded):
            return []
        notation = event.move if event.move is not None else (
            event.hidden_move.value if event.hidden_move and event.hidden_move.known else None)
        if notation is None:
            raise IllegalMove("the move's notation is not revealed")
        rng = Rng(state.seed_bytes())
        command = rules.parse(notation)
        derived = rules.decide(state.rules, seat, command, rng)
        hidden = rules.hide_move(state.rules, seat, command, rng)
        if hidden != event.hidden_move or (hidden is None and event.move != rules.format(command)):
            raise IllegalMove("the move marker does not match the move's notation")
        return [(derived_event, str(seat)) for derived_event in derived]

    def _expect_follow_ups(self, envelope: Envelope[Any]) -> None:
        state = self.state
        assert state is not None
        if self.expected:
            return
        started_now = (isinstance(envelope.event, GameCreated) and not state.awaiting_entropy) \
            or (isinstance(envelope.event, EntropyAdded) and not state.awaiting_entropy)
        if started_now:
            opening = self.rules.start(state.rules, Rng(state.seed_bytes()))
            self.expected = [(event, SYSTEM) for event in opening]
        if not self.expected and state.outcome is None and not isinstance(
                envelope.event, GameCreated):
            outcome = self.rules.outcome(state.rules)
            if outcome is not None:
                self.expected = [(GameFinished(outcome=outcome), SYSTEM)]


def rederive(game: str, envelopes: Sequence[Envelope[Any]]) -> Rederivation:
    """Re-derive a full (referee) log; the findings name the first anomaly, if any."""
    walk = _Walk(get_rules(game))
    checked = 0
    for envelope in envelopes:
        finding: Finding | None = None
        if envelope.seq != checked + 1:
            finding = Finding(seq=checked + 1, rule="seqs must be gapless and in order",
                              detail=f"found seq {envelope.seq}")
        else:
            finding = walk.step(envelope)
        if finding is not None:
            return Rederivation(checked_through=checked, findings=(finding,), **walk.counts)
        checked = envelope.seq
    findings: tuple[Finding, ...] = ()
    if walk.expected:
        wanted = walk.expected[0][0]
        findings = (Finding(seq=checked + 1, rule="the log ends before a decision's events",
                            detail=f"missing {event_tag(wanted)}"),)
    return Rederivation(checked_through=checked, findings=findings, **walk.counts)


def _short(event: Any, limit: int = 160) -> str:
    text = msgspec.json.encode(event).decode()
    return text if len(text) <= limit else text[: limit - 1] + "…"
