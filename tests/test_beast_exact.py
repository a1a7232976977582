"""Where the Beast model was wider than a careful viewer's pen-and-paper deduction
(issue 23: `possible` must be exact for the rules as implemented), one test per case,
each on a seeded playout (tests/test_beast_knowledge.py `playout`):

- a "then" card's effect skipped by the hidden Beast: the engine offers the skip only
  when the effect has nothing to act on (core/beast/effects.py `effect_commands`), so the
  hunters learn that no target lay within its reach;
- the action cards left in the hands at night: they go face up onto the common discard,
  which every view shows by name; since rules version 8 the log names them too
  (`NightReset.discarded`), and the model no longer keeps them as unseen cards;
- the draft picks the viewer did not see, when the cards gone from a pack it saw went to
  more than one hand: the viewer knows those hands hold exactly those cards; the model
  let any unplaced card be there (and those cards be anywhere) until it kept them as a
  group (projections/beast/knowledge/groups.py), kept as the day goes on;
- an unseen card leaving a hand whose seen card or second group meets a group reaching
  beyond it: no answer made of disjoint groups is exact there; the merged group's bounds
  (projections/beast/knowledge/bounds.py) are, and `possible`'s per-place lists with them.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import msgspec
import pytest

from skald.core.beast.commands import Skip
from skald.core.beast.effects import effect_commands
from skald.core.beast.setup import HUNTER_SEATS
from skald.core.beast.state import BEAST, BeastState
from skald.events.beast import (
    CardDiscardedFaceDown,
    CardDrafted,
    CardPlayed,
    DayBegan,
    EffectProgressed,
    NightReset,
    PackDealt,
)
from skald.events.common import DecisionRedone, DecisionUndone, MoveMade
from skald.events.secret import redact
from skald.events.viewer import SPECTATOR, Viewer
from skald.projections.beast.knowledge.bounds import Bound, spread
from skald.projections.beast.knowledge.groups import Group, is_token, joined
from skald.projections.beast.knowledge.places import places
from skald.projections.beast.knowledge.possible import BeastFold, BeastKnowledgeFold
from skald.projections.beast.knowledge.shadow import Reader
from skald.projections.beast.view import beast_view
from skald.projections.knowledge.possible import describe_possible
from skald.projections.knowledge.store import fold_codec
from tests.test_beast_knowledge import (
    P_VALUE,
    VIEWS,
    assert_among,
    chi_square_p,
    created,
    known,
    playout,
    states,
    viewers,
)
from tests.test_beast_support import BeastGame

replace = msgspec.structs.replace


def hunters(players: int) -> Viewer:
    """The hunters' team."""
    return Viewer("hunters", frozenset(HUNTER_SEATS[players]))


def beast_at(state: BeastState, location: str) -> BeastState:
    """`state` with the Beast on `location` (nothing else changed)."""
    beast = replace(state.hands[BEAST], location=location)
    return replace(state, hands=(beast, *state.hands[1:]))


def where(log: list[Any], viewer: Viewer) -> set[str]:
    """The locations `possible` gives the Beast."""
    shares = known(log, viewer).beast
    assert shares is not None
    return {location for location, _ in shares}


SKIPS = [
    # 3 players, seed 0: the Beast (unseen since its last reveal) plays Charge (move 1,
    # then attack at its location) and skips the attack. Before the skip it may be on
    # A3, A4 or B3; a bear is on A4 and a boar on B3, where the attack could not have
    # been skipped. Only A3 is left.
    pytest.param(3, 0, 71, {"A3"}, id="3p-seq71"),
    # the same game later: 8 locations before the skip, 2 after
    pytest.param(3, 0, 739, {"C3", "E3"}, id="3p-seq739"),
    # 4 players, seed 0: 9 locations before the skip, 4 after
    pytest.param(4, 0, 434, {"C1", "C2", "C3", "D3"}, id="4p-seq434"),
]


