"""Checking commands and deriving their events (rulebook "Turn Sequence", "Special Abilities").

`decide` is the only place the rules are checked. After a turn's last event it also
decides what comes next: the placed tile's optional follow-up is offered (Golden Statue
swap, Temptation/Courage removal) when it has a target, or the act ends when the last
space is filled or no seat could do anything but pass, or the next seat's turn begins.
On the last space: a Golden Statue still offers its swap ("they may immediately swap";
the board stays full, and the act ends right after the swap or the skip); a Temptation
or Courage removal would empty a space and so undo the act's end, which the rulebook
says is immediate: it is forfeited by default, and offered with the table option
`last_space=offer` (then the act goes on until the board is full again). The rulebook
is silent on this case. Placing a Good Counsel tile is only possible by moving a figure.
Every tile play out of a hand (placed, Good Counsel, cashed) shows the tile: it is an undo
barrier (`revealed=True`), while placing a figure, swapping, removing and passing stay
undoable.
When the hand holds one face from two acts the player chooses the copy: the backs are
public, so the notation names the back (`play +3@1 C3`); among copies of one act the first
in hand is played (never chosen by id, see `state.hand_tile`).
Between acts (rulebook "Beginning Acts II and III") a seat below two tiles refills from
the new pile or keeps its hand.
"""

from __future__ import annotations

from skald.core.beowulf.commands import (
    CashTreasure,
    Command,
    Counsel,
    Draw,
    Keep,
    Pass,
    PlaceFigure,
    PlayTile,
    Refill,
    Remove,
    Skip,
    Swap,
    format_command,
)
from skald.core.beowulf.data import KINDS, ROMAN, colour_of, faces, tile
from skald.core.beowulf.evolve import evolve
from skald.core.beowulf.legal import (
    REMOVES,
    could_act,
    has_action,
    may_draw,
    may_place_figure,
    may_play_tile,
)
from skald.core.beowulf.printed import face_words, faces_words
from skald.core.beowulf.scoring import close_act
from skald.core.beowulf.setup import deal, pile_index
from skald.core.beowulf.state import (
    HAND_TARGET,
    BeowulfState,
    faces_in_hand,
    geometry,
    hand_tile,
    has_free_square,
    is_free,
    kind_count,
    squares_with,
)
from skald.core.derive import Derivation
from skald.core.errors import IllegalMove, Seat
from skald.core.rng import Rng
from skald.events.base import Event
from skald.events.beowulf import (
    AbilityDeclined,
    AbilityOffered,
    FigureMoved,
    FigurePlaced,
    RefillDeclined,
    TileDrawn,
    TilePlaced,
    TileRemoved,
    TilesSwapped,
    TreasureCashed,
    TurnBegan,
    TurnPassed,
)

Turn = Derivation[BeowulfState]


class _Check:
    """Builds IllegalMove messages naming the command, the player and the act."""

    def __init__(self, state: BeowulfState, seat: int, command: Command) -> None:
        self.state, self.seat, self.command = state, seat, command

    def fail(self, *reason: str | Seat) -> IllegalMove:
        """`'play +3 C3' by Ann (brown, Act I): ...` (the engine writes the name)."""
        return IllegalMove(
            f"{format_command(self.command)!r} by ",
            Seat(self.seat),
            f" ({colour_of(self.seat)}, {_when(self.state)}): ",
            *reason,
        )

    def unknown(self) -> None:
        """Refuse a command that names a tile face not in the game or a space not on this
        board, saying so (whatever else would also refuse it)."""
        problems = [
            f"{face} is not a Beowulf tile{_in_act(face)}"
            for face in _faces(self.command)
            if not _in_game(face)
        ]
        problems += [
            f"{name} is not on the board{self._size()}"
            for name in _squares(self.command)
            if geometry(self.state).index(name) is None
        ]
        if problems:
            raise self.fail("; ".join(problems))

    def _size(self) -> str:
        state = self.state
        return (
            f" of Act {ROMAN.get(state.act, state.act)} ({state.rows} rows by {state.cols} "
            f"columns: A-{chr(64 + state.cols)}, 1-{state.rows})"
        )

    def square(self, name: str) -> int:
        index = geometry(self.state).index(name)
        if index is None:
            raise self.fail(f"{name} is not on the board{self._size()}")
        return index

    def free(self, name: str) -> int:
        index = self.square(name)
        if not is_free(self.state, index):
            raise self.fail(f"{name} is not a free space")
        return index

    def in_hand(self, face: str) -> str:
        tile_id = hand_tile(self.state, self.seat, face)
        if tile_id is None:
            faces = faces_in_hand(self.state, self.seat)
            named = [f for f in faces if f.startswith(f"{face}@")]
            if named:
                raise self.fail(
                    f"{face} is in hand from two acts: name the back ({', '.join(named)})"
                )
            raise self.fail(
                f"no {face_words(face)} tile in hand (your hand: {faces_words(faces) or 'empty'})"
            )
        return tile_id


