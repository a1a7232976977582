"""What a Beast viewer can deduce, from its own redacted log only (DESIGN.md "What a viewer
can know"). Read from the top down:

- `possible`: the entry point, `possible(log, viewer)` and `sample`: the viewer's
  information set as a `BeastPossible`, and one world drawn from it;
- `shadow`: the viewer's replay of its redacted log (the *shadow*: the rules state as that
  viewer can rebuild it), with `folds` (the events whose hidden values it tracks);
- `groups` and `bounds`: groups of unseen cards the viewer knows the names of but not the
  places, and the overlapping constraints between them;
- `paths`, `clues` and `path_graph`: where the hidden Beast may be (the hunters'
  pen-and-paper deduction as a filter over paths), what each public event tells about
  them, and the paths as data; `timeline` below both (the replay's entries, the paths'
  nodes, what a clue may do to the filter);
- `places`: every place a card can lie, by name (below the groups and `possible`);
- `stored`: a viewer's fold as data, kept in the store so a later position goes on from it.
"""
