"""What a Beast seat can know: `possible` and `sample` (projections/beast/knowledge/possible.py)
through the Beast views, from each viewer's own redacted log.

- soundness: the real hidden state is among `possible` (the Beast's location and its
  whole path, every hidden place's cards, each trap's habitat);
- consistency: every `sample` lies in `possible`, holds every card exactly once, and
  gives the viewer the same view and the same legal moves as the real state;
- non-interference: `possible` of the unredacted log equals that of the redacted one (it
  reads nothing the viewer may not see), and `sample` of a `perturb_hidden` state is
  the very same world for the same random source;
- independence of the truth (fixed seeds, chi-square at p < 0.001): the resampled
  location follows the shares `possible` gives, not the whole map; the cards of a
  resampled hand and of a resampled deck do not depend on the real hidden cards (the deck
  read: a face-down talent or item never showing in the rows dealt is no longer a tell);
- the rulebook's movement, trail, search and watchtower examples, hand-checked;
- reading on: a kept fold read on in strides is the `possible` read from seq 1.

Playouts: a few random and greedy games, cut short and looked at every few seqs, so the
file runs in well under a minute on one core.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from itertools import product
from pathlib import Path
from typing import Any

import msgspec
import pytest

from skald.cli.bench_knowledge import game_figures
from skald.core.beast.data import card_index, cards, kind_of
from skald.core.beast.evolve import evolve
from skald.core.beast.setup import HUNTER_SEATS
from skald.core.beast.state import BEAST, BeastState
from skald.core.rules import get_rules
from skald.events.beast import CardDiscardedFaceDown, TrapTriggered
from skald.events.common import GameCreated
from skald.events.envelope import Envelope
from skald.events.secret import redact, seal
from skald.events.viewer import SPECTATOR, Viewer
from skald.projections.beast.bot import choose as greedy_beast
from skald.projections.beast.knowledge.bounds import spread_any
from skald.projections.beast.knowledge.groups import is_token
from skald.projections.beast.knowledge.path_graph import PathGraph
from skald.projections.beast.knowledge.places import places
from skald.projections.beast.knowledge.possible import BeastFold, BeastPossible
from skald.projections.beast.view import beast_view, perturb_hidden
from skald.projections.knowledge import cache as knowledge_cache
from skald.projections.knowledge.cache import possible_at
from skald.projections.knowledge.store import Found, fold_codec
from skald.projections.registry import views_for
from tests.test_beast_examples import SEED as SEED_FIRST
from tests.test_beast_examples import day_one, hunted, play
from tests.test_beast_examples_items import ROWS, first_game, ignore
from tests.test_beast_support import NAMES, BeastGame

RULES = get_rules("beast")
VIEWS = views_for("beast")
P_VALUE = 0.001


# -- games and viewers ------------------------------------------------------------------


def created(game: BeastGame, players: int, options: dict[str, str]) -> GameCreated:
    """The GameCreated a store would hold before the game's events."""
    del game
    return GameCreated(
        game="beast",
        players=NAMES[:players],
        seed=seal("unknown", frozenset(), "00" * 16),
        options=tuple(sorted(options.items())),
    )


def playout(players: int, seed: int, greedy: bool, limit: int, **options: str) -> list[Any]:
    """A random or greedy game of at most `limit` decisions: its log from GameCreated on."""
    game = BeastGame(players, seed=f"knowledge/{seed}", **options)
    rnd = random.Random(seed)
    for _ in range(limit):
        if RULES.outcome(game.state) is not None:
            break
        seat = game.seat()
        legal = [RULES.format(c) for c in RULES.legal(game.state, seat)]
        if greedy:
            view = beast_view(game.state, Viewer(NAMES[seat], frozenset({seat})))
            move = greedy_beast(view, legal, rnd)
        else:
            move = rnd.choice(legal)
        game.do(move, seat=seat)
    return [created(game, players, options), *game.log]


def states(log: list[Any]) -> Iterator[tuple[int, BeastState]]:
    """(number of events, rules state after them) for every prefix of the log."""
    state = RULES.initial(log[0])
    for count, event in enumerate(log[1:], start=2):
        if type(event).__module__.endswith("events.beast"):
            state = RULES.evolve(state, event)
        yield count, state


def viewers(players: int) -> list[Viewer]:
    """The hunters' team, the Beast, one hunter seat alone (3-4 players), a spectator."""
    seats = HUNTER_SEATS[players]
    chosen = [Viewer("hunters", frozenset(seats)), Viewer("beast", frozenset({0}))]
    if len(set(seats)) > 1:
        chosen.append(Viewer("one hunter", frozenset({seats[0]})))
    return [*chosen, SPECTATOR]


