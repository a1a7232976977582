"""Commands that read history: log, replay, verify."""

from __future__ import annotations

import importlib.resources
from pathlib import Path
from typing import Annotated

import typer

from skald.cli.app import (
    AsOption,
    DbOption,
    JsonFlag,
    command,
    echo,
    open_table,
    open_verifying_table,
    print_json,
)
from skald.cli.play import IdArg, render_table_view
from skald.core.chain import ChainReport
from skald.core.errors import InvalidNotation, InvalidOption, NotFound
from skald.core.fingerprint import trust_entry_problem, trusted_keys
from skald.core.importer import end_line
from skald.core.signing import load_receipt
from skald.events.common import GameFinished, MoveMade
from skald.projections.export.verify_skald import verify as verify_export
from skald.projections.export.verify_skald import words as verdict_words
from skald.projections.narrative.describe import describe_line

# The script `skald verifier` prints: the module `verify --file` runs, shipped as source.
REFERENCE_VERIFIER = importlib.resources.files("skald.projections.export") / "verify_skald.py"


@command("log")
def log(
    game_id: IdArg,
    as_: AsOption = None,
    from_seq: Annotated[int, typer.Option("--from", help="First seq.")] = 1,
    to_seq: Annotated[int | None, typer.Option("--to", help="Last seq.")] = None,
    json: Annotated[bool, typer.Option("--json", help="One JSON object per line.")] = False,
    db: DbOption = None,
) -> None:
    """Print the game's events as a viewer may see them (default: spectator)."""
    table = open_table(db, create=False)
    viewer = table.viewer(game_id, as_)
    if json:
        summary = table.summary(game_id)
        shown = table.log(game_id, viewer, from_seq, to_seq)
        for envelope in shown:
            print_json(envelope)
        if shown:  # the end mark: an import tells this whole log from a cut one
            echo(end_line(shown, summary.seq, table.partial_copy(game_id)))
        return
    for narrated in table.narrated(game_id, viewer, from_seq, to_seq):
        echo(describe_line(narrated))


@command("replay")
def replay(
    game_id: IdArg,
    as_: AsOption = None,
    to: Annotated[int | None, typer.Option("--to", help="Stop after this seq.")] = None,
    boards: Annotated[
        bool, typer.Option("--boards/--no-boards", help="Draw the board after every decision.")
    ] = False,
    db: DbOption = None,
) -> None:
    """Rebuild the game from its log event by event, showing what the viewer saw."""
    table = open_table(db, create=False)
    viewer = table.viewer(game_id, as_)
    told = table.narrated(game_id, viewer, 1, to)
    envelopes = [narrated.envelope for narrated in told]
    for index, envelope in enumerate(envelopes):
        echo(describe_line(told[index]))
        decision_ends = index + 1 == len(envelopes) or isinstance(
            envelopes[index + 1].event, MoveMade
        )
        if boards and decision_ends:
            echo(table.render(table.show_revealed(game_id, viewer, envelope.seq)))
    last = envelopes[-1].seq if envelopes else None
    if last is not None:
        echo("")
        echo(render_table_view(table, table.show_revealed(game_id, viewer, last)))
    if envelopes and isinstance(envelopes[-1].event, GameFinished):
        echo(f"replayed {len(envelopes)} events to the end of the game")


