"""What every game shares in working out what a viewer can know (DESIGN.md "What a viewer can
know"); each game's own deduction is in `projections/<game>/knowledge`.

- `possible`: `possible_for` and `believed_state` for any game, through the registry, and
  `describe_possible`, what could be true as lines a player reads;
- `cache`: each game's knowledge fold kept per game and viewer at some seqs, so a later
  position goes on from the nearest;
- `store`: the worked-out knowledge kept in the store, keyed by the code that made it.
"""
