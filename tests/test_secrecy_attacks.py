"""Secrecy against a hostile seat, as properties over every game and as the red team's attacks.

The attacker has only what its seat may see: its redacted log, its view, its legal moves.
For every hidden value we ask how it could learn it (a salt reused after an undo, a seed it
can guess, a seed shared with another game, entropy it can grind, an undo that hides what
it already saw, an undo or redo the audit would wave through) and check the answer is no.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Iterable
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skald.core.engine import Engine
from skald.core.errors import SkaldError
from skald.core.rederive import rederive
from skald.core.rng import salt as legacy_salt
from skald.core.rng import shuffle
from skald.core.secrecy import draw_root, entropy_commitment
from skald.core.store import EventStore
from skald.events.common import DecisionRedone, DecisionUndone, GameCreated, GameKey
from skald.events.envelope import Envelope
from skald.events.secret import Secret, commitment_of, secrets_in
from skald.events.viewer import REFEREE, SPECTATOR, Viewer, seat_viewer
from skald.projections.table import Table
from tests.conftest import engine_of
from tests.forgery import rehash

GAMES = {"beowulf": 2, "beast": 3, "hagar": 2, "toy": 2}


def fresh_table() -> Table:
    return Table(Engine(EventStore("sqlite://")))


def play_with_undos(table: Table, game_id: str, rnd: random.Random, decisions: int) -> None:
    """Random legal play, with an undo or redo by a random seat now and then (refusals are
    part of the game: a barrier, the policy, nothing to redo)."""
    players = table.show(game_id, REFEREE).players
    for _ in range(decisions):
        turn = table.turn(game_id)
        if turn.outcome is not None or not turn.to_act:
            return
        roll = rnd.random()
        try:
            if roll < 0.2:
                table.undo(game_id, rnd.randrange(len(players)))
                continue
            if roll < 0.3:
                table.redo(game_id, rnd.randrange(len(players)))
                continue
        except SkaldError:
            pass
        seat = rnd.choice(turn.to_act)
        table.move(game_id, seat, rnd.choice(table.legal(game_id, seat)))


def hidden_in(envelopes: Iterable[Envelope[Any]]) -> list[Secret[Any]]:
    return [secret for env in envelopes for secret in secrets_in(env.event)]


def canonical_value(secret: Secret[Any]) -> bytes:
    return msgspec.json.encode(secret.value, order="deterministic")


def opened_by_guessing(
    log: list[Envelope[Any]], extra_candidates: Iterable[Any] = ()
) -> list[tuple[str, Any]]:
    """The attack: every salt the viewer holds, tried with every value it has seen (and
    any extra candidates, such as every card name) against every commitment it cannot open.
    Returns the commitments opened that way (none, if salts are never shared)."""
    known = [s for s in hidden_in(log) if s.known]
    sealed = {s.commitment for s in hidden_in(log) if not s.known}
    salts = {s.salt for s in known if s.salt}
    candidates = {canonical_value(s): s.value for s in known}
    for value in extra_candidates:
        candidates[msgspec.json.encode(value, order="deterministic")] = value
    return [
        (commitment_of(value, salt), value)
        for salt in salts
        for value in candidates.values()
        if commitment_of(value, salt) in sealed
    ]


def seat_viewers(table: Table, game_id: str) -> list[Viewer]:
    players = table.show(game_id, REFEREE).players
    return [seat_viewer(seat, name) for seat, name in enumerate(players)]


# -- properties over every game ----------------------------------------------------------------


@pytest.mark.parametrize("policy", ["author", "anyone"])
@pytest.mark.parametrize("game", sorted(GAMES))
@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(bot_seed=st.integers(0, 10_000))
def test_no_salt_seals_two_values_and_no_seat_opens_what_it_may_not_see(
    game: str, policy: str, bot_seed: int
) -> None:
    table = fresh_table()
    rnd = random.Random(bot_seed)
    game_id = table.create(game, [f"P{i}" for i in range(GAMES[game])], options={"undo": policy})
    play_with_undos(table, game_id, rnd, decisions=60)
    by_salt: dict[str, bytes] = {}
    for secret in hidden_in(table.log(game_id, REFEREE)):
        assert secret.salt is not None
        value = canonical_value(secret)
        assert by_salt.setdefault(secret.salt, value) == value, "a salt sealed two values"
    for viewer in seat_viewers(table, game_id):
        assert opened_by_guessing(table.log(game_id, viewer)) == []
    assert table.audit(game_id, REFEREE).verdict == "clean"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_two_games_from_one_seed_share_no_salt_and_no_commitment(game: str) -> None:
    table = fresh_table()
    players = [f"P{i}" for i in range(GAMES[game])]
    mixed = [table.create(game, players, seed="readme") for _ in range(2)]
    dealt = [table.create(game, players, seed="readme", deal="round-1") for _ in range(2)]
    for game_id in (*mixed, *dealt):
        play_with_undos(table, game_id, random.Random(1), decisions=15)
    for first, second in (mixed, dealt):
        a, b = (hidden_in(table.log(g, REFEREE)) for g in (first, second))
        assert {s.salt for s in a}.isdisjoint({s.salt for s in b})
        assert {s.commitment for s in a}.isdisjoint({s.commitment for s in b})
        public = [table.log(g, SPECTATOR)[0].event for g in (first, second)]
        assert public[0].key.commitment != public[1].key.commitment
    # A shared deal is asked for: the same draws, still under different commitments.
    openings = [[canonical_value(s) for s in hidden_in(table.log(g, REFEREE)[1:4])] for g in dealt]
    assert openings[0] == openings[1]


# -- the red team's attacks ----------------------------------------------------------------------


def to_draft(table: Table, game_id: str) -> None:
    """Play the Beast's opening moves until every seat drafts at once."""
    while True:
        turn = table.turn(game_id)
        legal = table.legal(game_id, turn.to_act[0])
        if legal[0].startswith("draft"):
            return
        table.move(game_id, turn.to_act[0], legal[0])