def known(log: list[Any], viewer: Viewer) -> BeastPossible:
    """`possible` through the views, from the viewer's redacted log."""
    return VIEWS.possible([redact(e, viewer) for e in log], viewer)


def legal(state: BeastState, viewer: Viewer) -> dict[int, list[str]]:
    return {s: [RULES.format(c) for c in RULES.legal(state, s)] for s in sorted(viewer.seats)}


# -- what "in possible" means ---------------------------------------------------------------


def path_in(graph: PathGraph, active: tuple[Any, ...]) -> bool:
    """The hidden path `active` is one of the graph's paths."""
    reach = {0}
    laid = 0
    for generation, kind in zip(graph.generations[1:], graph.laid[1:], strict=True):
        if kind == "move":
            if laid >= len(active):
                return False
            card = active[laid]
            laid += 1
            reach = {
                i
                for i, node in enumerate(generation)
                if node.location == card.location
                and any(p in reach and d == card.direction for p, d in node.parents)
            }
        else:
            reach = {
                i for i, node in enumerate(generation) if any(p in reach for p, _ in node.parents)
            }
    return laid == len(active) and bool(reach)


def assert_among(state: BeastState, possible: BeastPossible, where: str) -> None:
    """`state`'s hidden parts are among the worlds of `possible`."""
    if possible.beast is not None and state.hands:
        shares = dict(possible.beast)
        assert state.beast.location in shares, (where, state.beast.location, shares)
        assert possible.paths is not None, where
        assert path_in(possible.paths, state.active), where
    real = places(state)
    unseen = dict(possible.unseen)
    kinds = dict(possible.tokens)
    habitats = dict(possible.habitats)
    of = {token: group for group in possible.groups for token in group.tokens}
    placed: Counter[int] = Counter()
    for holding in possible.holdings:
        held = real.get(holding.place, ())
        assert len(held) == len(holding.cards), (where, holding, held)
        seen = Counter(c for c in holding.cards if not is_token(c))
        assert not seen - Counter(held), (where, holding, held)
        if holding.place.startswith("trap/"):  # (card, habitat)
            token, habitat = holding.cards[1], held[1]
            if token in habitats:
                assert habitat in habitats[token], (where, holding.place, habitat)
            held, tokens = held[:1], holding.cards[:1]
        else:
            tokens = holding.cards
        left = Counter(held) - Counter(c for c in tokens if not is_token(c))
        for group in possible.groups:  # its cards here, on no more than its tokens here
            mine = sum(1 for t in tokens if of.get(t) is group)
            theirs = Counter({c: n for c, n in left.items() if c in group.cards})
            assert theirs.total() <= mine, (where, holding.place, group, left)
            placed[id(group)] += theirs.total()
            left -= theirs
        may = {c for t in tokens if t in kinds for c in unseen[kinds[t]]}
        assert set(left) <= may, (where, holding.place, left, may)
    for group in possible.groups:  # every card of a group is on one of its tokens
        assert placed[id(group)] == len(group.cards), (where, group)
    assert_bounded(real, possible, where)


def assert_bounded(real: dict[str, tuple[str, ...]], possible: BeastPossible, where: str) -> None:
    """The real cards lie as each group's bounds allow (some placement of them on the
    group's tokens in the places they really are meets every bound), and every hidden
    place's real cards are among those `possible` says it may hold."""
    kinds = dict(possible.tokens)
    place_of = {c: h.place for h in possible.holdings for c in h.cards if c in kinds}
    for group in possible.groups:
        home = {c: place for place, held in real.items() for c in held if c in group.cards}
        allowed = spread_any(
            group.tokens, group.cards, group.alternatives, place_of.__getitem__, home
        )
        assert allowed.feasible, (where, group, home)
    may = dict(possible.may_hold)
    for holding in possible.holdings:
        held = real.get(holding.place, ())
        cards = held[:1] if holding.place.startswith("trap/") else held
        assert set(cards) <= set(may.get(holding.place, ())), (where, holding.place, cards)


def assert_complete(state: BeastState, where: str) -> None:
    """Every card of every kind lies in exactly one place (a trap being set is its card's,
    between TrapSet and CardResolved)."""
    set_traps = {trap.card for _, trap in state.traps}
    every = Counter(
        c
        for place, held in places(state).items()
        for c in held
        if c in card_index() and not (place.startswith("frame/") and c in set_traps)
    )
    for kind in ("action", "item", "talent"):
        names = {c.name for c in getattr(cards(), kind)}
        mine = {c: n for c, n in every.items() if kind_of(c) == kind}
        assert all(n == 1 for n in mine.values()), (where, kind, mine)
        assert set(mine) <= names


