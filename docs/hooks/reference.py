"""MkDocs hook: a page's `<!-- reference: NAME -->` line becomes the reference generated from
the code (skald.cli.reference), so the CLI, HTTP, event and code references cannot drift;
its `{{bench:NAME}}` macros become figures of the recorded bench run (skald.cli.bench_record),
so no page states a figure from memory."""

from __future__ import annotations

import re
from typing import Any

from skald.cli import bench_record
from skald.cli.reference import reference

MARKER = re.compile(r"^<!-- reference: (\w+) -->$", re.MULTILINE)


def on_page_markdown(markdown: str, **_: Any) -> str:
    """Replace every reference marker of the page with its generated Markdown."""
    markdown = MARKER.sub(lambda match: reference(match.group(1)), markdown)
    if bench_record.MACRO.search(markdown):
        markdown = bench_record.expand(markdown, bench_record.read())
    return markdown
