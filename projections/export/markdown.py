"""The Markdown export: the readable history as a Markdown document (inline SVG boards,
which Markdown passes through as HTML; nothing is loaded from the network)."""

from __future__ import annotations

from skald.projections.export.model import Bundle
from skald.projections.export.readable import Board, blocks, header_pairs, title_of


def escape_markdown(text: str) -> str:
    """Text with Markdown's active characters escaped (also the tournament exports')."""
    return "".join("\\" + c if c in "\\`*_{}[]<>#|" else c for c in text)


def write_markdown(
    bundle: Bundle, board: Board, comments: bool = True, variations: bool = True
) -> str:
    """The Markdown export of `bundle`."""
    lines = [f"# {escape_markdown(title_of(bundle))}", "", "| Tag | Value |", "|---|---|"]
    lines += [f"| {name} | {escape_markdown(value)} |" for name, value in header_pairs(bundle)]
    lines += ["", "## Moves", ""]
    for block in blocks(bundle, board, comments, variations):
        pad = "  " * block.depth
        if block.kind == "story":
            lines += ["", f"{pad}{escape_markdown(block.text)}", ""]
        elif block.kind == "move":
            told = f" — {escape_markdown(block.story)}" if block.story else ""
            lines.append(
                f"{pad}- **{escape_markdown(block.text)}** `{block.detail.replace('`', '')}`{told}"
            )
        elif block.kind == "note":
            lines.append(
                f"{pad}  - _{escape_markdown(block.text)}_: {escape_markdown(block.detail)}"
            )
        elif block.kind == "open":
            lines.append(f"{pad}- {escape_markdown(block.text)}")
        elif block.kind == "board":
            lines += [
                "",
                f"{pad}<figure>{block.svg}<figcaption>{escape_markdown(block.text)}</figcaption></figure>",
                "",
            ]
        elif block.kind == "authors":  # who made each seat's decisions
            lines += ["", escape_markdown(block.text)]
        elif block.kind == "result":
            lines += ["", f"**Result:** {escape_markdown(block.text)}"]
    return "\n".join(lines) + "\n"