# -- soundness, consistency, non-interference over playouts -----------------------------

PLAYOUTS = [
    pytest.param(2, 1, False, 700, {}, id="2p-random"),
    pytest.param(3, 2, True, 500, {}, id="3p-greedy"),
    pytest.param(4, 3, False, 600, {}, id="4p-random"),
    pytest.param(3, 4, False, 450, {"setup": "first"}, id="3p-first-game"),
]


@pytest.mark.parametrize(("players", "seed", "greedy", "limit", "options"), PLAYOUTS)
def test_possible_holds_the_truth_and_samples_look_the_same(
    players: int, seed: int, greedy: bool, limit: int, options: dict[str, str]
) -> None:
    """At every 19th seq, for each viewer: sound, consistent (two samples),
    non-interfering."""
    log = playout(players, seed, greedy, limit, **options)
    rnd = random.Random(seed)
    looked = 0
    for count, state in states(log):
        if not state.hands or count % 19:
            continue
        for viewer in viewers(players):
            prefix = log[:count]
            possible = known(prefix, viewer)
            where = f"{viewer.name} at {count} events"
            assert_among(state, possible, where)
            assert VIEWS.possible(prefix, viewer) == possible, where  # reads only its share
            view, moves = beast_view(state, viewer), legal(state, viewer)
            for _ in range(2):
                world = VIEWS.sample(state, possible, viewer, rnd)
                assert beast_view(world, viewer) == view, where
                assert legal(world, viewer) == moves, where
                assert_among(world, possible, where)
                assert_complete(world, where)
            draw = random.Random(count)
            shaken = perturb_hidden(state, viewer, random.Random(count + 1))
            twin = VIEWS.sample(shaken, possible, viewer, random.Random(count))
            assert twin == VIEWS.sample(state, possible, viewer, draw), where
            looked += 1
    assert looked > 50


FACE_DOWN_FLEES = [
    pytest.param(2, 3, {}, 1263, 0, "Harpoon", id="a-hunter-flees-with-a-seen-item"),
    pytest.param(2, 4, {"setup": "first"}, 1227, 1, "Vanish", id="the-beast-flees-seen-talent"),
]


@pytest.mark.parametrize(("players", "seed", "options", "seq", "seat", "card"), FACE_DOWN_FLEES)
def test_a_face_down_flee_lets_go_of_the_seen_cards_of_the_hand(
    players: int, seed: int, options: dict[str, str], seq: int, seat: int, card: str
) -> None:
    """Issue 23 (two random playouts, the first of them the Beast's own seat's case): a
    hand the viewer cannot see holds a card it saw arrive (taken from the open row) and
    one it did not (the deck's top, face down), and flees by discarding one of them face
    down: here the seen one. The viewer cannot tell which went, yet the model kept the
    seen card in the hand and sent the token to the discard, so the truth (the seen card
    in the discard) was not among `possible`. Seed 3: hand 1 took Harpoon from the row
    (seq 943) and Bounty from the deck (1203) and fled with Harpoon (1263), as the Beast
    sees it; seed 4: the Beast took Vanish from the row and Mimicry from the deck and
    fled with Vanish (1227), as the hunter sees it."""
    log = playout(players, seed, False, 700, **options)[:seq]
    assert isinstance(log[-1], CardDiscardedFaceDown), log[-1]
    assert log[-1].card.get() == card
    viewer = Viewer("viewer", frozenset({seat}))
    state = dict(states(log))[seq]
    possible = known(log, viewer)
    assert_among(state, possible, "after the flee")
    assert card not in possible.places[f"extras/{log[-1].hand}"]
    rnd = random.Random(seq)
    for _ in range(20):
        world = VIEWS.sample(state, possible, viewer, rnd)
        assert beast_view(world, viewer) == beast_view(state, viewer)
        assert legal(world, viewer) == legal(state, viewer)
        assert_complete(world, "a sample after the flee")


