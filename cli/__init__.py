"""The `skald` command line (Typer): the only place that prints to a terminal."""