@pytest.mark.parametrize(("players", "seed", "seq", "left"), SKIPS)
@pytest.mark.parametrize("spectator", [False, True], ids=["hunters", "spectator"])
def test_a_skipped_then_attack_says_nothing_was_in_reach(
    players: int, seed: int, seq: int, left: set[str], spectator: bool
) -> None:
    """The hidden Beast's decision is nothing but the end of its "then" card's attack (a
    skip): exactly the locations that `possible` gave before it where the engine offers
    that skip remain (the others would have shown an attack, a reveal, in the log)."""
    log = playout(players, seed, False, 700)[:seq]
    assert isinstance(log[-2], MoveMade)
    assert isinstance(log[-1], EffectProgressed)
    before = dict(states(log))[seq - 1]
    frame = before.frames[-1]
    assert (frame.card, frame.mode, before.hidden) == ("Charge", "then", True)
    assert frame.effects[log[-1].index].op == "attack"
    viewer = SPECTATOR if spectator else hunters(players)
    earlier = where(log[:-1], viewer)
    skippable = {loc for loc in earlier if Skip() in effect_commands(beast_at(before, loc))}
    assert len(earlier) > len(skippable)  # the skip tells the viewer something
    assert where(log, viewer) == skippable == left
    assert_among(dict(states(log))[seq], known(log, viewer), "after the skip")


# -- the hands' action cards discarded at night ---------------------------------------------


def first_night_all_pass(players: int) -> list[Any]:
    """A drafted game (seed exact/0) whose first day everyone passes at once: random legal
    moves until the day, then `pass`; its log up to and with the first NightReset."""
    game = BeastGame(players, seed="exact/0")
    rnd = random.Random(0)
    while not any(isinstance(e, NightReset) for e in game.log):
        seat = game.seat()
        legal = game.legal(seat)
        game.do("pass" if game.state.phase == "day" and "pass" in legal else rnd.choice(legal))
    log = [created(game, players, {}), *game.log]
    return log[: next(i for i, e in enumerate(log) if isinstance(e, NightReset)) + 1]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_cards_left_in_hands_at_night_are_named_as_the_view_shows_them(
    players: int,
) -> None:
    """Every hand still holds its drafted cards when the night falls; they go face up onto
    the common discard, which every view lists by name. For every viewer, no card that view
    shows in the discard is still one an unseen card may be (before rules version 8 the
    hunters' `possible` let the Beast's leftover cards be in the deck, and a spectator's
    every leftover card), and the truth is among `possible`."""
    log = first_night_all_pass(players)
    night = log[-1]
    real = dict(states(log))
    before, after = real[len(log) - 1], real[len(log)]
    assert night.discarded == tuple(c for hand in before.hands for c in hand.actions)
    assert before.beast.actions  # the Beast's unseen hand is among them
    for viewer in viewers(players):
        possible = known(log, viewer)
        shown = set(beast_view(after, viewer).discard)
        assert set(night.discarded) <= shown
        assert not shown & set(dict(possible.unseen)["action"]), viewer.name
        assert_among(after, possible, viewer.name)


def test_an_older_night_that_names_no_card_keeps_them_unseen() -> None:
    """A log from before rules version 8 (NightReset names nothing): the hunters' model
    cannot name the Beast's leftover cards, and stays sound."""
    log = first_night_all_pass(3)
    older = [*log[:-1], NightReset()]
    real = dict(states(log))
    left, after = real[len(log) - 1].beast.actions, real[len(log)]
    viewer = hunters(3)
    unseen = set(dict(known(older, viewer).unseen)["action"])
    assert set(left) & unseen  # wider than the view: sound, not exact
    assert_among(after, known(older, viewer), "an older night")


# -- the draft picks the viewer did not see ---------------------------------------------------


def seen_in_packs(log: list[Any], viewer: Viewer) -> set[str]:
    """Every card the viewer saw in a draft pack, from its redacted log."""
    seen: set[str] = set()
    for event in (redact(e, viewer) for e in log):
        if isinstance(event, PackDealt) and viewer.sees(event.pack.audience):
            seen |= set(event.pack.get())
        elif type(event).__name__ == "PacksPassed":
            seen |= {c for p in event.packs if viewer.sees(p.audience) for c in p.get()}
    return seen


