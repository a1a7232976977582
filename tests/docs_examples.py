"""The examples of the README and the documentation site, read out of their Markdown and run.

A runnable example is a fenced block of kind `console`: lines that start with `$ ` are
commands (a line ending in a backslash goes on to the next), the lines after a command are
its expected output (stdout and stderr together). Every console block of one page runs in
one shell, in order, in a fresh folder with its own store (`SKALD_DB`), so a page is a
session a reader can type. Expected output matches when, after masking, it equals the
output line by line, where `…` inside a line stands for any text and a line that is only
`…` for any number of lines. Masking replaces every run of 12 or more hex digits (game ids,
hashes, keys, commitments) and every token, moment and date with `…` on both sides.

`SKALD_DOCS_REGENERATE=1` writes the actual output back into the page instead of comparing
(masked, so ids stay wildcards): run it after a change that alters output, then read the diff.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

FENCE = re.compile(r"^```console[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
HEX = re.compile(r"\b[0-9a-f]{12,}\b")
MOMENT = re.compile(r"\b\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?")
DATE = re.compile(r"\b\d{4}\.\d\d\.\d\d\b")
TOKEN = re.compile(r'("(?:token|organiser_token|referee_token)":\s*)"[^"]*"')
MARKER = "@@skald-docs-example@@"
# A page that talks to the service says so; its shell then starts `skald serve` on a free
# loopback port first (its address in $S) and stops it when the page is done.
NEEDS_SERVER = "<!-- examples: a server at $S -->"


@dataclass
class Example:
    """One command of a page and the output its page says it prints."""

    page: Path
    line: int
    command: str
    expected: list[str] = field(default_factory=list)


def examples(page: Path) -> list[Example]:
    """The console examples of one Markdown page, in order."""
    text = page.read_text(encoding="utf-8")
    found: list[Example] = []
    for block in FENCE.finditer(text):
        first_line = text.count("\n", 0, block.start(1)) + 1
        lines = block.group(1).splitlines()
        index = 0
        while index < len(lines):
            line = lines[index]
            if not line.startswith("$ "):
                if found and found[-1].page == page:
                    found[-1].expected.append(line)
                index += 1
                continue
            start = index
            command = line[2:]
            while command.endswith("\\") and index + 1 < len(lines):
                index += 1
                command = command[:-1] + "\n" + lines[index]
            found.append(Example(page, first_line + start, command))
            index += 1
    return found


def mask(line: str) -> str:
    """A line with ids, hashes, keys and tokens replaced by `…`."""
    line = TOKEN.sub(r'\1"…"', line)
    return DATE.sub("…", MOMENT.sub("…", HEX.sub("…", line)))


def run_page(page: Path, folder: Path, skald_bin: Path) -> list[list[str]]:
    """Run every example of `page` in one shell in `folder`; each command's output lines."""
    script = ["cd " + _quote(str(folder))]
    if NEEDS_SERVER in page.read_text(encoding="utf-8"):
        script += _server_start()
    for example in examples(page):
        script.append(f"printf '%s\\n' {MARKER}")
        script.append(example.command + " 2>&1")
    environment = {
        **os.environ,
        "SKALD_DB": f"sqlite:///{folder}/skald.db",
        "PATH": f"{skald_bin}{os.pathsep}{os.environ.get('PATH', '')}",
        "COLUMNS": "100",
        "NO_COLOR": "1",
        "TERM": "dumb",
    }
    environment.pop("SKALD_SIGNING_KEY", None)  # the page's store keeps its key beside it
    done = subprocess.run(
        ["bash", "--noprofile", "--norc"],
        input="\n".join(script) + "\n",
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
        start_new_session=True,
    )
    chunks = done.stdout.split(MARKER + "\n")[1:]
    return [chunk.splitlines() for chunk in chunks]


def _server_start() -> list[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return [
        f"export S=http://127.0.0.1:{port}",
        f"skald serve --port {port} --log-level warning > server.log 2>&1 &",
        "SERVER=$!",
        "trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null' EXIT",
        'for _ in $(seq 200); do curl -sf "$S/health" > /dev/null && break; sleep 0.1; done',
    ]


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether `actual` fits `expected` (`…` wildcards; both sides masked)."""
    return _fits([mask(line) for line in expected], [mask(line) for line in actual])


def _fits(expected: list[str], actual: list[str]) -> bool:
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head.strip() == "…":
        return any(_fits(rest, actual[skip:]) for skip in range(len(actual) + 1))
    return bool(actual) and _line_fits(head, actual[0]) and _fits(rest, actual[1:])


def _line_fits(expected: str, actual: str) -> bool:
    pattern = ".*".join(re.escape(piece) for piece in expected.rstrip().split("…"))
    return re.fullmatch(pattern, actual.rstrip()) is not None


def regenerate(page: Path, outputs: list[list[str]]) -> None:
    """Write each example's actual (masked) output back into the page."""
    text = page.read_text(encoding="utf-8")
    runs = iter(outputs)

    def rewrite(block: re.Match[str]) -> str:
        lines = block.group(1).splitlines()
        kept: list[str] = []
        index = 0
        while index < len(lines):
            line = lines[index]
            if not line.startswith("$ "):
                index += 1
                continue
            kept.append(line)
            while line.endswith("\\") and index + 1 < len(lines):
                index += 1
                line = lines[index]
                kept.append(line)
            kept += [mask(out) for out in next(runs, [])]
            index += 1
        return "```console\n" + "\n".join(kept) + "\n```"

    page.write_text(FENCE.sub(rewrite, text), encoding="utf-8")
