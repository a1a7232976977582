"""Names at the table: which seat a text means, which player names and game ids are valid.

One rule for the CLI, the API and the engine, so that a name accepted in one place is
never refused (or misread) in another:

- A seat is named by its player's name, or by its 0-based index written in ASCII digits
  (`²` or `١` are not indices). An exact name wins over an index, so a game stored before
  all-digit names were refused still resolves its players by name.
- A player name is 1 to 64 characters (after trimming spaces), has no control,
  line-separator or bidirectional-override characters, is not all digits (it would read as
  a seat index), is not a viewer's name (`spectator`, `referee`, in any case), and the
  names of one game are distinct.
- A game id is 1 to 64 characters without control characters (the store's column is 64
  characters; PostgreSQL refuses NUL in text).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from skald.core.errors import IllegalMove, InvalidNotation, NotFound

MAX_NAME = 64
MAX_GAME_ID = 64
RESERVED_NAMES = ("spectator", "referee")
# Bidirectional embeddings, overrides and isolates: they make a name render as another.
_BIDI_CONTROLS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
)
_CONTROL_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})


def has_control(text: str) -> bool:
    """True when `text` holds a control, surrogate, line/paragraph separator or bidi control."""
    return any(
        unicodedata.category(char) in _CONTROL_CATEGORIES or char in _BIDI_CONTROLS for char in text
    )


def printable(text: str) -> str:
    """`text` with every control character shown as an escape (`\\x07`), for a terminal."""
    if not has_control(text):
        return text
    return "".join(
        char
        if char in "\n\t"
        or not (unicodedata.category(char) in _CONTROL_CATEGORIES or char in _BIDI_CONTROLS)
        else char.encode("unicode_escape").decode("ascii")
        for char in text
    )


def resolve_seat(players: Sequence[str], text: str | int) -> int:
    """A seat from a player name or a 0-based ASCII index; NotFound names the choices."""
    if isinstance(text, str) and text in players:
        return players.index(text)
    if isinstance(text, int) and not isinstance(text, bool):
        index: int | None = text
    elif isinstance(text, str) and text.isascii() and text.isdigit() and len(text) <= 6:
        index = int(text)
    else:
        index = None
    if index is not None and 0 <= index < len(players):
        return index
    choices = ", ".join(f"{i}={name}" for i, name in enumerate(players))
    raise NotFound(f"no seat {str(text)!r} in this game (seats: {choices})")


def name_problem(name: str) -> str:
    """Why `name` cannot be a player's name, or "" when it can."""
    stripped = name.strip()
    if not stripped:
        return "a player name cannot be empty"
    if len(stripped) > MAX_NAME:
        return f"a player name is at most {MAX_NAME} characters, not {len(stripped)}"
    if has_control(stripped):
        return f"player name {stripped!r} holds a control character"
    if stripped.isnumeric():
        return f"player name {stripped!r} is all digits, which reads as a seat index; add a letter"
    if stripped.casefold() in RESERVED_NAMES:
        return f"player name {stripped!r} is reserved for a viewer (spectator, referee)"
    return ""


def check_player_names(players: Sequence[str]) -> None:
    """Raise IllegalMove unless every name is valid and the names are distinct (names that
    differ only in case are one name: `--as ann` must not find another player than Ann)."""
    for name in players:
        problem = name_problem(name)
        if problem:
            raise IllegalMove(problem)
    stripped = [name.strip() for name in players]
    folded = [name.casefold() for name in stripped]
    twice = sorted({name for name in stripped if folded.count(name.casefold()) > 1})
    if twice:
        raise IllegalMove(
            f"player names must be distinct, whatever their case: {', '.join(map(repr, twice))}"
        )


def game_id_problem(game_id: str) -> str:
    """Why `game_id` cannot be a game's id, or "" when it can."""
    if not game_id:
        return "a game id cannot be empty"
    if len(game_id) > MAX_GAME_ID:
        return f"a game id is at most {MAX_GAME_ID} characters, not {len(game_id)}"
    if has_control(game_id):
        return f"game id {game_id!r} holds a control character"
    return ""


def check_game_id(game_id: str) -> str:
    """`game_id` itself, or InvalidNotation saying why it cannot be a game's id."""
    problem = game_id_problem(game_id)
    if problem:
        raise InvalidNotation(problem)
    return game_id
