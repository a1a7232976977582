"""Standings, ratings and exports of a tournament, recomputed from its stream at any round.

Order and tie-breaks come from core/tournament/standing.py. Ratings are openskill's
Weng-Lin Bradley-Terry (full pairing) model, one rating per player per game (not
Plackett-Luce: with players tied at a table it can lift the place below the tie above
it), updated table by table in
round order from the counted results only: a table's seats are ranked by its outcome's
groups. In Beast each player has two ratings, one playing the Beast (seat 0) and one
hunting; the hunters of a table are rated as one team against the Beast. A rating is shown
with its uncertainty: mu, sigma and the conservative ordinal mu - 3 sigma.

Duplicate rounds also compare seat by seat across tables (every table played the same
deal): each seat's score against the mean of that seat over the round's tables. A table
replayed by a ruling played a fresh deal of its own (core/tournament/disputes.py `_replay`),
which no other table played: its result counts in the standings, points, tie-breaks and
ratings like any table's, but it is compared with nothing, so it is left out of its
round's comparison (and of the means the others are compared with) and listed in `apart`.

`summary` is what anyone may know of a tournament (GET /tournaments/{id}); `play_round`
lets bots play the open games of the current round (CLI and API `autoplay`).

`standings` refuses a round that was not paired (InvalidOption naming the rounds that
were). Callers read a stored tournament with `Tournaments.state` / `envelopes`, which check
its chain on every read, so a stream that fails the check is refused, never shown.

Exports (jsonl, csv, md, html, the terminal's text) are in projections/tournament/export.py.
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import msgspec
from openskill.models import BradleyTerryFull, BradleyTerryFullRating

from skald.core.errors import InvalidOption, NeedsConfirmation
from skald.core.tournament.desk import Tournaments
from skald.core.tournament.standing import Played, places, played, ranked, tallies
from skald.core.tournament.state import TournamentState
from skald.core.tournament.words import plural
from skald.events.common import Outcome
from skald.projections.audit.authors import DECISIONS
from skald.projections.bots.autoplay import Bot, play_out
from skald.projections.narrative.common import listing
from skald.projections.table import Table

BEAST = "beast"
ROLES = ("beast", "hunting")


class Rating(msgspec.Struct, frozen=True, kw_only=True):
    """One rating with its uncertainty."""

    mu: float
    sigma: float
    ordinal: float


class Standing(msgspec.Struct, frozen=True, kw_only=True):
    """One row of the standings."""

    rank: int
    player: str
    points: float
    tiebreaks: dict[str, float]
    games: int
    rating: Rating | dict[str, Rating]
    byes: int = 0
    withdrawn: bool = False


class SeatResult(msgspec.Struct, frozen=True, kw_only=True):
    """One player's result at one seat of a duplicate round."""

    table: int
    player: str
    score: int
    place: int
    delta: float


class SeatComparison(msgspec.Struct, frozen=True, kw_only=True):
    """A duplicate round's seat compared across its tables."""

    round: int
    seat: int
    results: tuple[SeatResult, ...]


class ApartTable(msgspec.Struct, frozen=True, kw_only=True):
    """A table of a duplicate round that played a deal of its own (a replay a ruling
    ordered), so its seats are compared with no other table's."""

    round: int
    table: int
    game: str
    deal: str
    players: tuple[str, ...]
    why: str


