"""`skald tournament ...`: create, pair, autoplay, take results, standings, exports, disputes.

Every command goes through the tournament desk (core/tournament/desk.py) and the Table;
errors are one line on stderr with the CLI's exit codes (cli/app.py), and nothing is
written when a command fails. Every command but `verify` reads the tournament through
the desk's chain check: a stream that fails it is refused (exit 9, one line naming the
seq, nothing on stdout, nothing written); `verify` says where it breaks.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import msgspec
import typer

from skald.cli.app import (
    DbOption,
    JsonFlag,
    app,
    command,
    echo,
    import_into,
    open_store,
    print_json,
)
from skald.cli.play import parse_options
from skald.core.engine import Engine
from skald.core.errors import InvalidNotation, InvalidOption, StoreError
from skald.core.signing import Signer, SigningKeyError, open_signer
from skald.core.store import EventStore
from skald.core.tournament.desk import Tournaments
from skald.core.tournament.registration import DEFAULT_TABLE_SIZE
from skald.core.tournament.state import fold, held_because
from skald.events.tournament import FORMATS, TIEBREAKS, AuditAttached, ResultRecorded
from skald.projections.bots.autoplay import BOTS, bot_named
from skald.projections.table import Table
from skald.projections.tournament.export import (
    EXPORT_FORMATS,
    export_csv,
    export_html,
    export_jsonl,
    export_md,
    standings_text,
)
from skald.projections.tournament.standings import play_round, standings

tournament_app = typer.Typer(
    name="tournament",
    help="Tournament records: Swiss, round robin or duplicate rounds of multi-player "
    "tables, results taken from verified games, standings, ratings and disputes. A "
    "tournament whose stored stream fails its chain check is refused by every command "
    "but verify (exit 9).",
    no_args_is_help=True,
)
dispute_app = typer.Typer(help="Disputes: a seat opens one, the referee settles it.")
tournament_app.add_typer(dispute_app, name="dispute")
app.add_typer(tournament_app, name="tournament")

F = TypeVar("F", bound=Callable[..., Any])
TournamentId = Annotated[str, typer.Argument(help="The tournament id (from `tournament new`).")]


def _command(target: typer.Typer, name: str) -> Callable[[F], F]:
    """Register a tournament command with the CLI's one error, output and store handling
    (`cli.app.command`)."""
    return command(name, target=target)


def _desk(db: str | None, create: bool = True) -> tuple[Tournaments, Table]:
    store = open_store(db, create)
    table = Table(Engine(store))
    return Tournaments(store, table), table


def _store_signer(store: EventStore) -> Signer | None:
    """The store's signer for an export's end mark; None (an unsigned end) when the store
    has no key it can load (a read-only copy, say)."""
    try:
        return open_signer(store)
    except (SigningKeyError, StoreError):
        return None


def _split(text: str | None, what: str) -> list[str]:
    if text is None:
        return []
    items = [item.strip() for item in text.split(",")]
    if not all(items):
        raise InvalidNotation(f"{what} {text!r}: an empty item")
    return items


def _numbers(text: str | None, what: str) -> list[int]:
    try:
        return [int(item) for item in _split(text, what)]
    except ValueError:
        raise InvalidOption(f"{what} {text!r}: whole numbers separated by commas") from None


@_command(tournament_app, "new")
def new(
    game: Annotated[str, typer.Argument(help="Game name: beowulf, beast or hagar.")],
    players: Annotated[str, typer.Option(help="Player names, comma-separated.")],
    rounds: Annotated[int, typer.Option(help="Number of rounds.")],
    format: Annotated[
        str, typer.Option("--format", help=f"Pairing format: {'|'.join(FORMATS)}.")
    ] = "swiss",
    table_size: Annotated[
        int | None,
        typer.Option(
            help="Players per table, within the game's range.",
            show_default=str(DEFAULT_TABLE_SIZE),
        ),
    ] = None,
    seed: Annotated[
        str | None, typer.Option(help="Seed of the pairing draw (each game keeps its own key).")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", help="Table option K=V for every game.")
    ] = None,
    points: Annotated[
        str, typer.Option(help="Points by placing, best first (scaled to each table's size).")
    ] = "6,4,2,0",
    bye_points: Annotated[
        int | None,
        typer.Option(help="Points for a bye.", show_default="the mean of --points, rounded"),
    ] = None,
    tiebreaks: Annotated[
        str, typer.Option(help=f"Tie-break order from {','.join(TIEBREAKS)}.")
    ] = ",".join(TIEBREAKS),
    final: Annotated[
        int, typer.Option(help="Seats at a final table for the top after the rounds (0: none).")
    ] = 0,
    name: Annotated[str | None, typer.Option(help="The tournament's name.")] = None,
    db: DbOption = None,
) -> None:
    """Create a tournament; prints its id alone."""
    # The arguments are read before the store is opened: a usage error creates nothing.
    names, options = _split(players, "--players"), parse_options(option or [])
    scale, order = _numbers(points, "--points"), _split(tiebreaks, "--tiebreaks")
    desk, _table = _desk(db)
    tournament = desk.create(
        game,
        names,
        rounds,
        format=format,
        table_size=table_size,
        seed=seed,
        options=options,
        points=scale,
        bye_points=bye_points,
        tiebreaks=order,
        final_table=final,
        name=name,
    )
    echo(tournament)


@_command(tournament_app, "register")
def register(
    tournament: TournamentId,
    player: Annotated[str, typer.Argument(help="The new player's name.")],
    db: DbOption = None,
) -> None:
    """Register a late player (paired from the next round)."""
    _desk(db)[0].register(tournament, player)
    echo(f"registered {player}")


@_command(tournament_app, "withdraw")
def withdraw(
    tournament: TournamentId,
    player: Annotated[str, typer.Argument(help="The player leaving.")],
    reason: Annotated[str, typer.Option(help="Why.")] = "",
    db: DbOption = None,
) -> None:
    """Withdraw a player: no longer paired; past results stay."""
    _desk(db)[0].withdraw(tournament, player, reason)
    echo(f"withdrew {player}")


@_command(tournament_app, "pair")
def pair(tournament: TournamentId, db: DbOption = None) -> None:
    """Pair the next round and create its games: one JSON line per table
    {"round","table","game","seats"} (seats: player names in seat order)."""
    paired = _desk(db)[0].pair(tournament)
    for table in paired.tables:
        print_json(
            {"round": paired.round, "table": table.table, "game": table.game, "seats": table.seats}
        )
    for player in paired.byes:
        echo(f"bye: {player}", err=True)


@_command(tournament_app, "autoplay")
def autoplay(
    tournament: TournamentId,
    bots: Annotated[
        str, typer.Option("--bots", help=f"Bot level at every seat: {'|'.join(BOTS)}.")
    ] = "random",
    bot_seed: Annotated[int, typer.Option(help="Seed of the bots' choices.")] = 0,
    take_seats: Annotated[
        bool,
        typer.Option(
            "--take-seats",
            help="Let the bots take seats people have played in (else the command names "
            "them, plays nothing and exits 11).",
        ),
    ] = False,
    db: DbOption = None,
) -> None:
    """Play the current round's open games with bots, each seeing only its own seat's
    view; one JSON line per game. The record says each decision the bots made."""
    if bots not in BOTS:
        raise InvalidOption(f"--bots {bots!r}: must be one of {', '.join(BOTS)}")
    desk, table = _desk(db)
    for played in play_round(desk, table, tournament, bot_named(bots), bot_seed, take_seats):
        print_json(played)


@_command(tournament_app, "result")
def result(tournament: TournamentId, db: DbOption = None) -> None:
    """Take in the finished games' results (chain verified, audit verdict once revealed);
    one JSON line per result or verdict taken in, with "held": true and "held_because" when
    it counts nothing until the organiser rules (also said on stderr). A duplicate round's
    results are taken in together once all its tables have finished; a finished table
    that waits is said on stderr."""
    desk = _desk(db)[0]
    taken = desk.take_in(tournament)
    for event in taken.events:
        shown = _taken(event)
        print_json(shown)
        if shown["held"]:
            why = shown["held_because"]
            echo(
                f"held: round {event.round} table {event.table} ({event.game}) counts nothing "
                f"until the organiser rules: {why} "
                f"(skald tournament dispute settle {tournament} {event.game} ...)",
                err=True,
            )
    for waiting in taken.waiting:
        echo(f"waiting: {waiting.words()}", err=True)


def _taken(event: ResultRecorded | AuditAttached) -> dict[str, Any]:
    """The event as stored, plus "held" (and "held_because" when it is held)."""
    shown: dict[str, Any] = msgspec.to_builtins(event)
    chain = event.chain if isinstance(event, ResultRecorded) else "ok"
    why = held_because(chain, event.verdict)
    shown["held"] = bool(why)
    if why:
        shown["held_because"] = why
    return shown


@_command(tournament_app, "standings")
def show_standings(
    tournament: TournamentId,
    round_number: Annotated[
        int | None,
        typer.Option(
            "--round",
            help="Standings after this round (a paired one).",
            show_default="every round paired so far",
        ),
    ] = None,
    json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """The standings: rank, points, tie-breaks, games and rating (mu ± sigma). The
    tournament's chain is checked first: a stream that fails it is refused (exit 9)."""
    current = standings(_desk(db, create=False)[0].state(tournament), round_number)
    if json:
        print_json(current)
        return
    echo(standings_text(current))


