"""Who made each decision, seat by seat, and whether the seat's own key signed it: the
audit's and the exports' answer to "did Ann really play that?" (core/identity.py).

Each signature is checked here from the record alone: a decision's first envelope names
the head the seat saw (its `prev_hash`) and the seq before it, which is what the seat
signed, with the digest and the seat's registered key. A signature that does not verify,
a second key, or a decision claimed as the player's but unsigned at a seat that signs, is
a finding the audit names by seq.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from skald.core.identity import recorded_problem
from skald.events.common import (
    DecisionRedone,
    DecisionUndone,
    EntropyAdded,
    EntropyCommitted,
    GameCreated,
    MoveMade,
)
from skald.events.envelope import Envelope
from skald.projections.narrative.common import author_words, plural

DECISIONS = (MoveMade, DecisionUndone, DecisionRedone, EntropyCommitted, EntropyAdded)


class Stint(msgspec.Struct, frozen=True, kw_only=True):
    """A run of a seat's decisions made by someone other than its player."""

    from_seq: int
    decision: int
    """The seat's decision it began with (1 is the seat's first)."""
    who: str
    decisions: int


class SeatAuthors(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's decisions: how many, how many its own key signed, and who else acted."""

    seat: int
    player: str
    decisions: int
    signed: int
    key: str
    stints: tuple[Stint, ...]


class SignatureProblem(msgspec.Struct, frozen=True, kw_only=True):
    """A decision whose seat signature is not what the record says."""

    seq: int
    seat: int
    problem: str


def seat_authors(
    envelopes: Sequence[Envelope[Any]], players: Sequence[str]
) -> tuple[tuple[SeatAuthors, ...], tuple[SignatureProblem, ...]]:
    """Each seat's authorship, and every signature problem, from a log (any viewer's: the
    digest, signature and key are public)."""
    keys: dict[int, str] = {}
    made = dict.fromkeys(range(len(players)), 0)
    signed = dict.fromkeys(range(len(players)), 0)
    stints: dict[int, list[Stint]] = {seat: [] for seat in range(len(players))}
    going: dict[int, bool] = dict.fromkeys(range(len(players)), False)
    problems: list[SignatureProblem] = []
    created = envelopes[0].event if envelopes else None
    scheme = created.scheme if isinstance(created, GameCreated) else 1
    for envelope in envelopes:
        event = envelope.event
        if not isinstance(event, DECISIONS) or event.seat not in made:
            continue
        seat, player = event.seat, players[event.seat]
        made[seat] += 1
        problem = recorded_problem(envelope, keys, player, scheme)
        if problem is not None:
            problems.append(SignatureProblem(seq=envelope.seq, seat=seat, problem=problem))
        elif event.signed is not None:
            signed[seat] += 1
            keys.setdefault(seat, event.signed.key)
        by = event.by
        who = "" if by is None or by.kind == "player" else author_words(by, player)
        runs = stints[seat]
        if who and going[seat] and runs[-1].who == who:
            runs[-1] = msgspec.structs.replace(runs[-1], decisions=runs[-1].decisions + 1)
        elif who:
            runs.append(Stint(from_seq=envelope.seq, decision=made[seat], who=who, decisions=1))
        going[seat] = bool(who)
    authors = tuple(
        SeatAuthors(
            seat=seat,
            player=players[seat],
            decisions=made[seat],
            signed=signed[seat],
            key=keys.get(seat, ""),
            stints=tuple(stints[seat]),
        )
        for seat in made
    )
    return authors, tuple(problems)


def authorship_lines(authors: Sequence[SeatAuthors]) -> list[str]:
    """Who made each seat's decisions, in sentences: `Ann: 34 decisions, all signed by
    the seat's own key (ab12cd34…).`, `From decision 24 (seq 57) on, Bob's seat was
    played by the organiser's greedy bot (12 decisions).`"""
    lines = []
    for seat in authors:
        if not seat.decisions:
            continue
        made = plural(seat.decisions, "decision")
        if not seat.key:
            signed = "none signed by the seat (it registered no key)"
        elif seat.signed == seat.decisions:
            signed = f"all signed by the seat's own key ({seat.key[:16]}…)"
        else:
            signed = (
                f"{seat.signed} signed by the seat's own key ({seat.key[:16]}…), "
                f"{seat.decisions - seat.signed} not signed by the seat"
            )
        lines.append(f"{seat.player}: {made}, {signed}.")
        for stint in seat.stints:
            lines.append(
                f"From decision {stint.decision} (seq {stint.from_seq}) on, {seat.player}'s seat "
                f"was played by {stint.who} ({plural(stint.decisions, 'decision')})."
            )
    return lines
