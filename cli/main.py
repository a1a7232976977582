"""Entry point of the `skald` console script: the app with every command module loaded."""

from __future__ import annotations

import skald.cli.serve  # noqa: F401  (serve, bench)
from skald.cli import (  # noqa: F401  (each module registers its commands)
    annotate,
    audit,
    bench_engine,
    bots,
    demo,
    history,
    play,
    score,
    tournament,
)
from skald.cli.app import app

__all__ = ["app"]

if __name__ == "__main__":
    app()
