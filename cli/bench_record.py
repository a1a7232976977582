"""A recorded run of `skald bench`, and the documentation's figures read out of it.

`skald bench --record FILE` writes one run as JSON lines: first `{"run": {...}}` (when, on
which commit, with which command, on how many cores and under what load), then every
figure as `--json` prints it. The README and the documentation site state figures only
from such a file (`docs/bench/recorded.jsonl`), never from memory:

- in a page of the site, `{{bench:NAME}}` is the figure's value with its unit
  (`{{bench:NAME:number}}` without it), `{{bench:NAME:baseline}}` its baseline's value
  (`:baseline_number` without the unit), `{{bench:NAME:ratio}}` the ratio, `{{bench:NAME:≤2}}`
  a goal on the ratio with whether the run met it, `{{bench:when}}` the run's day, commit
  and cores
  (`×0.16`), `{{bench:NAME:note}}` its note and `{{bench:run}}` a sentence saying which run
  this is; `<!-- reference: bench -->` is the whole run as a table (the site's hook);
- in the README, which is read where no hook runs, a line `<!-- bench: TEXT -->` is followed
  by TEXT with its macros filled in, and a test checks that the two agree
  (`SKALD_DOCS_REGENERATE=1` rewrites them from the recorded run).

A figure a page names that the run does not hold is an error, so a page cannot cite a
figure that was never measured.
"""

from __future__ import annotations

import datetime
import math
import os
import platform
import re
import subprocess
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import msgspec

from skald.api.bench import Figure
from skald.core.store import shown_url

ROOT = Path(__file__).resolve().parent.parent
RECORDED = ROOT / "docs" / "bench" / "recorded.jsonl"
MACRO = re.compile(
    r"\{\{bench:([\w.\-]+)(?::(value|number|baseline|baseline_number|ratio|note|[≤≥][\d.]+))?\}\}"
)
README_LINE = re.compile(r"^<!-- bench: (.*) -->\n(.*)$", re.MULTILINE)
UNITS = {"us": " µs", "ms": " ms", "MiB": " MiB", "KiB": " KiB", "%": " %", "/s": "/s"}


class RecordError(ValueError):
    """A recorded run that cannot be read, or a page citing a figure it does not hold."""


@dataclass(frozen=True)
class Run:
    """One recorded run: what it was, and its figures by name."""

    about: dict[str, Any]
    figures: dict[str, Figure]

    def figure(self, name: str) -> Figure:
        """The named figure; RecordError naming the file's figures when it is missing."""
        try:
            return self.figures[name]
        except KeyError:
            raise RecordError(
                f"the recorded bench run has no figure {name!r} (it has "
                f"{len(self.figures)}: run `skald bench --record` with the part that measures it)"
            ) from None


