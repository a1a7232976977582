"""Sentences for the events every game shares: the game's creation, the seats' entropy,
undo and redo, a decision and the end of the game.

A decision (`MoveMade`) is told in the game's notation, which already speaks in faces
(`play +3 C3`, `draft Ensnare`), with the game's `move_words` where its notation names
things by id (Hägar's places); a hidden one is told as hidden. The end of the game
names the ranking with the scores; a game may say it in its own words first (the Beast's
sides), this is the general form.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from skald.events.common import (
    DecisionRedone,
    DecisionUndone,
    EntropyAdded,
    EntropyCommitted,
    GameCreated,
    GameFinished,
    MoveMade,
    Outcome,
)
from skald.events.secret import Secret

GAME_TITLES = {"beowulf": "Beowulf", "beast": "Beast", "hagar": "Hägar ruft zum Beutefest"}


def listing(items: Sequence[str], last: str = "and") -> str:
    """`A`, `A and B`, `A, B and C`."""
    items = [item for item in items if item]
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def plural(count: int, one: str, many: str | None = None) -> str:
    """`1 tile`, `3 tiles`."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def known(secret: Secret[Any] | None) -> Any:
    """The value of a secret this reader may see, else None."""
    if secret is None or not secret.known:
        return None
    return secret.value


def seat_deed(event: Any, seat: int) -> bool:
    """Whether `event` names `seat` as who did it (its `seat` field), the general rule a
    game's `deed` starts from."""
    return getattr(event, "seat", None) == seat


def humane(event: Any) -> str:
    """A last resort for an event no narrative knows: its class name as words
    (`GrudgesGained` -> `Grudges gained.`), never its tag or fields."""
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", type(event).__name__).lower()
    return f"{words[:1].upper()}{words[1:]}."


def termination_words(termination: str) -> str:
    """`completed` -> `the game was played to its end`."""
    return {
        "completed": "the game was played to its end",
        "feast": "the Loot Feast was held",
        "days_passed": "the last day passed",
    }.get(termination, termination.replace("_", " "))


def outcome_words(outcome: Outcome, name: Callable[[int], str]) -> str:
    """The ranking with scores: `Ann first (109), Cid second (96), Bob third (70)`."""
    places = ("first", "second", "third", "fourth", "fifth", "sixth")
    parts = []
    for place, group in enumerate(outcome.ranking):
        who = listing([name(seat) for seat in group])
        scores = {outcome.scores[seat] for seat in group} if outcome.scores else set()
        score = f" ({scores.pop()})" if len(scores) == 1 else ""
        tied = " (tied)" if len(group) > 1 else ""
        parts.append(f"{who} {places[min(place, len(places) - 1)]}{tied}{score}")
    return "; ".join(parts)


class CommonNarrator:
    """Sentences for the shared events; `cast(seat)` shows a seat with its colour or role."""

    def __init__(
        self,
        game: str,
        players: tuple[str, ...],
        cast: Callable[[int], str] | None = None,
        move_words: Callable[[str], str] | None = None,
    ) -> None:
        self.game = game
        self.players = players
        self.cast = cast or self.name
        self.move_words = move_words or (lambda move: move)

    def name(self, seat: int) -> str:
        """A seat's player name (`seat 5` for a seat outside the table)."""
        return self.players[seat] if 0 <= seat < len(self.players) else f"seat {seat}"

    def doer(self, event: Any) -> str:
        """Who made a decision, as a sentence begins: the seat's player (`Ann`), or who acted
        for the seat (`The organiser's greedy bot`, `Ann's own greedy bot`, `The
        organiser`)."""
        by = getattr(event, "by", None)
        if by is None or by.kind == "player":
            return self.name(event.seat)
        said = author_words(by, self.name(event.seat))
        return said[:1].upper() + said[1:]

    def for_seat(self, event: Any) -> str:
        """` for Ann` after a decision someone else made in Ann's seat, else nothing."""
        by = getattr(event, "by", None)
        if by is None or by.kind == "player" or by.started_by == self.name(event.seat):
            return ""
        return f" for {self.name(event.seat)}"

    def say(self, event: Any) -> str | None:
        """The sentence for a shared event, or None when it is a game's own."""
        match event:
            case MoveMade(seat=seat, move=str() as move):
                return f"{self.doer(event)} chose “{self.move_words(move)}”{self.for_seat(event)}."
            case MoveMade(seat=seat, hidden_move=hidden):
                move = known(hidden)
                if move is None:
                    return f"{self.doer(event)} made a hidden decision{self.for_seat(event)}."
                return (
                    f"{self.doer(event)} chose “{self.move_words(move)}”{self.for_seat(event)}"
                    " (hidden from the others)."
                )
            case GameCreated():
                return self._created(event)
            case EntropyCommitted(seat=seat):
                return f"{self.name(seat)} committed to a secret share of the game's luck."
            case EntropyAdded(seat=seat):
                return f"{self.name(seat)}'s share of the luck was shown and mixed into the draws."
            case DecisionUndone(seat=seat, author=author):
                whose = (
                    "their own" if seat == author and event.by is None else f"{self.name(author)}'s"
                )
                return f"{self.doer(event)} took back {whose} last decision{self.for_seat(event)}."
            case DecisionRedone(seat=seat):
                return (
                    f"{self.doer(event)} made again the decision that was taken back"
                    f"{self.for_seat(event)}."
                )
            case GameFinished(outcome=outcome):
                return (
                    f"The game is over ({termination_words(outcome.termination)}): "
                    f"{outcome_words(outcome, self.name)}."
                )
        return None

    def _created(self, event: GameCreated) -> str:
        title = GAME_TITLES.get(event.game, event.game.title())
        seats = listing([self.cast(seat) for seat in range(len(event.players))])
        text = f"A game of {title} was set up for {seats}"
        if event.options:
            text += " (" + "; ".join(f"{k}: {v}" for k, v in event.options) + ")"
        if event.seed_chosen:
            text += "; its draws follow a seed its creator chose"
        key = known(event.key) if event.key is not None else known(event.seed)
        return text + f"; its secret key is {'revealed' if key is not None else 'committed'}."
        return text


def author_words(by: Any, player: str) -> str:
    """Who acted for a seat, in words (`the organiser's greedy bot`, `Ann's own greedy
    bot`, `the organiser`, `Ann`)."""
    if by.kind == "bot":
        level = f"{by.name} bot" if by.name else "bot"
        if by.started_by == player:
            return f"{player}'s own {level}"
        return f"{by.started_by}'s {level}" if by.started_by else f"the {level}"
    if by.kind == "organiser":
        return "the organiser"
    return player
