"""How a Ctrl-C ends the `skald` program: one line, `interrupted`, exit 130, at once.

Standard library only, so that cli/main.py can install it before the slow imports of the
command modules (cli/app.py uses it for commands and everything after them)."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import NoReturn

INTERRUPTED_EXIT = 130  # 128 + SIGINT: what a shell reports for a program stopped by Ctrl-C


def interrupted_exit() -> NoReturn:
    """Say `interrupted`, flush, and leave at once with exit 130, closing nothing (see
    cli/app.py `_App` for why the stores are left open)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a stream may be gone: the exit code says it
            if stream is sys.stderr:
                stream.write("interrupted\n")
            stream.flush()
    os._exit(INTERRUPTED_EXIT)


def on_sigint(_signum: int, _frame: object) -> NoReturn:
    """A SIGINT handler that ends the program (`interrupted_exit`)."""
    interrupted_exit()