@command("verify")
def verify(
    game_id: Annotated[
        str | None, typer.Argument(help="The game id printed by `skald new` (or --file).")
    ] = None,
    receipt: Annotated[
        Path | None,
        typer.Option(help="A receipt from `skald receipt`: also prove the log extends it."),
    ] = None,
    file: Annotated[
        Path | None,
        typer.Option(
            "--file",
            help="Check an export instead (jsonl or html, no store needed): its chains, "
            "revealed commitments, signed head and kept receipts, as its own page does.",
        ),
    ] = None,
    trust: Annotated[
        list[str] | None,
        typer.Option(
            "--trust",
            help="With --file: a key you trust, in hex, or its fingerprint (as `skald serve` "
            "prints it); repeatable. Only a head signed by one of them reads 'verified'.",
        ),
    ] = None,
    trust_file: Annotated[
        list[Path] | None,
        typer.Option(
            "--trust-file",
            help="With --file: keys or fingerprints you trust, one a line (# begins a comment).",
        ),
    ] = None,
    json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Check a game's hash chain and commitments, or an export against the keys you trust.

    The stored chain and every commitment: exit 1 naming the first bad seq
    (or, for a receipt signed by another key, saying so: that is not tampering). A receipt
    that is wrong itself (for another game, or altered) is RECEIPT INVALID, exit 3: the
    log is not blamed for it. With --file, an export is checked as `skald verifier`'s
    script checks it, against the keys you trust (--trust, --trust-file): "verified" (exit
    0) only when its head is signed by one of them; "consistent, but not signed by a key you
    trust" or "tampered / not whole" exit 1; 3: not a Skald export."""
    if file is not None:
        if game_id is not None or receipt is not None:
            raise InvalidOption("--file checks an export alone: give no game id or --receipt")
        _verify_export(file, json, _trusted(trust or [], trust_file or []))
        return
    if trust or trust_file:
        raise InvalidOption("--trust and --trust-file go with --file EXPORT")
    if game_id is None:
        raise InvalidOption("give a game id, or --file EXPORT (a jsonl or html export)")
    if receipt is None:
        report = open_table(db, create=False).verify(game_id)
    else:
        signed = load_receipt(read_receipt(receipt))
        report = open_verifying_table(db).verify_receipt(game_id, signed)
    if json:
        print_json(report)
    else:
        line = _verdict_line(report)
        echo(line, err=not report.ok)
        if report.partial:
            echo(report.partial, err=not report.ok)
    if report.receipt_problem:
        raise typer.Exit(RECEIPT_INVALID_EXIT)
    if not report.ok:
        raise typer.Exit(1)


def _read_text(path: Path) -> str:
    try:
        return path.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise NotFound(f"no file {path}") from None
    except UnicodeDecodeError as error:
        raise InvalidNotation(f"{path} is not UTF-8 text (byte {error.start})") from None


def _trusted(keys: list[str], files: list[Path]) -> list[str]:
    """The keys and fingerprints the reader trusts (InvalidOption naming one that is
    neither)."""
    entries = list(keys)
    for path in files:
        entries += trusted_keys(_read_text(path).splitlines())
    for entry in entries:
        problem = trust_entry_problem(entry)
        if problem:
            raise InvalidOption(f"--trust: {problem}")
    return entries


def _verify_export(path: Path, json: bool, trusted: list[str]) -> None:
    """`verify --file`: the reference verifier's verdict on an export against the keys the
    reader trusts, and its exit code."""
    verdict = verify_export(_read_text(path), trusted)
    if json:
        print_json(verdict)
    else:
        echo(verdict_words(verdict), err=not verdict["ok"])
    if not verdict["export"]:
        raise typer.Exit(RECEIPT_INVALID_EXIT)
    if not verdict["ok"]:
        raise typer.Exit(1)


@command("verifier")
def verifier() -> None:
    """Print the reference verifier, a short Python script anyone can read and run on an
    export without Skald: `skald verifier > verify_skald.py; python3 verify_skald.py
    game.jsonl` (standard library; Ed25519 through PyNaCl or cryptography if installed)."""
    typer.echo(REFERENCE_VERIFIER.read_text(encoding="utf-8"), nl=False)


# A receipt is a few hundred bytes: a file longer than this is not one (and /dev/zero, or
# a pipe that never ends, must not be read forever).
RECEIPT_MAX_BYTES = 64 * 1024


def read_receipt(path: Path) -> bytes:
    """At most RECEIPT_MAX_BYTES of the receipt file; InvalidNotation (exit 3) if longer."""
    with open(path, "rb") as source:
        data = source.read(RECEIPT_MAX_BYTES + 1)
    if len(data) > RECEIPT_MAX_BYTES:
        raise InvalidNotation(
            f"not a Skald receipt: {path} is longer than {RECEIPT_MAX_BYTES // 1024} KiB "
            "(a receipt is a few hundred bytes)"
        )
    return data


# A receipt that is wrong itself is bad input, as a file that is not a receipt at all is
# (InvalidNotation): the README's exit 3, "invalid notation or unreadable input".
RECEIPT_INVALID_EXIT = 3


def _verdict_line(report: ChainReport) -> str:
    """The one line `verify` prints: whose fault a failure is decides its headline."""
    if report.ok:
        return f"ok: {report.checked} events, chain intact, head {report.head}"
    if report.receipt_problem:
        return f"RECEIPT INVALID: {report.reason}"
    if report.other_key:
        return f"NOT VERIFIED: {report.reason}"
    if report.bounded or report.bad_seq is None:
        # A receipt that no longer matches only bounds the damage: its reason says so.
        return f"TAMPERED: {report.reason}"
    return f"TAMPERED at seq {report.bad_seq}: {report.reason}"
