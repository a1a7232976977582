"""Exports of annotated game histories for one viewer: jsonl, text, md and html.

`model` gathers what a viewer may see (the game, its notes, its variations, redacted);
`jsonl` and `text` write the two importable forms (`grammar` reads the text form back);
`markdown` and `html` the readable ones, with inline SVG boards from `board`; `facade` is
the entry point the CLI and API use.
"""

FORMATS = ("jsonl", "text", "md", "html")
