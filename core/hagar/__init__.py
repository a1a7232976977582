"""Hägar ruft zum Beutefest: Viking looting with rune sticks, a fate deck and secret loot.

The game template, one job per module: `data` (board, loot, fate cards and rune sticks
from the TOML files next to it, loaded on first use), `board` (the board's graph and
distances), `state` (the rules state), `commands` (what players type, and its
notation), `setup` (table options, the opening), `legal` (who acts, where a Viking or a
ship can go, what may be chosen), `decide` (checks and events), `evolve` (the reducer),
`scoring` (the Loot Feast and the outcome) and `rules` (the registered `Rules` wiring).
Beyond the template: `voyage` (what follows a move until the turn ends).
"""
