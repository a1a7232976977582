"""Hägar ruft zum Beutefest: Viking looting with rune sticks, a fate deck and secret loot.

`components` loads the board, loot, fate cards and rune sticks from the TOML files next to
it; `state` holds the game state; `paths` finds where a Viking or a ship can go; `decide`
checks commands and derives events; `evolve` folds them; `feast` scores the Loot Feast;
`notation` parses and formats commands; `rules` ties them into the `Rules` protocol.
"""
