"""Entry point of the `skald` console script: the app with every command module loaded.

Loading the modules takes a good part of a second; Ctrl-C meanwhile ends the program as
it ends a command (cli/app.py): one line, `interrupted`, exit 130, no traceback. (The
console script imports this module before it calls anything, so the guard is here.)
"""

from __future__ import annotations

import signal

from skald.cli.interrupt import interrupted_exit, on_sigint

# During the imports below a KeyboardInterrupt can be swallowed by a library's bare
# `except:` around an optional import (the program then ran on as if never interrupted):
# the handler ends the process itself.
_before = signal.getsignal(signal.SIGINT)
if _before is signal.default_int_handler:
    signal.signal(signal.SIGINT, on_sigint)

try:
    import skald.cli.serve  # noqa: F401  (serve, bench)
    from skald.cli import (  # noqa: F401  (each module registers its commands)
        annotate,
        audit,
        bench_engine,
        bots,
        demo,
        docs,
        history,
        play,
        score,
        tournament,
    )
    from skald.cli.app import app
except KeyboardInterrupt:
    interrupted_exit()
finally:
    if _before is signal.default_int_handler:  # app() installs its own (cli/app.py)
        signal.signal(signal.SIGINT, _before)

__all__ = ["app"]

if __name__ == "__main__":
    app()
