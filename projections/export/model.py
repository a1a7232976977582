"""What one viewer may see of an annotated history, gathered once for every writer.

Everything here is already redacted for the effective viewer (the reveal policy applied):
the game's envelopes, the viewer's copy of the notes stream (the notes it may read, chained
anew: a private note it may not read is not in it) and the variations the viewer may see
(their author's team, the referee; after the game, per the reveal policy). Writers only
format.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import msgspec

from skald.core.kernel import request_of
from skald.core.provenance import PartialCopy
from skald.core.signing import Receipt
from skald.events.common import DecisionRedone, DecisionUndone, GameCreated, MoveMade, Outcome
from skald.events.envelope import Envelope
from skald.events.history import Annotated, VariationStarted
from skald.projections.export.occasion import Occasion

SECTION_ENDS = ("beowulf.act_ended", "beast.night_fell", "hagar.feast_scored")
"""Event tags that close an act (Beowulf), a day (Beast) or a feast round (Hägar): the
readable exports draw the board after each."""


class Bundle(msgspec.Struct, frozen=True, kw_only=True):
    """An annotated history as one viewer may see it."""

    id: str
    game: str
    title: str
    viewer: str
    full: bool
    players: tuple[str, ...]
    created_at: datetime
    outcome: Outcome | None
    game_events: tuple[Envelope[Any], ...]
    notes: tuple[Envelope[Any], ...] = ()
    """The viewer's copy of the notes stream (`HistoryStore.notes_for`)."""
    variations: tuple[tuple[Envelope[Any], ...], ...] = ()
    receipt: Receipt | None = None
    kept_receipts: tuple[Receipt, ...] = ()
    """Receipts players kept (`skald export --receipt`): embedded so every verifier can
    check the record extends each one."""
    occasion: Occasion | None = None
    """The tournament, round and table the game was played at (None: none)."""
    partial: PartialCopy | None = None
    """The game's partial-copy mark (None: a whole game): every export carries it."""

    @property
    def created(self) -> GameCreated:
        """The game's creation event."""
        event = self.game_events[0].event
        assert isinstance(event, GameCreated)
        return event

    def annotations(self) -> list[Envelope[Any]]:
        """The notes stream's annotations."""
        return [env for env in self.notes if isinstance(env.event, Annotated)]


class Decision(msgspec.Struct, frozen=True, kw_only=True):
    """One numbered decision of a stream: its first seq, seat and how it is written."""

    seq: int
    seat: int
    words: str
    hidden: str | None = None
    """The commitment of a hidden move the reader may not see (then `words` is empty)."""


def decisions(envelopes: Sequence[Envelope[Any]], scheme: int) -> list[Decision]:
    """The decisions of a (redacted) stream in order."""
    found = []
    for envelope in envelopes:
        event = envelope.event
        hidden = event.hidden_move if isinstance(event, MoveMade) else None
        if hidden is not None and event.move is None and not hidden.known:
            found.append(
                Decision(seq=envelope.seq, seat=event.seat, words="", hidden=hidden.commitment)
            )
            continue
        decision = request_of(event, scheme)
        if decision is None:
            continue
        seat, request = decision
        if isinstance(event, DecisionUndone):
            words = "<undo>"
        elif isinstance(event, DecisionRedone):
            words = "<redo>"
        else:
            words = str(getattr(request, "command", ""))
        found.append(Decision(seq=envelope.seq, seat=seat, words=words))
    return found


def anchor_owner(seqs: Sequence[int], anchor: int) -> int:
    """The decision seq an anchor belongs to: the last decision at or before it (0: none)."""
    owner = 0
    for seq in seqs:
        if seq <= anchor:
            owner = seq
    return owner


def short_id(stream: str, game_id: str) -> str:
    """`v3` for `GAME~v3`, the game itself as ``."""
    return "" if stream == game_id else stream.removeprefix(f"{game_id}~")


def started(variation: Sequence[Envelope[Any]]) -> VariationStarted:
    """The start event of a variation."""
    event = variation[0].event
    assert isinstance(event, VariationStarted)
    return event


def seat_name(players: Sequence[str], author: int) -> str:
    """A seat's name, or `referee`."""
    return "referee" if author < 0 else players[author]


Renderer = Callable[[str, int], str]
"""`board(stream, seq) -> svg`: the viewer's board after a seq of a stream."""
