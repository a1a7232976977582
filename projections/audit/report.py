"""The post-game audit report: everything revealed, who knew what when, every decision
re-derived from the rules and the seed, every undo, the chain and every commitment checked.

It ends with a verdict: `clean`, or `anomalies` with each one named by its seq. A log the
engine cannot replay (a stored event its game's state cannot take: a tile not in the hand,
an unknown card or ship) is audited all the same: the seq where the replay stops is an
anomaly of its own, beside what the chain and the re-derivation found, which name where
the log was changed (a forger who re-hashed the chain changed it at or before that seq).

Who knew what is vouched for only by the hash chain: where the chain breaks, the section
stops (an event from the break on may be forged, so what it says a seat was shown proves
nothing), and the report says so (`knowledge_until`); everything before the break is still
listed. Access is the Table's business (everyone after the game under reveal=end, the
referee at any time); this module only builds the report from a full log.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

import msgspec

from skald.core.chain import ChainReport
from skald.core.codec import event_tag
from skald.core.errors import CorruptRecord
from skald.core.rederive import Finding, Rederivation, rederive
from skald.core.rules import get_rules
from skald.core.state import GameState, fold
from skald.events.common import (
    DecisionRedone,
    DecisionUndone,
    EntropyAdded,
    EntropyCommitted,
    GameCreated,
    GameFinished,
    GameKey,
    MoveMade,
    Outcome,
)
from skald.events.envelope import Envelope
from skald.events.secret import Secret, redact, secrets_in
from skald.events.viewer import seat_viewer
from skald.projections.audit.authors import SeatAuthors, SignatureProblem, seat_authors
from skald.projections.audit.shown import Shown, parts
from skald.projections.narrative import Narrator
from skald.projections.narrative.legend import face


class AuditEvent(msgspec.Struct, frozen=True, kw_only=True):
    """One event with its hidden values shown."""

    seq: int
    recorded_at: datetime
    actor: str  # whose decision appended it (a player's name, or system)
    kind: str
    text: str
    hidden_values: int
    random: bool
    credit: str  # who it is told as done by, as the log says it: `Ann (the Beast)`, `the game`


class Learned(msgspec.Struct, frozen=True, kw_only=True):
    """A hidden value a seat was entitled to see, and when."""

    seq: int
    kind: str
    value: str
    told: str = ""
    """The event as this seat read it during the game, in the game's words."""
    shown: tuple[tuple[str, int], ...] = ()
    """Each part of the value (by its face) and the seq everyone saw it at."""


