"""The Loot Feast (rulebook "Loot Feast", "Uncertainties"): who may call it, how the loot is
scored, the feast's events and the outcome.

Only loot at home (printed value +1) and on the ship (printed value) counts; carried loot
counts nothing. Bad loot and foreign women "count for nothing at all", so they get no home
bonus either. Each foreign woman is first matched with the best remaining counted piece,
which then does not count (among equally good pieces a non-gift goes first: the gift keeps
its chance of the wife's sympathy). Every remaining gift gets one rune-stick throw, 0-2
points. Called by a Viking with 7 pieces home (table option `feast_at`), and the only move
left once the table's optional round limit (`max_rounds`) is reached.

The rulebook's only ending is a Viking with 7 pieces home (outcome termination `feast`),
and that can become unreachable for good: pieces at home never leave, and every storm
removes a piece from the game (six Vikings with six pieces home each already hold 36 of
the 39). So that every game ends, and following the rulebook's intent (the feast scores
the loot brought home, and the game goes on while any loot can still be brought home),
anyone may also call the feast once no piece can still come home: nothing lies in a city,
by the roadside, in a Viking's hands or on a ship, and every Viking has robbed the camp
(or it is empty). That feast ends with termination `feast_no_loot`; one forced by the
round limit with `feast_round_limit`. (The earlier fallback, "every city plundered out",
ended games at any player count while loot still waited in camps, by the roadside, on
ships and in hands.) Measured with greedy bots: see README, games section.

Ties: with `uncertainties=throw` (the default) each group of tied Vikings throws the rune
sticks once more (`TieThrown`), the points breaking the tie; with `choose`, ties share.
The rune sticks: `throw_faces` draws one face per stick under a label of the decision.
"""

from __future__ import annotations

from skald.core.derive import Derivation
from skald.core.hagar.data import pieces, sticks
from skald.core.hagar.state import HagarState, Viking
from skald.events.common import Outcome
from skald.events.hagar import (
    FeastCalled,
    FeastScored,
    GiftsJudged,
    Holding,
    LootRevealed,
    TieThrown,
)


def counted(viking: Viking) -> tuple[tuple[int, int], ...]:
    """(piece, value) for every piece that counts: home +1 (if worth anything), ship as printed."""
    return tuple((p, pieces()[p].value + (pieces()[p].value > 0)) for p in viking.home) + tuple(
        (p, pieces()[p].value) for p in viking.cargo
    )


def cancelled(viking: Viking) -> tuple[int, ...]:
    """The pieces the foreign women cancel, best first."""
    pieces_counted = counted(viking)
    women = sum(1 for p, _ in pieces_counted if pieces()[p].category == "woman")
    rest = [(p, v) for p, v in pieces_counted if pieces()[p].category != "woman"]
    rest.sort(key=lambda item: (-item[1], pieces()[item[0]].gift, item[0]))
    return tuple(p for p, _ in rest[:women])


def judged_gifts(viking: Viking) -> tuple[int, ...]:
    """The counted, uncancelled gifts that earn a sympathy throw."""
    gone = set(cancelled(viking))
    return tuple(p for p, _ in counted(viking) if pieces()[p].gift and p not in gone)


def score(viking: Viking, sympathy: dict[int, int]) -> int:
    """The Viking's feast total."""
    gone = set(cancelled(viking))
    return sum(value + sympathy.get(p, 0) for p, value in counted(viking) if p not in gone)


NO_LOOT = "no loot can still come home"


def feast_reason(state: HagarState, seat: int) -> str:
    """Why `seat` may call the feast now, or '' when it may not."""
    options = state.options
    if len(state.vikings[seat].home) >= options.feast_at:
        return f"{options.feast_at} pieces home"
    if not state.loot_can_come_home():
        return NO_LOOT
    if round_limit(state):
        return f"round limit {options.max_rounds} reached"
    return ""


def round_limit(state: HagarState) -> bool:
    """True once the table's optional round limit is reached."""
    return 0 < state.options.max_rounds <= state.rounds


def ranking(scores: tuple[int, ...], tiebreaks: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Seats grouped by (score, tiebreak), best first."""
    keys = sorted({(s, t) for s, t in zip(scores, tiebreaks, strict=True)}, reverse=True)
    return tuple(
        tuple(seat for seat in range(len(scores)) if (scores[seat], tiebreaks[seat]) == key)
        for key in keys
    )


def throw_faces(d: Derivation[HagarState], label: str, count: int = 2) -> tuple[int, ...]:
    """The faces of `count` rune sticks thrown under `label` (stick i: `label/i`)."""
    return tuple(d.draw(len(sticks()[i % 2].faces), label=f"{label}/{i}") for i in range(count))


def stick_points(faces: tuple[int, ...]) -> int:
    """The land points of thrown faces."""
    return sum(sticks()[i % 2].faces[f].points for i, f in enumerate(faces))


def hold_feast(d: Derivation[HagarState], seat: int, reason: str) -> None:
    """The feast `seat` calls: every holding revealed, gifts judged, scores and ties."""
    d.emit(FeastCalled(seat=seat, reason=reason))
    vikings = d.state.vikings
    d.emit(
        LootRevealed(
            holdings=tuple(
                Holding(seat=s, home=v.home, cargo=v.cargo, carried=v.carried)
                for s, v in enumerate(vikings)
            )
        )
    )
    for s, viking in enumerate(vikings):
        gifts = judged_gifts(viking)
        if gifts:
            label = d.label("gifts")
            points = tuple(
                sticks()[0].faces[throw_faces(d, f"{label}/{i}", 1)[0]].points
                for i in range(len(gifts))
            )
            d.emit(GiftsJudged(seat=s, gifts=gifts, points=points))
    sympathy = dict(d.state.sympathy)
    scores = tuple(score(v, sympathy) for v in vikings)
    tiebreaks = [0] * len(scores)
    if d.state.options.uncertainties == "throw":
        for group in ranking(scores, tuple(tiebreaks)):
            if len(group) > 1:
                label = d.label("tie")
                points = tuple(stick_points(throw_faces(d, f"{label}/{s}")) for s in group)
                d.emit(TieThrown(seats=group, points=points))
                for s, p in zip(group, points, strict=True):
                    tiebreaks[s] = p
    d.emit(
        FeastScored(
            scores=scores, ranking=ranking(scores, tuple(tiebreaks)), tiebreaks=tuple(tiebreaks)
        )
    )


def outcome(state: HagarState) -> Outcome | None:
    """The feast's ranking once it is scored."""
    result = state.result
    if result is None:
        return None
    if state.called == NO_LOOT:
        termination = "feast_no_loot"
    elif state.called.startswith("round limit"):
        termination = "feast_round_limit"
    else:
        termination = "feast"
    return Outcome(
        termination=termination,
        ranking=result.ranking,
        scores=result.scores,
        tiebreaks=result.tiebreaks,
    )
