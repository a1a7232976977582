"""Setting up a game of Beast (rulebook "Setup", "Global components", "Player setup",
"First Time Playing?").

Table options: `contract` (great-cleansing, northern-settlements, blood-moon,
drowned-harvest; default by player count as the rulebook recommends), `beast` (a Beast
name), `hunters` (comma-separated names), `setup=first` (the rulebook's first game: the
recommended characters unless `beast`/`hunters` say otherwise, and the listed starting
cards by seat order instead of the first draft), `hunter_return` (`printed`, the default,
or `centre`: where a hunter returns when the Beast has transformed every settlement; see
`BeastState.return_places`). Seat 0 plays the Beast; with 2 players
seat 1 controls two hunters, with 3 one hunter each, with 4 three hunters. Contracts may
leave pieces off the map at setup (`leave_off` in contracts.toml).

The opening: the setup chosen, the item and talent decks shuffled face down with three
cards of each dealt face up to their rows, then the Beast's starting moves (`flow.settle`
runs until the first decision).
"""

from __future__ import annotations

from skald.core.beast.data import beast_mat, cards, characters, contracts, hunter_mat
from skald.core.beast.decide import begin
from skald.core.beast.flow import settle
from skald.core.beast.state import HUNTER_RETURN, BeastState
from skald.core.errors import InvalidOption
from skald.core.rng import Rng
from skald.events.base import Event
from skald.events.beast import DeckShuffled, GameSetUp, RowDealt
from skald.events.common import GameCreated

HUNTER_SEATS = {2: (1, 1), 3: (1, 2), 4: (1, 2, 3)}


def initial(created: GameCreated) -> BeastState:
    """The state before setup (the table options are read by `opening`)."""
    return BeastState(players=len(created.players), options=created.options)


def opening(state: BeastState, rng: Rng) -> tuple[Event, ...]:
    """Contract, characters, item and talent decks and rows, up to the first decision."""
    tx = begin(state, rng)
    tx.emit(setup_event(state))
    for deck, group in (("item", cards().item), ("talent", cards().talent)):
        order = tx.shuffle([card.name for card in group])
        tx.emit(
            DeckShuffled(deck=deck, order=tx.seal(order, frozenset())),
            RowDealt(deck=deck, cards=order[:3]),
        )
    settle(tx)
    return tx.result()


def setup_event(state: BeastState) -> GameSetUp:
    """The setup chosen by the table options (InvalidOption names a bad option)."""
    chosen = dict(state.options)
    if chosen.get("setup", "first") not in ("", "first"):
        raise InvalidOption(
            f"option setup={chosen['setup']!r}: the only setup option is "
            "'first' (the rulebook's first game)"
        )
    first = chosen.get("setup", "") == "first"
    if chosen.get("hunter_return", HUNTER_RETURN[0]) not in HUNTER_RETURN:
        raise InvalidOption(
            f"option hunter_return={chosen['hunter_return']!r}: where a hunter returns when "
            f"no settlement is left, one of {', '.join(HUNTER_RETURN)}"
        )
    large = state.players == 4
    default = characters().first_time["large" if large else "small"]
    contract = chosen.get("contract", "northern-settlements" if large else "great-cleansing")
    if contract not in contracts():
        raise InvalidOption(
            f"option contract={contract!r}: known contracts are {', '.join(contracts())}"
        )
    beast = chosen.get("beast", default.beast)
    hunters = tuple(h.strip() for h in chosen.get("hunters", ",".join(default.hunters)).split(","))
    seats = HUNTER_SEATS[state.players]
    try:
        beast_mat(beast)
        for hunter in hunters:
            hunter_mat(hunter)
    except KeyError as missing:
        raise InvalidOption(f"option beast/hunters: unknown character {missing}") from None
    if len(hunters) != len(seats) or len(set(hunters)) != len(hunters):
        raise InvalidOption(
            f"option hunters={','.join(hunters)}: {state.players} players need "
            f"{len(seats)} different hunters"
        )
    return GameSetUp(
        contract=contract,
        beast=beast,
        hunters=hunters[: len(seats)],
        controllers=seats,
        first_time=first,
    )
