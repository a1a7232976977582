"""Commands to move notation, looked up by the command's type.

Every game formats a command the same way: a command of one bare word (`throw`, `pass`)
is that word; any other is written by a template for its type. A legal-move list formats
every command it holds, so the lookup is one dict access by type (a `match` over a dozen
class patterns cost more than the formatting itself), and a command written once is
looked up after (the next decision's list holds most of the last one's moves again).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from skald.core.errors import InvalidNotation

WRITTEN_KEPT = 8192  # notations kept per game (a legal-move list writes the same ones again)


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
        self._written: dict[Any, str] = {}  # commands already written (a game has few)

    def __call__(self, command: Any) -> str:
        """The notation of `command`; InvalidNotation for anything not a command of the game."""
        try:
            return self._written[command]
        except KeyError:
            pass
        except TypeError:  # a command that cannot be a key (not frozen): written each time
            return self._write(command)
        text = self._write(command)
        if len(self._written) >= WRITTEN_KEPT:
            self._written.clear()
        self._written[command] = text
        return text

    def _write(self, command: Any) -> str:
        word = self._words.get(type(command))
        if word is not None:
            return word
        template = self._templates.get(type(command))
        if template is None:
            raise InvalidNotation(f"not a {self._game} command: {command!r}")
        return template(command)