def test_a_card_seen_in_a_pack_and_taken_by_another_is_never_in_the_deck() -> None:
    """3 players, seed 0, random moves, at the first DayBegan (the draft over), as the
    Beast sees it: every card it saw in a pack and did not take itself was taken by a
    hunter (every pack is drafted empty), so it is in a hunter's hand, not in the action
    deck. The Beast saw Avarice, Dark Dealings, Haste, Incite and Pursuit go; the cards
    gone from a pack between two of its looks went to both hunters, so the model named
    only Incite and let the other four lie in the deck (49 of 50 samples put one there, a
    world whose packs would have shown the Beast other cards) before it kept such picks
    as groups."""
    log = playout(3, 0, False, 400)
    log = log[: next(i for i, e in enumerate(log) if isinstance(e, DayBegan)) + 1]
    viewer = Viewer("beast", frozenset({0}))
    state = dict(states(log))[len(log)]
    mine = {e.card.get() for e in log if isinstance(e, CardDrafted) and e.hand == BEAST}
    taken = seen_in_packs(log, viewer) - mine
    assert taken == {"Avarice", "Dark Dealings", "Haste", "Incite", "Pursuit"}
    assert not taken & set(state.action_deck)
    possible = known(log, viewer)
    rnd = random.Random(1)
    for _ in range(50):
        world = VIEWS.sample(state, possible, viewer, rnd)
        assert not taken & set(world.action_deck)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_two_players_the_hunters_picks_given_out_unseen_stay_in_their_hands(seed: int) -> None:
    """2 players, random moves, at the first DayBegan, as the Beast sees it: the hunter
    player drafts into its pool (two cards a pass) and gives the pool's cards to its two
    hunters after the draft, unseen by the Beast. The cards the Beast saw in its packs and
    did not take are in the hunters' hands, six of their eight cards (the other two are
    the first picks from a pack the Beast had not seen yet): a group across both hands.
    Before the groups, each card given out let the pool's cards go (48 to 50 of 50 samples
    put one of those six in the action deck)."""
    log = playout(2, seed, False, 200)
    log = log[: next(i for i, e in enumerate(log) if isinstance(e, DayBegan)) + 1]
    state = dict(states(log))[len(log)]
    mine = {e.card.get() for e in log if isinstance(e, CardDrafted) and e.hand == BEAST}
    taken = seen_in_packs(log, BEAST_EYES) - mine
    assert len(taken) == 6
    possible = known(log, BEAST_EYES)
    (group,) = possible.groups
    assert set(group.cards) == taken
    assert (
        sorted(holder(possible, t) for t in group.tokens) == ["actions/1"] * 4 + ["actions/2"] * 4
    )
    assert not taken & set(dict(possible.unseen)["action"])
    rnd = random.Random(1)
    for _ in range(50):
        world = VIEWS.sample(state, possible, BEAST_EYES, rnd)
        assert taken <= set(world.hands[1].actions + world.hands[2].actions)
    assert_among(state, possible, "at the first day")


# -- the groups the draft leaves, after it -------------------------------------------------


def drafted(players: int = 3, seed: int = 0) -> tuple[list[Any], int]:
    """A random playout (tests/test_beast_knowledge.py `playout`) and the number of events
    up to and with its first DayBegan."""
    log = playout(players, seed, False, 400)
    return log, next(i for i, e in enumerate(log) if isinstance(e, DayBegan)) + 1


def holder(possible: Any, token: str) -> str:
    """The hidden place that holds `token`."""
    return next(h.place for h in possible.holdings if token in h.cards)


BEAST_EYES = Viewer("beast", frozenset({0}))


def test_the_draft_leaves_the_beast_two_groups_across_the_hunters_hands() -> None:
    """3 players, seed 0, as the Beast sees it at the first DayBegan: the cards gone from
    each of its packs between two of its looks went one to each hunter, so each pair of
    picks is a group of two tokens, one in each hunter's hand, that are exactly those two
    cards; no other unseen card may be one of them, and every sample deals each pair
    between those two hands (both ways, over 200 samples)."""
    log, day = drafted()
    possible = known(log[:day], BEAST_EYES)
    pairs = {g.cards: sorted(holder(possible, t) for t in g.tokens) for g in possible.groups}
    assert pairs == {
        ("Avarice", "Pursuit"): ["actions/1", "actions/2"],
        ("Dark Dealings", "Haste"): ["actions/1", "actions/2"],
    }
    others = set(dict(possible.unseen)["action"])
    assert not others & {"Avarice", "Pursuit", "Dark Dealings", "Haste"}
    state = dict(states(log))[day]
    ways = set()
    rnd = random.Random(2)
    for _ in range(200):
        world = VIEWS.sample(state, possible, BEAST_EYES, rnd)
        hunter_cards = world.hands[1].actions + world.hands[2].actions
        assert {"Avarice", "Pursuit", "Dark Dealings", "Haste"} <= set(hunter_cards)
        ways.add(("Avarice" in world.hands[1].actions, "Haste" in world.hands[1].actions))
    assert ways == {(True, True), (True, False), (False, True), (False, False)}