def decide(state: BeowulfState, seat: int, command: Command, rng: Rng) -> tuple[Event, ...]:
    """Validate `command` for `seat` and return its events; raises IllegalMove."""
    d = Derivation(state, rng, evolve)
    check = _Check(state, seat, command)
    check.unknown()
    if state.phase == "refill":
        _refill(d, seat, command, check)
    elif state.phase != "play":
        raise check.fail("the game is not in play")
    elif seat != state.turn:
        raise check.fail("it is ", Seat(state.turn), "'s turn")
    elif state.pending is not None:
        _follow_up(d, seat, command, check)
    else:
        _turn(d, seat, command, check)
    return d.result()


def _turn(d: Turn, seat: int, command: Command, check: _Check) -> None:
    state = d.state
    match command:
        case PlaceFigure(kind=kind, at=at):
            if not may_place_figure(state, seat):
                raise check.fail("after drawing a tile a tile must be played, not a figure")
            if kind not in KINDS or kind_count(state, seat, kind) == 0:
                raise check.fail(f"no {kind} left in the supply")
            d.emit(FigurePlaced(seat=seat, kind=kind, at=_name(state, check.free(at))))
            _conclude(d, seat)
        case Draw():
            if not may_draw(state, seat):
                raise check.fail(_why_no_draw(state))
            index = pile_index(state)
            drawn = d.seal(state.pile[0], {seat}, f"act{state.act}/tile{index}")
            d.emit(TileDrawn(seat=seat, act=state.act, tile=drawn))
        case PlayTile() | CashTreasure() | Counsel():
            if not may_play_tile(state):
                raise check.fail(
                    "draw a tile first: tiles are played without a draw only "
                    "when the pile is exhausted"
                )
            _play(d, seat, command, check)
        case Pass():
            if has_action(state, seat):
                raise check.fail("passing is only allowed when nothing else can be done")
            d.emit(TurnPassed(seat=seat))
            _next_turn(d, seat)
        case _:
            raise check.fail("not possible now")


def _play(d: Turn, seat: int, command: Command, check: _Check) -> None:
    state = d.state
    match command:
        case CashTreasure(tile=face):
            tile_id = check.in_hand(face)
            if tile(tile_id).ability != "treasure":
                raise check.fail(f"{face} is not a Treasure tile")
            d.emit(
                TreasureCashed(
                    seat=seat, tile=tile_id, points=tile(tile_id).treasure, revealed=True
                )
            )
            _conclude(d, seat)
        case Counsel(tile=face, source=source, target=target):
            tile_id = check.in_hand(face)
            if tile(tile_id).ability != "good_counsel":
                raise check.fail(f"{face} is not a Good Counsel tile")
            origin = check.square(source)
            figure = state.figures[origin]
            if figure is None or figure.seat != seat:
                raise check.fail(f"none of their figures stands on {source}")
            destination = check.free(target)
            if destination not in geometry(state).neighbours(origin):
                raise check.fail(f"{target} is not orthogonally adjacent to {source}")
            d.emit(
                FigureMoved(seat=seat, source=source, target=target),
                TilePlaced(seat=seat, tile=tile_id, at=source, revealed=True),
            )
            _conclude(d, seat)
        case PlayTile(tile=face, at=at):
            _place_tile(d, seat, check.in_hand(face), at, check)
        case _:
            raise check.fail("not a tile play")


def _place_tile(d: Turn, seat: int, tile_id: str, at: str, check: _Check) -> None:
    state = d.state
    ability = tile(tile_id).ability
    if ability == "good_counsel":
        raise check.fail("Good Counsel is played only by moving a figure: counsel FACE FROM TO")
    square = check.square(at)
    occupant = state.tiles[square]
    offer = _offer(state, seat, tile_id, square)
    if ability == "drunkenness" and occupant is not None and tile(occupant).ability == "beer":
        d.emit(TileRemoved(seat=seat, tile=occupant, at=at))
    else:
        check.free(at)
    d.emit(TilePlaced(seat=seat, tile=tile_id, at=at, revealed=True))
    _conclude(d, seat, offer=offer)


def _offer(state: BeowulfState, seat: int, tile_id: str, square: int) -> AbilityOffered | None:
    """The placed tile's optional follow-up, judged on the board before it was placed."""
    ability = tile(tile_id).ability
    if ability in REMOVES:
        has_target = bool(squares_with(state, REMOVES[ability]))
    elif ability == "golden_statue":
        has_target = sum(t is not None for t in state.tiles) >= 2
    else:
        has_target = False
    if not has_target or ability is None:
        return None
    return AbilityOffered(seat=seat, ability=ability, source=_name(state, square))


