"""MkDocs hook: a page's `<!-- reference: NAME -->` line becomes the reference generated from
the code (skald.cli.reference), so the CLI, HTTP, event and code references cannot drift."""

from __future__ import annotations

import re
from typing import Any

from skald.cli.reference import reference

MARKER = re.compile(r"^<!-- reference: (\w+) -->$", re.MULTILINE)


def on_page_markdown(markdown: str, **_: Any) -> str:
    """Replace every reference marker of the page with its generated Markdown."""
    return MARKER.sub(lambda match: reference(match.group(1)), markdown)
