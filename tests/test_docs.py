"""The documentation: every console example of the README and the site runs and prints
what the page says (tests/docs_examples.py), the site builds offline with `mkdocs build
--strict` (broken links, missing pages and warnings fail), and the generated references
name every command, route, event type and error code of the program."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs_examples import examples, matches, regenerate, run_page

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
RUNNABLE = [page for page in PAGES if examples(page)]
SKALD_BIN = Path(sys.executable).parent
# A tag that makes the page fetch something (a script, a stylesheet, a font, an image)
# from another host when it is read; plain links to other sites are fine.
TAG = re.compile(r"<(script|img|iframe|link|source)\b[^>]*>", re.IGNORECASE)
REMOTE = re.compile(r"""(?:src|href)=["']?(?:https?:)?//""", re.IGNORECASE)


def external_loads(html: str) -> list[str]:
    """The tags of a page that fetch from elsewhere (a `<link>` only when it loads)."""
    found = []
    for tag in TAG.finditer(html):
        text = tag.group(0)
        if tag.group(1).lower() == "link" and not re.search(
            r"rel=[\"']?(?:stylesheet|preload|icon|modulepreload)", text, re.IGNORECASE
        ):
            continue
        if REMOTE.search(text):
            found.append(text)
    return found


def test_the_readme_and_the_site_have_runnable_examples() -> None:
    assert ROOT / "README.md" in RUNNABLE
    assert len(RUNNABLE) >= 5  # the README and the tutorials at least


@pytest.mark.parametrize("page", RUNNABLE, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_example_prints_what_its_page_says(page: Path, tmp_path: Path) -> None:
    outputs = run_page(page, tmp_path, SKALD_BIN)
    found = examples(page)
    assert len(outputs) == len(found), f"{page}: the shell stopped before every example ran"
    if os.environ.get("SKALD_DOCS_REGENERATE"):
        regenerate(page, outputs)
        return
    for example, actual in zip(found, outputs, strict=True):
        assert matches(example.expected, actual), (
            f"{page.relative_to(ROOT)}:{example.line}: $ {example.command}\n"
            f"expected:\n" + "\n".join(example.expected) + "\nactual:\n" + "\n".join(actual)
        )


def test_a_drifted_example_fails() -> None:
    assert matches(["ok: 7 events, head …"], ["ok: 7 events, head f935f2231a2b6896"])
    assert not matches(["ok: 7 events"], ["ok: 8 events"])
    assert matches(["first", "…", "last"], ["first", "a", "b", "last"])
    assert not matches(["first", "last"], ["first", "extra", "last"])
    assert external_loads('<script src="https://cdn.example/x.js"></script>')
    assert external_loads('<link rel="stylesheet" href="//fonts.example/css">')
    assert not external_loads('<a href="https://example.org/">a link</a>')
    assert not external_loads('<script src="../assets/bundle.js"></script>')


@pytest.mark.skipif(shutil.which("mkdocs", path=str(SKALD_BIN)) is None, reason="docs extra")
def test_skald_docs_builds_the_site_offline_without_warnings(tmp_path: Path) -> None:
    site = tmp_path / "site"
    done = subprocess.run(
        [str(SKALD_BIN / "skald"), "docs", "--build", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stderr
    pages = {path.relative_to(site).as_posix() for path in site.rglob("*.html")}
    assert {"reference/cli.html", "reference/http.html", "tutorials/dispute.html"} <= pages
    for html in site.rglob("*.html"):
        text = html.read_text(encoding="utf-8")
        loads = external_loads(text)
        assert not loads, f"{html} loads from elsewhere: {loads}"


def test_the_references_name_every_command_route_event_and_code() -> None:
    import typer

    from skald.api.errors import STATUS
    from skald.api.main import create_app
    from skald.cli.main import app
    from skald.cli.reference import EVENT_MODULES, _event_classes, reference

    cli = reference("cli")
    root = typer.main.get_command(app)
    context = typer.Context(root)
    for name in root.list_commands(context):  # type: ignore[attr-defined]
        assert f"## `skald {name}`" in cli
    http = reference("http")
    for path, methods in create_app("sqlite://").openapi()["paths"].items():
        for method in methods:
            assert f"## `{method.upper()} {path}`" in http
    events = reference("events")
    import importlib

    for module in EVENT_MODULES.values():
        for event in _event_classes(importlib.import_module(module)):
            assert f"### `{event.__struct_config__.tag}`" in events
    codes = reference("codes")
    for _kind, status, code in STATUS:
        assert f"| {status} | `{code}` |" in codes
