"""The Typer app, the options every command shares, and the one place errors become exits.

Exit codes: 0 ok, 1 other error, 2 usage, 3 invalid notation (or unreadable input), 4
illegal move, 5 version conflict, 6 not found (a game, a seat, a file), 7 forbidden,
8 storage (the event store, its signing key or a file cannot be read or written: not a
database, another program's database, disk full, read-only, unreachable, a directory).
Errors print one clear line on stderr, never a traceback: `command` maps every Skald
error, OSError and database error in one place. Text printed for people goes through
`echo`, which shows control characters as escapes (names and ids are user input).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import msgspec
import typer
from sqlalchemy.exc import DBAPIError

from skald.core.engine import Engine
from skald.core.errors import (
    CorruptRecord,
    Forbidden,
    IllegalMove,
    InvalidNotation,
    InvalidOption,
    NotFound,
    SkaldError,
    StoreError,
    VersionConflict,
)
from skald.core.seats import check_game_id, printable
from skald.core.signing import Signer, SigningKeyError, key_path_for, open_signer
from skald.core.store import DEFAULT_URL, EventStore, describe_db_error
from skald.projections.table import Table

STORAGE_EXIT = 8
CORRUPT_EXIT = 9
EXIT_CODES: tuple[tuple[type[SkaldError], int], ...] = (
    (InvalidOption, 2),
    (InvalidNotation, 3),
    (IllegalMove, 4),
    (VersionConflict, 5),
    (NotFound, 6),
    (Forbidden, 7),
    (StoreError, STORAGE_EXIT),
    (SigningKeyError, STORAGE_EXIT),
    (CorruptRecord, CORRUPT_EXIT),
    (SkaldError, 1),
)

app = typer.Typer(
    name="skald",
    help="Skald: record, replay, undo and audit board games with hidden information.",
    epilog="Exit codes: 0 ok, 1 error, 2 usage, 3 invalid notation, 4 illegal move, "
    "5 version conflict, 6 not found, 7 forbidden, 8 storage (the store, the "
    "signing key or a file cannot be read or written), 9 a corrupt stored record. "
    "A bad --option is a usage error (2).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar="SKALD_DB",
        show_default=False,
        help=f"Event store URL: a SQLite file or postgresql://... [default: {DEFAULT_URL}]",
    ),
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


def failure(error: BaseException) -> tuple[str, int] | None:
    """The one line and exit code for an error, or None when it is a bug (re-raised)."""
    if isinstance(error, SkaldError):
        return str(error), exit_code(error)
    if isinstance(error, DBAPIError):
        return f"the event store failed: {describe_db_error(error)}", STORAGE_EXIT
    if isinstance(error, FileNotFoundError):
        return f"no such file: {error.filename}", 6
    if isinstance(error, OSError):
        where = f"{error.filename}: " if error.filename else ""
        return f"cannot use {where}{error.strerror or error}", STORAGE_EXIT
    if isinstance(error, RecursionError):
        return "the input is nested too deeply", 3
    return None


def command(*args: Any, **kwargs: Any) -> Callable[[F], F]:
    """`app.command`, with every expected error turned into one stderr line and an exit
    code; a game id argument is checked first (one rule with the API)."""

    def decorate(function: F) -> F:
        @functools.wraps(function)
        def wrapper(*inner_args: Any, **inner_kwargs: Any) -> Any:
            try:
                if isinstance(inner_kwargs.get("game_id"), str):
                    check_game_id(inner_kwargs["game_id"])
                return function(*inner_args, **inner_kwargs)
            except (SkaldError, DBAPIError, OSError, RecursionError) as error:
                line, code = failure(error) or (str(error), 1)
                typer.echo(f"error: {printable(line)}", err=True)
                raise typer.Exit(code) from None
            finally:
                while _opened:  # each command closes the stores it opened
                    _opened.pop().dispose()

        app.command(*args, **kwargs)(wrapper)
        return function

    return decorate


_opened: list[EventStore] = []


def open_store(db: str | None) -> EventStore:
    """The store at `db` (or SKALD_DB, or the default), closed when the command ends."""
    store = EventStore(store_url(db))
    _opened.append(store)
    return store


def store_url(db: str | None) -> str:
    """`db`, or SKALD_DB, or the default SQLite file."""
    return db or os.environ.get("SKALD_DB") or DEFAULT_URL


def open_table(db: str | None, signing: bool = False) -> Table:
    """The Table over the store at `db` (or SKALD_DB, or the default SQLite file); with
    `signing`, its signing key loaded (or created for a new store) now, before any work."""
    store = open_store(db)
    return Table(Engine(store), open_signer(store) if signing else None)


def open_verifying_table(db: str | None) -> Table:
    """The Table for checking receipts: the store's recorded key is what counts; the key
    file, if there is one, only for a store that recorded none. Never creates a key."""
    store = open_store(db)
    path = key_path_for(store.url)
    signer = Signer(path, create=False) if not store.signing_keys() and path.is_file() else None
    return Table(Engine(store), signer)


def echo(text: str, err: bool = False, nl: bool = True) -> None:
    """Print text for people: control characters (from names, ids, moves) as escapes."""
    typer.echo(printable(text), err=err, nl=nl)


def print_json(value: Any) -> None:
    """One JSON document on stdout (JSON escapes control characters itself)."""
    typer.echo(msgspec.json.encode(value).decode())