def _follow_up(d: Turn, seat: int, command: Command, check: _Check) -> None:
    state = d.state
    pending = state.pending or ""
    match command:
        case Skip():
            d.emit(AbilityDeclined(seat=seat, ability=pending))
        case Swap(first=first, second=second) if pending == "golden_statue":
            one, two = check.square(first), check.square(second)
            for name, index in ((first, one), (second, two)):
                if state.tiles[index] is None or index == state.pending_source:
                    raise check.fail(f"{name} holds no other tile to swap")
            if one == two:
                raise check.fail("swap two different tiles")
            d.emit(TilesSwapped(seat=seat, first=first, second=second))
        case Remove(at=at) if pending in REMOVES:
            target = state.tiles[check.square(at)]
            if target is None or tile(target).ability != REMOVES[pending]:
                raise check.fail(f"{at} holds no {REMOVES[pending].title()} tile")
            d.emit(TileRemoved(seat=seat, tile=target, at=at))
        case _:
            follow = "its follow-up"
            if pending == "golden_statue":
                follow = "a swap of two other tiles (swap C3 D4)"
            elif pending in REMOVES:
                follow = f"the removal of a {REMOVES[pending].title()} tile (remove C3)"
            raise check.fail(
                f"the {pending.replace('_', ' ')} just placed asks for {follow}, or skip"
            )
    _conclude(d, seat)


def _refill(d: Turn, seat: int, command: Command, check: _Check) -> None:
    state = d.state
    if seat != state.refills[0]:
        raise check.fail(Seat(state.refills[0]), " chooses whether to refill first")
    match command:
        case Refill():
            count = min(HAND_TARGET - len(state.hands[seat]), len(state.pile))
            deal(d, seat, state.pile[:count], pile_index(state))
        case Keep():
            d.emit(RefillDeclined(seat=seat))
        case _:
            raise check.fail("between acts a seat below two tiles chooses refill or keep")


def _conclude(d: Turn, seat: int, offer: AbilityOffered | None = None) -> None:
    """After a turn's events: the placed tile's follow-up is offered, the act ends when the
    board is full, or the next turn begins. On the last space a Golden Statue's swap is
    still offered (the board stays full, the act ends after it); a Temptation's or
    Courage's removal would empty a space again, so it is forfeited (the act "ends
    immediately") unless the table chose `last_space=offer`."""
    full = not has_free_square(d.state)
    if offer is not None and (not full or offer.ability == "golden_statue" or d.state.last_removal):
        d.emit(offer)
    elif full:
        close_act(d, seat, "the last space was filled")
    else:
        _next_turn(d, seat)


def _next_turn(d: Turn, seat: int) -> None:
    state = d.state
    if not any(could_act(state, other) for other in range(state.seats)):
        close_act(d, seat, "no player could play")
    else:
        d.emit(TurnBegan(seat=(seat + 1) % state.seats))


def _name(state: BeowulfState, square: int) -> str:
    return geometry(state).name(square)


def _why_no_draw(state: BeowulfState) -> str:
    if state.drawn:
        return "a tile was already drawn this turn; play a tile"
    return "the pile is exhausted; play a tile from hand without drawing"


def _when(state: BeowulfState) -> str:
    """`Act I`, or `before Act II` while the seats below two tiles choose to refill."""
    act = f"Act {ROMAN.get(state.act, state.act)}"
    return {"refill": f"before {act}", "over": "the game is over"}.get(state.phase, act)


def _faces(command: Command) -> tuple[str, ...]:
    match command:
        case PlayTile(tile=face) | CashTreasure(tile=face) | Counsel(tile=face):
            return (face,)
    return ()


def _squares(command: Command) -> tuple[str, ...]:
    match command:
        case PlaceFigure(at=at) | PlayTile(at=at) | Remove(at=at):
            return (at,)
        case Counsel(source=source, target=target):
            return (source, target)
        case Swap(first=first, second=second):
            return (first, second)
    return ()


def _in_game(face: str) -> bool:
    """Whether some tile of the game shows `face` (`+3`, or `+3@2`: of Act II)."""
    printed, _, back = face.partition("@")
    return any(
        shown == printed and (not back or tile(tile_id).act == int(back))
        for tile_id, shown in faces().items()
    )


def _in_act(face: str) -> str:
    _, _, back = face.partition("@")
    return f" of Act {ROMAN.get(int(back), back)}" if back else ""
