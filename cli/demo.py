"""`skald demo`: the README's first command — bots play a whole game into the store, then
the game is replayed from the log alone, every event and every act's scoring shown."""

from __future__ import annotations

from typing import Annotated

import typer

from skald.cli.app import DbOption, command, echo, open_table
from skald.cli.play import render_table_view
from skald.events.viewer import SPECTATOR
from skald.projections.bots.autoplay import autoplay as play_with_bots
from skald.projections.narrative.describe import describe_line


@command("demo")
def demo(
    game: Annotated[str, typer.Option(help="Which game to play.")] = "beowulf",
    players: Annotated[int, typer.Option(help="Number of bot players.")] = 4,
    seed: Annotated[str, typer.Option(help="Seed of the game (same seed, same game).")] = "demo",
    db: DbOption = None,
) -> None:
    """Play a full game with bots into the store, then replay it from the log."""
    table = open_table(db)
    echo(f"playing {game} with {players} random bots (seed {seed!r})...", err=True)
    result = play_with_bots(table, game, players, seed=seed)
    echo(f"game {result.id}: {result.events} events stored in {table.store_url}", err=True)
    echo(f"replaying {result.id} from its log:\n", err=True)
    for narrated in table.narrated(result.id, SPECTATOR):
        echo(describe_line(narrated))
    echo("")
    echo(render_table_view(table, table.show(result.id, SPECTATOR)))
    report = table.verify(result.id)
    echo(f"\nverify: {'chain intact' if report.ok else report.reason} ({report.checked} events)")
