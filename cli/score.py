"""`skald score POSITION.json`: settle a scoring dispute by typing in the board."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import msgspec
import typer

from skald.cli.app import command, echo, print_json
from skald.core.errors import InvalidNotation, NotFound


@command("score")
def score(
    position: Annotated[Path, typer.Argument(help="A position file (see README).")],
    json: Annotated[
        bool, typer.Option("--json", help="Print the figures and totals as JSON.")
    ] = False,
) -> None:
    """Score every figure of a position, as at the end of an act."""
    try:
        data = msgspec.json.decode(position.read_bytes())
    except FileNotFoundError:
        raise NotFound(f"no position file {position}") from None
    except msgspec.DecodeError as error:
        raise InvalidNotation(f"{position}: not valid JSON ({error})") from None
    if not isinstance(data, dict) or data.get("game") != "beowulf":
        raise InvalidNotation(
            f'{position}: only Beowulf positions can be scored ("game": "beowulf")'
        )
    from skald.core.beowulf.position import render_score, score_position

    report = score_position(data)
    if json:
        print_json(report)
    else:
        echo(render_score(report))
