"""Who plays, and on what terms: a tournament's creation request checked into its
`TournamentCreated` (format, table size, rounds, points, tie-breaks, the games' options),
a late player's registration and a withdrawal, each checked into its event against the
tournament as it stands. Nothing here writes: the desk (core/tournament/desk.py) appends.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from skald.core import kernel
from skald.core.errors import IllegalMove, InvalidOption, NotFound
from skald.core.rules import Rules, get_rules
from skald.core.seats import check_player_names, has_control, name_problem
from skald.core.secrecy import sealed_key
from skald.core.tournament.state import TournamentState
from skald.core.tournament.words import default_name, plural
from skald.events.tournament import (
    FORMATS,
    TIEBREAKS,
    PlayerRegistered,
    PlayerWithdrawn,
    TournamentCreated,
)

DEFAULT_TABLE_SIZE = 4
MAX_ROUNDS = 100


def check_creation(
    game: str,
    players: tuple[str, ...],
    rounds: int,
    format: str,
    table_size: int | None,
    seed: str | None,
    options: dict[str, str],
    points: tuple[int, ...],
    bye_points: int | None,
    tiebreaks: tuple[str, ...],
    final_table: int,
    name: str | None,
) -> TournamentCreated:
    """The creation event, or the first problem with the request (nothing is written)."""
    rules = get_rules(game)
    if format not in FORMATS:
        raise InvalidOption(f"format {format!r}: must be one of {', '.join(FORMATS)}")
    size = table_size if table_size is not None else min(DEFAULT_TABLE_SIZE, rules.max_players)
    if not rules.min_players <= size <= rules.max_players:
        raise InvalidOption(
            f"table size {size}: {rules.title} takes {rules.min_players} to "
            f"{rules.max_players} players"
        )
    check_player_names(players)
    if name is not None and has_control(name):  # as a player name is (core.seats)
        raise InvalidOption(f"tournament name {name.strip()!r} holds a control character")
    if len(players) < rules.min_players or (format == "duplicate" and len(players) < size):
        raise IllegalMove(f"{plural(len(players), 'player')} cannot fill a table of {size}")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidOption(f"rounds {rounds}: must be 1 to {MAX_ROUNDS}")
    if format == "round-robin" and size == 2:
        most = len(players) - 1 + len(players) % 2
        if rounds > most:
            raise InvalidOption(
                f"a round robin of {len(players)} players has {plural(most, 'round')}"
            )
    if len(points) < 2 or any(a < b for a, b in itertools.pairwise(points)):
        raise InvalidOption("points by placing: two or more numbers, best place first, none rising")
    if any(p < 0 for p in points) or (bye_points is not None and bye_points < 0):
        raise InvalidOption("points cannot be negative")
    unknown = [t for t in tiebreaks if t not in TIEBREAKS]
    if unknown or len(set(tiebreaks)) != len(tiebreaks):
        raise InvalidOption(
            f"tie-breaks: each at most once, from {', '.join(TIEBREAKS)} "
            f"(got {', '.join(tiebreaks)})"
        )
    if final_table and not rules.min_players <= final_table <= min(rules.max_players, len(players)):
        raise InvalidOption(f"final table of {final_table}: not a legal table here")
    options = _table_options(rules, options, format, size)
    return TournamentCreated(
        name=(name or default_name(format, rules.title)).strip(),
        game=game,
        format=format,  # type: ignore[arg-type]  # checked against FORMATS above
        rounds=rounds,
        table_size=size,
        players=players,
        options=tuple(sorted(options.items())),
        points=points,
        bye_points=bye_points if bye_points is not None else _mean(points),
        tiebreaks=tiebreaks,
        final_table=final_table,
        seed=seed,
    )


def registered(state: TournamentState, player: str) -> PlayerRegistered:
    """A late player's registration (Swiss and duplicate only; paired from the next
    round), or the first problem with it."""
    player = player.strip()
    problem = name_problem(player)
    if problem:
        raise IllegalMove(problem)
    known = next((p for p in state.players if p.casefold() == player.casefold()), None)
    if known is not None:
        raise IllegalMove(f"{player!r} is registered already (as {known!r})")
    if state.config.format == "round-robin" and state.rounds:
        raise IllegalMove("a round robin takes no player once it has started")
    return PlayerRegistered(player=player)


def withdrawn(state: TournamentState, player: str, reason: str) -> PlayerWithdrawn:
    """An active player's withdrawal; NotFound for anyone else."""
    if player not in state.active:
        raise NotFound(f"no active player {player!r} in tournament {state.id}")
    return PlayerWithdrawn(player=player, reason=reason)


def _mean(points: Sequence[int]) -> int:
    return round(sum(points) / len(points))


def _table_options(rules: Rules, options: dict[str, str], format: str, size: int) -> dict[str, str]:
    """The games' options, checked now (a bad one would only fail at pairing otherwise)."""
    if format == "duplicate":
        if options.get("reveal", "referee") != "referee":
            raise InvalidOption("a duplicate round keeps its deal sealed: reveal must be referee")
        options = {**options, "reveal": "referee"}
    names = tuple(f"Seat{i}" for i in range(size))
    key = sealed_key(seed="options-check", reproducible=True)
    kernel.creation(rules, "options-check", names, options, key)
    return options
