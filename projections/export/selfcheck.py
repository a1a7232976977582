"""The HTML export's self-check: the parts of the page that let it verify its own record.

The page carries the exact jsonl export (`record_html`: one JSON string a line, in a
`<script type="application/json" id="skald-record">`, `<`, `>` and `&` escaped so no line
can end the element), the store's public key in words (`verdict_html`), and the script
`selfcheck.js` inlined (`script_html`), which the page's Content-Security-Policy allows by
its SHA-256 alone (`SCRIPT_SOURCE`): nothing is fetched, so a page opened from disk with no
network checks itself. The script and `verify_skald.py` (what `skald verify --file` runs)
give the same verdict in the same words; the script writes it into `#skald-verdict`.
"""

from __future__ import annotations

import base64
import hashlib
import json
from html import escape
from importlib import resources

from skald.core.signing import Receipt, fingerprint

SCRIPT = (resources.files("skald.projections.export") / "selfcheck.js").read_text(encoding="utf-8")
SCRIPT_SOURCE = (
    "'sha256-" + base64.b64encode(hashlib.sha256(SCRIPT.encode()).digest()).decode() + "'"
)
"""The CSP source that allows the inlined script and nothing else."""

STYLE = (
    "#skald-verdict{font-weight:bold;padding:.5rem .8rem;border:2px solid #888}"
    "#skald-verdict.verified{border-color:#2a7a2a;color:#1d5e1d}"
    "#skald-verdict.tampered{border-color:#b02020;color:#8a1515}"
    "p.skald-key code{word-break:break-all}"
)
NOT_CHECKED = (
    "Not checked yet: this page checks its own record with a script when opened "
    "(or run `skald verifier > verify_skald.py; python3 verify_skald.py` on this file)."
)

COVERS = (
    "The check covers the record this page carries (what `skald verify --file` and "
    "`skald import` read); the readable moves below are written from it, not checked."
)


def _coded(sentence: str) -> str:
    """`sentence`, escaped, with each `command` in it set as code (not shown with its
    backticks)."""
    parts = escape(sentence).split("`")
    return "".join(f"<code>{part}</code>" if i % 2 else part for i, part in enumerate(parts))


def record_html(jsonl: str) -> str:
    """The embedded record: the jsonl export's lines as a JSON array of strings."""
    lines = jsonl.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    data = json.dumps(lines, ensure_ascii=False)
    for char, escaped in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e")):
        data = data.replace(char, escaped)
    return f'<script type="application/json" id="skald-record">{data}</script>'


def verdict_html(head: Receipt | None, kept: tuple[Receipt, ...]) -> str:
    """The verdict's place at the top of the page, and the keys it is checked against."""
    if head is None:
        key = "This export carries no signed head (its store had no signing key)."
    else:
        key = (
            f"Signed by the store's Ed25519 key <code>{escape(head.public_key)}</code> "
            f"(compare it with the key you trust: {escape(fingerprint(head.public_key))}…)."
        )
    others = sorted({r.public_key for r in kept} - ({head.public_key} if head else set()))
    if others:
        key += " Receipts kept by players are signed by " + ", ".join(
            f"<code>{escape(other)}</code>" for other in others
        )
    return (
        f'<p id="skald-verdict" role="status">{_coded(NOT_CHECKED)}</p>'
        f'<p class="skald-key">{key} {_coded(COVERS)}</p>'
    )


def script_html() -> str:
    """The inlined self-check script."""
    return f"<script>{SCRIPT}</script>"