def test_a_bounded_group_is_sampled_uniformly_over_the_worlds_its_bounds_allow() -> None:
    """3 players, seed 0, as the Beast sees it at the first DayBegan: its two pairs
    (`test_the_draft_leaves_the_beast_two_groups_across_the_hunters_hands`) written as one
    group of the four cards on the four tokens, bounded so that each pair's tokens hold
    both of its cards and none of the other's: the same four worlds among 24 placements.
    `sample` draws the merged group and draws again while a bound rejects it: over 1,200
    samples (fixed seed) the four ways come out as a fair die would (chi-square, p >=
    0.001), each a state the Beast cannot tell from the real one."""
    log, day = drafted()
    possible = known(log[:day], BEAST_EYES)
    first, second = possible.groups
    bounds = (
        Bound(first.tokens, first.cards, 2, second.cards),
        Bound(second.tokens, second.cards, 2, first.cards),
    )
    merged = Group((*first.tokens, *second.tokens), (*first.cards, *second.cards), bounds)
    bounded = replace(possible, groups=(merged,))
    state = dict(states(log))[day]
    rnd = random.Random(5)
    ways: Counter[tuple[bool, bool]] = Counter()
    for index in range(1200):
        world = VIEWS.sample(state, bounded, BEAST_EYES, rnd)
        hand = world.hands[1].actions
        assert ("Avarice" in hand) != ("Pursuit" in hand)
        assert ("Dark Dealings" in hand) != ("Haste" in hand)
        ways[("Avarice" in hand, "Haste" in hand)] += 1
        if index < 20:
            assert beast_view(world, BEAST_EYES) == beast_view(state, BEAST_EYES)
    assert len(ways) == 4
    assert chi_square_p(list(ways.values()), [300.0] * 4) >= P_VALUE
    text = describe_possible(bounded, ("Ann", "Bob", "Cid")).splitlines()
    helga = possible.characters[1]  # the first hunter's hand holds one token of each pair
    assert f"    of them, {helga}'s action cards (1) and " in "\n".join(text)
    assert any(
        "none of Dark Dealings or Haste, at least 2 of Avarice and Pursuit" in t for t in text
    )


@pytest.mark.parametrize(
    ("seq", "played", "other", "hand"),
    [
        # hunter 1 plays Avarice: Pursuit, the other card of its pair, is hunter 2's
        pytest.param(173, "Avarice", "Pursuit", 2, id="avarice"),
        # hunter 2 plays Haste: Dark Dealings is hunter 1's
        pytest.param(232, "Haste", "Dark Dealings", 1, id="haste"),
    ],
)
def test_a_group_card_seen_leaving_a_hand_names_the_other(
    seq: int, played: str, other: str, hand: int
) -> None:
    """3 players, seed 0, as the Beast sees it during the first day: when a hunter plays a
    card of a pair the draft left (face up, so the Beast sees it go), the token it was is
    that hunter's token of the pair, and the pair's other token, in the other hunter's
    hand, is the other card: the Beast names it there, and the group is gone."""
    log, _ = drafted()
    event = log[seq - 1]
    assert isinstance(event, CardPlayed)
    assert event.card == played
    before, after = known(log[: seq - 1], BEAST_EYES), known(log[:seq], BEAST_EYES)
    assert any(played in g.cards and other in g.cards for g in before.groups)
    assert not any(other in g.cards or played in g.cards for g in after.groups)
    assert other in after.places[f"actions/{hand}"]
    assert other not in before.places[f"actions/{hand}"]
    real = dict(states(log))
    assert other in real[seq].hands[hand].actions
    assert_among(real[seq], after, "after the play")


def test_a_night_names_the_cards_of_the_groups_still_open() -> None:
    """3 players, a first day everyone passes at once (`first_night_all_pass`): the Beast's
    groups from the draft are all still open at nightfall, and the NightReset names every
    card left in the hands, so after it no group is left and none of their cards is an
    unseen card any more."""
    log = first_night_all_pass(3)
    before, after = known(log[:-1], BEAST_EYES), known(log, BEAST_EYES)
    assert before.groups
    assert after.groups == ()
    grouped = {c for g in before.groups for c in g.cards}
    assert not grouped & set(dict(after.unseen)["action"])
    assert_among(dict(states(log))[len(log)], after, "after the night")


