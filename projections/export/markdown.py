"""The Markdown export: the readable history as a Markdown document (inline SVG boards,
which Markdown passes through as HTML; nothing is loaded from the network)."""

from __future__ import annotations

from skald.projections.export.model import Bundle
from skald.projections.export.readable import Board, blocks, header_pairs, title_of


def _md(text: str) -> str:
    """Text with Markdown's active characters escaped."""
    return "".join("\\" + c if c in "\\`*_{}[]<>#|" else c for c in text)


def write_markdown(
    bundle: Bundle, board: Board, comments: bool = True, variations: bool = True
) -> str:
    """The Markdown export of `bundle`."""
    lines = [f"# {_md(title_of(bundle))}", "", "| Tag | Value |", "|---|---|"]
    lines += [f"| {name} | {_md(value)} |" for name, value in header_pairs(bundle)]
    lines += ["", "## Moves", ""]
    for block in blocks(bundle, board, comments, variations):
        pad = "  " * block.depth
        if block.kind == "move":
            lines.append(f"{pad}- **{_md(block.text)}** `{block.detail.replace('`', '')}`")
        elif block.kind == "note":
            lines.append(f"{pad}  - _{_md(block.text)}_: {_md(block.detail)}")
        elif block.kind == "open":
            lines.append(f"{pad}- {_md(block.text)}")
        elif block.kind == "board":
            lines += [
                "",
                f"{pad}<figure>{block.svg}<figcaption>{_md(block.text)}</figcaption></figure>",
                "",
            ]
        elif block.kind == "result":
            lines += ["", f"**Result:** {_md(block.text)}"]
    return "\n".join(lines) + "\n"
