"""Contract setup exceptions, the token supplies, the item/talent discards and reshuffles,
and the hunters' reactions, as scenarios on the reconstructed Drenched Lands map.

Drenched Lands (north up; S settlement, F forest, W swamp, C cave, * centre, ~ no land):

        A     B     C     D     E
    1   S     W     ~     F     S        zones: West = columns A-B (+C2),
    2   F     C     W     W     F               East = columns D-E (+C4);
    3   W     F     *     C     W               the centre C3 is in both.
    4   C     W     W     F     C
    5   S     F     ~     W     S
"""

from __future__ import annotations

from skald.core.beast.data import Contract, boards, contracts
from skald.core.beast.state import BEAST, Piece
from skald.core.beast.supply import GRUDGE_VALUE
from skald.core.rng import Rng
from skald.events.beast import (
    BeastMoved,
    CardGained,
    CardPlayed,
    DeckShuffled,
    GrudgesGained,
    LocationsTransformed,
    ReactionsInvited,
    RowDealt,
    Step,
    TrailsPlaced,
    TrapCard,
)
from skald.events.viewer import SPECTATOR, Viewer
from skald.projections.beast.view import beast_view
from tests.test_beast_secrecy import public_log
from tests.test_beast_support import BeastGame, day_one

HUNTERS = Viewer("hunters", frozenset({1, 2}))

# -- 1. contract setup exceptions ----------------------------------------------------


def test_a_contract_setup_can_leave_pieces_off_the_map() -> None:
    """Drowned Harvest (reconstructed) leaves E5 empty and every bear off the map."""
    board = boards()["drenched-lands"]
    harvest = BeastGame(3, contract="drowned-harvest").state
    cleansing = BeastGame(3, contract="great-cleansing").state
    assert contracts()["drowned-harvest"].reconstructed
    assert not any(p.location == "E5" or p.kind == "bear" for p in harvest.pieces)
    assert any(p.location == "E5" for p in cleansing.pieces)
    assert any(p.kind == "bear" for p in cleansing.pieces)
    expected = [
        Piece(kind, loc)
        for loc in board.locations
        for kind in board.pieces.get(loc, ())
        if loc != "E5" and kind != "bear"
    ]
    assert list(harvest.pieces) == expected


def test_leave_off_names_a_kind_a_location_or_one_kind_on_one_location() -> None:
    terms = Contract(
        name="x",
        title="x",
        map="drenched-lands",
        days=1,
        settler_kills=1,
        beast_lives=1,
        beast_grudges=0,
        hunter_grudges=0,
        night=(),
        leave_off=("B2/sheep", "A1"),
    )
    assert terms.leaves_off("B2", "sheep")
    assert not terms.leaves_off("C2", "sheep")
    assert terms.leaves_off("A1", "noble")
    assert not terms.leaves_off("E1", "noble")


# -- 2. supplies ---------------------------------------------------------------------


def test_trail_supply_runs_out_at_thirty_and_then_no_trail_is_placed() -> None:
    """29 trails on A1; two cards on C3 and one on B3 (the Beast's actual location)."""
    game = day_one(hunters="Iona,Helga")
    active = (*(Step("N", "A1"),) * 29, Step("E", "C3"), Step("E", "C3"), Step("W", "B3"))
    game.edit(active=active, trailed=tuple(range(29)), turn=1, standee="A1")
    game.edit_hand(BEAST, location="B3")
    game.edit_hand(1, location="B3", actions=("Rush",))
    game.do("play Rush")
    events = game.do("step E")  # C3: two due, one left
    assert TrailsPlaced(locations=("C3",)) in events
    assert game.state.trailed == tuple(range(30))  # the earlier C3 card has it
    events = game.do("step W")  # B3: due, but none left
    assert TrailsPlaced(locations=()) in events
    assert len(game.state.trailed) == 30
    assert sum(n for _, n in beast_view(game.state, HUNTERS).trails) == 30