def test_beast_draft_pick_undone_by_a_hunter_cannot_be_recovered_from_salts() -> None:
    """Red team: the Beast picks (hidden), a hunter undoes the pick (undo=anyone) and picks
    at the same game counter, then matches the Beast's commitments against every card
    name with the salts of its own pick. It used to recover the pick (`draft Adapt`)."""
    table = fresh_table()
    game_id = table.create("beast", ["Bea", "Hal", "Ivo"], options={"undo": "anyone"})
    to_draft(table, game_id)
    beast_pick = table.legal(game_id, 0)[0]
    table.move(game_id, 0, beast_pick)
    table.undo(game_id, 1)
    table.move(game_id, 1, table.legal(game_id, 1)[0])
    hunter_log = table.log(game_id, seat_viewer(1, "Hal"))
    card_names = [name.removeprefix("draft ") for name in table.legal(game_id, 0)]
    notations = [f"draft {name}" for name in card_names] + [beast_pick]
    assert opened_by_guessing(hunter_log, [*card_names, *notations]) == []
    # The repeated hidden step gets a fresh salt: equal picks no longer show as equal.
    table.move(game_id, 0, beast_pick)
    markers = [s for s in hidden_in(table.log(game_id, REFEREE)) if s.value == beast_pick]
    assert len(markers) == 2
    assert markers[0].commitment != markers[1].commitment


def test_a_chosen_seed_cannot_be_tested_against_guesses() -> None:
    """Red team: the seed's commitment salt was derived from the seed, so "readme" fell on
    the second guess; from it the pile order and every hand. Now the commitment is keyed
    with 256 bits the service drew, and the draws too unless the game is reproducible."""
    table = fresh_table()
    game_id = table.create("beowulf", ["Ann", "Bob"], seed="readme")
    created = table.log(game_id, SPECTATOR)[0].event
    assert isinstance(created, GameCreated)
    assert created.key is not None
    assert not created.seed_chosen
    assert created.key.value is None
    for guess in ["", "readme", "seed", "test", "1234"]:
        assert commitment_of(guess, legacy_salt(guess.encode(), "seed")) != created.key.commitment
        for key in (
            GameKey(key="00" * 32, seed=guess),
            GameKey(key="00" * 32, seed=guess, reproducible=True),
        ):
            assert commitment_of(key, "00" * 16) != created.key.commitment
    # Knowing the seed does not give the deal: the referee's pile is not the one the seed
    # alone (or with the game id as deal) would give.
    pile = next(
        env.event.order.value
        for env in table.log(game_id, REFEREE)
        if env.event.__struct_config__.tag == "beowulf.pile_shuffled"
    )
    seed_only = GameKey(key="00" * 32, seed="readme", reproducible=True)
    for root in (draw_root(seed_only, game_id), b"readme"):
        assert shuffle(root, "act1/pile", sorted(pile)) != pile