@pytest.mark.parametrize("viewer", [Viewer("beast", frozenset({0})), SPECTATOR])
def test_which_of_two_same_looking_traps_went_is_in_the_log(viewer: Viewer) -> None:
    """Issue 23 (a 4-player random playout, seed 103): the traps, in the order set, are
    North Snare, North Trapmaster, South Snare, West (face down), North Snare, the Snares
    and Trapmaster set by abilities (their cards seen) and every habitat face down. The
    Beast is revealed on B2 (North, swamp) and either North Snare may be the one shown.
    The engine takes the first whose habitat matches (`mechanics.reveal`), here the last
    (the first was cave), and removes it. The Beast's view lists the traps by zone in the
    order set, so it shows which went (North, North, South, West: the last); since rules
    version 7 the log says so too, TrapTriggered(North, Snare, swamp, among=2), its place
    among North's traps, and the model removes exactly that one (it guessed the first
    that may be it before, and was unsound)."""
    log = playout(4, 103, False, 700)[:1842]
    assert isinstance(log[-1], TrapTriggered), log[-1]
    assert log[-1] == TrapTriggered(zone="N", card="Snare", habitat="swamp", among=2)
    state = dict(states(log))[1842]
    assert [state.board.zone_names[z] for z, _ in state.traps] == [
        "North",
        "North",
        "South",
        "West",
    ]
    assert_among(state, known(log, viewer), "after the trap")


def test_a_triggered_trap_from_before_rules_version_7_still_decodes_and_replays() -> None:
    """Older logs' TrapTriggered has no `among`: it decodes (the field is optional and
    omitted when absent, so such an event encodes byte for byte as before) and the reducer
    removes the first trap of its zone with that card and habitat, here the same one the
    version 7 event names (seed 103: the third of North's traps)."""
    log = playout(4, 103, False, 700)[:1842]
    event = log[-1]
    assert isinstance(event, TrapTriggered)
    assert event.among == 2
    older = msgspec.structs.replace(event, among=None)
    text = msgspec.json.encode(older)
    assert b"among" not in text
    assert msgspec.json.decode(text, type=TrapTriggered) == older
    before = dict(states(log))[1841]
    assert evolve(before, older) == evolve(before, event) == dict(states(log))[1842]


# -- independence of the truth -------------------------------------------------------------


def chi_square_p(observed: list[int], expected: list[float]) -> float:
    """The upper-tail p-value of Pearson's chi-square (degrees of freedom: cells - 1),
    from the regularized lower incomplete gamma function by its series."""
    statistic = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    a, x = (len(observed) - 1) / 2, statistic / 2
    if x <= 0:
        return 1.0
    term = total = 1 / a
    n = 0
    while term > total * 1e-15 and n < 10_000:
        n += 1
        term *= x / (a + n)
        total += term
    lower = total * math.exp(-x + a * math.log(x) - math.lgamma(a))
    return max(0.0, 1.0 - lower)


def test_the_chi_square_helper_rejects_a_biased_die_and_keeps_a_fair_one() -> None:
    rnd = random.Random(5)
    fair = Counter(rnd.randrange(6) for _ in range(6000))
    assert chi_square_p([fair[i] for i in range(6)], [1000.0] * 6) > P_VALUE
    biased = Counter(min(5, rnd.randrange(7)) for _ in range(6000))
    assert chi_square_p([biased[i] for i in range(6)], [1000.0] * 6) < P_VALUE


def first_position(
    log: list[Any], viewer: Viewer, wanted: Callable[[BeastState, BeastPossible], bool]
) -> tuple[list[Any], BeastState, BeastPossible]:
    """The first position of a playout (looked at every 5 seqs) where `wanted` holds."""
    for count, state in states(log):
        if state.hands and count % 5 == 0:
            possible = known(log[:count], viewer)
            if wanted(state, possible):
                return log[:count], state, possible
    raise AssertionError("no such position in the playout")


HUNTERS_3 = Viewer("hunters", frozenset({1, 2}))
BEAST_SEAT = Viewer("beast", frozenset({0}))


def test_the_resampled_location_follows_the_shares_of_possible() -> None:
    """3,000 samples at a position where the Beast may be on 5 or more locations: each
    location drawn as often as its share of the consistent paths (chi-square,
    p > 0.001), never a location outside `possible` (which is not the whole map)."""
    log = playout(3, 11, False, 800)
    _, state, possible = first_position(
        log, HUNTERS_3, lambda s, p: p.beast is not None and len(p.beast) >= 5
    )
    assert possible.beast is not None
    shares = dict(possible.beast)
    assert len(shares) < len(state.board.locations)
    rnd = random.Random(23)
    drawn = Counter(
        VIEWS.sample(state, possible, HUNTERS_3, rnd).beast.location for _ in range(3000)
    )
    assert set(drawn) <= set(shares)
    spots = sorted(shares)
    assert chi_square_p([drawn[s] for s in spots], [3000 * shares[s] for s in spots]) > P_VALUE


def loose_in_beast_hand(possible: BeastPossible) -> int:
    """The unseen cards of the Beast's hand in no group (each may be any `unseen` card)."""
    grouped = {t for g in possible.groups for t in g.tokens}
    return sum(is_token(c) and c not in grouped for c in possible.places["actions/0"])


