"""One conformance suite over every registered game, as OpenSpiel runs one random-simulation
test over all of its games. A game gets all of it by registering its rules
(`core.rules.register`) and its views (`projections.registry.register_views`, whose
`perturb_hidden` says what a viewer cannot see):

- random playouts end with an outcome that ranks every seat; a seat asked to act always
  has a legal command; `parse(format(c)) == c` for every legal command seen;
- never stuck: random and greedy bots (and, for the Beast, one that transforms every
  settlement it can) play to an outcome, and in every position without one some seat is
  to act and every seat to act has a legal command (over 300 Beast games under `-m slow`);
- through the engine: replaying the log gives the live state at every seq (a fold over
  the stored events, and `load(at=seq)`); undo then redo is the identity wherever undo is
  allowed;
- views and legal commands do not change when only what the viewer cannot see changes
  (`perturb_hidden`), and neither does the log redacted for that viewer when the values
  hidden from it change; a redacted log carries no value outside its audience;
- a finished game re-derives clean (`core.rederive`), and a doctored copy whose chain was
  recomputed after the change does not.

Fast by default: rules-level playouts, one engine game per game on an in-memory store;
more seeds and player counts run under `-m slow` (CI runs everything).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec
import pytest

import tests.toy_game  # noqa: F401  (registers the toy game: it must conform too)
from skald.core import kernel
from skald.core.engine import Engine
from skald.core.rederive import rederive
from skald.core.rng import Rng
from skald.core.rules import Rules, game_names, get_rules
from skald.core.state import GameState, fold
from skald.core.store import EventStore
from skald.events.common import GameCreated, MoveMade
from skald.events.envelope import Envelope
from skald.events.secret import Secret, redact, seal, secrets_in
from skald.events.viewer import SPECTATOR, Viewer, seat_viewer
from skald.projections.bots.autoplay import BOTS, Bot, random_bot
from skald.projections.registry import views_for
from tests.beast_transformer import transforming_beast
from tests.forgery import forge

GAMES = game_names()
PLAYOUT_LIMIT = 30_000
NAMES = ("Ann", "Bob", "Cid", "Dag", "Eir", "Fro")


def player_counts(rules: Rules) -> list[int]:
    """The smallest and the largest table."""
    return sorted({rules.min_players, rules.max_players})


# -- random playouts, straight through the rules ----------------------------------------


def rules_playout(game: str, players: int, seed: int) -> tuple[Any, int]:
    """A random legal game to its end through initial/start/decide/evolve; the final
    state and the number of decisions."""
    rules = get_rules(game)
    created = GameCreated(
        game=game, players=NAMES[:players], seed=seal(f"conformance/{seed}", frozenset(), "00" * 16)
    )
    rng = Rng(f"conformance/{game}/{seed}".encode())
    state = rules.initial(created)
    for event in rules.start(state, rng):
        state = rules.evolve(state, event)
    bot = random.Random(seed)
    for decisions in range(PLAYOUT_LIMIT):
        if rules.outcome(state) is not None:
            return state, decisions
        seats = rules.to_act(state)
        assert seats, f"{game}: nobody may act, yet the game has no outcome"
        seat = min(seats)
        legal = list(rules.legal(state, seat))
        assert legal, f"{game}: seat {seat} must act but has no legal command"
        for command in legal:
            assert rules.parse(rules.format(command)) == command, rules.format(command)
        for event in rules.decide(state, seat, bot.choice(legal), rng):
            state = rules.evolve(state, event)
    raise AssertionError(f"{game}: no outcome after {PLAYOUT_LIMIT} decisions")


def check_playouts(game: str, seeds: range) -> None:
    rules = get_rules(game)
    for players in player_counts(rules):
        for seed in seeds:
            state, decisions = rules_playout(game, players, seed)
            outcome = rules.outcome(state)
            assert outcome is not None
            assert decisions > 0
            assert sorted(s for group in outcome.ranking for s in group) == list(range(players))
            assert not rules.to_act(state)


@pytest.mark.parametrize("game", GAMES)
def test_random_playouts_end_with_an_outcome(game: str) -> None:
    check_playouts(game, range(2))


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_many_random_playouts_end_with_an_outcome(game: str) -> None:
    check_playouts(game, range(2, 12))


# -- never stuck: whoever must act can --------------------------------------------------


def check_never_stuck(game: str, players: int, seed: int, bot: Bot, **options: str) -> None:
    """Play a game to its end with `bot` at every seat, each seeing its own view: in every
    position without an outcome some seat is to act, and every seat to act has a legal
    command (issue 24: a Beast night waited for a hunter with no legal move)."""
    rules = get_rules(game)
    created = GameCreated(
        game=game,
        players=NAMES[:players],
        seed=seal(f"never-stuck/{seed}", frozenset(), "00" * 16),
        options=tuple(sorted(options.items())),
    )
    rng = Rng(f"never-stuck/{game}/{seed}".encode())
    state = rules.initial(created)
    for event in rules.start(state, rng):
        state = rules.evolve(state, event)
    views = views_for(game)
    rnd = random.Random(seed)
    for _ in range(PLAYOUT_LIMIT):
        if rules.outcome(state) is not None:
            return
        seats = rules.to_act(state)
        assert seats, f"{game} {options}: nobody may act, yet the game has no outcome"
        for seat in seats:
            assert list(rules.legal(state, seat)), f"{game} {options}: seat {seat} is stuck"
        seat = min(seats)
        legal = [rules.format(c) for c in rules.legal(state, seat)]
        view = None if bot is random_bot else views.view(state, seat_viewer(seat))
        move = bot(view, legal, rnd)
        for event in rules.decide(state, seat, rules.parse(move), rng):
            state = rules.evolve(state, event)
    raise AssertionError(f"{game} {options}: no outcome after {PLAYOUT_LIMIT} decisions")


@pytest.mark.parametrize("bot", sorted(BOTS))
@pytest.mark.parametrize("game", GAMES)
def test_no_position_leaves_the_seat_to_act_without_a_move(game: str, bot: str) -> None:
    for players in player_counts(get_rules(game)):
        check_never_stuck(game, players, 0, BOTS[bot])


BEASTS = ("Fangrir", "Hogbad", "Bolgin", "Raaga", "Esmeria", "Mara")
BEAST_BOTS: dict[str, Bot] = {**BOTS, "transforming": transforming_beast}


@pytest.mark.slow
@pytest.mark.parametrize("bot", sorted(BEAST_BOTS))
def test_no_beast_game_gets_stuck(bot: str) -> None:
    """102 games per bot (306 in all) over 2, 3 and 4 players and all six Beasts: random,
    greedy, and a Beast that transforms every settlement it can and kills hunters."""
    for seed in range(34):
        for players in (2, 3, 4):
            beast = BEASTS[(seed + players) % len(BEASTS)]
            check_never_stuck("beast", players, seed, BEAST_BOTS[bot], beast=beast)


# -- one game through the engine, checked at every step -----------------------------------


@dataclass
class Played:
    """A game played through the engine, with what was seen on the way."""

    engine: Engine
    game_id: str
    live: dict[int, GameState] = field(default_factory=dict)
    undone: int = 0
    perturbed: int = 0
    perturbations: int = 0


def viewers(state: GameState) -> list[Viewer]:
    """Every seat on its own, and a spectator."""
    return [*(seat_viewer(s) for s in range(len(state.players))), SPECTATOR]


def check_hidden_does_not_matter(
    rules: Rules, game: str, state: GameState, rnd: random.Random, played: Played
) -> None:
    """A viewer's view, and its seats' turn and legal commands, ignore what it cannot see."""
    views = views_for(game)
    for viewer in viewers(state):
        other = views.perturb_hidden(state.rules, viewer, rnd)
        played.perturbations += 1
        played.perturbed += other != state.rules
        assert views.view(other, viewer) == views.view(state.rules, viewer), viewer.name
        for seat in viewer.seats:
            assert rules.to_act(other) == rules.to_act(state.rules)
            assert list(rules.legal(other, seat)) == list(rules.legal(state.rules, seat))


def undo_then_redo(engine: Engine, game_id: str, played: Played) -> None:
    """Take the last decision back and re-apply it: the same rules state and undo stack."""
    before = engine.load(game_id)
    author = before.undo[-1].seat
    engine.undo(game_id, author)
    undone = engine.load(game_id)
    assert undone.rules == before.undo[-1].before
    played.live[undone.version] = undone
    engine.redo(game_id, author)
    redone = engine.load(game_id)
    assert redone.rules == before.rules
    assert redone.undo == before.undo
    played.live[redone.version] = redone
    played.undone += 1


@functools.cache
def played(game: str) -> Played:
    """One seeded game at the smallest table, with random undos and every check on the way
    (cached: the tests below read the same game)."""
    rules = get_rules(game)
    engine = Engine(EventStore("sqlite://"))
    state = engine.create(
        game, NAMES[: rules.min_players], seed=f"conformance/{game}", reproducible=True
    )
    result = Played(engine, state.id, {state.version: state})
    bot, rnd = random.Random(7), random.Random(11)
    for decision in range(PLAYOUT_LIMIT):
        state = engine.load(result.game_id)
        if state.outcome is not None:
            return result
        if decision % 3 == 0:
            check_hidden_does_not_matter(rules, game, state, rnd, result)
        seat = min(kernel.to_act(rules, state))
        command = bot.choice(list(rules.legal(state.rules, seat)))
        engine.execute(result.game_id, seat, rules.format(command))
        after = engine.load(result.game_id)
        result.live[after.version] = after
        if after.undo and after.outcome is None and (not result.undone or bot.random() < 0.15):
            undo_then_redo(engine, result.game_id, result)
    raise AssertionError(f"{game}: no outcome after {PLAYOUT_LIMIT} decisions")


def full_log(game: str) -> list[Envelope[Any]]:
    record = played(game)
    return record.engine.envelopes(record.game_id)


@pytest.mark.parametrize("game", GAMES)
def test_an_engine_game_ends_with_an_outcome(game: str) -> None:
    record = played(game)
    final = record.engine.load(record.game_id)
    assert final.outcome is not None
    ranked = sorted(s for group in final.outcome.ranking for s in group)
    assert ranked == list(range(len(final.players)))


@pytest.mark.parametrize("game", GAMES)
def test_replay_equals_live_at_every_seq(game: str) -> None:
    record = played(game)
    rules = get_rules(game)
    state: GameState | None = None
    for envelope in full_log(game):
        state = fold(rules, state, envelope)
        if envelope.seq in record.live:
            assert state == record.live[envelope.seq], f"seq {envelope.seq}"
    assert state is not None
    assert state.outcome is not None
    fresh = Engine(record.engine.store)
    for seq in sorted(record.live)[:: max(1, len(record.live) // 8)]:
        assert fresh.load(record.game_id, at=seq) == record.live[seq]


@pytest.mark.parametrize("game", GAMES)
def test_undo_then_redo_is_the_identity(game: str) -> None:
    assert played(game).undone > 0, f"{game}: no decision could be undone in the whole game"


@pytest.mark.parametrize("game", GAMES)
def test_views_and_legal_commands_ignore_what_the_viewer_cannot_see(game: str) -> None:
    record = played(game)  # checked every third decision while playing
    assert record.perturbations > 0
    assert record.perturbed > 0, f"{game}: perturb_hidden never changed anything"


def doctor_hidden(value: Any, viewer: Viewer, rnd: random.Random) -> Any:
    """`value` with every value hidden from `viewer` replaced (its commitment kept)."""
    if isinstance(value, Secret):
        if viewer.sees(value.audience) or not value.known:
            return value
        return msgspec.structs.replace(value, value=f"doctored {rnd.random()}", salt="ff" * 16)
    if isinstance(value, msgspec.Struct):
        changes = {
            name: doctor_hidden(getattr(value, name), viewer, rnd)
            for name in value.__struct_fields__
        }
        return msgspec.structs.replace(value, **changes)
    if isinstance(value, tuple):
        return tuple(doctor_hidden(item, viewer, rnd) for item in value)
    return value


def hidden_from(envelopes: list[Envelope[Any]], viewer: Viewer) -> Iterator[Secret[Any]]:
    for envelope in envelopes:
        yield from (s for s in secrets_in(envelope.event) if not viewer.sees(s.audience))


@pytest.mark.parametrize("game", GAMES)
def test_a_redacted_log_ignores_what_the_viewer_cannot_see(game: str) -> None:
    envelopes = full_log(game)
    rnd = random.Random(5)
    for viewer in viewers(played(game).engine.load(played(game).game_id)):
        shown = [redact(env, viewer) for env in envelopes]
        assert all(not s.known for s in hidden_from(shown, viewer)), viewer.name
        doctored = [doctor_hidden(env, viewer, rnd) for env in envelopes]
        assert doctored != envelopes, f"{game}: nothing is hidden from {viewer.name}"
        assert [redact(env, viewer) for env in doctored] == shown, viewer.name


@pytest.mark.parametrize("game", GAMES)
def test_a_finished_game_rederives_clean(game: str) -> None:
    derived = rederive(game, full_log(game))
    assert derived.clean, derived.findings or derived.unsupported
    assert derived.decisions > 0


@pytest.mark.parametrize("game", GAMES)
def test_a_doctored_copy_does_not_rederive(game: str) -> None:
    envelopes = full_log(game)
    # The forger copies a derived event over the one after it and recomputes the chain.
    seq = next(
        env.seq
        for env in reversed(envelopes[:-1])
        if not isinstance(env.event, MoveMade)
        and env.seq > 2
        and envelopes[env.seq - 2].event != env.event
    )
    doctored = forge(envelopes, seq, lambda _event: envelopes[seq - 2].event)
    derived = rederive(game, doctored)
    assert not derived.clean
    assert derived.findings
    assert derived.findings[0].seq == seq
