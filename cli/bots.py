"""`skald autoplay`: bots (random or greedy) play whole games into the store."""

from __future__ import annotations

from typing import Annotated

import typer

from skald.cli.app import DbOption, command, echo, open_table, print_json
from skald.projections.autoplay import BOTS, autoplay_many


@command("autoplay")
def autoplay(
    game: Annotated[str, typer.Argument(help="Game name.")],
    players: Annotated[int, typer.Option(help="Number of players.")],
    seed: Annotated[str | None, typer.Option(help="Base seed; game k uses SEED/k.")] = None,
    games: Annotated[int, typer.Option(help="How many games to play.")] = 1,
    bots: Annotated[
        str, typer.Option(help=f"Bot level for every seat: {' or '.join(BOTS)}.")
    ] = "random",
    json: Annotated[bool, typer.Option("--json", help="One JSON line per game.")] = False,
    db: DbOption = None,
) -> None:
    """Play games with bots, each bot seeing only its own seat's view."""
    if bots not in BOTS:
        raise typer.BadParameter(f"{bots!r} is not one of: {', '.join(BOTS)}", param_hint="--bots")
    table = open_table(db)
    results = autoplay_many(table, game, players, games, seed, bot=BOTS[bots])
    for number, result in enumerate(results, start=1):
        if json:
            print_json(result)
            continue
        names = table.players(result.id)
        if result.outcome is None:
            summary = "stopped without an outcome"
        else:
            scores = ", ".join(
                f"{name} {score}" for name, score in zip(names, result.outcome.scores, strict=True)
            )
            winners = " & ".join(names[s] for s in result.outcome.winners)
            summary = f"{result.outcome.termination}: winner {winners} ({scores})"
        echo(f"[{number}/{games}] {result.id}: {result.events} events, {summary}")
