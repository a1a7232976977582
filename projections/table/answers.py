"""What the Table answers: the Structs its reads and decisions return (a table view, what
could be true, the turn, a game's summary and listing, a decision, a live update), each
already projected for its viewer. JSON through msgspec; the API's schemas mirror them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import msgspec

from skald.core.signing import Receipt
from skald.events.common import Outcome
from skald.events.envelope import Envelope


class TableView(msgspec.Struct, frozen=True, kw_only=True):
    """A game as one viewer sees it at one seq."""

    id: str
    game: str
    seq: int
    viewer: str
    players: tuple[str, ...]
    to_act: tuple[int, ...]
    outcome: Outcome | None
    state: Any
    partial: str = ""
    """For a partial copy, that it is one, in plain words (nobody is to act in it)."""


class PossibleView(msgspec.Struct, frozen=True, kw_only=True):
    """What could be true of everything one viewer cannot see, at one seq: the game's own
    `possible` struct, and the same in the game's words (`text`)."""

    id: str
    game: str
    seq: int
    viewer: str
    possible: Any
    text: str


class TakeBack(msgspec.Struct, frozen=True, kw_only=True):
    """Whether a seat may undo (or redo) now, and if not, why: the refusal it would get."""

    allowed: bool
    reason: str | None = None


class LegalNow(msgspec.Struct, frozen=True, kw_only=True):
    """A seat's legal moves at the game's current seq, and whether it may undo or redo."""

    seq: int
    moves: list[str]
    undo: TakeBack
    redo: TakeBack
    head: str = ""
    """The chain hash at `seq`: what a seat that signs its decisions signs over."""
    keys: tuple[tuple[int, str], ...] = ()
    """Each seat's own public key (hex), for the seats that registered one."""


class Turn(msgspec.Struct, frozen=True, kw_only=True):
    """The public state of play: the seq, who may act, the outcome once over."""

    seq: int
    to_act: tuple[int, ...]
    outcome: Outcome | None
    head: str = ""
    """The chain hash at `seq`: what a seat that signs its decisions signs over."""
    keys: tuple[tuple[int, str], ...] = ()
    """Each seat's own public key (hex), for the seats that registered one."""


class GameSummary(msgspec.Struct, frozen=True, kw_only=True):
    """What anyone may know about a game: who plays, how far it is, whose turn, the end."""

    id: str
    game: str
    players: tuple[str, ...]
    seq: int
    created_at: datetime
    to_act: tuple[int, ...]
    outcome: Outcome | None
    partial: str = ""
    """For a partial copy, that it is one, in plain words (nobody is to act in it)."""


class Decision(msgspec.Struct, frozen=True, kw_only=True):
    """A decision's answer, all a seat needs next: the events it appended as the seat sees
    them, the new head, whose turn it is, the outcome, the seat's legal moves now and its
    new view (so a client needs one request per decision)."""

    seq: int
    events: list[Envelope[Any]]
    to_act: tuple[int, ...]
    outcome: Outcome | None
    legal: list[str]
    view: TableView
    head: str = ""
    """The chain hash at `seq`: what a seat that signs its decisions signs over."""
    keys: tuple[tuple[int, str], ...] = ()
    """Each seat's own public key (hex), for the seats that registered one."""


class Update(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag="update"):
    """What one viewer needs once a game moved on past the seq it had: the events since
    (redacted for it), the new head, whose turn it is, the outcome, its seat's legal moves
    (None for a viewer without a seat; empty when it is not to act), its view, and the
    service's receipt for the head (None should signing fail). Encoded, it is the live
    channel's update frame (`"type": "update"` first)."""

    seq: int
    events: list[Envelope[Any]]
    to_act: tuple[int, ...]
    outcome: Outcome | None
    legal: list[str] | None
    view: TableView
    receipt: Receipt | None
    head: str = ""
    """The chain hash at `seq`: what a seat that signs its decisions signs over."""
    keys: tuple[tuple[int, str], ...] = ()
    """Each seat's own public key (hex), for the seats that registered one."""


class NotHeld(LookupError):
    """An update that needs the store, asked for from what the process holds alone."""


class GameListing(msgspec.Struct, frozen=True, kw_only=True):
    """One game in a list (read from the store's header row, no replay)."""

    id: str
    game: str
    title: str
    seq: int
    created_at: datetime
