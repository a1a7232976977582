"""Bots: players, not read models. A bot is handed its seat's view and its legal moves and
answers with one of them, through the table facade like any client; it never reads a
game's full state. Each game's own heuristic is in `projections/<game>/bot.py`.

- `autoplay`: the bot levels (`random`, `greedy`) and the driver that lets bots play whole
  games through the `Table`.
"""
