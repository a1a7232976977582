"""The narrative: one sentence per logged event, for one viewer, in the game's own words.

Each game's projection side writes its sentences (`projections/<game>/narrative.py`); the
sentences for the events every game shares (creation, entropy, undo, the end) are in
`common.py`. A narrator reads the log *as redacted for its viewer* and nothing else, so a
sentence can only show what that viewer may see: a hidden value it is not entitled to is
a sealed `Secret` and the sentence leaves it out ("Ann drew a tile" for Bob, "Ann drew a
tile (+3)" for Ann). The narrator keeps a little context from the events it has read
(who plays which Beast hunter, which card is resolving), never from the rules state.

Values are shown by their face (a Beowulf tile as printed, a Beast card by its name and
half, a Hägar loot piece by its kind and value), seats by their player's name; ids stay
in the JSON log and the audit's evidence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple, Protocol

from skald.events.common import (
    DecisionRedone,
    DecisionUndone,
    EntropyAdded,
    EntropyCommitted,
    GameFinished,
    MoveMade,
    Outcome,
)
from skald.events.envelope import SYSTEM, Envelope
from skald.projections.narrative.common import CommonNarrator, humane
from skald.projections.registry import game_part

THE_GAME = "the game"
"""Who a line the rules wrote (not a player's decision) is credited to."""
SEAT_EVENTS = (MoveMade, DecisionUndone, DecisionRedone, EntropyCommitted, EntropyAdded)
"""The shared events that are always their actor's own doing."""

UNTELLABLE = (KeyError, IndexError, ValueError, TypeError, AttributeError)
"""What a game's data lookups raise on a value no honest log holds (a forged id)."""


class Narrated(NamedTuple):
    """One event of a viewer's log with its actor and sentence, as a person reads them."""

    envelope: Envelope[Any]
    actor: str
    sentence: str


class GameNarrator(Protocol):
    """What a game's narrative module builds: a reader of one viewer's redacted log."""

    def say(self, event: Any) -> str | None:
        """The sentence for one of the game's events, or None when it is not the game's."""

    def actor(self, seat: int) -> str:
        """How a seat is shown beside its sentences: the player's name and colour or role."""

    def deed(self, event: Any, seat: int) -> bool:
        """Whether `event` is `seat`'s own doing (else the game's: a shuffle, a new day)."""


class Narrator:
    """Reads one viewer's redacted log in order and tells it, one sentence per event."""

    def __init__(self, game: str, players: Sequence[str]) -> None:
        self.players = tuple(players)
        module = game_part(game, "narrative")  # projections/<game>/narrative.py
        self.game: GameNarrator | None = module.narrator(self.players) if module else None
        self.common = CommonNarrator(
            game,
            self.players,
            self.game.actor if self.game else None,
            getattr(self.game, "move_words", None),
        )

    def sentence(self, event: Any) -> str:
        """The sentence for `event` (already redacted for the reader)."""
        try:
            text = self.game.say(event) if self.game is not None else None
            if text is None:
                text = self.common.say(event)
        except UNTELLABLE:  # a forged value the game cannot name: the audit names the seq
            text = None
        return text if text is not None else humane(event)

    def actor(self, actor: str) -> str:
        """The envelope's actor as a person reads it: `Ann (brown)`, or `the game`."""
        if actor.isdigit() and int(actor) < len(self.players):
            seat = int(actor)
            return self.game.actor(seat) if self.game is not None else self.players[seat]
        return THE_GAME if actor == SYSTEM else actor

    def credit(self, envelope: Envelope[Any]) -> str:
        """Who a line is told as done by: the seat whose decision appended it when the
        event is that seat's own doing, else the game (a decision also appends what the
        rules do after it: a shuffle, the next day, the next turn; none of it is the
        player's)."""
        actor = envelope.actor
        if not actor.isdigit():
            return self.actor(actor)
        if isinstance(envelope.event, SEAT_EVENTS):
            return self.actor(actor)
        if self.game is not None and self.game.deed(envelope.event, int(actor)):
            return self.actor(actor)
        return THE_GAME

    def prime(self, envelopes: Iterable[Envelope[Any]]) -> Narrator:
        """Read `envelopes` for their context only (a variation's parent line up to its
        start); returns the narrator."""
        for envelope in envelopes:
            self.sentence(envelope.event)
        return self

    def tell(self, envelopes: Iterable[Envelope[Any]]) -> list[str]:
        """One sentence per envelope, in order."""
        return [self.sentence(envelope.event) for envelope in envelopes]


def end_sentence(game: str, players: Sequence[str], outcome: Outcome) -> str:
    """How the game ended, as its log's last line says it: `The game is over (the last day
    passed): The hunters win.`, `The game is over (the game was played to its end): Bob
    first (142); Ann second (97).` (the status line, `skald show`, the audit)."""
    return Narrator(game, players).sentence(GameFinished(outcome=outcome))


def narrate(envelopes: Iterable[Envelope[Any]], players: Sequence[str], game: str) -> list[str]:
    """The sentences of a redacted log, one per envelope (read from its first event on)."""
    return Narrator(game, players).tell(envelopes)


INTERNAL_WORDS = re.compile(
    r"\b[a-z]+\.[a-z_]+\b"  # an event tag such as beowulf.tile_drawn
    r"|\b[a-z]+_[a-z_]+\b"  # a field or identifier such as hidden_move
    r"|\b[a-z_]+=\S"  # field=value
    r"|\bI{1,3}\d\d\b"  # a Beowulf tile id
)
"""What a sentence for people must not contain: tags, field names, tile ids."""