class Standings(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The standings after `round` (0: before any); `apart`: the duplicate rounds' tables
    left out of `duplicate` (they played a deal no other table played)."""

    round: int
    standings: tuple[Standing, ...]
    duplicate: tuple[SeatComparison, ...] = ()
    apart: tuple[ApartTable, ...] = ()


def _number(value: Fraction | int) -> float:
    return round(float(value), 3)


def standings(state: TournamentState, last_round: int | None = None) -> Standings:
    """The standings through `last_round` (None: every round paired so far; a round not
    paired is refused with InvalidOption naming the rounds that are)."""
    check_round(state, last_round)
    rounds = state.through(last_round)
    found = tallies(state, last_round)
    ratings = rate(state, last_round)
    rows = tuple(
        Standing(
            rank=rank,
            player=player,
            points=_number(found[player].points),
            tiebreaks={
                name: _number(getattr(found[player], name))
                for name in state.config.tiebreaks
                if name != "h2h"
            },
            games=found[player].games,
            rating=ratings[player],
            byes=found[player].byes,
            withdrawn=player in state.withdrawn,
        )
        for rank, player in ranked(state, last_round)
    )
    return Standings(
        round=rounds[-1].round if rounds else 0,
        standings=rows,
        duplicate=seat_comparison(state, last_round),
        apart=apart_tables(state, last_round),
    )


def check_round(state: TournamentState, number: int | None) -> None:
    """InvalidOption unless `number` is None or a paired round of `state`."""
    paired = [r.round for r in state.rounds]
    if number is None or number in paired:
        return
    if not paired:
        have = "no round paired yet"
    elif len(paired) == 1:
        have = "only round 1 paired"
    else:
        have = f"rounds {paired[0]} to {paired[-1]} paired"
    planned = plural(state.config.rounds, "round")
    raise InvalidOption(f"round {number}: tournament {state.id} has {have} (of {planned})")


def _shown(rating: BradleyTerryFullRating) -> Rating:
    return Rating(
        mu=round(rating.mu, 3), sigma=round(rating.sigma, 3), ordinal=round(rating.ordinal(), 3)
    )


def rate(
    state: TournamentState, last_round: int | None = None
) -> dict[str, Rating | dict[str, Rating]]:
    """Every player's rating (Beast: per role) after the counted games through `last_round`."""
    model = BradleyTerryFull()
    roles = ROLES if state.config.game == BEAST else ("",)
    current = {(p, role): model.rating(name=p) for p in state.players for role in roles}
    for game in played(state.through(last_round)):
        if state.config.game == BEAST:
            _rate_beast(model, current, game)
        else:
            _rate_table(model, current, game)
    if state.config.game != BEAST:
        return {p: _shown(current[(p, "")]) for p in state.players}
    return {p: {role: _shown(current[(p, role)]) for role in ROLES} for p in state.players}


def _rate_table(
    model: BradleyTerryFull, current: dict[tuple[str, str], BradleyTerryFullRating], game: Played
) -> None:
    placed = places(game.outcome, len(game.seats))
    teams = [[current[(player, "")]] for player in game.seats]
    new = model.rate(teams, ranks=[place + 1 for place in placed])
    for player, team in zip(game.seats, new, strict=True):
        current[(player, "")] = team[0]


def _rate_beast(
    model: BradleyTerryFull, current: dict[tuple[str, str], BradleyTerryFullRating], game: Played
) -> None:
    placed = places(game.outcome, len(game.seats))
    beast, hunters = game.seats[0], game.seats[1:]
    teams = [[current[(beast, "beast")]], [current[(h, "hunting")] for h in hunters]]
    new = model.rate(teams, ranks=[placed[0] + 1, placed[1] + 1])
    current[(beast, "beast")] = new[0][0]
    for hunter, rating in zip(hunters, new[1], strict=True):
        current[(hunter, "hunting")] = rating


def seat_comparison(
    state: TournamentState, last_round: int | None = None
) -> tuple[SeatComparison, ...]:
    """For duplicate rounds: each seat's score against that seat's mean over the tables
    that played the round's deal (a replay on a deal of its own is `apart_tables`)."""
    found = []
    for paired in state.through(last_round):
        if paired.deal is None:
            continue
        shared = msgspec.structs.replace(
            paired, tables=tuple(t for t in paired.tables if paired.deal_of(t) == paired.deal)
        )
        games = played([shared])
        if not games:
            continue
        for seat in range(len(games[0].seats)):
            scores = [g.outcome.scores[seat] for g in games]
            mean = Fraction(sum(scores), len(scores))
            found.append(
                SeatComparison(
                    round=paired.round,
                    seat=seat,
                    results=tuple(
                        SeatResult(
                            table=g.table,
                            player=g.seats[seat],
                            score=g.outcome.scores[seat],
                            place=places(g.outcome, len(g.seats))[seat] + 1,
                            delta=_number(g.outcome.scores[seat] - mean),
                        )
                        for g in games
                    ),
                )
            )
    return tuple(found)


def apart_tables(state: TournamentState, last_round: int | None = None) -> tuple[ApartTable, ...]:
    """The duplicate rounds' tables whose game plays a deal of its own (a replay), which
    `seat_comparison` leaves out: no other table played that deal."""
    return tuple(
        ApartTable(
            round=paired.round,
            table=table.table,
            game=table.game,
            deal=deal,
            players=table.seats,
            why=(
                f"replayed by a ruling on a fresh deal ({deal}) that no other table played: "
                "its result counts in the standings, compared with no other table's"
            ),
        )
        for paired in state.through(last_round)
        if paired.deal is not None
        for table in paired.tables
        if (deal := paired.deal_of(table)) is not None and deal != paired.deal
    )


# -- summary and bots -------------------------------------------------------------------


class TableSummary(msgspec.Struct, frozen=True, kw_only=True):
    """One table of a round as anyone may know it."""

    table: int
    game: str
    seats: tuple[str, ...]
    status: str
    outcome: Outcome | None
    verdict: str
    disputed_by: str | None
    replaced: tuple[str, ...]


class RoundSummary(msgspec.Struct, frozen=True, kw_only=True):
    """One paired round."""

    round: int
    tables: tuple[TableSummary, ...]
    byes: tuple[str, ...]
    duplicate: bool
    final: bool
    complete: bool


class TournamentSummary(msgspec.Struct, frozen=True, kw_only=True):
    """What anyone may know about a tournament (its stream holds no secret)."""

    id: str
    name: str
    game: str
    format: str
    rounds: int
    table_size: int
    points: tuple[int, ...]
    bye_points: int
    tiebreaks: tuple[str, ...]
    final_table: int
    options: dict[str, str]
    players: tuple[str, ...]
    withdrawn: tuple[str, ...]
    seq: int
    paired: tuple[RoundSummary, ...]


def summary(state: TournamentState) -> TournamentSummary:
    """The tournament's set-up, players and rounds with each table's status."""
    config = state.config
    return TournamentSummary(
        id=state.id,
        name=config.name,
        game=config.game,
        format=config.format,
        rounds=config.rounds,
        table_size=config.table_size,
        points=config.points,
        bye_points=config.bye_points,
        tiebreaks=config.tiebreaks,
        final_table=config.final_table,
        options=dict(config.options),
        players=state.players,
        withdrawn=tuple(p for p in state.players if p in state.withdrawn),
        seq=state.version,
        paired=tuple(
            RoundSummary(
                round=paired.round,
                tables=tuple(
                    TableSummary(
                        table=t.table,
                        game=t.game,
                        seats=t.seats,
                        status=table_status(t),
                        outcome=t.outcome,
                        verdict=t.verdict,
                        disputed_by=t.dispute.player if t.dispute else None,
                        replaced=t.replaced,
                    )
                    for t in paired.tables
                ),
                byes=paired.byes,
                duplicate=paired.deal is not None,
                final=paired.final,
                complete=paired.complete,
            )
            for paired in state.rounds
        ),
    )


class PlayedGame(msgspec.Struct, frozen=True, kw_only=True):
    """One game of a round played out by bots."""

    round: int
    table: int
    game: str
    events: int
    outcome: Outcome | None


def play_round(
    desk: Tournaments,
    table: Table,
    tournament: str,
    bot: Bot,
    bot_seed: int = 0,
    take_seats: bool = False,
) -> list[PlayedGame]:
    """Play the current round's open games with `bot` at every seat, each bot seeing only
    its own seat's view (game k of the call: bot seed `{bot_seed}/{k}`). Where a person has
    made a decision in one of the games, nothing is played unless `take_seats` says the
    organiser agreed: NeedsConfirmation names the tables and seats first."""
    open_games = desk.open_games(tournament)
    played_by_people = [
        (table_number, seats)
        for _, table_number, game in open_games
        if (seats := seats_people_played(table, game))
    ]
    if played_by_people and not take_seats:
        tables = "; ".join(
            f"table {number}: {listing(seats)}" for number, seats in played_by_people
        )
        raise NeedsConfirmation(
            f"People have already played in this round's open games ({tables}). The bots "
            "would take those seats and finish the games for them; the record will say "
            "which decisions the bots made. Ask again to confirm (take_seats / "
            "--take-seats)."
        )
    played_now = []
    for number, (round_number, table_number, game) in enumerate(open_games):
        rnd = random.Random(f"{bot_seed}/{number}")
        result = play_out(table, game, bot, rnd, started_by="the organiser")
        played_now.append(
            PlayedGame(
                round=round_number,
                table=table_number,
                game=game,
                events=result.events,
                outcome=result.outcome,
            )
        )
    return played_now


# -- exports ----------------------------------------------------------------------------


def table_status(table: Any) -> str:
    """How a table's result stands: in play, held, counted or ruled."""
    if table.ruling is not None:
        return f"ruled {table.ruling.ruling}: {table.ruling.reason}"
    if table.result is None:
        return "in play"
    if table.held:
        return f"held (chain {table.result.chain}, audit {table.verdict or 'not yet'})"
    dispute = f"; disputed by {table.dispute.player}" if table.dispute else ""
    return f"counted (chain ok, audit {table.verdict or 'not yet revealed'}){dispute}"


def seats_people_played(table: Table, game: str) -> list[str]:
    """The players who made a decision of their own in `game` (none made by a bot or the
    organiser for them), in seat order."""
    players = table.players(game)
    played = {
        envelope.event.seat
        for envelope in table.log(game, table.viewer(game, "referee"))
        if isinstance(envelope.event, DECISIONS)
        and (envelope.event.by is None or envelope.event.by.kind == "player")
    }
    return [players[seat] for seat in sorted(played)]