def test_a_reproducible_game_says_its_seed_was_chosen() -> None:
    table = fresh_table()
    game_id = table.create("beowulf", ["Ann", "Bob"], seed="physical deal", reproducible=True)
    assert table.log(game_id, SPECTATOR)[0].event.seed_chosen
    play_with_undos(table, game_id, random.Random(3), decisions=400)
    report = table.audit(game_id, REFEREE)
    assert "chosen by the creator" in report.fairness
    assert report.seed_chosen


def test_an_empty_seed_is_refused() -> None:
    with pytest.raises(SkaldError, match="seed must not be empty"):
        fresh_table().create("beowulf", ["Ann", "Bob"], seed="")


def test_seat_entropy_cannot_be_ground_by_the_creator() -> None:
    """Red team: entropy was published in clear as it was sent, so the creator, who knows
    its seed and sends last, tried 2,000 strings offline and picked its deal. Now every
    seat commits before any reveals: when the creator fixes its own text, all it holds of
    the others' is a sha256 commitment, and it cannot reveal another text later."""
    table = fresh_table()
    game_id = table.create(
        "beowulf",
        ["Ann", "Bob"],
        seed="creator knows this",
        reproducible=True,
        options={"entropy": "seats"},
    )
    bob_text = "bob's secret entropy, 128 bits+"
    table.move(game_id, 1, f"entropy commit {entropy_commitment(bob_text)}")
    ann_sees = str(table.log(game_id, seat_viewer(0, "Ann"))) + str(
        table.show(game_id, seat_viewer(0, "Ann"))
    )
    assert bob_text not in ann_sees
    with pytest.raises(SkaldError, match="commit"):
        table.move(game_id, 0, "entropy reveal ann picks after seeing nothing")
    chosen = "ann's first choice of text"
    table.move(game_id, 0, f"entropy commit {entropy_commitment(chosen)}")
    table.move(game_id, 1, f"entropy reveal {bob_text}")
    # Having seen Bob's text, Ann would like another deal: a different reveal is refused.
    with pytest.raises(SkaldError, match="does not match"):
        table.move(game_id, 0, "entropy reveal a text ground offline for a +6")
    table.move(game_id, 0, f"entropy reveal {chosen}")
    assert table.audit(game_id, REFEREE).entropy_commitments == (
        (1, entropy_commitment(bob_text)),
        (0, entropy_commitment(chosen)),
    )


# -- the audit refuses exactly what play refuses -----------------------------------------------


def inject(envelopes: list[Envelope[Any]], at: int, event: Any, actor: str) -> list[Envelope[Any]]:
    injected = msgspec.structs.replace(envelopes[-1], seq=at, actor=actor, event=event)
    return rehash([*envelopes[: at - 1], injected])


@pytest.mark.parametrize("policy", ["author", "anyone", "off"])
@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_audit_and_engine_agree_on_undo_and_redo(policy: str, data: st.DataObject) -> None:
    """A forger appends an undo or a redo by some seat to a real log and re-chains it; the
    audit must find it exactly when the engine, at that point, refuses the same request."""
    table = fresh_table()
    game_id = table.create("toy", ["Ann", "Bob"], options={"undo": policy})
    rnd = random.Random(data.draw(st.integers(0, 1000)))
    play_with_undos(table, game_id, rnd, decisions=data.draw(st.integers(1, 8)))
    seat = data.draw(st.sampled_from([0, 1]))
    redo = data.draw(st.booleans())
    log = table.log(game_id, REFEREE)
    state = engine_of(table).load(game_id)
    if state.outcome is not None:
        return
    event: Any = (
        DecisionRedone(seat=seat)
        if redo
        else DecisionUndone(seat=seat, author=state.undo[-1].seat if state.undo else seat)
    )
    try:
        (table.redo if redo else table.undo)(game_id, seat)
        refused = False
    except SkaldError:
        refused = True
    forged = inject(log, len(log) + 1, event, str(seat))
    findings = rederive("toy", forged).findings
    assert bool(findings) == refused
    if refused:
        assert findings[0].seq == len(log) + 1


