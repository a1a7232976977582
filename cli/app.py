"""The Typer app, the options every command shares, and the one place errors become exits.

Exit codes: 0 ok, 1 other error, 2 usage, 3 invalid notation, 4 illegal move,
5 version conflict, 6 not found, 7 forbidden. Errors print one clear line on stderr.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import msgspec
import typer

from core.engine import Engine
from core.errors import (
    Forbidden,
    IllegalMove,
    InvalidNotation,
    NotFound,
    SkaldError,
    VersionConflict,
)
from core.store import DEFAULT_URL, EventStore
from projections.table import Table

EXIT_CODES: tuple[tuple[type[SkaldError], int], ...] = (
    (InvalidNotation, 3),
    (IllegalMove, 4),
    (VersionConflict, 5),
    (NotFound, 6),
    (Forbidden, 7),
    (SkaldError, 1),
)

app = typer.Typer(
    name="skald",
    help="Skald: record, replay, undo and audit board games with hidden information.",
    epilog="Exit codes: 0 ok, 1 error, 2 usage, 3 invalid notation, 4 illegal move, "
           "5 version conflict, 6 not found, 7 forbidden.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

DbOption = Annotated[
    str | None,
    typer.Option("--db", envvar="SKALD_DB", show_default=False,
                 help=f"Event store URL: a SQLite file or postgresql://... "
                      f"[default: {DEFAULT_URL}]"),
]
JsonFlag = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
AsOption = Annotated[
    str | None,
    typer.Option("--as", help="Viewer: a player name, a 0-based seat, spectator or referee."),
]

F = TypeVar("F", bound=Callable[..., Any])


def exit_code(error: SkaldError) -> int:
    """The exit code for an error."""
    return next(code for kind, code in EXIT_CODES if isinstance(error, kind))


def command(*args: Any, **kwargs: Any) -> Callable[[F], F]:
    """`app.command`, with Skald errors turned into one stderr line and an exit code."""

    def decorate(function: F) -> F:
        @functools.wraps(function)
        def wrapper(*inner_args: Any, **inner_kwargs: Any) -> Any:
            try:
                return function(*inner_args, **inner_kwargs)
            except SkaldError as error:
                typer.echo(f"error: {error}", err=True)
                raise typer.Exit(exit_code(error)) from None

        app.command(*args, **kwargs)(wrapper)
        return function

    return decorate


def open_table(db: str | None) -> Table:
    """The Table over the store at `db` (or SKALD_DB, or the default SQLite file)."""
    return Table(Engine(EventStore(db or os.environ.get("SKALD_DB") or DEFAULT_URL)))


def print_json(value: Any) -> None:
    """One JSON document on stdout."""
    typer.echo(msgspec.json.encode(value).decode())
