"""The greedy Beast bot: one-move heuristics over a seat's own view and its legal moves.

The Beast's seat sees its actual location and heads for the settlers, attacking them (and
hunters, then animals) whenever it can. A hunter's seat never sees the Beast: it chases
what the table shows (a revealed Beast's standee, else the trails, else the last known
location), searches there and attacks a revealed Beast in reach. Each legal move gets a
score and the best wins (ties broken by the bot's own random source).
"""

from __future__ import annotations

import random
from functools import cache

from skald.core.beast.board import Board
from skald.core.beast.data import boards, pieces, side_of
from skald.projections.beast.view import BeastView

FAR = 99

VIEW = BeastView
"""The view this bot reads (`bots.autoplay` picks the bot for a view by it)."""


@cache
def _distances(map_name: str, start: str) -> dict[str, int]:
    return boards()[map_name].distances(start)


def _distance(view: BeastView, here: str, targets: list[str]) -> int:
    if not here or not targets:
        return FAR
    dist = _distances(view.map, here)
    return min(dist.get(t, FAR) for t in targets)


def _card_ops(card: str, beast: bool) -> set[str]:
    try:
        return {effect.op for effect in side_of(card, beast).effects}
    except KeyError:
        return set()


def _acting_location(view: BeastView) -> str:
    for hand in view.hands:
        if hand.character == view.acting:
            return hand.location or ""
    return ""


def _after_step(board: Board, here: str, direction: str) -> str:
    return here if direction == "X" else board.roads.get(here, {}).get(direction, here)


def _settlers(view: BeastView) -> list[str]:
    return [loc for loc, kind, _ in view.pieces if pieces()[kind].settler]


def _target_value(target: str, view: BeastView) -> int:
    """How much the Beast (or a summon) gains by attacking a target named in notation."""
    _, _, kind = target.partition("/")
    if kind and kind in pieces():
        return 100 if pieces()[kind].settler else 30
    if kind == "tower":
        return 15
    if any(hand.character == target for hand in view.hands[1:]):
        return 50
    return 5


def _beast_score(view: BeastView, move: str) -> float:
    board = boards()[view.map]
    here = view.beast_location or view.standee
    settlers = _settlers(view)
    words = move.split()
    head = words[0]
    if head == "attack":
        return 200 + _target_value(words[1], view) + (len(words) > 2)
    if head == "step":
        return 20 - _distance(view, _after_step(board, here, words[1]), settlers)
    if head == "stop":
        return 19.5 - _distance(view, here, settlers)
    if head in ("play", "copy", "draft", "react"):
        ops = _card_ops(" ".join(words[1:]), beast=True)
        return (
            40 * ("attack" in ops)
            + 20 * ("move" in ops)
            + 10 * ("summon" in ops)
            + 5 * bool(ops - {"attack", "move", "summon", "reveal"})
            - 30 * ("reveal" in ops)
            + (30 if head == "react" else 0)
        )
    if head == "summon":
        return 18 - _distance(view, words[1], settlers)
    if head == "rally":
        return 10
    if len(words) >= 2 and words[1] in ("attack", "step", "ability", "rest"):
        return _summon_act_score(view, board, words)
    return _common_score(view, move)


def _summon_act_score(view: BeastView, board: Board, words: list[str]) -> float:
    where = dict(view.summons).get(words[0], "")
    if words[1] == "attack":
        return 100 + _target_value(words[2], view)
    if words[1] == "step":
        return 20 - _distance(view, _after_step(board, where, words[2]), _settlers(view))
    if words[1] == "ability" and len(words) > 2:
        return 20 - _distance(view, words[2], _settlers(view))
    return 1 if words[1] == "ability" else 0


def _hunter_targets(view: BeastView) -> list[str]:
    if view.active_count == 0 and view.standee:
        return [view.standee]
    trails = [loc for loc, _ in view.trails]
    return trails or [view.standee]


def _hunter_score(view: BeastView, move: str) -> float:
    board = boards()[view.map]
    here = _acting_location(view)
    targets = _hunter_targets(view)
    revealed = view.active_count == 0
    words = move.split()
    head = words[0]
    if head == "attack":
        return (300 if words[1] == "beast" else 60) + (len(words) > 2)
    if head == "search":
        if words[1] in targets:
            return 150
        return 10 - _distance(view, words[1], targets)
    if head == "step":
        return 20 - _distance(view, _after_step(board, here, words[1]), targets)
    if head == "stop":
        return 19.5 - _distance(view, here, targets)
    if head == "place":
        return 20 - _distance(view, words[1], [view.standee])
    if head in ("play", "copy", "draft"):
        ops = _card_ops(" ".join(words[1:]), beast=False)
        near = _distance(view, here, targets) <= 2
        return (
            (60 if revealed and near else 25) * ("attack" in ops)
            + (40 if near and not revealed else 10) * ("search" in ops)
            + 20 * ("move" in ops)
            + 5 * bool(ops - {"attack", "move", "search"})
        )
    return _common_score(view, move)


def _common_score(view: BeastView, move: str) -> float:
    words = move.split()
    head = words[0]
    if head == "choose":
        frame = view.frames[-1] if view.frames else None
        if frame is None:
            return 0
        try:
            effects = side_of(frame.card, view.role == "beast").effects
            op = effects[int(words[1]) - 1].op
        except (KeyError, IndexError, ValueError):
            return 0
        return {"attack": 8, "move": 6, "search": 6, "summon": 5, "reveal": -5}.get(op, 3)
    if head == "do":
        pending = view.frames[-1].pending if view.frames else ()
        return -5 if view.role == "beast" and pending[:1] == ("reveal",) else 5
    scores = {"take": 4, "upgrade": 6, "trap": 3, "react": 30, "flee": 2, "pass": 1}
    return scores.get(head, 0)


def choose(view: BeastView, legal: list[str], rnd: random.Random) -> str:
    """The legal move with the best one-move score for the seat's side."""
    score = _beast_score if view.role == "beast" else _hunter_score
    best = max(score(view, move) for move in legal)
    return rnd.choice([move for move in legal if score(view, move) == best])