def test_the_audit_refuses_an_undo_by_another_seat_under_author_policy() -> None:
    table = fresh_table()
    game_id = table.create("toy", ["Ann", "Bob"])
    table.move(game_id, 0, "bet 1")
    log = table.log(game_id, REFEREE)
    forged = inject(log, len(log) + 1, DecisionUndone(seat=1, author=0), "1")
    finding = rederive("toy", forged).findings[0]
    assert "only Ann" in finding.rule
    assert finding.seq == len(log) + 1


def test_the_seed_commitment_is_hmac_free_of_the_seed() -> None:
    """The key's commitment salt is random, not HMAC(seed, ...): two games with one seed
    and one service key still commit under different salts."""
    fixed = iter(["11" * 32, "22" * 16, "11" * 32, "33" * 16])
    engine = Engine(EventStore("sqlite://"), random_hex=lambda size: next(fixed))
    first = engine.create("toy", ["Ann", "Bob"], seed="s").id
    second = engine.create("toy", ["Ann", "Bob"], seed="s").id
    keys = [engine.envelopes(g)[0].event.key for g in (first, second)]
    assert keys[0].value == keys[1].value
    assert keys[0].commitment != keys[1].commitment
    assert keys[0].salt != hmac.new(b"s", b"salt/seed", hashlib.sha256).hexdigest()[:32]


def placeholder_commitments(obj: Any) -> Any:
    """`obj` with every sealed commitment replaced by one placeholder (what differs between
    two hidden values a viewer cannot open is only their commitment)."""
    if isinstance(obj, Secret):
        return obj if obj.known else msgspec.structs.replace(obj, commitment="‹sealed›")
    if isinstance(obj, msgspec.Struct):
        return msgspec.structs.replace(
            obj,
            **{name: placeholder_commitments(getattr(obj, name)) for name in obj.__struct_fields__},
        )
    if isinstance(obj, tuple | list):
        return type(obj)(placeholder_commitments(item) for item in obj)
    return obj


def beast_game_with_an_undone_step(direction_index: int) -> Table:
    """A Beast game on a fixed key where the Beast's first step is one of its legal steps,
    then taken back, then the same public moves follow."""
    randomness = random.Random("fixed service key")
    table = Table(
        Engine(EventStore("sqlite://"), random_hex=lambda size: randomness.randbytes(size).hex())
    )
    table.create("beast", ["Bea", "Hal", "Ivo"], game_id="g")
    steps = [move for move in table.legal("g", 0) if move.startswith("step")]
    table.move("g", 0, steps[direction_index % len(steps)])
    table.undo("g", 0)
    table.move("g", 0, "step X" if "step X" in table.legal("g", 0) else steps[0])
    return table


def test_an_undone_hidden_step_leaves_no_trace_for_the_hunters() -> None:
    """Two games that differ only in a hidden step the Beast took back look the same to
    every hunter and to spectators: logs (but for commitments), views and legal moves."""
    first, second = beast_game_with_an_undone_step(0), beast_game_with_an_undone_step(1)
    referee = [[env.event for env in t.log("g", REFEREE)] for t in (first, second)]
    assert referee[0] != referee[1]  # the undone steps really differed
    for viewer in (seat_viewer(1, "Hal"), seat_viewer(2, "Ivo"), SPECTATOR):
        logs = [
            [placeholder_commitments(env.event) for env in t.log("g", viewer)]
            for t in (first, second)
        ]
        assert logs[0] == logs[1]
        assert first.show("g", viewer).state == second.show("g", viewer).state
    for seat in (1, 2):
        assert first.legal("g", seat) == second.legal("g", seat)
