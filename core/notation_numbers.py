"""Numbers in move notation: plain ASCII digits, bounded, or InvalidNotation.

`str.isdigit()` accepts superscripts and other scripts' digits that `int()` then rejects
(`'²'`) or reads (`'٣'`), and `int()` refuses a few thousand digits: every game parser
reads its numbers here instead, so any text either parses or raises InvalidNotation.
"""

from __future__ import annotations

import re

from skald.core.errors import InvalidNotation

ASCII_NUMBER = re.compile(r"[0-9]{1,9}")
MOST = 999_999


def parse_number(
    text: str, word: str, *, least: int = 0, most: int = MOST, what: str = "a number"
) -> int:
    """`word` read as an ASCII integer in [least, most]; InvalidNotation names `text`."""
    if not ASCII_NUMBER.fullmatch(word) or not least <= int(word) <= most:
        shown = word if len(word) <= 20 else word[:20] + "..."
        raise InvalidNotation(
            f"{text[:80]!r}: expected {what} from {least} to {most} in digits 0-9, not {shown!r}"
        )
    return int(word)
