"""Standings and tie-breaks against hand-computed fixtures (fixtures/tournament/*.json), and
ratings by role in Beast; the tournament state is folded from events, no games needed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skald.core.tournament.state import TournamentState, fold
from skald.events.common import Outcome
from skald.events.tournament import (
    ResultRecorded,
    RoundPaired,
    SeatedTable,
    TournamentCreated,
    TournamentEvent,
)
from skald.projections.tournament.standings import Rating, standings

FIXTURES = Path(__file__).parent.parent / "fixtures" / "tournament"


def build(fixture: dict[str, Any], tiebreaks: list[str]) -> TournamentState:
    """A tournament whose rounds and results are the fixture's."""
    events: list[TournamentEvent] = [
        TournamentCreated(
            name="fixture",
            game=fixture["game"],
            format="swiss",
            rounds=len(fixture["rounds"]),
            table_size=fixture["table_size"],
            players=tuple(fixture["players"]),
            points=tuple(fixture["points"]),
            tiebreaks=tuple(tiebreaks),
        )
    ]
    for number, paired in enumerate(fixture["rounds"], start=1):
        tables = [
            SeatedTable(table=k, game=f"g{number}.{k}", seats=tuple(t["seats"]))
            for k, t in enumerate(paired["tables"], start=1)
        ]
        events.append(RoundPaired(round=number, tables=tuple(tables), byes=tuple(paired["byes"])))
        for seated, table in zip(tables, paired["tables"], strict=True):
            outcome = Outcome(
                termination="completed",
                ranking=tuple(tuple(group) for group in table["ranking"]),
                scores=tuple(table["scores"]),
                tiebreaks=tuple(table["tiebreaks"]),
            )
            events.append(
                ResultRecorded(
                    round=number,
                    table=seated.table,
                    game=seated.game,
                    outcome=outcome,
                    chain="ok",
                    head="0" * 64,
                    verdict="clean",
                )
            )
    return fold("t", events)


CASES = [
    (name, index)
    for name in ("beowulf", "beast", "hagar")
    for index in range(len(json.loads((FIXTURES / f"{name}.json").read_text())["cases"]))
]


@pytest.mark.parametrize(("name", "index"), CASES)
def test_standings_match_the_hand_computed_fixture(name: str, index: int) -> None:
    fixture = json.loads((FIXTURES / f"{name}.json").read_text())
    case = fixture["cases"][index]
    table = standings(build(fixture, case["tiebreaks"]))
    got = [
        {
            "rank": row.rank,
            "player": row.player,
            "points": row.points,
            "games": row.games,
            "tiebreaks": row.tiebreaks,
        }
        for row in table.standings
    ]
    assert got == case["standings"]
    assert table.round == len(fixture["rounds"])


def test_standings_at_an_earlier_round_ignore_later_results() -> None:
    fixture = json.loads((FIXTURES / "beowulf.json").read_text())
    state = build(fixture, ["game"])
    after_one = {row.player: row.points for row in standings(state, 1).standings}
    assert after_one == {"A": 3, "B": 6, "C": 0, "D": 6, "E": 0, "F": 3}


def test_beast_rates_each_role_apart_and_the_hunters_as_one_team() -> None:
    fixture = {
        "game": "beast",
        "players": ["A", "B", "C"],
        "table_size": 3,
        "points": [6, 4, 2, 0],
        "rounds": [
            {
                "byes": [],
                "tables": [
                    {"seats": ["A", "B", "C"], "ranking": [[1, 2], [0]], "scores": [1, 3, 3]}
                ],
            }
        ],
    }
    fixture["rounds"][0]["tables"][0]["tiebreaks"] = []
    rows = {row.player: row.rating for row in standings(build(fixture, [])).standings}
    fresh = rows["A"]["hunting"]  # type: ignore[index]
    assert isinstance(fresh, Rating)
    assert rows["A"]["beast"].mu < fresh.mu  # type: ignore[index]  # the Beast lost
    assert rows["B"]["hunting"] == rows["C"]["hunting"]  # type: ignore[index]  # one team
    assert rows["B"]["hunting"].mu > fresh.mu  # type: ignore[index]
    assert rows["B"]["beast"] == fresh  # type: ignore[index]  # untouched role
    assert rows["B"]["hunting"].sigma < fresh.sigma  # type: ignore[index]


def test_ratings_follow_placings_at_a_multi_player_table() -> None:
    fixture = json.loads((FIXTURES / "hagar.json").read_text())
    rows = {row.player: row.rating for row in standings(build(fixture, [])).standings}
    mus = {player: rating.mu for player, rating in rows.items()}  # type: ignore[union-attr]
    assert mus["C"] > mus["A"] == mus["B"] > mus["D"] > mus["E"] > mus["F"]
