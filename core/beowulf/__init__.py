"""Beowulf: The Movie Board Game (Reiner Knizia, 2007) — rules, data and scoring.

The game template, one job per module: `data` (figures and the tile sets from
`tiles.toml`), `board` (grid geometry and the row/column parts Throats cut), `state` (the
rules state), `commands` (what players type, and its notation), `setup` (the initial
state, Act I and the setup of Acts II and III), `legal` (who acts, what a seat may do),
`decide` (checks and events), `evolve` (the reducer), `scoring` (End of an Act, the final
ranking) and `rules` (the registered `Rules` wiring). Beyond the template: `position`
(`skald score` of a board typed in as JSON).
"""