def test_a_resampled_hand_does_not_lean_towards_the_real_cards() -> None:
    """The Beast's hand as the hunters resample it, 3,000 times (its first pick, the one
    card of it they cannot name): every unseen action card in no group lands in it equally
    often, the one really there no more and no less (chi-square over the cards' counts,
    p > 0.001; the counts within one hand are negatively correlated, so the test errs on
    the side of keeping)."""
    log = playout(3, 12, False, 800)
    _, state, possible = first_position(
        log,
        HUNTERS_3,
        lambda s, p: (
            loose_in_beast_hand(p) >= 1 and len(dict(p.unseen)["action"]) > loose_in_beast_hand(p)
        ),
    )
    unseen = sorted(dict(possible.unseen)["action"])
    slots = loose_in_beast_hand(possible)
    rnd = random.Random(29)
    counts: Counter[str] = Counter()
    for _ in range(3000):
        world = VIEWS.sample(state, possible, HUNTERS_3, rnd)
        counts.update(c for c in world.beast.actions if c in unseen)
    expected = [3000 * slots / len(unseen)] * len(unseen)
    assert chi_square_p([counts[c] for c in unseen], expected) > P_VALUE
    real = [c for c in state.beast.actions if c in unseen]
    assert real
    assert all(counts[c] > 0.8 * expected[0] for c in real)


def deck_read(game: BeastGame, viewer: Viewer, hand: int, deck: str) -> None:
    """The attack: deal the face-down `deck`'s top three (a night's row) in 60 samples
    and name the unseen card that never shows. With `sample` the real face-down card of
    `hand` shows like any other unseen card: over 3,000 samples each unseen card of the
    kind tops the deck equally often (chi-square, p > 0.001), and in the 60 the real card
    shows (it would miss with probability (1 - 3/22)^60 < 1e-3)."""
    state = game.state
    possible = known(first_day_log(game, "Helga,Iona"), viewer)
    held = possible.places[f"extras/{hand}"]
    secret = next(c for c, t in zip(state.hands[hand].extras, held, strict=True) if is_token(t))
    unseen = sorted(dict(possible.unseen)[deck])
    assert secret in unseen
    assert len(unseen) == len(getattr(state, f"{deck}_deck")) + 1
    rnd = random.Random(31)
    rows: Counter[str] = Counter()
    for _ in range(60):
        rows.update(getattr(VIEWS.sample(state, possible, viewer, rnd), f"{deck}_deck")[:3])
    assert rows[secret] > 0, "the real face-down card never showed: the deck read works"
    kept: Counter[str] = Counter()  # the worlds variations used to make kept the real deck
    for _ in range(60):
        kept.update(getattr(perturb_hidden(state, viewer, rnd), f"{deck}_deck")[:3])
    assert kept[secret] == 0
    tops = Counter(
        getattr(VIEWS.sample(state, possible, viewer, rnd), f"{deck}_deck")[0] for _ in range(3000)
    )
    assert chi_square_p([tops[c] for c in unseen], [3000 / len(unseen)] * len(unseen)) > P_VALUE


def took_from_decks() -> BeastGame:
    """A first game: Fangrir plays Dark Dealings and takes the talent deck's top card
    (face down: Brood with this seed), Helga plays Incite, ignored, and Iona plays Avarice
    and takes the item deck's top card (face down too)."""
    game = first_game(ROWS, "Helga,Iona", ("E", "E"), ("A1", "E1"))
    play(game, "play Dark Dealings", "take deck", "end")
    ignore(game, "Incite")
    play(game, "play Avarice", "take deck")
    return game


def test_the_deck_read_finds_nothing_of_the_beasts_face_down_talent() -> None:
    deck_read(took_from_decks(), HUNTERS_3, BEAST, "talent")


def test_the_deck_read_finds_nothing_of_a_hunters_face_down_item() -> None:
    game = took_from_decks()
    iona = game.state.hand_named("Iona")
    assert iona is not None
    deck_read(game, BEAST_SEAT, iona, "item")


# -- the rulebook's examples, hand-checked ------------------------------------------------
#
# Drenched Lands (north up; S settlement, F forest, W swamp, C cave, * centre, ~ no land;
# roads between orthogonal neighbours but A2-A3 and E3-E4; settlers on A1, E1, A5, E5):
#
#         A     B     C     D     E
#     1   S     W     ~     F     S
#     2   F     C     W     W     F
#     3   W     F     *     C     W
#     4   C     W     W     F     C
#     5   S     F     ~     W     S


