"""`skald autoplay`: bots (random or greedy) play whole games into the store.

Interrupted (Ctrl-C), it names on stderr the game it left unfinished, with the seq it
stopped at, before the CLI's `interrupted` (exit 130): the game stays in the store (events
are never deleted), and its id is how to find it.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from skald.cli.app import DbOption, command, echo, open_store, print_json
from skald.core.engine import Engine
from skald.projections.bots.autoplay import BOTS, AutoplayResult, autoplay_many
from skald.projections.table import Table


class _Watched(Table):
    """The Table, remembering the last game it created (to name it if play is cut short)."""

    started: str | None = None

    def create(self, *args: Any, **kwargs: Any) -> str:
        self.started = super().create(*args, **kwargs)
        return self.started


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
    table = _Watched(Engine(open_store(db)))
    finished = ""
    try:
        for number, result in enumerate(
            autoplay_many(table, game, players, games, seed, bot=BOTS[bots]), start=1
        ):
            _print_result(table, result, number, games, json)
            finished = result.id
    except KeyboardInterrupt:
        if table.started is not None and table.started != finished:
            turn = table.turn(table.started)
            state = "left unfinished" if turn.outcome is None else "finished, not listed,"
            echo(f"game {table.started} {state} at seq {turn.seq}", err=True)
        raise


def _print_result(
    table: Table, result: AutoplayResult, number: int, games: int, json: bool
) -> None:
    if json:
        print_json(result)
        return
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
