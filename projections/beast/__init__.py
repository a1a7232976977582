"""Beast's reading side: what each viewer sees, can deduce, reads, is drawn, and how a bot
plays from a seat's view (the rules themselves are in `core/beast/`).

- `view`: the view of each viewer (`BeastView`), its text rendering, `perturb_hidden`;
- `knowledge/`: what a viewer can deduce (where the hidden Beast may be, which unseen cards
  lie where): a package of its own, mapped in its docstring;
- `narrative`: one sentence per event, in the rulebook's words;
- `board`: the SVG map with its side panel;
- `bot`: the greedy bot, which reads only a seat's view and its legal moves.
"""
