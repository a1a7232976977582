"""The one decision kernel: what each request derives, for play, re-derivation and import.

Every batch in a game log is derived here and nowhere else: the creation and its opening
events, a move (its `MoveMade` marker first), a seat's entropy, an undo and a redo under the
table's undo policy, and the `GameFinished` that closes the game. The engine calls it to
play; the audit's re-derivation calls it with the logged request and compares the result
byte for byte; import goes through the audit. So the audit accepts exactly what play
accepts, and refuses exactly what play refuses.

Pure: no clock, no store. Randomness comes only from the state's key (`GameState.rng`),
scoped by the seq the batch will start at.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from skald.core import identity
from skald.core.errors import Forbidden, IllegalMove, InvalidNotation, InvalidOption
from skald.core.identity import Signing
from skald.core.refusal import named
from skald.core.rng import Rng
from skald.core.rules import Rules, plays, versions_played
from skald.core.secrecy import (
    COMMIT,
    ENTROPY_MIN_LENGTH,
    ENTROPY_PREFIX,
    REVEAL,
    SCHEME,
    entropy_commitment,
)
from skald.core.state import GameState, created_state
from skald.events.common import (
    Author,
    DecisionRedone,
    DecisionUndone,
    EntropyAdded,
    EntropyCommitted,
    GameCreated,
    GameFinished,
    GameKey,
    MoveMade,
)
from skald.events.envelope import SYSTEM
from skald.events.secret import Secret

UNDO_POLICIES = ("author", "anyone", "off")
REVEAL_POLICIES = ("end", "referee")
ENTROPY_POLICIES = ("off", "seats")
TABLE_OPTIONS = {"undo": UNDO_POLICIES, "reveal": REVEAL_POLICIES, "entropy": ENTROPY_POLICIES}
_HEX64 = re.compile(r"[0-9a-f]{64}")

Batch = tuple[tuple[Any, str], ...]
"""Events to append, each with its actor (a seat index as text, or `system`)."""


class Move(msgspec.Struct, frozen=True):
    """A move: a command object or its notation (entropy is sent as notation too), with
    who made it (`by`: None is the seat's player) and the seat's signature, if any."""

    command: Any
    by: Author | None = None
    signing: Signing | None = None


class Undo(msgspec.Struct, frozen=True):
    """Take back the last decision."""

    by: Author | None = None
    signing: Signing | None = None


class Redo(msgspec.Struct, frozen=True):
    """Re-apply the last undone decision."""

    by: Author | None = None
    signing: Signing | None = None


Request = Move | Undo | Redo


# -- creation -------------------------------------------------------------------------------


def check_table_options(rules: Rules, options: Mapping[str, str]) -> None:
    """Raise InvalidOption naming an option the table does not know, or a bad value of an
    engine-level one (the game checks its own options' values when it sets up)."""
    known = (*TABLE_OPTIONS, *rules.option_names)
    for name in options:
        if name not in known:
            raise InvalidOption(
                f"unknown option {name!r} for {rules.name} (known: {', '.join(known)})"
            )
    for name, allowed in TABLE_OPTIONS.items():
        value = options.get(name, allowed[0])
        if value not in allowed:
            raise InvalidOption(f"option {name}={value!r}: must be one of {', '.join(allowed)}")


def creation(
    rules: Rules,
    game_id: str,
    players: Sequence[str],
    options: Mapping[str, str],
    key: Secret[GameKey],
) -> tuple[GameCreated, Batch]:
    """The creation event and the opening batch that follows it; `key` is the sealed key
    the engine drew (`core.secrecy.sealed_key`)."""
    check_table_options(rules, options)
    created = GameCreated(
        game=rules.name,
        players=tuple(players),
        options=tuple(sorted(options.items())),
        rules_version=rules.version,
        scheme=SCHEME,
        key=key,
        seed_chosen=key.get().reproducible,
    )
    state = msgspec.structs.replace(created_state(rules, game_id, created), version=1)
    if state.awaiting_entropy:
        # The opening waits for the seats' entropy: set up now, with throwaway chance,
        # only so that a bad game option is refused at creation, not after the entropy.
        rules.start(state.rules, Rng(b"skald/options-check"))
    return created, opening(rules, state)


def opening(rules: Rules, state: GameState) -> Batch:
    """The rules' opening events, once no seat owes entropy any more (else nothing)."""
    if state.awaiting_entropy:
        return ()
    return tuple(
        (event, SYSTEM) for event in rules.start(state.rules, state.rng(state.version + 1))
    )


# -- decisions ------------------------------------------------------------------------------


def derive(rules: Rules, state: GameState, seat: int, request: Request) -> Batch:
    """Every event `seat`'s request appends at `state`; raises the error play would give."""
    batch = _derived(rules, state, seat, request)
    if request.signing is None and request.by is None and not state.seat_keys:
        return batch  # an unsigned decision by the seat's player at a table without keys
    first, actor = batch[0]
    text, rng = "", None
    if request.signing is not None:
        text = _signed_text(first, state.scheme)
        rng = state.rng(state.version + 1)
    signed = identity.attach(state, seat, first, request.by, request.signing, rng, text)
    return ((signed, actor), *batch[1:])


def decision_text(rules: Rules, state: GameState, seat: int, request: Request) -> str:
    """The text `seat` signs for `request` at `state` (core/identity.py): the move's
    notation as the log keeps it (`legal`'s form; entropy as `entropy commit HEX`), the
    empty text for undo and redo. Raises what the request itself would."""
    return _signed_text(_derived(rules, state, seat, request)[0][0], state.scheme)


def _signed_text(first: Any, scheme: int) -> str:
    return identity.decision_text(first, scheme) or ""


def _derived(rules: Rules, state: GameState, seat: int, request: Request) -> Batch:
    if state.outcome is not None:
        raise IllegalMove(f"game {state.id} is over; nothing more can be played")
    check_rules_version(rules, state)
    if isinstance(request, Undo):
        return ((undo_event(state, seat), str(seat)),)
    if isinstance(request, Redo):
        return ((redo_event(state, seat), str(seat)),)
    check_turn(rules, state, seat)
    if state.awaiting_entropy:
        return entropy_batch(rules, state, seat, request.command)
    command = rules.parse(request.command) if isinstance(request.command, str) else request.command
    scope = state.version + 1
    rng = state.rng(scope)
    try:
        events = rules.decide(state.rules, seat, command, rng)
    except IllegalMove as error:  # the rules name seats by number; people read names
        shown = named(error, state.players)
        if shown is error:
            raise
        raise shown from error
    hidden = rules.hide_move(state.rules, seat, command, rng)
    marker = MoveMade(seat=seat, move=None if hidden else rules.format(command), hidden_move=hidden)
    return tuple((event, str(seat)) for event in (marker, *events))


def check_rules_version(rules: Rules, state: GameState) -> None:
    """A game goes on only under the rules version it was started under: the same log
    must never mix two readings of the rules (its audit re-derives under one). An older
    version the rules still play (`Rules.older_versions`) goes on under itself."""
    if not plays(rules, state.rules_version):
        raise IllegalMove(
            f"game {state.id} was started under {rules.name} rules version "
            f"{state.rules_version}; this server plays version {versions_played(rules)}, so "
            f"the game cannot go on here (its log, views and audit still work): finish it with a "
            f"Skald that plays version {state.rules_version}, or start a new game"
        )


def to_act(rules: Rules, state: GameState) -> frozenset[int]:
    """The seats that may act now: entropy owers first, then whoever the rules say."""
    if state.outcome is not None:
        return frozenset()
    return state.awaiting_entropy or rules.to_act(state.rules)


def check_turn(rules: Rules, state: GameState, seat: int) -> None:
    """Raise Forbidden unless `seat` may make a decision now."""
    waiting = to_act(rules, state)
    if seat not in waiting:
        names = ", ".join(state.players[s] for s in sorted(waiting)) or "nobody"
        raise Forbidden(f"it is not {state.players[seat]}'s turn (waiting for {names})")


def undo_event(state: GameState, seat: int) -> DecisionUndone:
    """The undo of the last decision, if the table's policy lets `seat` take it back."""
    if not state.undo and state.redo:
        raise IllegalMove(
            "nothing left to undo: every decision since the last draw or reveal has "
            "been undone already (redo brings the last one back)"
        )
    if not state.undo:
        raise IllegalMove(
            "nothing to undo: no decision since the game began or since something hidden "
            "was drawn or shown (a draw, a roll, or a tile or card played from a hand: "
            "those cannot be taken back)"
        )
    author = state.undo[-1].seat
    check_undo_policy(state, seat, author, "undo")
    return DecisionUndone(seat=seat, author=author)


def redo_event(state: GameState, seat: int) -> DecisionRedone:
    """The redo of the last undone decision while nothing else happened since."""
    if not state.redo:
        raise IllegalMove("nothing to redo: no decision was undone since the last move")
    check_undo_policy(state, seat, state.redo[-1].seat, "redo")
    return DecisionRedone(seat=seat)


def check_undo_policy(state: GameState, seat: int, author: int, verb: str) -> None:
    """The table's undo policy: `author` (default), `anyone` or `off`."""
    policy = state.option("undo", "author")
    if policy == "off":
        raise Forbidden(f"this table does not allow {verb}")
    if policy == "author" and seat != author:
        raise Forbidden(
            f"only {state.players[author]}, who made that decision, may "
            f"{verb} it (table policy: author)"
        )


def entropy_batch(rules: Rules, state: GameState, seat: int, notation: Any) -> Batch:
    """A seat's entropy commitment or reveal; the last reveal also deals the opening."""
    if not isinstance(notation, str) or not notation.startswith(ENTROPY_PREFIX):
        raise InvalidNotation(
            f"{notation!r}: this table waits for each seat's entropy; {entropy_help(state)}"
        )
    words = notation.removeprefix(ENTROPY_PREFIX).strip()
    verb, _, text = words.partition(" ")
    if state.scheme < 2:
        event: Any = EntropyAdded(seat=seat, entropy=words)
    elif seat not in dict(state.entropy_commitments):
        event = _commitment(verb, text.strip(), seat)
    else:
        event = _reveal(verb, text.strip(), seat, dict(state.entropy_commitments)[seat])
    batch: list[tuple[Any, str]] = [(event, str(seat))]
    if isinstance(event, EntropyAdded) and state.awaiting_entropy == {seat}:
        ready = msgspec.structs.replace(
            state, entropy=(*state.entropy, (seat, event.entropy)), version=state.version + 1
        )
        batch += opening(rules, ready)
    return tuple(batch)


def entropy_help(state: GameState) -> str:
    """What the table expects from a seat that owes entropy."""
    if state.scheme < 2:
        return f"send '{ENTROPY_PREFIX}TEXT' with any text of your own"
    if len(state.entropy_commitments) < len(state.players):
        return (
            f"first every seat commits: send '{ENTROPY_PREFIX}{COMMIT} SHA256' (the "
            f"sha256 hex of a secret text of {ENTROPY_MIN_LENGTH}+ characters)"
        )
    return f"every seat has committed; reveal yours: '{ENTROPY_PREFIX}{REVEAL} TEXT'"


def entropy_template(state: GameState) -> str:
    """The legal-move template for a seat that owes entropy."""
    if state.scheme < 2:
        return f"{ENTROPY_PREFIX}TEXT"
    if len(state.entropy_commitments) < len(state.players):
        return f"{ENTROPY_PREFIX}{COMMIT} SHA256"
    return f"{ENTROPY_PREFIX}{REVEAL} TEXT"


def _commitment(verb: str, digest: str, seat: int) -> EntropyCommitted:
    if verb != COMMIT:
        raise InvalidNotation(
            f"entropy {verb!r}: commit first with "
            f"'{ENTROPY_PREFIX}{COMMIT} SHA256' (nothing is revealed before "
            "every seat has committed)"
        )
    if not _HEX64.fullmatch(digest):
        raise InvalidNotation(
            "an entropy commitment is the sha256 of your text: 64 lowercase hex digits"
        )
    return EntropyCommitted(seat=seat, commitment=digest)


def _reveal(verb: str, text: str, seat: int, committed: str) -> EntropyAdded:
    if verb != REVEAL:
        raise InvalidNotation(
            f"entropy {verb!r}: this seat has committed; reveal with "
            f"'{ENTROPY_PREFIX}{REVEAL} TEXT'"
        )
    if len(text) < ENTROPY_MIN_LENGTH:
        raise InvalidNotation(f"entropy text must be at least {ENTROPY_MIN_LENGTH} characters")
    if entropy_commitment(text) != committed:
        raise IllegalMove("the revealed entropy does not match this seat's commitment")
    return EntropyAdded(seat=seat, entropy=text)


# -- the end --------------------------------------------------------------------------------


def finish(rules: Rules, state: GameState) -> GameFinished | None:
    """The `GameFinished` event once the rules say the game is over (and it is not yet)."""
    if state.outcome is not None:
        return None
    outcome = rules.outcome(state.rules)
    return None if outcome is None else GameFinished(outcome=outcome)


def request_of(event: Any, scheme: int) -> tuple[int, Request] | None:
    """The seat and request a logged decision event records (None: not a decision).

    Raises IllegalMove when a hidden move's notation was never revealed."""
    text = identity.decision_text(event, scheme)
    if text is None:
        if isinstance(event, MoveMade):
            raise IllegalMove("the move's notation is not revealed")
        return None
    by, signing = event.by, identity.signing_of(event)
    if isinstance(event, DecisionUndone):
        return event.seat, Undo(by, signing)
    if isinstance(event, DecisionRedone):
        return event.seat, Redo(by, signing)
    return event.seat, Move(text, by, signing)
