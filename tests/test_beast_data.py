"""Beast content: the component counts of the rulebook, both maps' geometry, and every
card (each named one included) playable and resolvable by the one effect engine."""

from __future__ import annotations

import pytest

from skald.core.beast.data import (
    EFFECT_OPS,
    abilities_of,
    boards,
    card_index,
    cards,
    characters,
    contracts,
    kind_of,
)
from skald.core.beast.state import BEAST
from tests.test_beast_support import BeastGame, day_one

NAMED = (
    "Rush",
    "Hunt",
    "Silver Arrow",
    "Prey Upon",
    "Gather the Pack",
    "Summon Wolf",
    "Insidious Growth",
    "Track",
    "Seer",
    "Outpost",
    "Fire Trap",
    "Intuition",
    "Charge",
    "Dash",
    "Pursuit",
    "Dark Dealings",
    "Incite",
    "Prowl",
    "Hidden Passage",
    "Adapt",
    "Bolster",
    "Haste",
    "Avarice",
    "Animate",
    "Dark Rituals",
    "Ensnare",
)


def test_component_counts_match_the_rulebook() -> None:
    every = cards()
    assert len(every.action) == 16
    assert len(every.item) == 25
    assert len(every.talent) == 25
    hunters = [c for c in every.ability if c.owner in {h.name for h in characters().hunter}]
    beasts = [c for c in every.ability if c.owner in {b.name for b in characters().beast}]
    assert len(hunters) == 18
    assert len(beasts) == 24
    assert len(characters().beast) == 6
    assert len(characters().hunter) == 6
    assert sum(b.summon.count for b in characters().beast) == 15
    assert {c.title for c in contracts().values()} >= {
        "The Great Cleansing",
        "Attack on the Northern Settlements",
    }
    assert len(card_index()) == 16 + 42 + 25 + 25  # names are unique
    for name in NAMED:
        assert name in card_index(), name
    for card in (*every.ability, *every.item, *every.talent):
        assert all(e.op in EFFECT_OPS for e in card.effects), card.name
    assert abilities_of("Fangrir") == (
        "Prey Upon",
        "Gather the Pack",
        "Summon Wolf",
        "Insidious Growth",
    )


def test_maps_have_their_zones_and_a_centre_in_every_adjacent_zone() -> None:
    north, drenched = boards()["northern-expanse"], boards()["drenched-lands"]
    assert len(north.zones) == 4
    assert len(drenched.zones) == 2
    assert len(north.zones_of(north.centre)) == 3  # "the three adjacent zones"
    assert len(drenched.zones_of(drenched.centre)) == 2
    for board in (north, drenched):
        assert board.habitat[board.centre] == "centre"
        assert set(board.distances(board.centre)) == set(board.locations)  # connected
        for here, roads in board.roads.items():
            for there in roads.values():
                assert here in board.roads[there].values()  # roads go both ways
    for contract in contracts().values():
        assert contract.map in boards()
        assert contract.days >= len(contract.night)


def _resolve(game: BeastGame) -> None:
    """Resolve the top card taking the first option that does something."""
    for _ in range(30):
        if not game.state.frames and not game.state.window:
            return
        legal = game.legal()
        doing = [m for m in legal if m not in ("skip", "stop", "decline")]
        game.do((doing or legal)[0])
    raise AssertionError("the card never finished")


def _holder(name: str, beast: bool) -> tuple[BeastGame, int]:
    owner = card_index()[name][1]
    owner_name = getattr(owner, "owner", "")
    options = {"hunters": "Iona,Helga"}
    if owner_name and beast:
        options["beast"] = owner_name
    elif owner_name:
        options["hunters"] = f"{owner_name},{'Iona' if owner_name != 'Iona' else 'Helga'}"
    game = day_one(beast_steps=("W",), **options)  # actual B3 (forest)
    game.edit(discard=("Rush",))
    hand = BEAST if beast else 1
    if not beast:
        game.edit(turn=1)
        game.edit_hand(1, location="B3")
    return game, hand


@pytest.mark.parametrize("name", sorted(card_index()))
def test_every_card_can_be_played_and_resolved(name: str) -> None:
    kind = kind_of(name)
    sides = (
        [True, False]
        if kind == "action"
        else [
            kind == "talent"
            or (
                kind == "ability"
                and card_index()[name][1].owner in {b.name for b in characters().beast}
            )
        ]
    )
    for beast in sides:
        game, hand = _holder(name, beast)
        field = {"action": "actions", "ability": "abilities"}.get(kind, "extras")
        game.edit_hand(hand, **{field: (name,)}, grudges=5)
        card = card_index()[name][1]
        needs = getattr(card, "needs", "")
        if needs:  # A1 a settlement; the centre all the rest
            game.edit_hand(hand, location="A1" if needs == "settlement" else "C3")
        if getattr(card, "react", ""):
            assert f"play {name}" not in game.legal()
            continue
        game.do(f"play {name}")
        _resolve(game)
        assert not game.state.frames
        assert name not in getattr(game.hand(hand), field)
