"""Board geometry (rulebook "Game Board", "Throat"): squares, names and line parts.

Squares are numbered row-major from 0; their names are a column letter from A and a row
number from 1 at the top (`D1`). A figure scores the tiles of its *row part* and *column
part*: walking from its square along the row (and the column) in both directions, up to
the board edge or the first Throat, whichever comes first. A Throat (a placed tile or one
printed on the Act II board) belongs to neither side: it is the boundary. So a square
between two Throats in a row sees only the squares between those two Throats, and
everything — tile values, Betrayal, Royal Dragon Horns — works on parts, never on whole
rows or columns.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

import msgspec

SQUARE_PATTERN = re.compile(r"([A-Za-z])([1-9][0-9]?)")  # fullmatch: no final newline


class Geometry(msgspec.Struct, frozen=True):
    """A rows × cols grid."""

    rows: int
    cols: int

    @property
    def size(self) -> int:
        """The number of squares."""
        return self.rows * self.cols

    def name(self, index: int) -> str:
        """`D1` for a square index."""
        return _names(self.rows, self.cols)[index]

    def names(self) -> tuple[str, ...]:
        """Every square's name, by index (for naming many squares at once)."""
        return _names(self.rows, self.cols)

    def index(self, name: str) -> int | None:
        """The index of a square name, or None when it is not on this board."""
        known = _indices(self.rows, self.cols).get(name)
        if known is not None:  # a name as the board writes it (`D1`): no parsing
            return known
        parsed = parse_square(name)
        if parsed is None:
            return None
        row, col = parsed
        if row >= self.rows or col >= self.cols:
            return None
        return row * self.cols + col

    def neighbours(self, index: int) -> tuple[int, ...]:
        """The orthogonally adjacent squares."""
        row, col = divmod(index, self.cols)
        steps = ((-1, 0), (1, 0), (0, -1), (0, 1))
        return tuple(
            (row + dr) * self.cols + col + dc
            for dr, dc in steps
            if 0 <= row + dr < self.rows and 0 <= col + dc < self.cols
        )

    def parts(self, index: int, is_throat: Callable[[int], bool]) -> tuple[tuple[int, ...], ...]:
        """The row part and the column part of a square (the square itself excluded)."""
        row, col = divmod(index, self.cols)
        row_part = self._walk(row, col, 0, is_throat) + self._walk(row, col, 1, is_throat)
        col_part = self._walk(row, col, 2, is_throat) + self._walk(row, col, 3, is_throat)
        return row_part, col_part

    def _walk(
        self, row: int, col: int, direction: int, is_throat: Callable[[int], bool]
    ) -> tuple[int, ...]:
        dr, dc = ((0, -1), (0, 1), (-1, 0), (1, 0))[direction]
        found: list[int] = []
        row, col = row + dr, col + dc
        while 0 <= row < self.rows and 0 <= col < self.cols:
            square = row * self.cols + col
            if is_throat(square):
                break
            found.append(square)
            row, col = row + dr, col + dc
        return tuple(found)


@functools.cache
def _names(rows: int, cols: int) -> tuple[str, ...]:
    # Views and legal-move lists name every square of a board many times per request.
    return tuple(square_name(*divmod(index, cols)) for index in range(rows * cols))


@functools.cache
def _indices(rows: int, cols: int) -> dict[str, int]:
    # Events name squares as the board writes them; the reducer looks each one up.
    return {name: index for index, name in enumerate(_names(rows, cols))}


def square_name(row: int, col: int) -> str:
    """`D1` for 0-based row 0, column 3."""
    return f"{chr(ord('A') + col)}{row + 1}"


def parse_square(text: str) -> tuple[int, int] | None:
    """0-based (row, col) of a square name like `d1` or `D1`, or None."""
    match = SQUARE_PATTERN.fullmatch(text)
    if not match:
        return None
    return int(match[2]) - 1, ord(match[1].upper()) - ord("A")
