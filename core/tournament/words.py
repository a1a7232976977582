"""How a tournament's things read in words: plurals, its formats in a title, the name it
gets when none is given. Plain text helpers, below everything else in core/tournament."""

from __future__ import annotations

FORMAT_WORDS = {"swiss": "Swiss", "round-robin": "Round robin", "duplicate": "Duplicate"}
"""Each format as a title reads it."""


def default_name(format: str, title: str) -> str:
    """A tournament's name when none is given: its format, then its game's title
    ("Swiss, Beowulf: The Movie Board Game")."""
    return f"{FORMAT_WORDS.get(format, format)}, {title}"


def plural(count: int, noun: str) -> str:
    """`1 round`, `3 rounds`."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
