"""Figures in the README and the documentation come only from the recorded bench run
(docs/bench/recorded.jsonl, written by `skald bench --record`): a figure a page cites must
be in it, the README's figure lines must say what the run says, and the performance page
states no figure by hand."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from skald.api.bench import figure
from skald.cli import bench_record
from skald.cli.bench_record import RecordError

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PERFORMANCE = ROOT / "docs" / "explain" / "performance.md"
PAGES = [README, *sorted((ROOT / "docs").rglob("*.md"))]
SKALD = Path(sys.executable).parent / "skald"
# A measured figure written out: a number with a unit of time, rate or memory, or a ratio.
HAND_WRITTEN = re.compile(
    r"\d[\d,.]*\s*(?:µs|ms|MiB|KiB|GiB|decisions/s|requests/s|events/s|/s\b)|×\s?\d"
)
FENCED = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
GOAL = re.compile(r"[≤≥]\s*×?\s*[\d,.]+\s*\S*")  # a goal (≤ ×5, ≤ 50 MiB) is not a measurement


def recorded(tmp_path: Path, *figures: object) -> Path:
    out = io.StringIO()
    bench_record.write_header(out, ["--only", "http", "--pg", "postgresql://u:secret@h/db"])
    for item in figures:
        bench_record.write_figure(out, item)  # type: ignore[arg-type]
    bench_record.write_footer(out)
    path = tmp_path / "run.jsonl"
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def test_a_recorded_run_reads_back_with_its_header_and_figures(tmp_path: Path) -> None:
    path = recorded(
        tmp_path,
        figure("http.move.sqlite", 1980.4, "decisions/s", "http.health.sqlite", 12193.0),
        figure("engine.move.sqlite", 138.2, "us", "raw.append.sqlite", 23.5, "300 decisions"),
    )
    run = bench_record.read(path)
    assert list(run.figures) == ["http.move.sqlite", "engine.move.sqlite"]
    assert run.about["cores"] == os.cpu_count()
    assert "secret" not in run.about["command"]  # a database password is never recorded
    assert "load_average_at_end" in run.about
    text = "{{bench:http.move.sqlite}} at {{bench:http.move.sqlite:ratio}} of /health"
    assert bench_record.expand(text, run) == "1,980 decisions/s at ×0.16 of /health"
    assert bench_record.expand("{{bench:engine.move.sqlite:baseline}}", run) == "23.5 µs"
    assert bench_record.expand("{{bench:engine.move.sqlite:note}}", run) == "300 decisions"
    assert bench_record.expand("{{bench:http.move.sqlite:number}} decisions", run) == (
        "1,980 decisions"
    )
    assert bench_record.expand("{{bench:http.move.sqlite:baseline_number}}", run) == "12,193"
    assert "cores" in bench_record.expand("{{bench:run}}", run)
    assert bench_record.expand("{{bench:http.move.sqlite:≥0.1}}", run) == "≥ ×0.1 ✓ met"
    assert bench_record.expand("{{bench:http.move.sqlite:≥0.3}}", run) == "≥ ×0.3 ✗ missed"
    assert bench_record.expand("{{bench:engine.move.sqlite:≤2}}", run) == "≤ ×2 ✗ missed"
    assert bench_record.expand("{{bench:when}}", run).endswith(f"{os.cpu_count()} cores")


def test_a_page_citing_a_figure_the_run_lacks_is_an_error(tmp_path: Path) -> None:
    run = bench_record.read(recorded(tmp_path, figure("a", 1.0, "ms", "b", 2.0)))
    with pytest.raises(RecordError, match=r"no figure 'http\.move\.sqlite'"):
        bench_record.expand("{{bench:http.move.sqlite}}", run)


def test_a_damaged_record_is_refused_naming_its_line(tmp_path: Path) -> None:
    path = recorded(tmp_path, figure("a", 1.0, "ms", "b", 2.0))
    path.write_text(path.read_text() + '{"name": "half"\n', encoding="utf-8")
    with pytest.raises(RecordError, match=r"run\.jsonl:4: not a bench line"):
        bench_record.read(path)
    headless = tmp_path / "headless.jsonl"
    headless.write_text(path.read_text().splitlines()[1] + "\n", encoding="utf-8")
    with pytest.raises(RecordError, match="no run header"):
        bench_record.read(headless)


@pytest.mark.parametrize(
    ("value", "unit", "shown"),
    [
        (1980.4, "decisions/s", "1,980 decisions/s"),
        (1980.4, "/s", "1,980/s"),
        (138.2, "us", "138 µs"),
        (12.34, "ms", "12.3 ms"),
        (4.80, "ms", "4.8 ms"),
        (0.512, "ms", "0.51 ms"),
        (0.0821, "ms", "0.082 ms"),
        (84.0, "MiB", "84 MiB"),
        (float("nan"), "us", "n/a"),
    ],
)
def test_values_are_written_as_people_read_them(value: float, unit: str, shown: str) -> None:
    assert bench_record.with_unit(value, unit) == shown


@pytest.mark.parametrize(
    ("value", "shown"), [(0.162, "×0.16"), (0.08, "×0.08"), (1.074, "×1.07"), (5.94, "×5.9")]
)
def test_ratios_are_written_as_the_documentation_writes_them(value: float, shown: str) -> None:
    assert bench_record.ratio(value) == shown
    assert bench_record.ratio(80.4) == "×80"


def test_every_figure_the_documentation_cites_is_in_the_recorded_run() -> None:
    run = bench_record.read()
    texts = [page.read_text(encoding="utf-8") for page in PAGES]
    names = bench_record.cited(texts)
    assert names, "the documentation cites no recorded figure"
    assert not names - set(run.figures), "cited but not recorded"
    # The site's hook fills every macro and the run's table.
    sys.path.insert(0, str(ROOT / "docs" / "hooks"))
    try:
        import reference as hook  # type: ignore[import-not-found]
    finally:
        sys.path.pop(0)
    page = hook.on_page_markdown(PERFORMANCE.read_text(encoding="utf-8"))
    assert "{{bench" not in page
    assert "docs/bench/recorded.jsonl" in page


def test_the_readme_figures_say_what_the_recorded_run_says() -> None:
    run = bench_record.read()
    text = README.read_text(encoding="utf-8")
    if os.environ.get("SKALD_DOCS_REGENERATE"):
        README.write_text(bench_record.refresh_readme(text, run), encoding="utf-8")
        return
    lines = list(bench_record.readme_lines(text, run))
    assert lines, "the README states no figure from the recorded run"
    for actual, expected in lines:
        assert actual == expected, (
            "refresh with SKALD_DOCS_REGENERATE=1 (tests/test_bench_record.py)"
        )


@pytest.mark.parametrize("page", [README, PERFORMANCE], ids=lambda page: page.name)
def test_no_figure_is_written_by_hand(page: Path) -> None:
    text = FENCED.sub("", page.read_text(encoding="utf-8"))
    text = bench_record.README_LINE.sub("", text)  # generated lines, checked above
    text = GOAL.sub("", bench_record.MACRO.sub("", text))
    found = [m.group(0) for m in HAND_WRITTEN.finditer(text)]
    assert not found, f"{page.name} states figures by hand (cite the recorded run): {found[:8]}"


def test_a_record_that_cannot_be_written_is_refused_before_anything_runs(
    tmp_path: Path,
) -> None:
    target = tmp_path / "no-such-folder" / "run.jsonl"
    done = subprocess.run(
        [str(SKALD), "bench", "--only", "knowledge", "--record", str(target)],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode != 0
    assert "--record" in done.stderr
    assert "No such file" in done.stderr
    assert "Traceback" not in done.stderr
    assert not done.stdout  # nothing was measured
