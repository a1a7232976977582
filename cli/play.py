"""Commands that start and play games: new, show, legal, move, undo, redo."""

from __future__ import annotations

import secrets
from typing import Annotated, Any

import typer

from skald.cli.app import AsOption, DbOption, JsonFlag, command, echo, open_table, print_json
from skald.cli.seat_keys import signing_for
from skald.core.codec import event_tag
from skald.core.errors import InvalidOption
from skald.core.rules import game_names
from skald.core.seats import check_player_names
from skald.core.secrecy import COMMIT, ENTROPY_PREFIX, REVEAL, entropy_commitment
from skald.events.envelope import Envelope
from skald.projections.export.model import SECTION_ENDS
from skald.projections.export.readable import final_position
from skald.projections.narrative import end_sentence
from skald.projections.narrative.describe import describe_line
from skald.projections.table import Table, TableView

IdArg = Annotated[str, typer.Argument(help="The game id printed by `skald new`.")]
SeatOption = Annotated[str, typer.Option("--as", help="The seat acting: a name or 0-based index.")]
ExpectOption = Annotated[
    int | None,
    typer.Option("--expect", help="Fail with a version conflict unless the game is at this seq."),
]


def parse_options(pairs: list[str]) -> dict[str, str]:
    """`--option K=V` values into a dict: a value without `=` or without a key, or a key
    given twice (which one would count?), is a usage error naming it (InvalidOption)."""
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise InvalidOption(f"--option {pair!r}: expected KEY=VALUE (undo=anyone, say)")
        if key in options:
            raise InvalidOption(
                f"--option {key!r} is given twice ({key}={options[key]}, {key}={value.strip()}):"
                " give it once"
            )
        options[key] = value.strip()
    return options


@command("new")
def new(
    game: Annotated[str, typer.Argument(help="Game name: " + ", ".join(game_names()) + ".")],
    players: Annotated[str, typer.Option(help="Comma-separated player names, in seat order.")],
    seed: Annotated[
        str | None,
        typer.Option(help="Your own seed, mixed with the service's secret key (default: none)."),
    ] = None,
    reproducible: Annotated[
        bool,
        typer.Option(
            "--reproducible",
            help="Draw from the seed alone (replay a physical deal, reproduce "
            "a game); the game then says its seed was chosen.",
        ),
    ] = False,
    deal: Annotated[
        str | None,
        typer.Option(
            help="With --seed: games with one seed and one deal name draw alike (a duplicate "
            "round); implies --reproducible."
        ),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            help="Table option K=V (undo=author|anyone|off, reveal=end|referee, "
            "entropy=off|seats, and game options). Repeatable.",
        ),
    ] = None,
    db: DbOption = None,
) -> None:
    """Create a game and print its id alone."""
    names = [name.strip() for name in players.split(",")]
    check_player_names(names)  # one rule with the API, before the store is opened
    options = parse_options(option or [])  # so is a usage error
    table = open_table(db)
    echo(
        table.create(
            game,
            names,
            seed=seed,
            options=options,
            deal=deal,
            reproducible=reproducible,
        )
    )


def render_table_view(table: Table, shown: TableView) -> str:
    """Header, the game's rendering, and the outcome when it is over."""
    header = f"{shown.game} {shown.id} at seq {shown.seq}, seen by {shown.viewer}"
    lines = [header]
    if shown.partial:
        lines.append(shown.partial)
    if shown.outcome is not None:
        lines.append(end_sentence(shown.game, shown.players, shown.outcome))
    elif shown.to_act and not shown.partial:
        lines.append("to act: " + ", ".join(shown.players[s] for s in shown.to_act))
    lines.append(table.render(shown))
    return "\n".join(lines)


