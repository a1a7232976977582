"""Beowulf: The Movie Board Game (Reiner Knizia, 2007) — rules, data and scoring.

Modules, one job each: `tiles` (component data from `tiles.toml`), `board` (grid
geometry and the row/column parts Throats cut), `scoring` (End of an Act: Betrayal,
Royal Dragon Horns, figure scores), `state` (the rules state), `commands` and
`notation` (what players type), `decide` / `legal` / `evolve` (the turn rules),
`rules` (the registered `Rules` implementation) and `position` (`skald score`).
"""