def test_an_undone_last_pick_takes_its_token_back_to_the_pack_and_a_redo_brings_it_back() -> None:
    """3 players, seed 0: the draft's last pick (seat 2's, with the DayBegan it brings) is
    a decision after the last PacksPassed, so its author may take it back (the table's
    default undo policy). Before it, the Beast knows that hunter 1's pick from its pack
    and the card left in seat 2's pack are Dark Dealings and Haste in some order; after
    it, that the two hunters hold them. Undone, the group's token is in the pack again;
    redone, in hunter 2's hand: each the very `possible` of the log without the undo."""
    log, day = drafted()
    assert isinstance(log[day - 3], MoveMade)
    assert log[day - 3].seat == 2
    at_day = known(log[:day], BEAST_EYES)
    before_pick = known(log[: day - 3], BEAST_EYES)

    def pair(possible: Any) -> list[str]:
        group = next(g for g in possible.groups if "Haste" in g.cards)
        assert group.cards == ("Dark Dealings", "Haste")
        return sorted(holder(possible, t) for t in group.tokens)

    assert pair(before_pick) == ["actions/1", "pack/2"]
    assert pair(at_day) == ["actions/1", "actions/2"]
    undone = known([*log[:day], DecisionUndone(seat=2, author=2)], BEAST_EYES)
    assert undone == before_pick
    assert_among(dict(states(log))[day - 3], undone, "after the undo")
    redone = [*log[:day], DecisionUndone(seat=2, author=2), DecisionRedone(seat=2)]
    assert known(redone, BEAST_EYES) == at_day


def test_a_stored_fold_keeps_its_groups() -> None:
    """The fold kept in the store (projections/beast/knowledge/stored.py) carries the groups, its
    undo snapshots' too: read back at the first DayBegan, then read on to the end of the
    first day's first hunter play of a group card, it answers what the log from seq 1
    does."""
    log, day = drafted()
    fold = BeastKnowledgeFold()
    for event in log[:day]:
        fold.feed(redact(event, BEAST_EYES))
    fold.settle(BEAST_EYES)
    assert fold.stored().reader is not None
    assert fold.stored().reader.groups
    codec = fold_codec("beast")
    assert codec is not None
    back = codec.decode(codec.encode(fold))
    assert back == fold
    assert back.possible(BEAST_EYES).groups == known(log[:day], BEAST_EYES).groups
    for event in log[day:173]:
        back.feed(redact(event, BEAST_EYES))
    assert back.possible(BEAST_EYES) == known(log[:173], BEAST_EYES)


def test_a_stored_fold_keeps_its_groups_bounds_and_a_group_stored_before_them_loads() -> None:
    """A group's bounds are stored with it (the fold's snapshots too) and read back as
    they were; a group stored before bounds existed loads with none (its stored fold is
    folded again anyway: projections.beast.knowledge.bounds is in the version key, `CODE`)."""
    log, day = drafted()
    reader = Reader(BEAST_EYES).read(redact(e, BEAST_EYES) for e in log[:day])
    first, *rest = reader.groups
    bound = Bound(first.tokens[:1], (), 0, first.cards[:1])
    reader.groups = (replace(first, bounds=(bound,)), *rest)
    fold = BeastKnowledgeFold(BeastFold(reader))
    codec = fold_codec("beast")
    assert codec is not None
    back = codec.decode(codec.encode(fold))
    assert back == fold
    assert back.possible(BEAST_EYES).groups[0].bounds == (bound,)
    assert "skald.projections.beast.knowledge.bounds" in BeastKnowledgeFold.CODE
    older = msgspec.json.encode({"tokens": first.tokens, "cards": first.cards})
    assert msgspec.json.decode(older, type=Group) == replace(first, bounds=())


