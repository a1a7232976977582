"""One loader for the game content that ships beside each game's rules (TOML files).

A game's data module asks for a file of its package by name and the Struct to validate it
into; the file is read through `importlib.resources` (so it works from a wheel or a zip)
on first use, never at import time, and kept for the life of the process.
"""

from __future__ import annotations

import threading
import tomllib
from importlib import resources
from typing import Any, TypeVar, cast

import msgspec

T = TypeVar("T")

_LOADED: dict[tuple[str, str, type[Any]], Any] = {}
_LOCK = threading.Lock()


def load_toml(package: str, name: str, kind: type[T]) -> T:
    """The TOML file `name` of `package`, validated into `kind` (loaded once)."""
    key = (package, name, kind)
    with _LOCK:
        if key not in _LOADED:
            raw = resources.files(package).joinpath(name).read_text(encoding="utf-8")
            _LOADED[key] = msgspec.convert(tomllib.loads(raw), kind)
        return cast(T, _LOADED[key])