def _fill_habitat_tokens(game: BeastGame, keep: tuple[str, ...], traps: int) -> None:
    """Tokens on every location but `keep`, and `traps` traps (East first)."""
    board = game.state.board
    tokens = tuple((loc, "swamp") for loc in board.locations if loc not in keep)
    placed = tuple((zone, TrapCard("Spike Trap", "cave")) for zone in ("E", "W") for _ in range(3))[
        :traps
    ]
    game.edit(habitats=tokens, traps=placed)


def test_habitat_supply_limits_transforms_and_a_swap_needs_no_new_token() -> None:
    """26 of 27 tokens out: Insidious Growth at C4 gets C4, and swaps B4's token."""
    game = day_one(hunters="Iona,Helga", beast_steps=("S",))  # actual C4
    nearby = game.state.board.nearby("C4")  # C4, C3, D4, B4
    _fill_habitat_tokens(game, keep=nearby[:-1], traps=6)  # 20 + 6 = 26 tokens out
    events = game.do("play Insidious Growth", "do")
    assert LocationsTransformed(locations=("C4", "B4"), habitat="forest") in events
    assert game.state.habitat("C3") == "centre"
    assert game.state.habitat("D4") == "forest"
    assert game.state.habitat("D4") == boards()["drenched-lands"].habitat["D4"]
    assert game.state.habitat("B4") == "forest"


def test_no_trap_can_be_set_without_a_habitat_token() -> None:
    game = day_one(hunters="Iona,Helga")
    _fill_habitat_tokens(game, keep=(), traps=4)  # 23 + 4 = 27: none left
    game.edit(turn=1)
    game.edit_hand(1, extras=("Fire Trap",), grudges=1)
    game.do("play Fire Trap")
    assert game.legal() == ["skip"]
    game = day_one(hunters="Iona,Helga")
    _fill_habitat_tokens(game, keep=("A1",), traps=4)  # one token left
    game.edit(turn=1)
    game.edit_hand(1, extras=("Fire Trap",), grudges=1)
    game.do("play Fire Trap")
    assert "trap West forest" in game.legal()
    assert "trap East forest" not in game.legal()


def test_grudge_gains_stop_at_the_supply_value() -> None:
    game = day_one(hunters="Iona,Helga")
    game.edit_hand(BEAST, grudges=GRUDGE_VALUE - 3)
    game.edit_hand(2, grudges=2)
    game.edit(turn=1)
    game.edit_hand(1, extras=("Bounty",), grudges=0)
    events = game.do("play Bounty", "do")
    assert GrudgesGained(hand=1, amount=1) in events
    assert sum(h.grudges for h in game.state.hands) == GRUDGE_VALUE


# -- 3. item and talent discards, reshuffles ------------------------------------------


def test_an_empty_item_deck_is_reshuffled_from_its_face_down_discards() -> None:
    game = day_one(hunters="Iona,Helga")
    discards = ("Horse", "Lantern", "Torch")
    game.edit(item_deck=(), item_discard=discards, turn=1)
    game.edit_hand(1, actions=("Avarice",))
    shuffles = game.state.shuffles
    game.do("play Avarice")
    events = game.do("take deck")
    shuffled = next(e for e in events if isinstance(e, DeckShuffled))
    order = Rng(b"test").shuffle(f"beast/reshuffle/item/{shuffles}", discards)
    assert shuffled.deck == "item"
    assert shuffled.order.audience == frozenset()
    assert shuffled.order.get() == order
    assert DeckShuffled.barrier
    gained = next(e for e in events if isinstance(e, CardGained))
    assert gained.card.get() == order[0]
    assert not gained.from_row
    assert game.state.item_deck == order[1:]
    assert game.state.item_discard == ()
    assert game.state.shuffles == shuffles + 1
    assert "Horse" not in public_log(game.log[-len(events) :], SPECTATOR).decode()


