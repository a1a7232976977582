"""Commands for annotated histories: annotate, variation, export.

A seq (`--at`, `--from`: 12, or v2@5 in variation 2) is read with the blanks around it
dropped, as every other seq option of the CLI (`--at` of show, `--from`/`--to` of log)
and the API's (`at`, `from`) read theirs: ' 12' is 12, '  ' is no seq at all, and blanks
inside one ('v2@ 5') are refused, naming the value. What is echoed is the seq as read.

`skald import FILE` (cli/audit.py) reads the jsonl and text exports back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from skald.cli.app import AsOption, DbOption, command, echo, open_table
from skald.cli.history import read_receipt
from skald.cli.play import IdArg
from skald.core.errors import InvalidNotation, InvalidOption
from skald.core.history.notes import visible_note
from skald.core.signing import load_receipt
from skald.projections.export import FORMATS

SELF_CHECKING = ("jsonl", "html")  # the formats that carry the chain, signed head and receipts


@command("annotate")
def annotate(
    game_id: IdArg,
    as_: AsOption = None,
    at: Annotated[
        str, typer.Option("--at", help="The seq annotated: 12 in the game, v2@5 in variation 2.")
    ] = "",
    comment: Annotated[str | None, typer.Option("--comment", help="A comment.")] = None,
    glyph: Annotated[
        str | None, typer.Option("--glyph", help="! ? !! ?? !? ?! unclear, or good:N (seat N).")
    ] = None,
    mark: Annotated[
        list[str] | None,
        typer.Option(
            "--mark",
            help="Markup, repeatable: 'circle C3 [COLOUR]', 'cross C3', 'arrow C3 C5 blue', "
            "'label C3 [COLOUR] TEXT' (Beowulf cells; Beast and Hägar map locations).",
        ),
    ] = None,
    audience: Annotated[
        str | None,
        typer.Option(
            "--audience",
            help="public, seat (your seat; your team in Beast) or referee. Private notes "
            "are shown to others after the game if the table's reveal policy says so. "
            "Default: public; in a variation only its side sees, seat (the referee's: "
            "referee), and public is refused there.",
            show_default=False,
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Annotate a seq of a game (or of a variation): a comment, a glyph, markup. The
    annotation goes to the game's notes stream; the game's own log is never touched."""
    at = at.strip()
    if not at:
        raise InvalidNotation("--at SEQ is required (12, or v2@5 for a variation's seq)")
    table = open_table(db)
    viewer = table.viewer(game_id, as_ or "spectator")
    envelope = table.histories().annotate(
        game_id, viewer, at, comment=comment, glyph=glyph, marks=mark or (), audience=audience
    )
    note = visible_note(envelope.event)
    # its seq in the notes as this viewer is given them (0: one it may not read back)
    where = f"notes seq {envelope.seq}" if envelope.seq else "sealed for the referee alone"
    echo(
        f"annotated {at} ({envelope.event.audience}): {where}"
        + (f" {note.glyph}" if note and note.glyph else "")
    )


@command("variation")
def variation(
    game_id: IdArg,
    moves: Annotated[
        list[str] | None,
        typer.Argument(
            help="Moves in the game's notation; 'NAME: move' says who moves.", show_default=False
        ),
    ] = None,
    as_: AsOption = None,
    from_: Annotated[
        str, typer.Option("--from", help="Branch after this seq: 12, or v2@5 in variation 2.")
    ] = "",
    name: Annotated[str, typer.Option("--name", help="A name for the variation.")] = "",
    seed: Annotated[
        str | None,
        typer.Option("--seed", help="Seed for hidden values drawn afresh (default: random)."),
    ] = None,
    extend: Annotated[
        str | None,
        typer.Option("--extend", help="Play on at the end of your variation (v2) instead."),
    ] = None,
    db: DbOption = None,
) -> None:
    """Play moves from a seq of the game (or of a variation) through the rules into a
    variation of its own, and print its id. What the viewer cannot see is drawn afresh
    from the seed (the variation is then marked hypothetical)."""
    from_ = from_.strip()
    if bool(from_) == bool(extend):
        raise InvalidNotation("give --from SEQ (12, or v2@5) or --extend v2, one of them")
    if not moves:  # an empty variation is no line of play: nothing to store
        raise InvalidOption(
            f"a variation needs at least one move: skald variation {game_id} --from {from_} "
            "MOVE... (in the game's notation; `skald legal` lists them)"
            if not extend
            else f"--extend {extend}: give at least one move to play on"
        )
    table = open_table(db)
    viewer = table.viewer(game_id, as_ or "spectator")
    if extend:
        seq = table.histories().extend(game_id, viewer, extend, moves or ())
        echo(f"{game_id}~{extend.removeprefix(game_id + '~')} now ends at seq {seq}")
        return
    echo(table.histories().variation(game_id, viewer, from_, moves or (), name=name, seed=seed))


@command("export")
def export(
    game_id: IdArg,
    as_: AsOption = None,
    format: Annotated[str, typer.Option("--format", help=", ".join(FORMATS) + ".")] = "text",
    variations: Annotated[
        bool, typer.Option("--variations/--no-variations", help="Include variations.")
    ] = True,
    comments: Annotated[
        bool, typer.Option("--comments/--no-comments", help="Include annotations.")
    ] = True,
    receipt: Annotated[
        list[Path] | None,
        typer.Option(
            help="A receipt a player kept (`skald receipt`), repeatable: embedded in a jsonl "
            "or html export, whose verifiers check the record extends it."
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Write the game's annotated history as VIEWER may see it to stdout: jsonl (lossless,
    chained, with a signed head when the store has a key), text (PGN-like), md or html
    (which checks itself when opened: chain, commitments, signed head, kept receipts)."""
    if format not in FORMATS:
        raise InvalidNotation(f"--format {format!r}: choose one of {', '.join(FORMATS)}")
    if receipt and format not in SELF_CHECKING:
        raise InvalidOption(f"--receipt: only a {' or '.join(SELF_CHECKING)} export embeds one")
    kept = [load_receipt(read_receipt(path)) for path in receipt or ()]
    signing = format in SELF_CHECKING
    table = open_table(db, signing=signing, create=False, optional_signing=True)
    viewer = table.viewer(game_id, as_ or "spectator")
    text = table.histories().export(
        game_id, viewer, format, comments=comments, variations=variations, kept_receipts=kept
    )
    typer.echo(text, nl=False)
