"""Beowulf's reading side: what each viewer sees, can deduce, reads, is drawn, and how a bot
plays from a seat's view (the rules themselves are in `core/beowulf/`).

- `view`: the view of each viewer (`BeowulfView`), its text rendering, `perturb_hidden`;
- `knowledge`: what a viewer can deduce of the hidden tiles (`possible`, `sample`), with
  `counsel` (what a Counsel clause tells);
- `narrative`: one sentence per event, in the game's words;
- `board`: the SVG board;
- `bot`: the greedy bot, which reads only a seat's view and its legal moves.
"""