def first_day_log(game: BeastGame, hunters: str) -> list[Any]:
    return [created(game, 3, {"setup": "first", "hunters": hunters}), *game.log]


def hunters_see(game: BeastGame, hunters: str) -> dict[str, float]:
    possible = known(first_day_log(game, hunters), HUNTERS_3)
    assert possible.beast is not None
    assert_among(game.state, possible, "example")
    return dict(possible.beast)


SETTLERS = frozenset({"A1", "E1", "A5", "E5"})


def by_hand(cards: int, keep: Callable[[list[tuple[str, str]]], bool]) -> dict[str, float]:
    """Pen and paper: every sequence of `cards` movement cards from C3 on Drenched Lands
    (a road or No Movement), those `keep` accepts, the share ending on each location."""
    board = BeastGame(3, seed=SEED_FIRST, setup="first").state.board
    ends: Counter[str] = Counter()
    for directions in product("NESWX", repeat=cards):
        here, laid = "C3", []
        for d in directions:
            if d != "X" and d not in board.roads[here]:
                break
            here = here if d == "X" else board.roads[here][d]
            laid.append((d, here))
        else:
            if keep(laid):
                ends[here] += 1
    total = sum(ends.values())
    return {loc: n / total for loc, n in sorted(ends.items())}


def on(laid: list[tuple[str, str]], location: str) -> int:
    """The cards that leave a trail on `location` (No Movement leaves none)."""
    return sum(1 for d, loc in laid if d != "X" and loc == location)


def test_movement_example_the_beast_may_be_four_cards_from_its_standee() -> None:
    """Example Beast movement: the Beast (standee on C3) lays its opening's two cards
    (No Movement twice here), the hunters are placed on A1, and it plays Dash: two more
    cards, E and N. The hunters see four face-down cards and no trail: the Beast may be on
    any location four cards or fewer from C3 (No Movement keeps it in place), except the
    four corner settlements, four steps away, where its last card would have passed a
    settler (and left a trail): 19 locations (x), each with its share of the paths.

            A     B     C     D     E
        1   S-    x     ~     x     S-
        2   x     x     x     x     x
        3   x     x     x     x     x
        4   x     x     x     x     x
        5   S-    x     ~     x     S-"""
    game = day_one()
    play(game, "play Dash", "step E", "step N", "end")
    seen = hunters_see(game, "Iona,Helga")
    expected = by_hand(4, lambda laid: not any(loc in SETTLERS for _, loc in laid))
    assert len(expected) == 19
    assert seen == pytest.approx(expected)


def test_trail_example_two_trails_leave_eight_locations() -> None:
    """Example hunter movement: the Beast's opening went C3 -> B3 -> B2, Iona stepped
    A1 -> A2 (no trail: no card there yet), the Beast's Dash laid E (C2) and No Movement,
    and Iona's Rush now steps onto B2 and C2: one trail on each. Four cards from C3 with
    exactly one trailing card on B2 and one on C2, none on A2 in the opening, none of
    Dash's onto a hunter or settler (Iona on A2, Helga on A5): 28 paths, 11 ending on B2.

            A     B     C     D
        1   S     x     ~     .
        2   I     x~    x~    x
        3   x     x     x     .
        4   .     x     .     ."""
    game, _, _ = hunted()
    seen = hunters_see(game, "Iona,Helga")

    def keep(laid: list[tuple[str, str]]) -> bool:
        dash = {loc for _, loc in laid[2:]}
        return (
            on(laid[:2], "A2") == 0
            and not dash & (SETTLERS | {"A2", "A5"})
            and (on(laid, "B2") == on(laid, "C2") == 1)
        )

    assert seen == pytest.approx(by_hand(4, keep))
    assert seen["B2"] == pytest.approx(11 / 28)
    assert set(seen) == {"A3", "B1", "B2", "B3", "B4", "C2", "C3", "D2"}


def test_search_example_a_failed_search_crosses_out_its_location() -> None:
    """Example Search and Reveal, the miss: as in the trail example but Iona stops on B2
    after one step (one trail there) and plays Hunt: "search B2" finds nothing. Four cards
    with exactly one trailing card on B2 and the Beast not there: 7 locations (B1, B3 and
    C2 each on 8 of the 34 paths). The hit (search C2 after both steps) reveals it: one
    location left.

            A     B     C     D
        1   S     x     ~     .
        2   I     -~    x     x
        3   x     x     x     .
        4   .     x     .     ."""
    game = day_one(beast_steps=("W", "N"), places=("A1", "A5"))
    play(game, "pass")
    play(game, "play Incite", "step S", "skip", "end")
    play(game, "play Bolster", "do", "do", "end")
    play(game, "play Dash", "step E", "step X", "end")
    play(game, "play Rush", "step E", "stop", "play Hunt", "search B2")
    seen = hunters_see(game, "Iona,Helga")

    def keep(laid: list[tuple[str, str]]) -> bool:
        dash = {loc for _, loc in laid[2:]}
        return (
            on(laid[:2], "A2") == 0
            and not dash & (SETTLERS | {"A2", "A5"})
            and (on(laid, "B2") == 1 and laid[-1][1] != "B2")
        )

    assert seen == pytest.approx(by_hand(4, keep))
    assert seen["C2"] == pytest.approx(8 / 34)
    game, _, _ = hunted()
    play(game, "play Hunt", "search C2")
    assert hunters_see(game, "Iona,Helga") == {"C2": 1.0}