def test_possible_says_the_groups_in_words_and_in_its_json() -> None:
    """What `skald possible`, GET /games/ID/possible and the web panel show (the text is
    `describe_possible`'s, the JSON the struct's): each group as its cards and the hands
    that hold them, and the other unseen action cards as those in no group."""
    log, day = drafted()
    possible = known(log[:day], BEAST_EYES)
    text = describe_possible(possible, ("Ann", "Bob", "Cid"))
    first, second = possible.characters[1:3]  # the hunters, by character, not number
    both = f"{first}'s action cards and {second}'s action cards, 1 in each"
    assert f"  Avarice and Pursuit: unseen cards of {both}" in text.splitlines()
    assert f"  Dark Dealings and Haste: unseen cards of {both}" in text.splitlines()
    assert "an unseen action card in no such group may be: " in text
    data = msgspec.json.decode(msgspec.json.encode(possible))
    assert {tuple(g["cards"]) for g in data["groups"]} == {
        ("Avarice", "Pursuit"),
        ("Dark Dealings", "Haste"),
    }


# -- where a merge of groups alone was wider than the deduction: its bounds make it exact ---


def placements(groups: tuple[Group, ...], where: dict[str, str]) -> set[frozenset[tuple[str, str]]]:
    """Every way the groups put their cards as their bounds allow, as (card, place of its
    token) pairs (`where` gives each token's place)."""
    found: set[frozenset[tuple[str, str]]] = set()
    per_group = []
    for g in groups:
        every = (
            dict(zip(chosen, g.cards, strict=True))
            for chosen in itertools.permutations(g.tokens, len(g.cards))
        )
        allowed = (names for names in every if all(b.holds(names) for b in g.bounds))
        per_group.append([frozenset((c, where[t]) for t, c in names.items()) for names in allowed])
    for combination in itertools.product(*per_group):
        found.add(frozenset().union(*combination))
    return found


def deduced(
    held: tuple[str, ...], groups: tuple[Group, ...], where: dict[str, str]
) -> set[frozenset[tuple[str, str]]]:
    """Pen and paper: every way the named cards (the seen ones in `held`, the groups') can
    lie once any one card of `held` has left it for "gone"."""
    found: set[frozenset[tuple[str, str]]] = set()
    for before in placements(groups, {t: t for g in groups for t in g.tokens}):
        on = {token: card for card, token in before}
        contents = [on.get(c, "") if is_token(c) else c for c in held]
        for leaving in range(len(held)):
            lying = {(card, where[t]) for t, card in on.items() if t not in held}
            lying |= {
                (card, "gone" if index == leaving else "hand")
                for index, card in enumerate(contents)
                if card
            }
            found.add(frozenset(lying))
    return found


@pytest.mark.parametrize(
    ("held", "groups", "wider"),
    [
        # a seen card beside a token of a group whose other token lies elsewhere
        pytest.param(
            ("Haste", "?1"),
            (Group(("?1", "?2"), ("Avarice",)),),
            {("Haste", "there")},
            id="seen-card-and-group",
        ),
        # tokens of two groups, each with another token elsewhere
        pytest.param(
            ("?1", "?3"),
            (Group(("?1", "?2"), ("Avarice",)), Group(("?3", "?4"), ("Haste",))),
            {("Haste", "there"), ("Avarice", "yonder")},
            id="two-groups",
        ),
    ],
)
def test_a_card_leaving_a_hand_with_two_constraints_leaves_exactly_the_deduction(
    held: tuple[str, ...], groups: tuple[Group, ...], wider: set[tuple[str, str]]
) -> None:
    """The smallest cases where the merge `joined` makes was wider than the viewer's
    deduction, now exact through its bounds (projections/beast/knowledge/bounds.py). A hand holds
    two cards and one of them leaves it unseen ("gone"); the groups' other tokens lie
    elsewhere ("?2" "there", "?4" "yonder").

    Seen card and group, the hand (Haste, ?1), Avarice on ?1 or ?2: Haste is in the hand
    or gone, Avarice in the hand, gone or there, the two on different tokens (four
    worlds). The merged group alone let Haste lie there (two worlds more); its bound (?2
    holds no Haste) takes them away. Two groups: the merge alone let Avarice lie yonder
    and Haste there (five worlds more than seven); the bounds (?2 holds no Haste, ?4 no
    Avarice) leave the seven. `possible`'s per-place lists (`spread`) give each card
    exactly the places the deduction gives it."""
    where = {"?1": "hand", "?2": "there", "?3": "hand", "?4": "yonder"}
    issued = iter(range(100, 200))
    renamed, merged = joined(held, groups, lambda name: f"?{next(issued)}")
    (group,) = merged
    gone = next(t for t in renamed if is_token(t))  # the folds send the first token
    places = {**where, **dict.fromkeys(renamed, "hand"), gone: "gone"}
    modelled = placements((group,), places)
    exact = deduced(held, groups, where)
    assert modelled == exact
    unbounded = placements((replace(group, bounds=()),), places)
    assert {w for w in unbounded - exact if w & wider} == unbounded - exact != set()
    by_card: dict[str, set[str]] = {}
    for world in exact:
        for card, place in world:
            by_card.setdefault(card, set()).add(place)
    allowed = spread(group.tokens, group.cards, group.bounds, places.__getitem__)
    assert {c: set(p) for c, p in allowed.cards.items()} == by_card
    assert not any(place in by_card[card] for card, place in wider)


