"""Processes a test starts: each one leads a process group (a session) of its own, with
the signal dispositions of a program started from a terminal (SIGINT default, whatever the
test runner inherited: a background job or a CI runner ignores it), and the whole group is
killed when the test's block ends, pass or fail, so a failing test leaves nothing running.

`Processes` is the one place; the `processes` fixture (tests/conftest.py) gives a test one
for its duration, `run` is `subprocess.run` through it, and tests/servers.py starts its
servers with it."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from typing import Any


def _as_from_a_terminal() -> None:
    """In the child, before it runs: Ctrl-C (SIGINT) interrupts it, as it would from a shell
    in the foreground; a job started in the background inherits SIGINT ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Processes:
    """The processes one test (or one block) started; `end_all` kills each one's group."""

    def __init__(self) -> None:
        self.started: list[subprocess.Popen[Any]] = []

    def start(self, args: list[str], **popen: Any) -> subprocess.Popen[Any]:
        """`subprocess.Popen` in a session of its own, ended with the test."""
        process: subprocess.Popen[Any] = subprocess.Popen(
            args, start_new_session=True, preexec_fn=_as_from_a_terminal, **popen
        )
        self.started.append(process)
        return process

    def run(
        self, args: list[str], *, timeout: float = 120, input: Any = None, **popen: Any
    ) -> subprocess.CompletedProcess[Any]:
        """`subprocess.run` (capture by keyword as there), its group ended however it ends."""
        if popen.pop("capture_output", False):
            popen.setdefault("stdout", subprocess.PIPE)
            popen.setdefault("stderr", subprocess.PIPE)
        check = popen.pop("check", False)
        if input is not None:
            popen.setdefault("stdin", subprocess.PIPE)
        process = self.start(args, **popen)
        try:
            out, err = process.communicate(input=input, timeout=timeout)
        finally:
            self.end(process)
        done = subprocess.CompletedProcess(args, process.returncode, out, err)
        if check:
            done.check_returncode()
        return done

    @staticmethod
    def end(process: subprocess.Popen[Any]) -> None:
        """Kill `process` and everything in its group; wait for it."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=15)

    def end_all(self) -> None:
        """End every group this started (a group outlives its leader: kill it anyway)."""
        for process in self.started:
            self.end(process)
        self.started.clear()

    def __enter__(self) -> Processes:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.end_all()


def run(args: list[str], **options: Any) -> subprocess.CompletedProcess[Any]:
    """`subprocess.run` for tests: own session, SIGINT default, the group ended after."""
    with Processes() as processes:
        return processes.run(args, **options)
