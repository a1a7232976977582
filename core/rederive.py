"""Re-deriving a whole game from its log with full information: the audit's rule check.

Every decision in the log (`MoveMade`, entropy, undo, redo) is re-derived through the one
decision kernel (`core/kernel.py`, which play uses too) with the revealed key: the batch it
derives, marker included, must be exactly the events that were logged, the opening draws
must be what the rules' `start` derives, and the game must finish exactly when the rules
say. Because every random outcome and every salt comes from the key by a stable label,
this one check proves each draw fair and each hidden move legal, and because play and
audit share the kernel, the audit refuses exactly what play refuses (an undo under
`undo=off`, a redo by another seat). The first anomaly stops the walk.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from skald.core import kernel
from skald.core.codec import event_tag
from skald.core.errors import SkaldError
from skald.core.rules import Rules, get_rules, plays, versions_played
from skald.core.secrecy import SCHEME
from skald.core.state import GameState, fold
from skald.events.common import GameCreated, GameFinished
from skald.events.envelope import SYSTEM, Envelope

ENDS_EARLY = "the log ends before a decision's events"
"""The finding of a log cut inside a decision (what `--partial` imports the prefix of)."""


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
    # The last seq that ends a whole batch (a decision with all its events): an import keeps
    # no more than this, so a log cut inside a decision never stores half of it.
    complete_through: int = 0
    findings: tuple[Finding, ...] = ()
    unsupported: str = ""

    @property
    def clean(self) -> bool:
        """True when every decision was re-derived and nothing was found."""
        return not self.findings and not self.unsupported


class _Walk:
    """The state of one re-derivation walk."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.state: GameState | None = None
        self.expected: list[tuple[Any, str]] = []
        self.counts = {"decisions": 0, "derived_events": 0, "random_events": 0}

    def result(self, checked: int, complete: int, findings: tuple[Finding, ...]) -> Rederivation:
        """What the walk checked and found."""
        return Rederivation(
            decisions=self.counts["decisions"],
            derived_events=self.counts["derived_events"],
            random_events=self.counts["random_events"],
            checked_through=checked,
            complete_through=complete,
            findings=findings,
        )

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
                return Finding(
                    seq=seq,
                    rule="logged event differs from what the rules derive",
                    detail=f"expected {event_tag(wanted)} {_short(wanted)}; "
                    f"found {event_tag(event)} {_short(event)}",
                )
            if envelope.actor != actor:
                return Finding(
                    seq=seq, rule="wrong actor", detail=f"expected {actor}, found {envelope.actor}"
                )
            self.counts["derived_events"] += 1
            self.counts["random_events"] += bool(
                getattr(event, "barrier", False)
            ) and not isinstance(event, GameFinished)
            return None
        if self.state is None:
            return _creation_problem(self.rules, envelope)
        return self._check_decision(envelope)

    def _check_decision(self, envelope: Envelope[Any]) -> Finding | None:
        state, event, seq = self.state, envelope.event, envelope.seq
        assert state is not None
        if state.outcome is not None:
            return Finding(seq=seq, rule="event after the end of the game")
        try:
            request = kernel.request_of(event, state.scheme)
            if request is None:
                return Finding(
                    seq=seq,
                    rule="event not derived from any decision",
                    detail=f"{event_tag(event)} {_short(event)}",
                )
            seat, wanted = request
            if envelope.actor != str(seat):
                return Finding(
                    seq=seq, rule="wrong actor", detail=f"seat {seat} but actor {envelope.actor}"
                )
            self.counts["decisions"] += 1
            self.expected = list(kernel.derive(self.rules, state, seat, wanted))
        except SkaldError as error:
            return Finding(seq=seq, rule=str(error), detail=f"{event_tag(event)} {_short(event)}")
        return self._check(envelope)

    def _expect_follow_ups(self, envelope: Envelope[Any]) -> None:
        state = self.state
        assert state is not None
        if self.expected:
            return
        if isinstance(envelope.event, GameCreated):
            self.expected = list(kernel.opening(self.rules, state))
        if not self.expected:
            finished = kernel.finish(self.rules, state)
            if finished is not None:
                self.expected = [(finished, SYSTEM)]


def _creation_problem(rules: Rules, envelope: Envelope[Any]) -> Finding | None:
    """Why the first event cannot open a game this build re-derives, or None."""
    event, seq = envelope.event, envelope.seq
    if not isinstance(event, GameCreated):
        return Finding(seq=seq, rule="a game log starts with skald.game_created")
    secret = event.key if event.scheme >= 2 else event.seed
    if secret is None or not secret.known or not secret.verifies():
        return Finding(
            seq=seq, rule="the game key is not revealed or does not match its commitment"
        )
    if not plays(rules, event.rules_version) or event.scheme > SCHEME:
        raise Unsupported(
            f"played under {event.game} rules version {event.rules_version} "
            f"(secrecy scheme {event.scheme}); this build re-derives {event.game} "
            f"rules version {versions_played(rules)} (schemes 1 to {SCHEME}) only"
        )
    return None


class Unsupported(Exception):
    """The log was written under rules this build cannot re-derive (not an anomaly)."""


def rederive(game: str, envelopes: Sequence[Envelope[Any]]) -> Rederivation:
    """Re-derive a full (referee) log; the findings name the first anomaly, if any.

    A log played under other rules (an older rules version) is not re-derived: the result
    says so in `unsupported`, with no finding, since nothing in it is known to be wrong."""
    walk = _Walk(get_rules(game))
    checked = complete = 0
    for envelope in envelopes:
        finding: Finding | None = None
        if envelope.seq != checked + 1:
            finding = Finding(
                seq=checked + 1,
                rule="seqs must be gapless and in order",
                detail=f"found seq {envelope.seq}",
            )
        else:
            try:
                finding = walk.step(envelope)
            except Unsupported as refusal:
                return Rederivation(unsupported=str(refusal))
        if finding is not None:
            return walk.result(checked, complete, (finding,))
        checked = envelope.seq
        if not walk.expected:
            complete = checked
    findings: tuple[Finding, ...] = ()
    if walk.expected:
        wanted = walk.expected[0][0]
        findings = (
            Finding(
                seq=checked + 1,
                rule=ENDS_EARLY,
                detail=f"missing {event_tag(wanted)}",
            ),
        )
    return walk.result(checked, complete, findings)


def _short(event: Any, limit: int = 160) -> str:
    text = msgspec.json.encode(event).decode()
    return text if len(text) <= limit else text[: limit - 1] + "…"
