"""The Typer app, the options every command shares, and the one place errors become exits.

Exit codes: 0 ok, 1 other error, 2 usage, 3 invalid notation (or unreadable input), 4
illegal move, 5 version conflict, 6 not found (a game, a seat, a file), 7 forbidden,
8 storage (the event store, its signing key, a file or the output cannot be read or
written: not a database, another program's database, disk full, read-only, unreachable, a
directory). Errors print one clear line on stderr, never a traceback: `command` maps every
Skald error, OSError and database error in one place. A closed output pipe (`skald log ID
| head -1`) is not an error of the store: the command stops writing quietly, prints
nothing, and exits 1, as Python's documentation advises for BrokenPipeError (SIGPIPE is
ignored by Python); stdout is pointed at /dev/null so the flush at exit cannot fail again.
Ctrl-C ends any command with one line, `interrupted`, and exit 130 (128 + SIGINT, what
shells report for an interrupted program), never a traceback; a write it cut short was
rolled back by the store. Text printed for people goes through `echo`, which shows control
characters as escapes (names and ids are user input).

Stores: commands that only read never create one (`open_store(db, create=False)`), and
open a SQLite store whose folder they may not write (a read-only mount, a copy of evidence)
as immutable, which SQLite allows only when no write-ahead log is pending (see
`_read_only_url`). Imports create a store only once there is something to store
(`import_into`). Files the CLI writes (`--output`) go through `write_output`.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import os
import select
import signal
import sys
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import msgspec
import typer
from sqlalchemy.exc import DBAPIError

from skald.cli.interrupt import INTERRUPTED_EXIT, interrupted_exit
from skald.core.engine import Engine
from skald.core.errors import (
    AlreadyStored,
    CorruptRecord,
    Forbidden,
    IllegalMove,
    InvalidNotation,
    InvalidOption,
    NeedsConfirmation,
    NotFound,
    SkaldError,
    StoreError,
    VersionConflict,
)
from skald.core.seats import check_game_id, printable
from skald.core.signing import Signer, SigningKeyError, key_path_for, open_signer
from skald.core.store import (
    DEFAULT_URL,
    EventStore,
    copy_streams,
    describe_db_error,
    in_memory,
    resolve_url,
    sqlite_path,
)
from skald.projections.table import Table

STORAGE_EXIT = 8
PIPE_CLOSED_EXIT = 1  # Python's documented exit code on EPIPE (see BrokenPipeError)
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
    (AlreadyStored, 10),
    (NeedsConfirmation, 11),
    (SkaldError, 1),
)


class _App(typer.Typer):
    """The Typer app. Called as a program (the console script, `python -m`), Ctrl-C at any
    moment ends the process with `interrupted` and exit 130, no traceback, without closing
    the stores: closing waits for locks an interrupted write may still hold (the store's
    writer lock, the WAL checkpointer's), and SQLite's WAL keeps every committed
    transaction (an interrupted one rolls back). Inside a command's body Ctrl-C is a
    KeyboardInterrupt (so `autoplay` can name its unfinished game), ended by `command`;
    anywhere else (typer building the commands, click parsing, stores closing, exit) the
    signal handler ends the process itself. In-process test runners call the click
    command instead, and get `typer.Exit(130)` from `command`."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        global _as_program
        _as_program = True
        with contextlib.suppress(ValueError, OSError):  # not the main thread: leave it be
            if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # `cmd &` ignores it
                signal.signal(signal.SIGINT, _on_sigint)
        try:
            return super().__call__(*args, **kwargs)
        except KeyboardInterrupt:
            interrupted_exit()


_as_program = False
_in_command = False


def _on_sigint(_signum: int, _frame: object) -> None:
    if _in_command:
        raise KeyboardInterrupt
    interrupted_exit()


app = _App(
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


def _viewer_named(value: str | None) -> str | None:
    """`--as` as given; an empty or blank name is refused (it used to mean spectator)."""
    if value is not None and not value.strip():
        raise typer.BadParameter("empty: give a player name, a 0-based seat, spectator or referee")
    return value


AsOption = Annotated[
    str | None,
    typer.Option(
        "--as",
        help="Viewer: a player name, a 0-based seat, spectator or referee.",
        callback=_viewer_named,
    ),
]

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")


def exit_code(error: SkaldError) -> int:
    """The exit code for an error."""
    return next(code for kind, code in EXIT_CODES if isinstance(error, kind))


class OutputError(OSError):
    """Writing to standard output or standard error failed (disk full, an I/O error)."""

    def __init__(self, stream: str, error: OSError) -> None:
        super().__init__(error.errno, error.strerror or str(error))
        self.stream = stream


def failure(error: BaseException) -> tuple[str, int] | None:
    """The one line and exit code for an error, or None when it is a bug (re-raised)."""
    if isinstance(error, OutputError):
        return f"cannot write to {error.stream}: {error.strerror}", STORAGE_EXIT
    if isinstance(error, SkaldError):
        return str(error), exit_code(error)
    if isinstance(error, DBAPIError):
        return f"the event store failed: {describe_db_error(error)}", STORAGE_EXIT
    if isinstance(error, FileNotFoundError):
        return missing_file(error.filename), 6
    if isinstance(error, OSError):
        if error.filename:
            return f"cannot use {error.filename}: {error.strerror or error}", STORAGE_EXIT
        return f"input or output failed: {error.strerror or error}", STORAGE_EXIT
    if isinstance(error, RecursionError):
        return "the input is nested too deeply", 3
    return None


def command(*args: Any, target: typer.Typer | None = None, **kwargs: Any) -> Callable[[F], F]:
    """`app.command` (or `target.command`, for a group such as `tournament`), with every
    expected error turned into one stderr line and an exit code, a closed output pipe
    ended quietly, Ctrl-C ended with `interrupted` (exit 130), and every store the command
    opened closed; a game id argument is checked first (one rule with the API)."""

    def decorate(function: F) -> F:
        @functools.wraps(function)
        def wrapper(*inner_args: Any, **inner_kwargs: Any) -> Any:
            global _in_command
            _in_command = True
            failed = True  # until the command returns, or exits with 0
            try:
                if isinstance(inner_kwargs.get("game_id"), str):
                    check_game_id(inner_kwargs["game_id"])
                result = function(*inner_args, **inner_kwargs)
                _flush_stdout()  # a closed pipe or a full disk shows here, not at exit
                failed = False
                return result
            except typer.Exit as stop:
                failed = stop.exit_code != 0
                raise
            except (SkaldError, DBAPIError, OSError, RecursionError) as error:
                if _output_closed(error):
                    _silence_stdout()
                    raise typer.Exit(PIPE_CLOSED_EXIT) from None
                if isinstance(error, OutputError):
                    _silence_stdout()
                line, code = failure(error) or (str(error), 1)
                with contextlib.suppress(OSError):  # stderr may be gone too
                    typer.echo(f"error: {printable(line)}", err=True)
                raise typer.Exit(code) from None
            except KeyboardInterrupt:
                _in_command = False
                if _as_program:
                    interrupted_exit()  # the stores are left open: see _App
                with contextlib.suppress(OSError):
                    typer.echo("interrupted", err=True)
                raise typer.Exit(INTERRUPTED_EXIT) from None
            finally:
                _in_command = False  # Ctrl-C from here on: _on_sigint ends the process
                _close_stores(failed)  # each command closes the stores it opened

        said = kwargs.get("help") or function.__doc__ or ""  # a help= given wins, as in typer
        listed = {"short_help": _first_paragraph(said), **kwargs}
        (target or app).command(*args, **listed)(wrapper)
        return function

    return decorate


def _first_paragraph(doc: str) -> str:
    """A command's line in `skald --help`: its docstring's first paragraph on one line
    (typer keeps a docstring's line breaks there, which broke sentences mid-way)."""
    return " ".join(inspect.cleandoc(doc).split("\n\n")[0].split())


def _flag_type(option: typer.core.TyperOption, ctx: Any) -> str | None:
    """An option's value type in help (`<str>`, `<int>`), none for a flag: `--json
    <bool>` read as if the flag took a value (`--reproducible true` is refused)."""
    return None if option.is_flag else _value_type(option, ctx)


_value_type = typer.core.TyperOption.display_type_rich
typer.core.TyperOption.display_type_rich = _flag_type  # type: ignore[method-assign,assignment]

_opened: list[EventStore] = []


def _output_closed(error: BaseException) -> bool:
    """Whether `error` is the reader of our standard output going away (`| head`): a
    broken pipe met by `echo`, or one met elsewhere while stdout's pipe is the broken one
    (a socket's broken pipe, say in `bench`, stays an error)."""
    if isinstance(error, OutputError):
        return isinstance(error.__cause__, BrokenPipeError) and error.stream == STDOUT
    return isinstance(error, BrokenPipeError) and _stdout_broken()


def _stdout_broken() -> bool:
    """True when stdout is a pipe (or socket) whose reader has gone (poll says POLLERR)."""
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & select.POLLERR for _, events in poller.poll(0))
    except (OSError, ValueError, AttributeError):
        return False


def _silence_stdout() -> None:
    """Point stdout at /dev/null: Python flushes it at exit, and what it still holds
    cannot be written (Python's advice for BrokenPipeError)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass  # not a real file (an in-process test runner): nothing is flushed at exit


STDOUT = "standard output"
STDERR = "standard error"


def _flush_stdout() -> None:
    try:
        sys.stdout.flush()
    except OSError as error:
        raise OutputError(STDOUT, error) from error


def _write(text: str, err: bool, nl: bool = True) -> None:
    """`typer.echo`, an OSError on the stream raised as an OutputError naming it."""
    try:
        typer.echo(text, err=err, nl=nl)
    except OSError as error:
        raise OutputError(STDERR if err else STDOUT, error) from error


def open_store(db: str | None, create: bool = True) -> EventStore:
    """The store at `db` (or SKALD_DB, or the default), closed when the command ends.
    Without `create` (commands that only read), a SQLite file that does not exist is
    NotFound and nothing is created: a mistyped --db must not leave an empty store; and a
    SQLite file in a folder this process may not write is opened for reading only. A store
    in memory is refused: it would keep nothing after the command. A SQLite file this
    command creates is removed again if the command fails with it still empty (`command`)."""
    url = store_url(db)
    if in_memory(url):
        raise InvalidOption(
            "an in-memory store keeps nothing after the command: give a SQLite file or a "
            "postgresql:// URL"
        )
    path = sqlite_path(url)
    if not create and path is not None:
        if not os.path.exists(path):
            raise NotFound(
                f"no event store at {path}: nothing was recorded there (check --db or SKALD_DB)"
            )
        if not os.path.isdir(path) and not os.access(os.path.dirname(path) or ".", os.W_OK):
            return _opened_read_only(path)
    new_files: list[str] = []
    if path is not None and not os.path.lexists(path):
        candidates = [path, *(f"{path}{end}" for end in ("-wal", "-shm", "-journal", "-lock"))]
        with contextlib.suppress(Exception):
            candidates.append(str(key_path_for(url)))
        new_files = [name for name in candidates if not os.path.lexists(name)]
    try:
        store = EventStore(url)
    except StoreError:
        _remove_files(new_files)
        refusal = read_only_folder(path)
        if refusal is None:
            raise
        raise StoreError(refusal) from None
    _opened.append(store)
    if new_files:
        _created[id(store)] = new_files
    return store


def read_only_folder(path: str | None) -> str | None:
    """The line for a SQLite store that cannot be opened because its folder is read-only,
    or None when that is not why."""
    folder = os.path.dirname(os.path.abspath(path)) if path is not None else ""
    if path is None or not os.path.isdir(folder) or os.access(folder, os.W_OK):
        return None
    return (
        f"cannot write to the event store at {path}: its folder {folder} is read-only "
        "(SQLite writes its -wal and -shm files beside the store)"
    )


_created: dict[int, list[str]] = {}  # id(store) -> the files its opening created


def _close_stores(failed: bool) -> None:
    """Close the stores the command opened; when it failed, remove a SQLite store it
    created (its file, -wal, -shm, -lock, key file) if that holds no stream yet."""
    while _opened:
        store = _opened.pop()
        files = _created.pop(id(store), [])
        empty = False
        if failed and files:
            try:
                empty = not store.list_streams(limit=1)
            except Exception:  # an unreadable store is kept, as it is
                empty = False
        store.dispose()
        if empty:
            _remove_files(files)


def _remove_files(names: list[str]) -> None:
    for name in names:
        with contextlib.suppress(OSError):
            os.unlink(name)


def _opened_read_only(path: str) -> EventStore:
    """The SQLite store at `path`, in a folder this process may not write (a read-only
    mount, a copy of evidence, another user's folder), opened for reading.

    A WAL-mode database is read through its -shm file, which SQLite must create beside the
    store when it is not there; in a read-only folder it cannot, and the open fails
    ('unable to open database file'). SQLite's answer (https://sqlite.org/wal.html, "Read-Only
    Databases") is `immutable=1`: no -shm, no locks, the file read as it is. That is safe
    only if nothing changes the file while it is read and nothing waits in a write-ahead
    log: a writer cannot start here (it would have to create the -wal file in this
    folder), and a -wal file with content means a writer has committed changes that are not
    in the file yet, which immutable would silently skip. So: no pending -wal, immutable;
    a pending -wal, SQLite's read-only mode (it reads the log when a -shm file is there
    too), else one line saying why and what to do. The race left: the folder made writable
    and a writer started during our read; a read-only folder is how people keep evidence."""
    folder = os.path.dirname(os.path.abspath(path))
    wal = f"{path}-wal"
    pending = os.path.exists(wal) and os.path.getsize(wal) > 0
    query = "mode=ro&uri=true" if pending else "mode=ro&immutable=1&uri=true"
    try:
        store = EventStore(f"sqlite:///file:{urllib.parse.quote(os.path.abspath(path))}?{query}")
    except StoreError:
        if not pending:
            raise
        raise StoreError(
            f"cannot open the event store at {path}: the folder {folder} is read-only and "
            f"its write-ahead log ({os.path.basename(wal)}) holds changes SQLite can read only "
            "through a -shm file it must write beside the store; copy the store with its "
            "-wal file to a writable folder"
        ) from None
    _opened.append(store)
    return store


def import_into(db: str | None, run: Callable[[EventStore], T]) -> T:
    """Run an import (`run`, given the store) so that nothing is written when it fails or
    stores nothing. Each import checks everything before its one write, but opening a
    store creates it: so when the SQLite file does not exist yet, the import runs against
    a scratch store in memory (empty, as the new file would be), and the file is created,
    the streams copied in, only if the import succeeded and stored something."""
    url = store_url(db)
    path = sqlite_path(url)
    if path is None or os.path.exists(path):
        return run(open_store(db))
    scratch = EventStore("sqlite://")
    _opened.append(scratch)
    result = run(scratch)
    if scratch.list_streams(limit=1):
        copy_streams(scratch, open_store(db))
    return result


def missing_file(name: object) -> str:
    """What to say about a file that is not there: its folder, when that is missing too."""
    shown = os.fsdecode(name) if isinstance(name, (str, bytes)) else str(name)
    folder = os.path.dirname(shown)
    if folder and not os.path.isdir(folder):
        return f"no such folder: {folder} (for {shown})"
    return f"no such file: {shown}"


def write_output(path: Path, text: str, option: str = "--output") -> None:
    """Write a command's output file (`option`): a missing folder, or a folder given as
    the file, is named as such before anything is written; a file this call created is
    removed again when the write fails (a full disk)."""
    folder = path.parent
    if not folder.is_dir():
        if folder.exists():
            raise StoreError(f"cannot write {option} {path}: {folder} is not a folder")
        raise NotFound(f"no such folder: {folder} (for {option} {path})")
    if path.is_dir():
        raise StoreError(f"cannot write {option} {path}: it is a folder")
    data = text.encode("utf-8")
    existed = path.exists()
    try:
        with open(path, "wb") as out:
            out.write(data)
    except OSError:
        if not existed:
            with contextlib.suppress(OSError):
                path.unlink()
        raise


def store_url(db: str | None) -> str:
    """`db`, or SKALD_DB, or the default SQLite file."""
    return db or os.environ.get("SKALD_DB") or DEFAULT_URL


def open_table(
    db: str | None, signing: bool = False, create: bool = True, optional_signing: bool = False
) -> Table:
    """The Table over the store at `db` (or SKALD_DB, or the default SQLite file); with
    `signing`, its signing key loaded (or created for a new store) now, before any work;
    without `create`, see `open_store`. A store opened read-only that has no key yet cannot
    get one: StoreError, or with `optional_signing` (a signature is a bonus) no signer."""
    store = open_store(db, create)
    if not signing:
        return Table(Engine(store))
    # A store opened for reading only has another URL: its key is the one beside its file,
    # and none can be made for it (nor recorded in it).
    read_only = store.url != resolve_url(store_url(db))
    if read_only and not store.signing_keys():
        if optional_signing:
            return Table(Engine(store))
        raise StoreError(
            f"the event store at {sqlite_path(store_url(db))} has no signing key yet, and its "
            "folder is read-only: none can be made there (copy it to a writable folder)"
        )
    return Table(
        Engine(store), open_signer(store, key_path_for(store_url(db)) if read_only else None)
    )


def open_verifying_table(db: str | None) -> Table:
    """The Table for checking receipts: the store's recorded key is what counts; the key
    file, if there is one, only for a store that recorded none. Never creates a key (nor
    a store)."""
    store = open_store(db, create=False)
    path = key_path_for(store_url(db))  # beside the file, also when opened read-only
    signer = Signer(path, create=False) if not store.signing_keys() and path.is_file() else None
    return Table(Engine(store), signer)


def echo(text: str, err: bool = False, nl: bool = True) -> None:
    """Print text for people: control characters (from names, ids, moves) as escapes."""
    _write(printable(text), err=err, nl=nl)


def print_json(value: Any) -> None:
    """One JSON document on stdout (JSON escapes control characters itself)."""
    _write(msgspec.json.encode(value).decode(), err=False)