class SeatKnowledge(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's knowledge timeline."""

    seat: int
    player: str
    learned: tuple[Learned, ...]


class UndoRecord(msgspec.Struct, frozen=True, kw_only=True):
    """One undo or redo and who asked for it."""

    seq: int
    action: str
    asked_by: str
    author: str


class CommitmentCheck(msgspec.Struct, frozen=True, kw_only=True):
    """All commitments: how many, and which failed (by seq)."""

    checked: int
    failed: tuple[int, ...]
    inconsistent_reveals: tuple[int, ...]
    reused_salts: tuple[int, ...] = ()


class AuditReport(msgspec.Struct, frozen=True, kw_only=True):
    """The whole audit of one game."""

    id: str
    game: str
    players: tuple[str, ...]
    seed: str | None
    seed_commitment: str
    seed_chosen: bool
    fairness: str
    entropy: tuple[tuple[int, str], ...]
    entropy_commitments: tuple[tuple[int, str], ...]
    outcome: Outcome | None
    chain: ChainReport
    commitments: CommitmentCheck
    rederivation: Rederivation
    undos: tuple[UndoRecord, ...]
    knowledge: tuple[SeatKnowledge, ...]
    events: tuple[AuditEvent, ...]
    verdict: str
    anomalies: tuple[Finding, ...]
    # The seq where the hash chain breaks: `knowledge` lists only what came before it.
    knowledge_until: int | None = None
    partial: str = ""
    """For a partial copy, that it is one, in plain words (the audit covers what it holds)."""
    authors: tuple[SeatAuthors, ...] = ()
    """Each seat's decisions: how many its own key signed, who else made some."""


def build_audit(
    game_id: str,
    game: str,
    envelopes: Sequence[Envelope[Any]],
    chain: ChainReport,
    outcome: Outcome | None,
) -> AuditReport:
    """The audit of a full (referee) log."""
    created = envelopes[0].event if envelopes else None
    if not isinstance(created, GameCreated):
        raise CorruptRecord(1, "an audit needs a log that starts with skald.game_created")
    players = created.players
    rederivation = rederive(game, envelopes)
    commitments = _check_commitments(envelopes)
    # A clean re-derivation folded every event already: only a log it stopped in (or did
    # not walk: older rules) can hold an event the replay refuses.
    refused = None if rederivation.clean else _replay_refusal(game, envelopes)
    authors, signature_problems = seat_authors(envelopes, players)
    anomalies = _anomalies(chain, commitments, rederivation, refused, signature_problems)
    verdict = "anomalies" if anomalies else "unverifiable" if rederivation.unsupported else "clean"
    until = chain.bad_seq if not chain.ok else None
    vouched = [env for env in envelopes if until is None or env.seq < until]
    return AuditReport(
        id=game_id,
        game=game,
        players=players,
        seed=_seed_text(created),
        seed_commitment=_key_secret(created).commitment,
        seed_chosen=_seed_chosen(created),
        fairness=_fairness(created),
        entropy=tuple(
            (env.event.seat, env.event.entropy)
            for env in envelopes
            if isinstance(env.event, EntropyAdded)
        ),
        entropy_commitments=tuple(
            (env.event.seat, env.event.commitment)
            for env in envelopes
            if isinstance(env.event, EntropyCommitted)
        ),
        outcome=outcome,
        chain=chain,
        commitments=commitments,
        rederivation=rederivation,
        undos=_undos(envelopes, players),
        knowledge=_knowledge(vouched, players, game),
        knowledge_until=until,
        events=_audit_events(envelopes, players, game),
        verdict=verdict,
        anomalies=anomalies,
        authors=authors,
    )


def _key_secret(created: GameCreated) -> Secret[Any]:
    secret = created.key if created.key is not None else created.seed
    assert secret is not None, "the kernel never creates a game without a key"
    return secret


def _seed_chosen(created: GameCreated) -> bool:
    """Scheme 1 could not tell; every scheme-1 seed counts as possibly chosen."""
    return created.seed_chosen or created.scheme < 2


def _seed_text(created: GameCreated) -> str | None:
    """The revealed seed: the creator's chosen seed, else the service's key (hex)."""
    secret = _key_secret(created)
    if not secret.known:
        return None
    value = secret.value
    if isinstance(value, GameKey):
        return value.seed if value.seed is not None else value.key
    return str(value)


def _fairness(created: GameCreated) -> str:
    """What the audit can claim about the draws."""
    if _seed_chosen(created):
        return (
            "seed chosen by the creator: the draws are reproducible and no fairness is "
            "claimed against the creator (they were fixed by the creator's seed"
            + (
                " and the seats' entropy)"
                if dict(created.options).get("entropy") == "seats"
                else ")"
            )
        )
    mixed = created.key is not None and created.key.known and created.key.get().seed is not None
    return (
        "key drawn by the service (256 bits, committed before the first draw"
        + (", mixed with the creator's seed" if mixed else "")
        + "): fair against every seat"
    )


def _player(players: tuple[str, ...], actor: str | int) -> str:
    text = str(actor)
    return players[int(text)] if text.isdigit() and int(text) < len(players) else text


def _audit_events(
    envelopes: Sequence[Envelope[Any]], players: tuple[str, ...], game: str
) -> tuple[AuditEvent, ...]:
    """Every event with its sentence, told from the first event on."""
    narrator = Narrator(game, players)
    told = []
    for envelope in envelopes:
        credit = narrator.credit(envelope)  # before the sentence moves the narrator on
        told.append(
            AuditEvent(
                seq=envelope.seq,
                recorded_at=envelope.recorded_at,
                actor=_player(players, envelope.actor),
                kind=event_tag(envelope.event),
                text=narrator.sentence(envelope.event),
                hidden_values=sum(1 for _ in secrets_in(envelope.event)),
                random=_is_chance(envelope.event),
                credit=credit,
            )
        )
    return tuple(told)


def _is_chance(event: Any) -> bool:
    """A game event that drew, rolled, shuffled or revealed (a barrier), not a meta-event."""
    return bool(getattr(event, "barrier", False)) and not isinstance(
        event, GameCreated | EntropyCommitted | EntropyAdded | GameFinished
    )


def _check_commitments(envelopes: Sequence[Envelope[Any]]) -> CommitmentCheck:
    failed: list[int] = []
    inconsistent: list[int] = []
    reused: list[int] = []
    values: dict[str, bytes] = {}
    by_salt: dict[str, bytes] = {}
    checked = 0
    for envelope in envelopes:
        for secret in secrets_in(envelope.event):
            checked += 1
            if not secret.verifies():
                failed.append(envelope.seq)
                continue
            encoded = msgspec.json.encode(secret.value, order="deterministic")
            if values.setdefault(secret.commitment, encoded) != encoded:
                inconsistent.append(envelope.seq)
            if by_salt.setdefault(secret.salt or "", encoded) != encoded:
                reused.append(envelope.seq)
    return CommitmentCheck(
        checked=checked,
        failed=tuple(failed),
        inconsistent_reveals=tuple(inconsistent),
        reused_salts=tuple(reused),
    )


def _replay_refusal(game: str, envelopes: Sequence[Envelope[Any]]) -> Finding | None:
    """Where the engine's replay of the log stops (`core.state.fold` refusing a stored
    event), as a finding; None when the whole log replays."""
    rules = get_rules(game)
    state: GameState | None = None
    for envelope in envelopes:
        try:
            state = fold(rules, state, envelope)
        except CorruptRecord as refusal:
            return Finding(
                seq=refusal.seq,
                rule="the log does not replay: a stored event does not fit the game before it",
                detail=str(refusal),
            )
    return None


def _anomalies(
    chain: ChainReport,
    commitments: CommitmentCheck,
    rederivation: Rederivation,
    refused: Finding | None = None,
    signatures: Sequence[SignatureProblem] = (),
) -> tuple[Finding, ...]:
    found: list[Finding] = []
    if not chain.ok and chain.bad_seq is not None:
        found.append(Finding(seq=chain.bad_seq, rule="hash chain", detail=chain.reason))
    found += [
        Finding(seq=seq, rule="a hidden value does not match its commitment")
        for seq in commitments.failed
    ]
    found += [
        Finding(seq=seq, rule="a revealed value differs from the value committed earlier")
        for seq in commitments.inconsistent_reveals
    ]
    found += [
        Finding(seq=seq, rule="a salt sealed two different values")
        for seq in commitments.reused_salts
    ]
    found += rederivation.findings
    seen = {finding.seq for finding in found}
    found += [
        Finding(seq=bad.seq, rule="a seat signature", detail=bad.problem)
        for bad in signatures
        if bad.seq not in seen  # the re-derivation's refusal says it already
    ]
    if refused is not None:  # after the rule broken at its seq, if any: that says more
        found.append(refused)
    return tuple(sorted(found, key=lambda finding: finding.seq))


def _undos(envelopes: Sequence[Envelope[Any]], players: tuple[str, ...]) -> tuple[UndoRecord, ...]:
    records = []
    for envelope in envelopes:
        event = envelope.event
        if isinstance(event, DecisionUndone):
            records.append(
                UndoRecord(
                    seq=envelope.seq,
                    action="undo",
                    asked_by=_player(players, event.seat),
                    author=_player(players, event.author),
                )
            )
        elif isinstance(event, DecisionRedone):
            records.append(
                UndoRecord(
                    seq=envelope.seq,
                    action="redo",
                    asked_by=_player(players, event.seat),
                    author=_player(players, event.seat),
                )
            )
    return tuple(records)


def _knowledge(
    envelopes: Sequence[Envelope[Any]], players: tuple[str, ...], game: str
) -> tuple[SeatKnowledge, ...]:
    learned: list[list[Learned]] = [[] for _ in players]
    # Each seat's own narrator reads the log as that seat saw it during the game.
    narrators = [Narrator(game, players) for _ in players]
    shown = Shown(envelopes)
    for envelope in envelopes:
        told = [
            narrator.sentence(redact(envelope.event, seat_viewer(seat)))
            for seat, narrator in enumerate(narrators)
        ]
        for secret in secrets_in(envelope.event):
            # a hidden decision's words (`step W`) may be another seat's public move
            followed = secret.known and not isinstance(envelope.event, MoveMade)
            for seat in sorted(secret.audience):
                if 0 <= seat < len(players):
                    learned[seat].append(
                        Learned(
                            seq=envelope.seq,
                            kind=event_tag(envelope.event),
                            value=_value_text(secret),
                            told=told[seat],
                            shown=tuple(
                                (face(game, part), seen)
                                for part in (parts(secret.value) if followed else [])
                                if (seen := shown.after(part, envelope.seq)) is not None
                            ),
                        )
                    )
    return tuple(
        SeatKnowledge(seat=seat, player=players[seat], learned=tuple(items))
        for seat, items in enumerate(learned)
    )


def _value_text(secret: Secret[Any]) -> str:
    return msgspec.json.encode(secret.value).decode() if secret.known else "‹hidden›"