@_command(tournament_app, "export")
def export(
    tournament: TournamentId,
    format: Annotated[
        str, typer.Option("--format", help=f"One of {'|'.join(EXPORT_FORMATS)}.")
    ] = "jsonl",
    db: DbOption = None,
) -> None:
    """Export the stream (jsonl, for `tournament import`) or the standings (csv, md, html).
    The tournament's chain is checked first: a stream that fails it is refused (exit 9)."""
    if format not in EXPORT_FORMATS:
        raise InvalidOption(f"format {format!r}: must be one of {', '.join(EXPORT_FORMATS)}")
    desk = _desk(db, create=False)[0]
    envelopes = desk.envelopes(tournament)
    if format == "jsonl":
        typer.echo(export_jsonl(envelopes, _store_signer(desk.store)), nl=False)
        return
    state = fold(tournament, (env.event for env in envelopes))
    current = standings(state)
    text = {
        "csv": lambda: export_csv(current, state),
        "md": lambda: export_md(state, current),
        "html": lambda: export_html(state, current),
    }[format]()
    typer.echo(text, nl=False)


@_command(tournament_app, "import")
def import_(
    file: Annotated[Path, typer.Argument(help="A `tournament export --format jsonl` file.")],
    db: DbOption = None,
) -> None:
    """Store a tournament from its exported stream (checked first); prints its id. Nothing
    is written when the file is refused (a new store file is not even created)."""
    try:
        text = file.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InvalidNotation(f"{file} is not UTF-8 text") from None
    if not text.strip():
        raise InvalidNotation(
            f"{file} is empty: give a `skald tournament export --format jsonl` file"
        )

    def run(store: EventStore) -> tuple[str, str]:
        desk = Tournaments(store, Table(Engine(store)))
        tournament = desk.import_jsonl(text)
        return tournament, desk.head_signer(tournament).words

    tournament, signer = import_into(db, run)
    echo(tournament)
    echo(signer, err=True)


