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
deal): each seat's score against the mean of that seat over the round's tables.

`summary` is what anyone may know of a tournament (GET /tournaments/{id}); `play_round`
lets bots play the open games of the current round (CLI and API `autoplay`).

`standings` refuses a round that was not paired (InvalidOption naming the rounds that
were). Callers read a stored tournament with `Tournaments.state` / `envelopes`, which check
its chain on every read, so a stream that fails the check is refused, never shown.

Exports: `jsonl` is the stream itself (one envelope per line, what `import` reads back);
`csv`, `md` and `html` are the standings table with the crosstable (projections/
crosstable.py; md and html add the rounds with each table's placings; csv has one number
per column: points, each tie-break, each rating's mu, sigma and ordinal, and per round
the table, place and points). Every value
from the stream is escaped for its format: html with `html.escape`; md with a backslash
before Markdown's active characters (as the game export does) and line breaks turned to
spaces; csv is quoted by the csv module, and a text cell beginning with `=`, `+`, `-`,
`@`, a tab or a carriage return gets a leading single quote (`'=1+2`), so a spreadsheet
shows it as text instead of running it as a formula (numbers such as `-3` are left as
they are).
"""

from __future__ import annotations

import csv
import html
import io
import random
import re
from fractions import Fraction
from typing import Any

import msgspec
from openskill.models import BradleyTerryFull, BradleyTerryFullRating

from skald.core.errors import InvalidOption
from skald.core.seats import printable
from skald.core.signing import Signer
from skald.core.tournament.desk import Tournaments, plural
from skald.core.tournament.standing import Played, places, played, ranked, tallies
from skald.core.tournament.state import TournamentState
from skald.core.tournament.stream import end_mark
from skald.events.common import Outcome
from skald.events.envelope import Envelope
from skald.projections.autoplay import Bot, play_out
from skald.projections.crosstable import (
    crosstable,
    crosstable_columns,
    crosstable_html,
    crosstable_md,
    placings_words,
)
from skald.projections.export.markdown import escape_markdown
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


class Standings(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The standings after `round` (0: before any)."""

    round: int
    standings: tuple[Standing, ...]
    duplicate: tuple[SeatComparison, ...] = ()


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
    """For duplicate rounds: each seat's score against that seat's mean over the tables."""
    found = []
    for paired in state.through(last_round):
        if paired.deal is None:
            continue
        games = played([paired])
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
                        status=_status(t),
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
    desk: Tournaments, table: Table, tournament: str, bot: Bot, bot_seed: int = 0
) -> list[PlayedGame]:
    """Play the current round's open games with `bot` at every seat, each bot seeing only
    its own seat's view (game k of the call: bot seed `{bot_seed}/{k}`)."""
    played_now = []
    for number, (round_number, table_number, game) in enumerate(desk.open_games(tournament)):
        result = play_out(table, game, bot, random.Random(f"{bot_seed}/{number}"))
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

EXPORT_FORMATS = ("jsonl", "csv", "md", "html")


def export_jsonl(envelopes: list[Envelope[Any]], signer: Signer | None = None) -> str:
    """The stream, one envelope per line, then its end mark (core/tournament/stream.py):
    its head signed by `signer`, as a game's export is, or without one, unsigned."""
    lines = [msgspec.json.encode(env).decode() for env in envelopes]
    last = envelopes[-1]
    receipt = None if signer is None else signer.receipt(last.stream, last.seq, last.hash)
    lines.append(end_mark(envelopes, receipt))
    return "".join(line + "\n" for line in lines)


def _rating_text(rating: Rating | dict[str, Rating]) -> str:
    if isinstance(rating, Rating):
        return f"{rating.mu:.2f} ± {rating.sigma:.2f}"
    return " / ".join(f"{role} {r.mu:.2f} ± {r.sigma:.2f}" for role, r in rating.items())


def _rows(table: Standings) -> tuple[list[str], list[list[str]]]:
    names = list(table.standings[0].tiebreaks) if table.standings else []
    header = ["rank", "player", "points", *names, "games", "byes", "rating"]
    rows = [
        [
            str(row.rank),
            row.player + (" (withdrawn)" if row.withdrawn else ""),
            f"{row.points:g}",
            *(f"{row.tiebreaks[n]:g}" for n in names),
            str(row.games),
            str(row.byes),
            _rating_text(row.rating),
        ]
        for row in table.standings
    ]
    return header, rows


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[-+]?\d+(\.\d+)?(e[-+]?\d+)?")