def test_watchtower_example_pins_the_beast_down() -> None:
    """Example Watchtower: the Beast went C3 -> D3 -> E3 (start) -> E2 (Pursuit, one step);
    Iona went E1 -> D1 -> D2 (no trail either time: no untrailed card on D1 or D2) and
    places a watchtower on D2 (Outpost): two trails, on D3 and E2, among D2's nearby
    locations (D1, C2, D2, E2, D3). Three cards from C3 with a trailing card on D3 and one
    on E2 and none on D1, D2 or C2: E2 is three steps away, only through D3 and E3 (D2 and
    C2 are out). Before the watchtower the hunters had 17 locations; after it, one:

            C     D     E
        1   ~     .     S
        2   .     I/T   x~
        3   *     ~     ."""
    game = first_game(ROWS, "Helga,Iona", ("E", "E"), ("A1", "E1"))
    play(game, "play Pursuit", "step N", "skip", "end")  # no summon
    ignore(game, "Incite")
    play(game, "play Avarice", "take Outpost", "do", "play Silver Arrow", "step W", "skip")
    play(game, "pass", "pass")
    play(game, "play Haste", "step S", "skip", "end")
    ignore(game, "Dark Dealings")
    ignore(game, "Prowl")
    assert len(hunters_see(game, "Helga,Iona")) == 17
    play(game, "play Outpost", "do")
    assert hunters_see(game, "Helga,Iona") == {"E2": 1.0}


# -- reading on from a kept fold ------------------------------------------------------------

READ_ON = [
    pytest.param(4, 13, False, 700, id="4p-random-23-cards-hidden"),
    pytest.param(2, 1, False, 300, id="2p-random"),
    pytest.param(3, 2, True, 250, id="3p-greedy"),
]


