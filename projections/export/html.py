"""The HTML export: one self-contained page (inline CSS and SVG, no external resource),
with a Content-Security-Policy that forbids loading anything from elsewhere. It checks
itself when opened (`selfcheck`): the one script, allowed by its hash, verifies the exact
record the page embeds and the seal over the page's readable part, writes the verdict at the
top and, when the page is whole, shows the readable part it checked."""

from __future__ import annotations

from html import escape

from skald.projections.export import selfcheck
from skald.projections.export.jsonl import write_jsonl
from skald.projections.export.model import Bundle
from skald.projections.export.readable import Board, blocks, header_pairs, title_of

STYLE = (
    "body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}"
    "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .5rem}"
    "ol.moves{list-style:none;padding-left:0}li.move code{background:#f3f3f3}"
    ".note{color:#444;margin-left:1.5rem}.variation{border-left:3px solid #bbb;"
    "margin:.3rem 0 .3rem 1rem;padding-left:.7rem}figure{margin:.5rem 0}"
    "#skald-verdict{font-weight:bold;padding:.5rem .8rem;border:2px solid #888}"
)
CSP = selfcheck.CSP


def write_html(
    bundle: Bundle,
    board: Board,
    comments: bool = True,
    variations: bool = True,
    sign: selfcheck.Sign | None = None,
) -> str:
    """The HTML export of `bundle`, sealed by `sign` (the key that signed its head; None
    for a bundle with an unsigned end)."""
    title = escape(title_of(bundle))
    rows = "".join(
        f"<tr><th>{escape(name)}</th><td>{escape(value)}</td></tr>"
        for name, value in header_pairs(bundle)
    )
    body = ['<ol class="moves">']
    for block in blocks(bundle, board, comments, variations):
        if block.kind == "story":
            body.append(f'<li class="story">{escape(block.text)}</li>')
        elif block.kind == "move":
            told = f' <span class="told">{escape(block.story)}</span>' if block.story else ""
            body.append(
                f'<li class="move"><b>{escape(block.text)}</b> '
                f"<code>{escape(block.detail)}</code>{told}</li>"
            )
        elif block.kind == "note":
            body.append(
                f'<li class="note"><i>{escape(block.text)}</i>: {escape(block.detail)}</li>'
            )
        elif block.kind == "open":
            body.append(f'<li class="variation"><b>{escape(block.text)}</b><ol class="moves">')
        elif block.kind == "close":
            body.append("</ol></li>")
        elif block.kind == "board":
            body.append(
                f'<li class="diagram"><figure>{block.svg}<figcaption>{escape(block.text)}'
                "</figcaption></figure></li>"
            )
        elif block.kind == "authors":  # who made each seat's decisions
            body.append(f'</ol><p class="authors">{escape(block.text)}</p><ol>')
        elif block.kind == "result":
            body.append(f'</ol><p class="result"><b>Result:</b> {escape(block.text)}</p><ol>')
    body.append("</ol>")
    readable = (
        f"<style>{STYLE}</style><h1>{title}</h1><table>{rows}</table><h2>Moves</h2>{''.join(body)}"
    )
    record = selfcheck.record_html(write_jsonl(bundle, comments, variations))
    page = selfcheck.page_html(title, readable, record)
    last = bundle.game_events[-1]
    head = bundle.receipt
    if head is None:
        return selfcheck.seal(page, bundle.id, last.seq, last.hash, "", None)
    assert sign is not None, "a signed head's page is sealed by the same key"
    return selfcheck.seal(page, head.stream, head.seq, head.head, head.public_key, sign)
