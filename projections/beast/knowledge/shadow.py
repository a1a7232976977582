"""A Beast viewer's replay of its own redacted log: the *shadow*, the rules state as that
viewer can rebuild it (for `possible`).

The log is replayed into a *shadow*: the rules state as the viewer can rebuild it. Every
card the viewer could not see is a token ("?1", "?2", ...) of a known kind, moved by the
same reducer as the real card, so the shadow knows how many unseen cards each hidden
place holds and which seen cards lie there (a first game's starting hands, a talent the
Beast took from the open row, the known cards of a reshuffled discard). A seen card
that may have left a hidden place unseen (a pick from a pack the viewer saw, a card of
the pool or of a hand given, looted or discarded face down, a card taken from a deck
holding known cards) becomes a token of a group, the place's cards, which keeps that
they are among its tokens (`groups`), so the model never claims more
than the viewer knows; a seen trap item of a hand that sets a trap face down is let go
(it becomes a token again, any unseen item).
The draft is remembered as on paper: when a pack comes back to the viewer (or the draft
ends with it empty), the cards gone from it since it last held it are the picks it did
not see: when those all went to one hand, that hand holds them (two players: the hunters
know every Beast pick but its first), and when they went to several, those hands hold
exactly those cards, in an order the viewer cannot tell (the hunter player's pool, given
out unseen, likewise). The groups are kept through the day (a group's card seen leaving
a hand was one of its tokens there). A trap's habitat excludes every habitat of a
location where the Beast was revealed in its zone without setting it off. The Beast's
hidden path is deduced by `paths` from the timeline this replay keeps.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from skald.core.beast.data import (
    HABITATS,
    kind_of,
    pieces,
)
from skald.core.beast.evolve import evolve
from skald.core.beast.state import BEAST, BeastState
from skald.events.beast import (
    BeastRestored,
    Damaged,
    EffectProgressed,
    HunterMoved,
    HunterPlaced,
    Killed,
    TrailsPlaced,
    TrapTriggered,
    WatchtowerPlaced,
)
from skald.events.common import DecisionRedone, DecisionUndone, GameCreated, MoveMade
from skald.events.secret import Secret
from skald.events.viewer import Viewer
from skald.projections.beast.knowledge.clues import CLUES
from skald.projections.beast.knowledge.folds import FOLDS, Draft
from skald.projections.beast.knowledge.groups import Group, is_token, settled
from skald.projections.beast.knowledge.paths import PathFilter
from skald.projections.beast.knowledge.timeline import Entry

replace = msgspec.structs.replace
TRAP_CHAIN = (TrapTriggered, Damaged, Killed, BeastRestored)


def _event_of(item: Any) -> Any:
    return getattr(item, "event", item)


class _Snapshot(msgspec.Struct, frozen=True):
    shadow: BeastState
    previous: Any
    kinds: dict[str, str]
    excluded: dict[str, frozenset[str]]
    draft: Draft
    groups: tuple[Group, ...] = ()


class Reader:
    """The viewer's replay of its redacted log: the shadow, its tokens and, for a viewer
    who does not see the Beast, the timeline its path filter reads."""

    def __init__(self, viewer: Viewer) -> None:
        self.viewer = viewer
        self.shadow = BeastState(players=0)
        self.timeline: list[Entry] = []
        self.kinds: dict[str, str] = {}
        self.excluded: dict[str, frozenset[str]] = {}
        self.draft = Draft()
        self.groups: tuple[Group, ...] = ()  # `groups`
        self.issued = 0
        self.previous: Any = None
        self.revealed = ""  # a reveal whose traps are still being set off
        self.undo: list[_Snapshot] = []
        self.redo: list[tuple[_Snapshot, _Snapshot]] = []
        self.paths: PathFilter | None = None  # the last path filter run on the timeline

    def copy(self) -> Reader:
        """An independent replay at the same point (to read on from, leaving this one)."""
        twin = copy.copy(self)
        twin.timeline = list(self.timeline)
        twin.kinds, twin.excluded = dict(self.kinds), dict(self.excluded)
        twin.undo, twin.redo = list(self.undo), list(self.redo)
        return twin

    def path_filter(self) -> PathFilter:
        """The hidden paths for the timeline so far, resumed from the last filter run (that
        run itself when nothing was added to the timeline since)."""
        paths = self.paths
        if paths is None or not paths.timeline or paths.timeline[-1] is not self.timeline[-1]:
            paths = self.paths = PathFilter(self.timeline, paths).run()
        return paths

    # -- who sees what -----------------------------------------------------------------

    def sees(self, secret: Secret[Any] | None) -> bool:
        """The viewer may read this hidden value."""
        return secret is None or self.viewer.sees(secret.audience)

    @property
    def beast_eyes(self) -> bool:
        """The viewer sees the Beast's side."""
        state = self.shadow
        return bool(state.hands) and self.viewer.sees(frozenset({state.beast.seat}))

    @property
    def hunter_eyes(self) -> bool:
        """The viewer sees the hunters' side."""
        return bool(self.shadow.hands) and self.viewer.sees(self.shadow.hunter_seats)

    def token(self, kind: str) -> str:
        """A fresh unseen card of `kind`."""
        self.issued += 1
        name = f"?{self.issued}"
        self.kinds[name] = kind
        return name

    def named_token(self, name: str) -> str:
        """A fresh unseen card of the kind of card `name`."""
        return self.token(kind_of(name))

    def let_go(
        self, held: tuple[str, ...], keep: Callable[[str], bool] = lambda _: False
    ) -> tuple[str, ...]:
        """`held` with its seen cards turned back into tokens (except those `keep` keeps)."""
        return tuple(c if is_token(c) or keep(c) else self.token(kind_of(c)) for c in held)

    # -- reading -----------------------------------------------------------------------

    def read(self, log: Iterable[Any]) -> Reader:
        """Replay every envelope (or bare event) of the log."""
        for item in log:
            self.apply(_event_of(item))
        return self

    def apply(self, event: Any) -> None:
        """One event of the viewer's log."""
        match event:
            case GameCreated():
                self.shadow = BeastState(players=len(event.players), options=event.options)
            case MoveMade():
                self.undo.append(self.snapshot())
                self.redo.clear()
                self.previous = None  # the decision's first event comes next
                self.timeline.append(Entry("mark"))
            case DecisionUndone() if self.undo:
                before = self.undo.pop()
                self.redo.append((before, self.snapshot()))
                self.restore(before)
                self.timeline.append(Entry("undo"))
            case DecisionRedone() if self.redo:
                before, after = self.redo.pop()
                self.restore(after)
                self.undo.append(before)
                self.timeline.append(Entry("redo"))
            case _ if type(event).__module__.endswith("events.beast"):
                self.rules_event(event)

    def snapshot(self) -> _Snapshot:
        """Everything the replay holds, for undo."""
        return _Snapshot(
            self.shadow,
            self.previous,
            dict(self.kinds),
            dict(self.excluded),
            self.draft,
            self.groups,
        )

    def restore(self, snap: _Snapshot) -> None:
        """Back to a snapshot."""
        self.shadow, self.previous = snap.shadow, snap.previous
        self.kinds, self.excluded = dict(snap.kinds), dict(snap.excluded)
        self.draft, self.groups = snap.draft, snap.groups

    def rules_event(self, event: Any) -> None:
        """A Beast event: observe the path, fill the unseen values, fold it."""
        if self.revealed and not isinstance(event, TRAP_CHAIN):
            self.settle_traps()
        before = self.shadow
        self.shadow = self.fold(before, event)
        if self.groups:
            self.shadow, self.groups = settled(self.shadow, self.groups)
        if not self.beast_eyes:
            self.record(before, event)
        self.previous = event

    def settle_traps(self) -> None:
        """After a reveal and the traps it set off, no trap left in the Beast's zones
        matches its location: their habitats are none of its habitats."""
        state, where = self.shadow, self.revealed
        self.revealed = ""
        if state.winner:  # the chain stopped at a death: untouched traps tell nothing
            return
        here = frozenset(h for h in HABITATS if state.is_habitat(where, h))
        for zone, trap in state.traps:
            if where in state.board.zones[zone] and is_token(trap.habitat):
                self.excluded[trap.habitat] = self.excluded.get(trap.habitat, frozenset()) | here

    # -- the timeline the path filter reads (viewers who do not see the Beast) ---------

    def record(self, before: BeastState, event: Any) -> None:
        """A rules event the path filter reads (a clue, or one that changes the Beast's
        cards in play) on the timeline, with the rule behind a trail check."""
        after = self.shadow
        if not (
            type(event) in CLUES
            or (after.hands and not before.hands)
            or _beast_frames(before) != _beast_frames(after)
            or (isinstance(event, EffectProgressed) and _beast_frames(before))
        ):
            return
        rule, where, reach = "", "", None
        if isinstance(event, TrailsPlaced):
            rule, where, reach = self.check_rule(before)
        elif isinstance(event, EffectProgressed) and self.previous is None:
            rule = "bare"  # the decision is this alone: a skip, or an effect doing nothing
        self.timeline.append(Entry("event", before, event, self.shadow, rule, where, reach))

    def check_rule(self, before: BeastState) -> tuple[str, str, frozenset[str] | None]:
        """Which rule placed the trails now (from the event before them) and every
        location it could have looked at (None: not known, anywhere)."""
        previous = self.previous
        towers = _towers_near(before)
        if isinstance(previous, HunterMoved):
            return "hunter", previous.location, towers | {previous.location}
        if isinstance(previous, WatchtowerPlaced | HunterPlaced):
            return "tower", "", towers
        if (
            isinstance(previous, EffectProgressed)
            and before.frames
            and before.frames[-1].hand == BEAST
        ):
            return "beast", "", towers | _occupied(before)
        return "", "", None

    # -- folding with the unseen values filled in --------------------------------------

    def fold(self, state: BeastState, event: Any) -> BeastState:
        """The shadow after one event."""
        handler = FOLDS.get(type(event))
        if handler is not None:
            folded = handler(self, state, event)
            if folded is not None:
                return folded
        return evolve(state, event)

    def known(self, value: Any) -> Secret[Any]:
        """A Secret carrying a filled-in value (the reducer reads it)."""
        return Secret(audience=frozenset(), commitment="", value=value, salt="")

    def filled(self, event: Any, **values: Any) -> Any:
        """`event` with its unseen Secrets carrying `values`."""
        return replace(event, **{k: self.known(v) for k, v in values.items()})


def _beast_frames(state: BeastState) -> int:
    return sum(1 for f in state.frames if f.hand == BEAST)


def _towers_near(state: BeastState) -> frozenset[str]:
    """The locations near a manned watchtower (their trails show)."""
    board = state.board
    return frozenset(loc for t in state.towers if state.hunters_at(t) for loc in board.nearby(t))


def _occupied(state: BeastState) -> frozenset[str]:
    """The locations with a hunter or a living settler on them."""
    hunters = {state.hands[h].location for h in state.hunters if not state.hands[h].dead}
    settlers = {p.location for p in state.pieces if p.alive and pieces()[p.kind].settler}
    return frozenset(hunters | settlers)