def test_played_items_and_the_night_row_go_face_down_and_refill_by_reshuffle() -> None:
    game = day_one(hunters="Iona,Helga")
    game.edit(turn=1)
    game.edit_hand(1, extras=("Horse",))
    game.do("play Horse", "skip", "end")
    assert game.state.item_discard == ("Horse",)
    row = game.state.item_row
    game.edit(item_deck=("Lantern",), turn=0, slots=())
    for hand in range(3):
        game.edit_hand(hand, actions=())
    events = game.do("pass", "pass", "pass")  # the night falls
    dealt = [e for e in events if isinstance(e, RowDealt) and e.deck == "item"]
    assert dealt[0].cards == ("Lantern",)
    assert len(dealt[1].cards) == 2
    assert any(isinstance(e, DeckShuffled) and e.deck == "item" for e in events)
    state = game.state
    assert state.item_row[0] == "Lantern"
    assert set(state.item_row[1:]) <= {"Horse", *row}
    assert len(state.item_deck) == 4 - 2
    assert state.item_discard == ()


# -- 4. hunters' reactions --------------------------------------------------------------


def test_a_hunter_reacts_to_the_beasts_attack_before_it_resolves() -> None:
    """Fangrir (revealed at C3) plays Prey Upon; Helga, on C3, sounds the Warning Horn."""
    game = day_one(hunters="Iona,Helga")
    game.edit_hand(2, location="C3", extras=("Warning Horn",))
    events = game.do("play Prey Upon")
    assert events[-1] == ReactionsInvited(trigger="attack", hands=(2,))
    assert game.seat() == 2
    assert game.legal(0) == []
    assert game.legal(1) == []
    assert game.legal(2) == ["react Warning Horn", "decline"]
    game.do("react Warning Horn")
    assert [f.card for f in game.state.frames] == ["Prey Upon", "Warning Horn"]
    game.do("step W")  # C3 -> B3, before the attack
    assert game.state.frames[-1].card == "Prey Upon"
    assert game.seat() == 0
    assert game.state.item_discard == ("Warning Horn",)
    game.do("skip")  # Prey Upon's step
    assert "attack Helga" not in game.legal()


def test_each_hunter_with_items_is_asked_in_turn_and_can_decline() -> None:
    game = day_one(hunters="Iona,Helga")
    game.edit_hand(1, extras=("Horse",))
    game.edit_hand(2, extras=("Warning Horn",))
    game.do("play Prey Upon")
    assert game.state.reactors == (1, 2)
    assert game.legal(1) == ["decline"]
    game.do("decline", seat=1)
    assert game.legal(2) == ["react Warning Horn", "decline"]
    game.do("decline", seat=2)
    assert game.state.window == ""
    assert game.seat() == 0


def test_no_window_for_a_beast_card_without_an_attack() -> None:
    game = day_one(hunters="Iona,Helga")
    game.edit_hand(1, extras=("Warning Horn",))
    events = game.do("play Dash")
    assert not any(isinstance(e, ReactionsInvited) for e in events)
    assert game.seat() == 0


def _hidden_attack(path: tuple[str, ...]) -> BeastGame:
    game = day_one(hunters="Iona,Helga", beast_steps=path, places=("A1", "E5"))
    game.edit_hand(1, extras=("Warning Horn",))
    game.do("play Charge")
    return game


def test_the_hunters_window_opens_on_the_public_card_and_leaks_nothing_hidden() -> None:
    north_south, south_north = _hidden_attack(("N", "S")), _hidden_attack(("S", "N"))
    assert north_south.state.active != south_north.state.active
    for game in (north_south, south_north):
        tags = [type(e).__name__ for e in game.log]
        played = max(i for i, e in enumerate(game.log) if isinstance(e, CardPlayed))
        assert tags[played + 1] == "ReactionsInvited"  # straight after the card
        assert not any(isinstance(e, BeastMoved) for e in game.log[played:])
    for viewer in (HUNTERS, Viewer("Bob", frozenset({1})), SPECTATOR):
        assert beast_view(north_south.state, viewer) == beast_view(south_north.state, viewer)
        assert public_log(north_south.log, viewer) == public_log(south_north.log, viewer)
    assert north_south.legal(1) == south_north.legal(1) == ["react Warning Horn", "decline"]
    north_south.do("react Warning Horn", "step S")  # Iona A1 -> A2: public
    assert north_south.seat() == 0
    assert north_south.state.frames[-1].card == "Charge"
