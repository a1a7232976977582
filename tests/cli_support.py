"""Running `skald` commands in-process (Typer's CliRunner) and reading their one-line errors,
shared by the CLI, edge and fault tests."""

from __future__ import annotations

from typer.testing import CliRunner

from skald.cli.main import app

runner = CliRunner()


def skald(*args: str) -> tuple[int, str, str]:
    """Run one command: its exit code, stdout and stderr (a crash fails the test)."""
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.exit_code, result.stdout, result.stderr


def one_line(stderr: str) -> str:
    """The single line of an error (no traceback, nothing else)."""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr, stderr
    return lines[0]
