"""The CLI's help as a person reads it (found by a review): a flag is not shown with a
value type (`--json <bool>` read as if it took `true`), and each command's line in `skald
--help` is its summary's sentence, not broken where the docstring's lines break."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from skald.cli.main import app

WIDE = CliRunner(env={"COLUMNS": "400", "NO_COLOR": "1", "TERM": "dumb"})


def _help(*args: str) -> str:
    result = WIDE.invoke(app, [*args, "--help"])
    assert result.exit_code == 0, result.output
    return result.output


def test_flags_show_no_value_type_and_options_show_theirs() -> None:
    text = _help("new")
    assert re.search(r"--reproducible\s+Draw from the seed alone", text), text
    assert "<bool>" not in text
    assert re.search(r"--players\s+<str>", text), text  # an option that takes a value


def test_every_command_is_listed_on_one_line() -> None:
    lines = _help().splitlines()
    start = next(i for i, line in enumerate(lines) if "─ Commands ─" in line)
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("╰"))
    panel = lines[start + 1 : end]
    assert len(panel) > 10, lines
    broken = [line for line in panel if not re.match(r"│ [a-z-]+\s{2,}\S", line)]
    assert not broken, "a command's summary went on to a second line"
    assert not [line for line in panel if "_HELP" in line], "a help constant's name leaked"
    show = next(line for line in panel if line.startswith("│ show "))
    assert "after the game under reveal=end, everything)." in show, show
