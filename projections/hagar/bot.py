"""The greedy Hägar bot: one-move heuristics over a Viking's own view and legal moves.

A Viking's progress is scored as loot home, then loot on the ship, then loot carried,
less the steps to his next errand: a city (or roadside loot) while his hands are free and
his ship has room, his ship while he carries a piece, a home harbour once the ship is full
or nothing is left to plunder. Each legal move is scored by the position it leads to
(what it picks up or unloads on arrival included); the best wins, ties by the bot's own
random source. Everything it reads is public or its own: the board, the Vikings' places
and counts, the cities' stack sizes and its own loot.
"""

from __future__ import annotations

import random

from skald.core.hagar.board import board
from skald.projections.hagar.view import HagarView, VikingView

FAR = 1000
SHIP_HOLDS = 3

VIEW = HagarView
"""The view this bot reads (`bots.autoplay` picks the bot for a view by it)."""


def _land(space: str, target: str) -> int:
    return 0 if space == target else board().distances("walk", target).get(space, FAR)


def _water(space: str, target: str) -> int:
    return 0 if space == target else board().distances("sail", target).get(space, FAR)


def _home_trip(at: str, ship: str, aboard: bool) -> int:
    """Steps from here to a home harbour, aboard."""
    sail = min(_water(ship, home) for home in board().homes)
    return sail if aboard else _land(at, ship) + sail


def _loot_trip(at: str, ship: str, aboard: bool, targets: list[str]) -> int:
    """Steps from here to the nearest loot on land."""
    if not targets:
        return FAR
    if not aboard:
        return min(_land(at, t) for t in targets)
    return 1 + min(
        _water(ship, h) + _land(h, t)
        for h in board().harbours
        if _water(ship, h) < FAR
        for t in targets
    )


def _targets(view: HagarView, seat: int) -> list[str]:
    """Where loot waits for this Viking: cities with loot and room, loot by the roadside,
    and the camp while a chest lies there that he has not robbed (once per Viking). The
    camp matters at the end: once the cities are empty its chests are often the only loot
    left, and the fallback feast ("no piece can still come home") waits for them."""
    cities = [
        c.city for c in view.cities if c.loot and len([v for v in c.vikings if v != seat]) < 2
    ]
    camp = [board().camp] if view.camp_chests and not view.vikings[seat].robbed_camp else []
    return cities + [space for space, count in view.roadside if count] + camp


def _value(view: HagarView, me: VikingView, at: str, ship: str, aboard: bool) -> float:
    """Progress of the Viking if he stood at `at` with his ship at `ship`."""
    carried, cargo, home = me.carried, me.cargo, me.home
    kind = board().kind(at)
    targets = _targets(view, me.seat)
    if not carried and kind in ("city", "camp") and at in targets:
        carried = 1
    if aboard and carried and cargo < SHIP_HOLDS + 1:
        carried, cargo = carried - 1, cargo + 1
    if aboard and board().kind(ship) == "home":
        home, cargo = home + cargo, 0
    progress = 30 * home + 20 * cargo + 10 * carried
    if carried:
        need = _land(at, ship) if board().kind(ship) == "harbour" else FAR // 10
    elif cargo >= SHIP_HOLDS or (cargo and (not targets or home + cargo >= 7)):
        need = _home_trip(at, ship, aboard)
    else:
        need = _loot_trip(at, ship, aboard, targets)
        if need >= FAR:
            # No loot left to fetch: bring the cargo home; with none, nothing is owed (a
            # ship just unloaded at home was scored as 100 steps from nowhere, so a full
            # ship stayed at sea rather than come home, and the endgame never ended).
            need = _home_trip(at, ship, aboard) if cargo else 0
    return progress - min(need, FAR // 10)


def _move_value(view: HagarView, me: VikingView, move: str) -> float:
    head, _, to = move.partition(" ")
    if head == "walk":
        return _value(view, me, to, me.ship, to == me.ship and board().kind(to) == "harbour")
    if head == "sail":
        return _value(view, me, to if me.aboard else me.at, to, me.aboard)
    return _value(view, me, me.at, me.ship, me.aboard)


def _own_loot(view: HagarView, seat: int) -> dict[int, int]:
    holding = next((h for h in view.holdings if h.seat == seat), None)
    if holding is None:
        return {}
    return {p.slot: p.value for p in holding.cargo}


def _score(view: HagarView, move: str) -> float:
    me = view.vikings[view.turn]
    words = move.split()
    head = words[0]
    if head == "feast":
        return 1000
    if head in ("walk", "sail", "draw", "throw"):
        return _move_value(view, me, move) + (0.5 if head == "draw" else 0)
    if head == "start":
        return 0
    if head == "shoot":
        return view.vikings[int(words[1])].home + view.vikings[int(words[1])].cargo
    if head == "odin":
        return 1 if (words[1] == "ship") == bool(me.carried) else 0
    if head == "jettison":
        return -_own_loot(view, view.turn).get(int(words[1]), 0)
    if head == "announce":
        return sum(
            _value(view, me, d, me.ship, me.aboard)
            if view.crossing and view.crossing.mode == "walk"
            else _value(view, me, d if me.aboard else me.at, d, me.aboard)
            for d in words[1:3]
        )
    if head in ("rob", "take"):
        return 5
    if head == "force":
        holding = next((h for h in view.holdings if h.seat == view.turn), None)
        pool = (holding.cargo if me.aboard else holding.carried) if holding else ()
        value = next((p.value for p in pool if p.slot == int(words[2])), 0)
        return 10 if value <= 0 else -10
    return 0


def choose(view: HagarView, legal: list[str], rnd: random.Random) -> str:
    """The legal move leading to the best-scored position."""
    scores = {move: _score(view, move) for move in legal}
    best = max(scores.values())
    return rnd.choice([move for move in legal if scores[move] == best])
