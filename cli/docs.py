"""`skald docs`: serve the documentation site on 127.0.0.1, or build it into a folder.

The site's sources (`mkdocs.yml`, `docs/`) live in a checkout of the repository, beside
the packages an editable install runs from; MkDocs and its Material theme come with the
`docs` extra (`pip install -e '.[docs]'`).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from typing import Annotated

import typer

from skald.cli.app import command
from skald.core.errors import NotFound, SkaldError

CHECKOUT = Path(__file__).resolve().parent.parent


def _config() -> Path:
    config = CHECKOUT / "mkdocs.yml"
    if not config.is_file():
        raise NotFound(
            "the documentation's sources (mkdocs.yml and docs/) are in a checkout of the "
            "repository, and this installation was not made from one"
        )
    if importlib.util.find_spec("mkdocs") is None or importlib.util.find_spec("material") is None:
        raise SkaldError("the documentation needs the docs extra: pip install -e '.[docs]'")
    return config


@command("docs")
def docs(
    build: Annotated[
        Path | None,
        typer.Option("--build", help="Build the site into this folder instead of serving it."),
    ] = None,
    port: Annotated[
        int, typer.Option("--port", min=1, max=65535, help="Port to serve on (127.0.0.1).")
    ] = 8001,
) -> None:
    """Serve the documentation site on 127.0.0.1 (reloading as its pages change), or
    build it with --build DIR: plain HTML files that read offline from the folder."""
    config = _config()
    mkdocs = [sys.executable, "-m", "mkdocs"]
    if build is not None:
        arguments = [*mkdocs, "build", "--strict", "-f", str(config), "-d", str(build.resolve())]
    else:
        arguments = [*mkdocs, "serve", "-f", str(config), "-a", f"127.0.0.1:{port}"]
    environment = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(arguments, check=False, env=environment)
    if done.returncode != 0:
        raise SkaldError(f"mkdocs {'build' if build else 'serve'} failed (exit {done.returncode})")