@command("show")
def show(
    game_id: IdArg,
    as_: AsOption = None,
    at: Annotated[int | None, typer.Option(help="Show the game after this seq.")] = None,
    json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """Show the game as one viewer sees it (default: spectator; after the game under
    reveal=end, everything)."""
    table = open_table(db, create=False)
    viewer = table.viewer(game_id, as_)
    shown = table.show_revealed(game_id, viewer, at)
    if json:
        print_json(shown)
        return
    echo(render_table_view(table, shown))
    if shown.outcome is not None and at is None:
        logged = table.log(game_id, viewer)  # the whole scoring, however long, is in it
        ends = [env.seq for env in logged if event_tag(env.event) in SECTION_ENDS]
        # Beowulf's last scoring clears the board: say where it still stands
        if ends and (last := final_position(logged, ends[-1])) < ends[-1]:
            echo(f"(the last scoring cleared the board: --at {last} shows it as it stood)")


@command("possible")
def possible(
    game_id: IdArg,
    as_: AsOption = None,
    at: Annotated[int | None, typer.Option(help="As it stood after this seq.")] = None,
    json: JsonFlag = False,
    db: DbOption = None,
) -> None:
    """What could be true of everything this viewer cannot see (a seat's unseen tiles and
    the other hands, the face-down loot, where the Beast may be), from its own log only."""
    table = open_table(db, create=False)
    known = table.possible(game_id, table.viewer(game_id, as_), at)
    if json:
        print_json(known)
    else:
        echo(known.text)


@command("legal")
def legal(game_id: IdArg, as_: SeatOption, json: JsonFlag = False, db: DbOption = None) -> None:
    """List the seat's legal moves in the game's notation, each with the words the log says
    it in where they differ (`play 0# B1  (play Throat B1)`); `skald move` takes either."""
    table = open_table(db, create=False)
    moves = table.legal(game_id, table.seat(game_id, as_))
    if json:
        print_json(moves)
    elif not moves:
        echo("(no legal moves: not this seat's turn)")
    else:
        worded = table.moves_in_words(game_id, moves)
        width = max(map(len, moves))
        echo("\n".join(f"{m:<{width}}  ({worded[m]})" if m in worded else m for m in moves))


def _print_appended(table: Table, game_id: str, as_: str, envelopes: list[Envelope[Any]]) -> None:
    """The appended events told as the seat sees them (the narrator reads from seq 1)."""
    if not envelopes:
        return
    viewer = table.viewer(game_id, as_)
    for narrated in table.narrated(game_id, viewer, envelopes[0].seq, envelopes[-1].seq):
        echo(describe_line(narrated))


@command("move")
def move(
    game_id: IdArg,
    notation: Annotated[
        str, typer.Argument(help="The move, in notation or in the words skald legal shows.")
    ],
    as_: SeatOption,
    expect: ExpectOption = None,
    db: DbOption = None,
) -> None:
    """Play one move for a seat, signed by the seat's own key (made on first use in your
    data folder); prints the events it appended, as that seat sees them."""
    table = open_table(db)
    seat = table.seat(game_id, as_)
    text, signing = signing_for(table, game_id, seat, "move", notation)
    appended = table.move(game_id, seat, text, expect, signing=signing)
    _print_appended(table, game_id, as_, appended)


@command("undo")
def undo(game_id: IdArg, as_: SeatOption, expect: ExpectOption = None, db: DbOption = None) -> None:
    """Take back the last decision (table policy decides who may), signed by the seat."""
    table = open_table(db)
    seat = table.seat(game_id, as_)
    signing = signing_for(table, game_id, seat, "undo")[1]
    _print_appended(table, game_id, as_, table.undo(game_id, seat, expect, signing=signing))


@command("redo")
def redo(game_id: IdArg, as_: SeatOption, expect: ExpectOption = None, db: DbOption = None) -> None:
    """Re-apply the decision just undone, if nothing happened since; signed by the seat."""
    table = open_table(db)
    seat = table.seat(game_id, as_)
    signing = signing_for(table, game_id, seat, "redo")[1]
    _print_appended(table, game_id, as_, table.redo(game_id, seat, expect, signing=signing))


@command("entropy")
def entropy(
    text: Annotated[
        str | None, typer.Argument(help="Your secret text (default: 128 random bits, in hex).")
    ] = None,
) -> None:
    """Make a seat's entropy for a table with entropy=seats: prints the commit move to send
    now and the reveal move to send once every seat has committed. Keep the text secret."""
    secret = text if text is not None else secrets.token_hex(16)
    echo(f"{ENTROPY_PREFIX}{COMMIT} {entropy_commitment(secret)}")
    echo(f"{ENTROPY_PREFIX}{REVEAL} {secret}")