# -- what each hidden place may hold ---------------------------------------------------------


@pytest.mark.parametrize("seq", [60, 250, 500])
def test_every_card_a_place_may_hold_is_there_in_some_sampled_world(seq: int) -> None:
    """3 players, seed 0, random moves, every viewer: `may_hold` lists no card a place
    cannot hold. Each card it lists for a place lies there in one of 300 samples, and
    none lies anywhere it does not list (`assert_among` checks the real state too). (A
    spectator late in a game may see a card in the open row its log does not place: a
    card taken from the row unseen. `possible` lets that card lie in the decks, which its
    log allows; `sample` keeps the row the view shows.)"""
    log = playout(3, 0, False, 700)[:seq]
    state = dict(states(log))[seq]
    for viewer in viewers(3):
        possible = known(log, viewer)
        may = {place: set(cards) for place, cards in possible.may_hold}
        found: dict[str, set[str]] = {h.place: set() for h in possible.holdings}
        rnd = random.Random(seq)
        for _ in range(300):
            world = places(VIEWS.sample(state, possible, viewer, rnd))
            for place in found:
                held = world.get(place, ())
                found[place].update(held[:1] if place.startswith("trap/") else held)
        assert {p: c for p, c in found.items() if c} == may, viewer.name


# -- a face-down discard from a hand the viewer knows some cards of ---------------------------


@pytest.mark.parametrize(
    ("players", "seed", "options", "seq", "seat", "card", "pile"),
    [
        pytest.param(2, 3, {}, 1263, 0, "Harpoon", "item_discard", id="the-beast-sees-an-item"),
        pytest.param(
            2,
            4,
            {"setup": "first"},
            1227,
            1,
            "Vanish",
            "talent_discard",
            id="a-hunter-sees-a-talent",
        ),
    ],
)
def test_a_seen_card_of_a_hand_that_discards_face_down_is_in_the_hand_or_the_discard(
    players: int, seed: int, options: dict[str, str], seq: int, seat: int, card: str, pile: str
) -> None:
    """The two face-down flees of tests/test_beast_knowledge.py (random playouts): a hand
    the viewer cannot see holds a card it saw arrive (taken from the open row) and one it
    did not, and flees by discarding one of them face down. Seed 3: hunter 1 held Harpoon
    and Bounty and discarded Harpoon, as the Beast sees it; seed 4: the Beast held Vanish
    and Mimicry and discarded Vanish, as the hunter sees it. The viewer cannot tell which
    went, but the seen card is one of the two: still in the hand or the one discarded.
    The model let it go (any unseen card of its kind, in the deck or another hand too); it
    is now a group of the hand's card and the discarded one, and every sample puts it in
    one of those two places, each of them in some."""
    log = playout(players, seed, False, 700, **options)[:seq]
    event = log[-1]
    assert isinstance(event, CardDiscardedFaceDown)
    assert event.card.get() == card
    viewer = Viewer("viewer", frozenset({seat}))
    state = dict(states(log))[seq]
    possible = known(log, viewer)
    assert_among(state, possible, "after the flee")
    kind = "item" if pile == "item_discard" else "talent"
    assert card not in dict(possible.unseen)[kind]
    (group,) = (g for g in possible.groups if card in g.cards)
    assert group.cards == (card,)
    assert sorted(holder(possible, t) for t in group.tokens) == sorted(
        [f"extras/{event.hand}", pile]
    )
    rnd = random.Random(seq)
    homes = set()
    for _ in range(50):
        world = VIEWS.sample(state, possible, viewer, rnd)
        in_hand = card in world.hands[event.hand].extras
        assert in_hand != (card in getattr(world, pile))
        assert beast_view(world, viewer) == beast_view(state, viewer)
        homes.add(in_hand)
    assert homes == {True, False}
