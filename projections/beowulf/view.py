"""What each viewer sees of a Beowulf game, and its terminal rendering (seats by colour
and player's name, the tiles a viewer sees in its hands as printed).

Rulebook "Setup"/"Beginning Acts II and III": the board, the figures in front of each
player and the saga points are public; so are the backs of the tiles in every hand
(their act, by colour) and the size of the pile. A seat sees its own hand's faces; a
spectator sees only the public part; the referee sees every hand and the pile's order.
`view` is a pure function of the rules state and the viewer.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import Any

import msgspec

from skald.core.beowulf.board import Geometry
from skald.core.beowulf.data import (
    ABILITY_CODES,
    COLOURS,
    KIND_LETTERS,
    KINDS,
    ROMAN,
    act_spec,
    tile,
    tile_face,
)
from skald.core.beowulf.printed import ability_name, faces_words, supply_words
from skald.core.beowulf.state import BeowulfState, Placed
from skald.core.refusal import player_name
from skald.events.envelope import Envelope
from skald.events.viewer import Viewer
from skald.projections.beowulf import knowledge as beowulf_knowledge
from skald.projections.beowulf import possible_words
from skald.projections.beowulf.knowledge import BeowulfPossible
from skald.projections.registry import register_views

OWNER_LETTERS = {"brown": "b", "green": "g", "gray": "y", "blue": "l"}


class TileView(msgspec.Struct, frozen=True):
    """A tile on the board."""

    at: str
    face: str
    value: int
    ability: str | None


class FigureView(msgspec.Struct, frozen=True):
    """A figure on the board."""

    at: str
    owner: str
    kind: str


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    """One seat as the viewer sees it; `hand` is None when its faces are hidden."""

    seat: int
    colour: str
    points: int
    supply: dict[str, int]
    hand_backs: tuple[int, ...]
    hand: tuple[str, ...] | None = None


class BeowulfView(msgspec.Struct, frozen=True, kw_only=True):
    """Everything one viewer may know of the game now."""

    viewer: str
    act: int
    phase: str
    rows: int
    cols: int
    printed_throats: tuple[str, ...]
    tiles: tuple[TileView, ...]
    figures: tuple[FigureView, ...]
    pile_size: int
    seats: tuple[SeatView, ...]
    to_act: tuple[int, ...]
    drawn: bool
    pending: str | None
    pile: tuple[str, ...] | None = None


def view(state: BeowulfState, viewer: Viewer) -> BeowulfView:
    """The part of `state` that `viewer` is entitled to."""
    names = Geometry(state.rows, state.cols).names()
    tiles, figures = _board(state.rows, state.cols, state.tiles, state.figures)
    seats = tuple([_seat(state, seat, viewer) for seat in range(state.seats)])
    if state.phase == "refill":
        to_act = state.refills[:1]
    else:
        to_act = (state.turn,) if state.phase == "play" else ()
    return BeowulfView(
        viewer=viewer.name,
        act=state.act,
        phase=state.phase,
        rows=state.rows,
        cols=state.cols,
        printed_throats=tuple([names[sq] for sq in sorted(state.printed)]),
        tiles=tiles,
        figures=figures,
        pile_size=len(state.pile),
        seats=seats,
        to_act=to_act,
        drawn=state.drawn,
        pending=state.pending,
        pile=tuple([tile_face(t) for t in state.pile]) if viewer.referee else None,
    )


@functools.lru_cache(maxsize=64)
def _board(
    rows: int, cols: int, tiles: tuple[str | None, ...], figures: tuple[Placed | None, ...]
) -> tuple[tuple[TileView, ...], tuple[FigureView, ...]]:
    """The placed tiles and figures as every viewer sees them (public): built once per
    board, so the views of one state for several viewers (every seat's channel after a
    decision) share them."""
    names = Geometry(rows, cols).names()
    placed = tuple([_tile_view(names[sq], t) for sq, t in enumerate(tiles) if t is not None])
    standing = tuple(
        [
            FigureView(names[sq], COLOURS[f.seat], f.kind)
            for sq, f in enumerate(figures)
            if f is not None
        ]
    )
    return placed, standing


@functools.lru_cache(maxsize=8192)  # a board's squares times the box's tiles, at most
def _tile_view(at: str, tile_id: str) -> TileView:
    """A placed tile as every viewer sees it (frozen, so one copy serves every view)."""
    placed = tile(tile_id)
    return TileView(at, placed.face, placed.value, placed.ability)


def _seat(state: BeowulfState, seat: int, viewer: Viewer) -> SeatView:
    visible = viewer.sees(frozenset({seat}))
    return _seat_view(seat, state.points[seat], state.supply[seat], state.hands[seat], visible)


@functools.lru_cache(maxsize=4096)
def _seat_view(
    seat: int, points: int, supply: tuple[int, ...], hand: tuple[str, ...], visible: bool
) -> SeatView:
    """One seat as a viewer sees it (frozen and kept: after a decision, the seats it did
    not change are the views' seats of the decision before)."""
    return SeatView(
        seat=seat,
        colour=COLOURS[seat],
        points=points,
        supply=dict(zip(KINDS, supply, strict=True)),
        hand_backs=tuple(sorted([tile(t).act for t in hand])),
        hand=tuple([tile_face(t) for t in hand]) if visible else None,
    )


def render(current: BeowulfView, players: Sequence[str]) -> str:
    """A terminal board with coordinates, a legend, and each seat by its colour and
    player's name with its saga points, supply and hand (tiles the viewer sees as printed)."""
    if current.act == 0:
        return "Beowulf: not started"
    labels = [f"{seat.colour} ({player_name(players, seat.seat)})" for seat in current.seats]
    lines = [_title(current, labels), *_grid(current), _legend(current, labels)]
    width = max(map(len, labels), default=0)
    for seat, label in zip(current.seats, labels, strict=True):
        backs = ", ".join(ROMAN[a] for a in seat.hand_backs) or "none"
        hand = f"{len(seat.hand_backs)} tiles" if seat.hand is None else faces_words(seat.hand)
        marker = ">" if seat.seat in current.to_act else " "
        supply = supply_words(seat.supply)
        lines.append(
            f"{marker} {label:<{width}} {seat.points:>4} saga points  supply {supply}"
            f"  hand {hand or '(empty)'} (backs {backs})"
        )
    if current.pile is not None:
        lines.append("pile (top first): " + (faces_words(current.pile) or "(empty)"))
    return "\n".join(lines)


def _title(current: BeowulfView, labels: list[str]) -> str:
    name = act_spec(current.act).name
    status = {
        "play": "to play",
        "refill": "chooses refill or keep",
        "over": "game over",
        "between": "between acts",
    }.get(current.phase, current.phase)
    who = ", ".join(labels[s] for s in current.to_act)
    extra = " (drew: must play a tile)" if current.drawn else ""
    if current.pending:
        extra = f" (may use the {ability_name(current.pending)}: swap/remove or skip)"
    doing = " ".join(filter(None, (who, status)))
    return f"Beowulf — Act {ROMAN[current.act]}: {name} — {doing}{extra} — pile {current.pile_size}"


def _grid(current: BeowulfView) -> list[str]:
    cells: dict[str, str] = {at: "##" for at in current.printed_throats}
    cells.update({t.at: t.face for t in current.tiles})
    cells.update({f.at: OWNER_LETTERS[f.owner] + KIND_LETTERS[f.kind] for f in current.figures})
    board = Geometry(current.rows, current.cols)
    header = "    " + "".join(f"{chr(65 + c):>5}" for c in range(current.cols))
    rows = [header]
    for r in range(current.rows):
        row = "".join(
            f"{cells.get(board.name(r * current.cols + c), '.'):>5}" for c in range(current.cols)
        )
        rows.append(f"{r + 1:>3} {row}")
    return rows


def _legend(current: BeowulfView, labels: list[str]) -> str:
    """The board's letters: the figures' owners (the seats at this table, by colour and
    name), kinds and the tiles' ability codes."""
    owners = " ".join(
        f"{OWNER_LETTERS[seat.colour]}={label}"
        for seat, label in zip(current.seats, labels, strict=True)
    )
    abilities = " ".join(f"{code}={name.replace('_', ' ')}" for name, code in ABILITY_CODES.items())
    kinds = " ".join(f"{letter}={kind}" for kind, letter in KIND_LETTERS.items())
    return f"legend: figures {owners} + {kinds}; ## printed throat; tiles value+{abilities}"


def perturb_hidden(state: BeowulfState, viewer: Viewer, rnd: random.Random) -> BeowulfState:
    """Shuffle the pile and trade hidden hand tiles with pile tiles of the same act colour
    (the backs every viewer sees stay the same)."""
    if viewer.referee:
        return state
    pile = list(state.pile)
    rnd.shuffle(pile)
    hands = [list(hand) for hand in state.hands]
    for seat, hand in enumerate(hands):
        if viewer.sees(frozenset({seat})):
            continue
        for index, held in enumerate(hand):
            same_back = [i for i, t in enumerate(pile) if tile(t).act == tile(held).act]
            if same_back:
                swap = rnd.choice(same_back)
                hand[index], pile[swap] = pile[swap], held
    return msgspec.structs.replace(
        state, pile=tuple(pile), hands=tuple(tuple(hand) for hand in hands)
    )


class BeowulfViews:
    """The registered view functions."""

    def view(self, state: Any, viewer: Viewer) -> BeowulfView:
        """What `viewer` sees."""
        return view(state, viewer)

    def render(self, current: Any, players: Sequence[str]) -> str:
        """The terminal rendering, seats by colour and player's name."""
        return render(current, players)

    def perturb_hidden(
        self, state: BeowulfState, viewer: Viewer, rnd: random.Random
    ) -> BeowulfState:
        """The pile reordered, and hidden hand tiles traded with pile tiles of the same back."""
        return perturb_hidden(state, viewer, rnd)

    def possible(self, log: Sequence[Envelope[Any]], viewer: Viewer) -> BeowulfPossible:
        """The unseen tiles and each other hand's possible tiles (`beowulf_knowledge`)."""
        return beowulf_knowledge.possible(log, viewer)

    def knowledge_fold(self) -> beowulf_knowledge.BeowulfFold:
        """`possible` folded an envelope at a time (`beowulf_knowledge.BeowulfFold`)."""
        return beowulf_knowledge.BeowulfFold()

    def sample(
        self, state: BeowulfState, possible: BeowulfPossible, viewer: Viewer, rnd: random.Random
    ) -> BeowulfState:
        """A world uniform over the consistent deals (`beowulf_knowledge.sample`)."""
        return beowulf_knowledge.sample(state, possible, viewer, rnd)

    def describe(self, possible: Any, players: Sequence[str]) -> str:
        """What could be true, as lines a player reads (`possible_words`)."""
        return possible_words.describe(possible, players)


@register_views("beowulf")
def beowulf_views() -> BeowulfViews:
    """The Beowulf views."""
    return BeowulfViews()