@_command(tournament_app, "verify")
def verify(tournament: TournamentId, db: DbOption = None) -> None:
    """Check the tournament's hash chain and its results against their games; exit 1
    naming the first bad seq. Says who signed its head."""
    desk = _desk(db, create=False)[0]
    report = desk.verify(tournament)
    signer = desk.head_signer(tournament).words
    if not report.ok:
        echo(f"TAMPERED at seq {report.bad_seq}: {report.reason} ({signer})", err=True)
        raise typer.Exit(1)
    echo(f"ok: {report.checked} events, head {report.head[:16]}…; {signer}")


@_command(dispute_app, "open")
def dispute_open(
    tournament: TournamentId,
    game: Annotated[str, typer.Argument(help="The disputed game's id.")],
    by: Annotated[str, typer.Option("--by", help="The player disputing (seated there).")],
    reason: Annotated[str, typer.Option(help="Why.")],
    db: DbOption = None,
) -> None:
    """A player seated at the game's table disputes its result."""
    print_json(_desk(db)[0].dispute(tournament, game, by, reason))


@_command(dispute_app, "settle")
def dispute_settle(
    tournament: TournamentId,
    game: Annotated[str, typer.Argument(help="The game ruled on.")],
    ruling: Annotated[str, typer.Option(help="stands | adjusted | replayed.")],
    reason: Annotated[str, typer.Option(help="Why.")],
    ranking: Annotated[
        str | None,
        typer.Option(help="For 'adjusted': the new order, e.g. 'Bob>Ann=Cid' (= ties)."),
    ] = None,
    db: DbOption = None,
) -> None:
    """The referee rules: the result stands, is adjusted, or the table replays a new game."""
    groups = (
        [[name.strip() for name in part.split("=")] for part in ranking.split(">")]
        if ranking
        else None
    )
    print_json(_desk(db)[0].settle(tournament, game, ruling, reason, groups))