def csv_cell(text: str) -> str:
    """A cell a spreadsheet will not run: text beginning with a formula character gets a
    leading single quote (numbers are left alone)."""
    if text.startswith(FORMULA_START) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def _rating_columns(rating: Rating | dict[str, Rating]) -> list[tuple[str, float]]:
    """`rating_mu`, `rating_sigma`, `rating_ordinal` (per role in Beast:
    `rating_beast_mu`, ...), one number each."""
    if isinstance(rating, Rating):
        return [
            ("rating_mu", rating.mu),
            ("rating_sigma", rating.sigma),
            ("rating_ordinal", rating.ordinal),
        ]
    return [
        (f"rating_{role}_{name}", getattr(r, name))
        for role, r in rating.items()
        for name in ("mu", "sigma", "ordinal")
    ]


def export_csv(table: Standings, state: TournamentState | None = None) -> str:
    """The standings as CSV, one number per column (points, each tie-break, games, byes,
    each rating's mu, sigma and ordinal; withdrawn 1 or 0), then, given the tournament's
    state, the crosstable's columns per round (table, place, points, opponents). One header
    line; formula-like cells guarded, see above."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    names = list(table.standings[0].tiebreaks) if table.standings else []
    ratings = (
        [name for name, _ in _rating_columns(table.standings[0].rating)] if table.standings else []
    )
    cross_header, cross_rows = (
        crosstable_columns(crosstable(state, _order(table))) if state is not None else ([], {})
    )
    writer.writerow(
        ["rank", "player", "points", *names, "games", "byes", *ratings, "withdrawn", *cross_header]
    )
    for row in table.standings:
        cells = [
            str(row.rank),
            row.player,
            f"{row.points:g}",
            *(f"{row.tiebreaks[n]:g}" for n in names),
            str(row.games),
            str(row.byes),
            *(f"{value:g}" for _, value in _rating_columns(row.rating)),
            "1" if row.withdrawn else "0",
            *cross_rows.get(row.player, []),
        ]
        writer.writerow([csv_cell(cell) for cell in cells])
    return buffer.getvalue()


def _order(table: Standings) -> list[tuple[int, str, float]]:
    return [(row.rank, row.player, row.points) for row in table.standings]


def standings_text(table: Standings) -> str:
    """The standings as tab-separated lines for a terminal (the CLI's `standings`)."""
    header, rows = _rows(table)
    return "\n".join("\t".join(" ".join(cell.split()) for cell in row) for row in [header, *rows])


def _md_cell(text: str) -> str:
    """Text with Markdown's active characters escaped (as the game export does) and line
    breaks as spaces, so nothing from the stream makes markup or a line."""
    return escape_markdown(" ".join(printable(text).splitlines()))


def export_md(state: TournamentState, table: Standings) -> str:
    """The standings and rounds as Markdown."""
    header, rows = _rows(table)
    config = state.config
    lines = [
        f"# {_md_cell(config.name)}",
        "",
        f"{config.game}, {config.format}, {plural(config.rounds, 'round')}, tables of "
        f"{config.table_size}; standings after round {table.round}",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *("| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows),
    ]
    lines += ["", *crosstable_md(crosstable(state, _order(table)))]
    for paired in state.rounds:
        lines += ["", f"## Round {paired.round}" + (" (final)" if paired.final else ""), ""]
        for t in paired.tables:
            lines.append(
                f"- table {t.table} `{t.game.replace('`', '')}`: "
                f"{_md_cell(', '.join(t.seats))}; {_md_cell(placings_words(t) + _status(t))}"
            )
        if paired.byes:
            lines.append(f"- bye: {_md_cell(', '.join(paired.byes))}")
    return "\n".join(lines) + "\n"


def _status(table: Any) -> str:
    if table.ruling is not None:
        return f"ruled {table.ruling.ruling}: {table.ruling.reason}"
    if table.result is None:
        return "in play"
    if table.held:
        return f"held (chain {table.result.chain}, audit {table.verdict or 'not yet'})"
    dispute = f"; disputed by {table.dispute.player}" if table.dispute else ""
    return f"counted (chain ok, audit {table.verdict or 'not yet revealed'}){dispute}"


def export_html(state: TournamentState, table: Standings) -> str:
    """The standings as a standalone HTML page (every value escaped)."""
    header, rows = _rows(table)
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows
    )
    title = html.escape(printable(state.config.name))  # an imported stream's name, too
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        f"</head><body><h1>{title}</h1><p>Standings after round {table.round}</p>"
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        f"{crosstable_html(crosstable(state, _order(table)))}{_rounds_html(state)}</body></html>\n"
    )


def _rounds_html(state: TournamentState) -> str:
    """Each round's tables: who sat there, the result, its status."""
    parts = []
    for paired in state.rounds:
        items = "".join(
            f"<li>table {t.table}: {html.escape(', '.join(t.seats))}; "
            f"{html.escape(placings_words(t))}{html.escape(_status(t))}</li>"
            for t in paired.tables
        )
        if paired.byes:
            items += f"<li>bye: {html.escape(', '.join(paired.byes))}</li>"
        final = " (final)" if paired.final else ""
        parts.append(f"<h2>Round {paired.round}{final}</h2><ul>{items}</ul>")
    return "".join(parts)
