"""Hägar's reading side: what each viewer sees, can deduce, reads, is drawn, and how a bot
plays from a seat's view (the rules themselves are in `core/hagar/`).

- `view`: the view of each viewer (`HagarView`), its text rendering, `perturb_hidden`;
- `knowledge`: what a viewer can deduce of the face-down loot and the fate deck
  (`possible`, `sample`), over `groups` (loot tokens, groups and arrangements);
- `narrative`: one sentence per event, in the game's words;
- `board`: the SVG map, with `layout` (where each space is drawn);
- `bot`: the greedy bot, which reads only a seat's view and its legal moves.
"""
