"""Helpers for the Beowulf tests: drive the Rules directly, build boards from pictures."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import msgspec

from skald.core.beowulf.data import catalog, face_of
from skald.core.beowulf.evolve import evolve
from skald.core.beowulf.rules import BeowulfRules
from skald.core.beowulf.state import BeowulfState, Placed
from skald.core.rng import Rng
from skald.events.beowulf import ActBegan
from skald.events.common import GameCreated
from skald.events.secret import seal

RULES = BeowulfRules()


class Game:
    """A game driven through initial/start/decide/evolve, keeping every event."""

    def __init__(
        self,
        players: int = 2,
        seed: str = "seed",
        options: dict[str, str] | None = None,
        state: BeowulfState | None = None,
    ) -> None:
        self.rng = Rng(seed.encode())
        created = GameCreated(
            game="beowulf",
            players=tuple(f"P{i}" for i in range(players)),
            options=tuple(sorted((options or {}).items())),
            seed=seal(seed, frozenset(), "00" * 16),
        )
        self.events: list[Any] = []
        if state is None:
            self.state = RULES.initial(created)
            self.apply(RULES.start(self.state, self.rng))
        else:
            self.state = state

    def apply(self, events: Iterable[Any]) -> None:
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)

    def move(self, text: str, seat: int | None = None) -> tuple[Any, ...]:
        """Play `text` for `seat` (default: the seat to act); return its events."""
        if seat is None:
            seat = min(RULES.to_act(self.state))
        events = RULES.decide(self.state, seat, RULES.parse(text), self.rng)
        self.apply(events)
        return events

    def legal(self, seat: int | None = None) -> list[str]:
        if seat is None:
            seat = min(RULES.to_act(self.state))
        return [RULES.format(c) for c in RULES.legal(self.state, seat)]


def tile_id(face: str, act: int | None = None, used: set[str] | None = None) -> str:
    """The id of a catalog tile with `face`, preferring one not in `used`.

    Pictures may show more copies of a face than the box holds (fillers like `0#`);
    then ids repeat, which only the tests' boards do.
    """
    matches = [t.id for t in catalog().values() if t.face == face and (act is None or t.act == act)]
    if not matches:
        raise KeyError(face)
    fresh = [m for m in matches if m not in (used or ())]
    return (fresh or matches)[0]


def board_state(
    picture: str,
    act: int = 1,
    seats: int = 2,
    hands: dict[int, list[str]] | None = None,
    turn: int = 0,
    pile: tuple[str, ...] = (),
    **changes: Any,
) -> BeowulfState:
    """A play-phase state from a board picture.

    Rows of whitespace-separated cells: `.` empty, a face like `+3` / `-2x` / `0#`, or a
    figure `brown:thane`-style as `b:T` (owner initial b/g/y/l = brown/green/gray/blue,
    kind W/T/C/D).
    """
    game = Game(players=seats)
    state = game.state
    state = evolve(state, ActBegan(act=act, first=turn))
    rows = [line.split() for line in picture.strip().splitlines()]
    tiles: list[str | None] = list(state.tiles)
    figures: list[Placed | None] = list(state.figures)
    used: set[str] = set()
    owners = {"b": 0, "g": 1, "y": 2, "l": 3}
    kinds = {"W": "beowulf", "T": "thane", "C": "castle", "D": "drakkar"}
    for r, row in enumerate(rows):
        assert len(row) == state.cols, f"row {r + 1} has {len(row)} cells, not {state.cols}"
        for c, cell in enumerate(row):
            square = r * state.cols + c
            if cell in (".", "##"):
                continue
            if ":" in cell:
                owner, kind = cell.split(":")
                figures[square] = Placed(owners[owner], kinds[kind])
            else:
                tiles[square] = tile_id(cell, used=used)
                used.add(tiles[square])  # type: ignore[arg-type]
    hand_ids = []
    for seat in range(seats):
        faces = (hands or {}).get(seat, [])
        ids = []
        for face in faces:
            ids.append(tile_id(face, used=used))
            used.add(ids[-1])
        hand_ids.append(tuple(ids))
    return msgspec.structs.replace(
        state,
        tiles=tuple(tiles),
        figures=tuple(figures),
        hands=tuple(hand_ids),
        pile=pile,
        turn=turn,
        **changes,
    )


def random_playout(
    players: int, seed: str, bot_seed: int = 0, options: dict[str, str] | None = None
) -> Game:
    """Play a whole game choosing uniformly among legal commands."""
    game = Game(players=players, seed=seed, options=options)
    rnd = random.Random(bot_seed)
    for _ in range(5000):
        if RULES.outcome(game.state) is not None:
            return game
        (seat,) = RULES.to_act(game.state)
        commands = list(RULES.legal(game.state, seat))
        command = rnd.choice(commands)
        game.apply(RULES.decide(game.state, seat, command, game.rng))
    raise AssertionError("game did not finish")


__all__ = ["Game", "board_state", "cell", "face_of", "hand_faces", "random_playout", "tile_id"]


def cell(state: BeowulfState, name: str) -> str:
    """What is on a square: a tile face, `owner:kind`, or `.`."""
    from skald.core.beowulf.board import Geometry
    from skald.core.beowulf.data import COLOURS, tile

    index = Geometry(state.rows, state.cols).index(name)
    assert index is not None
    figure = state.figures[index]
    if figure is not None:
        return f"{COLOURS[figure.seat]}:{figure.kind}"
    tile_id = state.tiles[index]
    return tile(tile_id).face if tile_id is not None else "."


def hand_faces(state: BeowulfState, seat: int) -> list[str]:
    """The faces in a seat's hand."""
    from skald.core.beowulf.data import tile

    return sorted(tile(t).face for t in state.hands[seat])