def about_this_run(argv: list[str]) -> dict[str, Any]:
    """What the header of a recorded run says: the moment, commit, command and machine."""
    return {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "commit": _git("rev-parse", "--short=12", "HEAD"),
        "uncommitted_changes": bool(_git("status", "--porcelain", "--untracked-files=no")),
        "command": " ".join(["skald", "bench", *_without_secrets(argv)]),
        "cores": os.cpu_count(),
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


def _without_secrets(argv: list[str]) -> list[str]:
    """The command's arguments with a database URL's password masked."""
    return [shown_url(arg) if "://" in arg else arg for arg in argv]


def _git(*args: str) -> str:
    try:
        done = subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def write_header(out: IO[str], argv: list[str]) -> None:
    """The run's first line."""
    out.write(msgspec.json.encode({"run": about_this_run(argv)}).decode() + "\n")
    out.flush()


def write_figure(out: IO[str], figure: Figure) -> None:
    """One figure's line, flushed: a run stopped halfway keeps what it measured."""
    out.write(msgspec.json.encode(figure).decode() + "\n")
    out.flush()


def write_footer(out: IO[str]) -> None:
    """The load when the run ended (the machine's other work shows in every figure)."""
    load = [round(x, 2) for x in os.getloadavg()]
    out.write(msgspec.json.encode({"end": {"load_average": load}}).decode() + "\n")


def read(path: Path = RECORDED) -> Run:
    """The recorded run at `path`; RecordError naming the line that cannot be read."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise RecordError(f"{path}: {error.strerror or error}") from None
    about: dict[str, Any] = {}
    figures: dict[str, Figure] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            raw = msgspec.json.decode(line)
            if isinstance(raw, dict) and "run" in raw:
                about = dict(raw["run"])
            elif isinstance(raw, dict) and "end" in raw:
                about["load_average_at_end"] = raw["end"].get("load_average")
            else:
                # JSON has no NaN: msgspec writes a ratio over a zero baseline as null.
                for key in ("value", "baseline_value", "ratio"):
                    if isinstance(raw, dict) and raw.get(key, 0) is None:
                        raw[key] = math.nan
                figure = msgspec.convert(raw, Figure)
                figures[figure.name] = figure
        except (msgspec.DecodeError, msgspec.ValidationError, TypeError) as error:
            raise RecordError(f"{path}:{number}: not a bench line ({error})") from None
    if not about:
        raise RecordError(f"{path}: no run header (record it with `skald bench --record`)")
    return Run(about, figures)


def number(value: float) -> str:
    """A measured number as a person reads it: 1,980 · 138 · 4.8 · 0.51 · 0.082."""
    if math.isnan(value):
        return "n/a"
    size = abs(value)
    if size >= 100:
        return f"{value:,.0f}"
    if size >= 10:
        return f"{value:,.1f}".removesuffix(".0")
    if size >= 1:
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return f"{value:.2g}"


def ratio(value: float) -> str:
    """A ratio as the documentation writes it: ×0.16, ×1.07, ×5.9, ×80."""
    if math.isnan(value):
        return "n/a"
    if value >= 10:
        return f"×{value:,.0f}"
    if value >= 1.995:
        return f"×{value:.1f}"
    return f"×{value:.2f}" if value >= 1 else f"×{value:.2g}"


def with_unit(value: float, unit: str) -> str:
    """A value and its unit: `138 µs`, `1,980/s`, `1,980 decisions/s`, `84 MiB`."""
    shown = UNITS.get(unit, f" {unit}" if unit else "")
    if math.isnan(value):
        return number(value)
    return f"{number(value)}{shown}"


def expand(text: str, run: Run) -> str:
    """`text` with every `{{bench:…}}` macro replaced by the recorded figure it names."""

    def replace(match: re.Match[str]) -> str:
        name, part = match.group(1), match.group(2) or "value"
        if name == "run":
            return run_sentence(run)
        if name == "when":
            return when(run)
        figure = run.figure(name)
        if part[0] in "≤≥":
            return goal(figure, part)
        if part == "ratio":
            return ratio(figure.ratio)
        if part == "baseline":
            return with_unit(figure.baseline_value, figure.unit)
        if part == "number":
            return number(figure.value)
        if part == "baseline_number":
            return number(figure.baseline_value)
        if part == "note":
            return figure.note
        return with_unit(figure.value, figure.unit)

    return MACRO.sub(replace, text)


def goal(figure: Figure, bound: str) -> str:
    """A goal on the figure's ratio (`≤2`, `≥1.6`) and whether the run met it."""
    limit = float(bound[1:])
    met = figure.ratio <= limit if bound[0] == "≤" else figure.ratio >= limit
    return f"{bound[0]} ×{bound[1:]} " + ("✓ met" if met else "✗ missed")


def when(run: Run) -> str:
    """The run in a few words: its day, commit and cores."""
    about = run.about
    day = str(about.get("date", ""))[:10] or "an unknown day"
    return f"{day}, commit `{about.get('commit') or '?'}`, {about.get('cores', '?')} cores"


def run_sentence(run: Run) -> str:
    """Which run the figures come from, in one sentence."""
    about = run.about
    load = about.get("load_average_at_start") or ["?"]
    changed = " (with uncommitted changes)" if about.get("uncommitted_changes") else ""
    return (
        f"one run of `{about.get('command', 'skald bench')}` on {when(run)}{changed}, "
        f"load average {load[0]} at its start"
    )


def table(run: Run) -> str:
    """The whole recorded run as a Markdown table, in the order it was measured."""
    rows = [
        f"The figures below are {run_sentence(run)}; the file is "
        "[`docs/bench/recorded.jsonl`](../bench/recorded.jsonl).",
        "",
        "| figure | value | baseline | baseline's value | ratio | note |",
        "|---|---|---|---|---|---|",
    ]
    for figure in run.figures.values():
        rows.append(
            f"| `{figure.name}` | {with_unit(figure.value, figure.unit)} | `{figure.baseline}` | "
            f"{with_unit(figure.baseline_value, figure.unit)} | {ratio(figure.ratio)} | "
            f"{figure.note.replace('|', '/')} |"
        )
    return "\n".join(rows)


def readme_lines(text: str, run: Run) -> Iterator[tuple[str, str]]:
    """Each README figure line as it is and as the recorded run says it must be."""
    for match in README_LINE.finditer(text):
        yield match.group(2), expand(match.group(1), run)


def refresh_readme(text: str, run: Run) -> str:
    """The README with every figure line rewritten from its template and the run."""
    return README_LINE.sub(
        lambda m: f"<!-- bench: {m.group(1)} -->\n{expand(m.group(1), run)}", text
    )


def cited(texts: Iterable[str]) -> set[str]:
    """The figure names the texts' macros cite."""
    return {
        m.group(1)
        for text in texts
        for m in MACRO.finditer(text)
        if m.group(1) not in ("run", "when")
    }


if __name__ == "__main__":  # pragma: no cover - a maintainer's shortcut
    print(table(read(Path(sys.argv[1]) if len(sys.argv) > 1 else RECORDED)))
