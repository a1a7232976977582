"""Building annotated histories for the history and export tests: autoplayed games with
random annotations and nested variations, through the Table's `histories()` facade."""

from __future__ import annotations

import random

from skald.core.history.locations import places
from skald.core.kernel import to_act
from skald.core.rules import get_rules
from skald.events.history import COLOURS, GLYPHS
from skald.events.viewer import REFEREE, Viewer, seat_viewer
from skald.projections.bots.autoplay import autoplay
from skald.projections.export.facade import Histories
from skald.projections.table import Table

GAMES = {"beowulf": 3, "beast": 3, "hagar": 3}


def viewers(table: Table, game_id: str) -> list[Viewer]:
    """The referee and every seat."""
    players = table.players(game_id)
    return [REFEREE, *(seat_viewer(s, name) for s, name in enumerate(players))]


def random_note(rnd: random.Random, place_names: list[str], players: int) -> dict[str, object]:
    """Keyword arguments of a random annotation."""
    note: dict[str, object] = {}
    if rnd.random() < 0.7:
        note["comment"] = rnd.choice(["Bold.", "Ann's {idea}\\ with ñ", "Why?\nNo: bad", "ok"])
    if rnd.random() < 0.5:
        note["glyph"] = rnd.choice([*GLYPHS, f"good:{rnd.randrange(players)}"])
    if place_names and rnd.random() < 0.6:
        a, b = rnd.choice(place_names), rnd.choice(place_names)
        colour = rnd.choice(COLOURS)
        note["marks"] = [
            rnd.choice([f"circle {a} {colour}", f"cross {a}", f"arrow {a} {b} {colour}"]),
            f"label {b} {colour} look here",
        ]
    if not note:
        note["comment"] = "note"
    return note


def play_variation(
    histories: Histories, game_id: str, viewer: Viewer, anchor: str, rnd: random.Random, moves: int
) -> str:
    """Open a variation by `viewer` at `anchor` and play up to `moves` random legal moves."""
    stream = histories.variation(
        game_id,
        viewer,
        anchor,
        (),
        name=f"line {rnd.randrange(99)}",
        seed=str(rnd.randrange(10**6)),
    )
    store = histories._store
    for _ in range(moves):
        state = store.state_at(game_id, stream)
        rules = get_rules(state.game)
        waiting = sorted(to_act(rules, state))
        if not waiting or state.awaiting_entropy:
            break
        seat = rnd.choice(waiting)
        legal = [rules.format(c) for c in rules.legal(state.rules, seat)]
        if not legal:
            break
        move = rnd.choice(legal)
        histories.extend(game_id, viewer, stream, [f"{state.players[seat]}: {move}"])
    return stream


def annotated_game(
    table: Table, game: str, seed: int, decisions: int, game_id: str | None = None
) -> str:
    """An autoplayed game (up to `decisions`) with random notes and nested variations."""
    rnd = random.Random(seed)
    result = autoplay(
        table,
        game,
        GAMES[game],
        seed=str(seed),
        bot_seed=seed,
        max_decisions=decisions,
        options={"reveal": "end"},
        game_id=game_id,
    )
    game_id = result.id
    histories = table.histories()
    store = histories._store
    last = store.game(game_id).version
    everyone = viewers(table, game_id)
    streams = [(game_id, last)]
    for _ in range(rnd.randrange(2, 5)):
        viewer = rnd.choice(everyone)
        stream, end = rnd.choice(streams)
        if stream != game_id:
            start = store.started(stream, game)
            if not (viewer.referee or viewer.seats & start.seats):
                continue
        seq = rnd.randrange(1, end + 1)
        anchor = str(seq) if stream == game_id else f"{stream.split('~')[-1]}@{seq}"
        if rnd.random() < 0.5:
            state = store.state_at(game_id, stream, seq)
            names = sorted(places(game, state.rules) or ())
            # A note in a variation only its side sees is never public (facade.annotate).
            public = ["public"] if stream == game_id else []
            audience = rnd.choice(
                [*public, "referee"] if viewer.referee else [*public, "seat", "referee"]
            )
            histories.annotate(
                game_id, viewer, anchor, audience=audience, **random_note(rnd, names, GAMES[game])
            )  # type: ignore[arg-type]
        else:
            variation = play_variation(histories, game_id, viewer, anchor, rnd, rnd.randrange(4))
            streams.append((variation, store.state_at(game_id, variation).version))
    return game_id
