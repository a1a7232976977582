"""Commands to move notation, looked up by the command's type.

Every game formats a command the same way: a command of one bare word (`throw`, `pass`)
is that word; any other is written by a template for its type. A legal-move list formats
every command it holds, so the lookup is one dict access by type (a `match` over a dozen
class patterns cost more than the formatting itself).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from skald.core.errors import InvalidNotation


class CommandFormatter:
    """`formatter(command)`: the notation of one of a game's commands."""

    def __init__(
        self,
        game: str,
        bare: Mapping[str, object],
        templates: Mapping[type, Callable[[Any], str]],
    ) -> None:
        self._game = game
        self._words: dict[type, str] = {type(command): word for word, command in bare.items()}
        self._templates = dict(templates)

    def __call__(self, command: Any) -> str:
        """The notation of `command`; InvalidNotation for anything not a command of the game."""
        word = self._words.get(type(command))
        if word is not None:
            return word
        template = self._templates.get(type(command))
        if template is None:
            raise InvalidNotation(f"not a {self._game} command: {command!r}")
        return template(command)