@pytest.mark.parametrize(("players", "seed", "greedy", "limit"), READ_ON)
def test_possible_read_on_from_a_kept_fold_is_the_possible_from_seq_one(
    players: int, seed: int, greedy: bool, limit: int
) -> None:
    """What projections/knowledge/cache.py answers: a viewer's fold read on in random
    strides of 1-12 events (the path filter resumed from its last run wherever its plan
    still agrees) is, at about 20 stops spread over the game and at the last, the very
    `possible` read from seq 1: every hidden place and token, every share, the whole path
    graph. The long playout's filter
    must both resume mid-stretch and go back when a later check changed its plan."""
    log = playout(players, seed, greedy, limit)
    rnd = random.Random(seed)
    resumed = went_back = 0
    every = max(3, len(log) // 130)  # ~6.5 events a stride: about 20 checked stops
    for viewer in viewers(players):
        redacted = [redact(e, viewer) for e in log]
        fold, at, stops = BeastFold.start(viewer), 0, 0
        while at < len(redacted):
            stride = rnd.randint(1, 12)
            before = fold.reader.paths
            fold = fold.advanced(redacted[at : at + stride])
            at = min(at + stride, len(redacted))
            paths = fold.reader.paths
            if paths is not None and before is not None and paths.begin:
                resumed += 1
                went_back += paths.begin < len(before.timeline) - 1
            stops += 1
            if stops % every == 0 or at == len(redacted):
                where = f"{viewer.name} at {at} events"
                assert fold.possible == VIEWS.possible(redacted[:at], viewer), where
    assert resumed > 20
    assert went_back > 0 or players < 4


class _Shelf:
    """Beast folds kept as projections/knowledge/store.py keeps them, without a database:
    encoded by the game's codec, checked to round-trip before they are kept, decoded typed
    when read (`possible_at`'s `kept`)."""

    def __init__(self) -> None:
        codec = fold_codec("beast")
        assert codec is not None
        self.codec = codec
        self.rows: dict[int, tuple[str, bytes]] = {}
        self.read_from: list[int] = []

    def nearest(self, seq: int) -> Found | None:
        at = max((s for s in self.rows if s <= seq), default=None)
        if at is None:
            return None
        self.read_from.append(at)
        digest, data = self.rows[at]
        return Found(at, digest, self.codec.decode(data))

    def holds(self, seq: int, digest: str) -> bool:
        return self.rows.get(seq, ("", b""))[0] == digest

    def keep(self, seq: int, digest: str, fold: Any) -> None:
        data = self.codec.checked(fold)
        assert data is not None, f"the fold at {seq} does not round-trip"
        self.rows[seq] = (digest, data)

    def drop(self, seq: int) -> None:
        self.rows.pop(seq, None)


def enveloped(log: list[Any]) -> list[Envelope[Any]]:
    """The log as a stream's envelopes (seq from 1; a stand-in hash per seq)."""
    moment = datetime(2026, 1, 1, tzinfo=UTC)
    return [
        Envelope(
            stream="g",
            seq=seq,
            recorded_at=moment,
            actor="",
            event=event,
            prev_hash="",
            hash=f"h{seq}",
        )
        for seq, event in enumerate(log, start=1)
    ]


@pytest.mark.parametrize(("players", "seed", "greedy", "limit"), READ_ON)
def test_possible_read_on_from_a_stored_fold_is_the_possible_from_seq_one(
    players: int, seed: int, greedy: bool, limit: int
) -> None:
    """What a process that kept nothing answers (projections/knowledge/store.py,
    projections/beast/knowledge/stored.py): every call after the first reads on, with
    nothing kept in memory, from the fold an earlier call left in the store (the replay
    since the path filter's last reveal and the filter's last run, encoded, checked to
    round-trip, decoded typed), and leaves there the last grid fold it passed. At about 20
    stops spread over the game and at the last, for the hunters, the Beast, one hunter and a
    spectator, it is the very `possible` read from seq 1; so is the stored fold itself,
    asked at its own seq."""
    log = enveloped(playout(players, seed, greedy, limit))
    rnd = random.Random(seed)
    every = max(1, len(log) // 20)

    def read(first: int, last: int) -> list[Envelope[Any]]:
        return log[first - 1 : last]

    for viewer in viewers(players):
        shelf, seq, stops = _Shelf(), 0, 0
        redacted = [redact(e, viewer) for e in log]
        while seq < len(log):
            seq = min(len(log), seq + rnd.randint(1, 2 * every))
            stops += 1
            knowledge_cache.forget()  # a process that kept nothing
            answer = possible_at("beast", "g", viewer, seq, read, shelf)  # type: ignore[arg-type]
            where = f"{viewer.name} at seq {seq}"
            assert answer == VIEWS.possible(redacted[:seq], viewer), where
            if stops % 4 == 0 and shelf.rows:
                at = max(shelf.rows)
                knowledge_cache.forget()
                answer = possible_at("beast", "g", viewer, at, read, shelf)  # type: ignore[arg-type]
                assert answer == VIEWS.possible(redacted[:at], viewer), f"{viewer.name} at {at}"
        assert len(shelf.read_from) >= stops - 2, viewer.name
        knowledge_cache.forget()


# -- cost -----------------------------------------------------------------------------------


def test_bench_reports_possible_and_sample_beside_the_cold_view(tmp_path: Path) -> None:
    """`skald bench --only knowledge`'s Beast figures (cli/bench_knowledge.py) on a short
    game: `possible` read on from the previous decision, in a process that kept nothing
    (from the fold kept in the store) and `sample`, each beside the cold view of the same
    position; from seq 1 with nothing kept anywhere beside the view with nothing kept
    anywhere either (`view.replay`, itself beside the cold view); the hidden cards named in
    the note."""
    figures = {
        f.name: f
        for f in game_figures(
            f"sqlite:///{tmp_path}/k.db", "beast", 4, 1, "a hunter", events=300, rounds=1
        )
    }
    assert set(figures) == {
        "possible.beast",
        "possible.beast.full",
        "possible.beast.first",
        "view.replay.beast",
        "sample.beast",
    }
    for f in figures.values():
        wanted = "view.replay" if f.name == "possible.beast.first" else "view.cold"
        assert f.baseline == wanted, f.name
        assert f.value > 0
        assert f.ratio == f.value / f.baseline_value
        assert "cards laid since the Beast was last seen" in f.note
    assert "read on from seq" in figures["possible.beast"].note
    assert "from the fold kept in the store" in figures["possible.beast.full"].note
    replay = figures["view.replay.beast"]
    assert figures["possible.beast.first"].baseline_value == replay.value
    assert "the cold view)" in figures["possible.beast.first"].note
