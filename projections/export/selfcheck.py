"""The HTML export's self-check: the parts of the page that let it verify itself, and its seal.

The page (`page_html`) is, in this order: the verdict's place; one plain sentence saying that
a file can be edited together with its own check, and which checks are independent; the
readable part (`<noscript id="skald-readable">`: the style, the title, the tags, the moves and
the result); an empty `<div id="skald-shown">`; the exact jsonl export (`record_html`: one
JSON string a line, `<`, `>` and `&` escaped so no line can end the element); the seal
(`<script type="application/json" id="skald-seal">`); and the script `selfcheck.js`, which the
page's Content-Security-Policy allows by its SHA-256 alone (`SCRIPT_SOURCE`): nothing is
fetched, so a page opened from disk with no network checks itself.

The seal is signed by the key that signed the record's head (by none, with an unsigned end):
it names the game's last seq and head and holds the SHA-256 of the record's text, of the
readable part's text, of the check's text and of the whole page but the seal's own text. So
the readable part is covered by the signature that covers the record: a word changed in it,
in the check or anywhere else reads "tampered / not whole". In a browser with scripting on,
a `<noscript>` holds its text as written; the check hashes it and, when the page is whole,
shows it in `#skald-shown` (a browser without scripting shows it unchecked, under the
sentence that says so). The script and `verify_skald.py` (what `skald verify --file` runs)
give the same verdict in the same words.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Callable
from html import escape
from importlib import resources

SCRIPT = (resources.files("skald.projections.export") / "selfcheck.js").read_text(encoding="utf-8")
SCRIPT_SOURCE = (
    "'sha256-" + base64.b64encode(hashlib.sha256(SCRIPT.encode()).digest()).decode() + "'"
)
"""The CSP source that allows the inlined script and nothing else."""

CSP = f"default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src {SCRIPT_SOURCE}"

NOT_CHECKED = (
    "Not checked: this page checks itself with a script, which has not run; what it shows "
    "below is unchecked (run `skald verify --file` on this file)."
)
HONEST = (
    "A file like this one can be edited together with its own check: in a dispute, the "
    "independent check is `skald verify --file` or the reference script (`skald verifier`), "
    "with the club's key."
)
"""The page's sentence about itself (selfcheck.js knows it word for word)."""

RECORD_OPEN = '<script type="application/json" id="skald-record">'
READABLE_OPEN = '<noscript id="skald-readable">'
SEAL_OPEN = '<script type="application/json" id="skald-seal">'
CHECK_OPEN = "<script>"
PARTS = {
    "record": (RECORD_OPEN, "</script>"),
    "readable": (READABLE_OPEN, "</noscript>"),
    "check": (CHECK_OPEN, "</script>"),
}
"""The seal's digests of the page's parts: each the text between these, as written."""

Sign = Callable[[bytes], str]
"""Signs bytes with the store's key: the signature in hex."""


def coded(sentence: str) -> str:
    """`sentence`, escaped, with each `command` in it set as code (not shown with its
    backticks)."""
    parts = escape(sentence).split("`")
    return "".join(f"<code>{part}</code>" if i % 2 else part for i, part in enumerate(parts))


def _json_in_script(data: object) -> str:
    """JSON that no `</script>` can end: `&`, `<` and `>` escaped."""
    text = json.dumps(data, ensure_ascii=False)
    for char, escaped in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e")):
        text = text.replace(char, escaped)
    return text


def record_html(jsonl: str) -> str:
    """The embedded record: the jsonl export's lines as a JSON array of strings."""
    lines = jsonl.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return f"{RECORD_OPEN}{_json_in_script(lines)}</script>"


def as_raw_text(html: str) -> str:
    """`html` as a `<noscript>` can hold it and a browser reads it back, character for
    character: no carriage return (a parser reads it as a line feed), no NUL, nothing that
    ends the element."""
    html = html.replace("\r", "&#13;").replace("\0", "\ufffd")
    return re.sub("</(noscript)", r"&lt;/\1", html, flags=re.IGNORECASE)


def page_html(title: str, readable: str, record: str) -> str:
    """The whole page, its seal still empty (`seal`)."""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        f"<title>{as_raw_text(title)}</title></head><body>"
        f'<p id="skald-verdict" role="status">{coded(NOT_CHECKED)}</p>'
        f'<p id="skald-honest">{coded(HONEST)}</p>'
        f'{READABLE_OPEN}{as_raw_text(readable)}</noscript><div id="skald-shown"></div>'
        f"{record}{SEAL_OPEN}</script>{CHECK_OPEN}{SCRIPT}</script></body></html>\n"
    )


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _part(page: str, name: str) -> str:
    start, end = PARTS[name]
    at = page.index(start) + len(start)
    return page[at : page.index(end, at)]


def seal(page: str, stream: str, seq: int, head: str, key: str, sign: Sign | None) -> str:
    """`page` with its seal (any seal it had replaced): for the game `stream` whose record
    ends at `seq` with `head`, the SHA-256 of the page's parts and of the page without the
    seal's text, signed by `sign` (the key `key` that signed the head), or unsigned."""
    start = page.index(SEAL_OPEN) + len(SEAL_OPEN)
    bare = page[:start] + page[page.index("</script>", start) :]
    fields: dict[str, object] = {"stream": stream, "seq": seq, "head": head}
    fields |= {name: _sha256(_part(bare, name)) for name in PARTS} | {"page": _sha256(bare)}
    signed = json.dumps(dict(sorted(fields.items())), ensure_ascii=False, separators=(",", ":"))
    signature = sign(signed.encode()) if sign is not None else ""
    data = _json_in_script(fields | {"public_key": key if sign else "", "signature": signature})
    return bare[:start] + data + bare[start:]
