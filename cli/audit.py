"""Commands that settle disputes: audit, receipt, import."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from skald.cli.app import (
    AsOption,
    DbOption,
    command,
    echo,
    import_into,
    open_table,
    print_json,
    write_output,
)
from skald.cli.play import IdArg
from skald.core.engine import Engine
from skald.core.errors import InvalidNotation, NotFound
from skald.core.provenance import partial_words
from skald.core.store import EventStore
from skald.projections.audit.render import FORMATS, render_audit
from skald.projections.export.facade import HistoryImport, is_history_export
from skald.projections.table import Table


@command("audit")
def audit(
    game_id: IdArg,
    as_: AsOption = "referee",
    format: Annotated[str, typer.Option("--format", help="md, json or html.")] = "md",
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the report to this file.")
    ] = None,
    db: DbOption = None,
) -> None:
    """The post-game audit: every hidden value, who knew what when, every decision
    re-derived from the rules and the seed, the chain and commitments. Exit 1 on anomalies."""
    if format not in FORMATS:
        raise InvalidNotation(f"--format {format!r}: choose one of {', '.join(FORMATS)}")
    table = open_table(db, create=False)
    report = table.audit(game_id, table.viewer(game_id, as_))
    text = render_audit(report, format)
    if output is None:
        echo(text, nl=not text.endswith("\n"))
    else:
        write_output(output, text)
        echo(f"wrote {output}: verdict {report.verdict}", err=True)
    if report.verdict != "clean":
        raise typer.Exit(1)


@command("receipt")
def receipt(game_id: IdArg, db: DbOption = None) -> None:
    """Print a signed receipt (Ed25519) for the game's current head, to keep. A log whose
    chain does not verify, or that does not replay, is not signed (exit 9, naming the seq)."""
    print_json(open_table(db, signing=True, create=False).receipt(game_id))


IMPORT_HELP = "\n\n".join(
    (
        "Import a game played elsewhere, replaying it through the rules.",
        "A referee log (`skald log --as referee --json`): its end line, chain, commitments "
        "and every decision are checked; a whole, sound log is stored under its own id (its "
        "hashes and receipts stay valid); one cut short is refused (exit 3), one with an "
        "anomaly is refused naming its seq and rule (exit 4). Nothing is stored then.",
        "A notation file (a '# game: ...' header, then one move a line) or an export (`skald "
        "export`, jsonl or text): all or nothing. The first line that does not play is "
        "reported and nothing is imported (exit 3 for bad notation, 4 for an illegal move, 6 "
        "for a seat not at the table). "
        "A redacted jsonl export is only verified, not stored.",
        "Nothing is written when an import fails or stores nothing (not even a new store file).",
        "--partial: a record cut short (a log, a jsonl or text export without its end) is "
        "imported as the decisions before the cut and the annotations on them, marked as a "
        "partial copy in its header, `show`, the audit and every export; it can never be "
        "continued. Anything else wrong with the record is refused all the same.",
    )
)


@command("import", help=IMPORT_HELP)
def import_game(
    file: Annotated[
        Path,
        typer.Argument(
            help="A referee JSON-lines log, a notation file, or a jsonl or text export "
            "(`skald export`)."
        ),
    ],
    json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    partial: Annotated[
        bool,
        typer.Option(
            "--partial",
            help="Import a record cut short as a partial copy (never to be continued).",
        ),
    ] = False,
    db: DbOption = None,
) -> None:
    """Import a game played elsewhere, replaying it through the rules (help: IMPORT_HELP)."""
    try:
        text = file.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise NotFound(f"no file {file}") from None
    except UnicodeDecodeError as error:
        raise InvalidNotation(
            f"{file} is not UTF-8 text (byte {error.start}): a referee "
            f"log or a notation file is UTF-8"
        ) from None
    if "\x00" in text:
        raise InvalidNotation(f"{file} is a binary file, not a log or a notation file")
    if is_history_export(text):
        _import_history(
            import_into(db, lambda store: _table(store).histories().import_export(text, partial)),
            json,
        )
        return
    result = import_into(db, lambda store: _table(store).import_text(text, partial))
    if json:
        print_json(result)
    else:
        echo(
            f"imported {result.id}: {result.accepted} of {result.total} "
            f"{'lines' if result.format == 'notation' else 'events'} accepted"
        )
        if result.partial is not None:
            echo(f"stored as {partial_words(result.partial)}")
        if result.finding is not None:
            finding = result.finding
            echo(
                f"REJECTED at seq {finding.seq}: {finding.rule}"
                + (f" ({finding.detail})" if finding.detail else ""),
                err=True,
            )
    if result.finding is not None:
        raise typer.Exit(1)


def _table(store: EventStore) -> Table:
    return Table(Engine(store))


def _import_history(result: HistoryImport, json: bool) -> None:
    """Say what a jsonl or text export's import did: stored (full information) or verified."""
    if json:
        print_json(result)
        return
    from skald.projections.narrative.common import plural

    kept = "decision" if result.format == "text" else "game event"
    counts = (
        f"{plural(result.events, kept)}, {plural(result.annotations, 'annotation')}, "
        f"{plural(result.variations, 'variation')}"
    )
    if result.stored:
        echo(f"imported {result.id} from the {result.format} export: {counts}")
    else:
        echo(f"verified {result.id} (a redacted copy, not stored): chains intact; {counts}")
    if result.receipt:
        echo(f"signed: {result.receipt}")
    if result.partial is not None:
        echo(f"stored as {partial_words(result.partial)}")
