"""A tournament's state, folded from its stream: players, rounds, tables, results, rulings.

`evolve` is pure and total like a game's reducer. What counts for the standings is decided
here, once: a table counts its recorded outcome, unless that result is held (its game's
chain failed, or its audit found anomalies) and the referee has not ruled; a ruling
`stands` counts the recorded outcome, `adjusted` the referee's, and `replayed` links a new
game to the table, whose result is then awaited (in a duplicate round the replay plays a
fresh deal of its own, `TableState.deal`). An open dispute does not suspend a result: it
stands until the referee rules.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from skald.events.common import Outcome
from skald.events.tournament import (
    AuditAttached,
    DisputeOpened,
    DisputeSettled,
    PlayerRegistered,
    PlayerWithdrawn,
    ResultRecorded,
    RoundPaired,
    TournamentCreated,
    TournamentEvent,
)


def held_because(chain: str, verdict: str) -> str:
    """Why a result with this chain check and audit verdict is held ("" if it is not):
    the one rule for `TableState.held` and for what the CLI says of a result taken in."""
    reasons = []
    if chain != "ok":
        reasons.append(f"its game did not check out ({chain})")
    if verdict == "anomalies":
        reasons.append("its game's audit found anomalies")
    return "; ".join(reasons)


class TableState(msgspec.Struct, frozen=True, kw_only=True):
    """One table of a round and what became of its game."""

    table: int
    game: str
    seats: tuple[str, ...]
    result: ResultRecorded | None = None
    verdict: str = ""
    dispute: DisputeOpened | None = None
    ruling: DisputeSettled | None = None
    replaced: tuple[str, ...] = ()
    deal: str | None = None  # the deal of its game when not the round's (a replay's own)

    @property
    def held(self) -> bool:
        """True when a recorded result awaits the referee (broken chain or anomalies)."""
        if self.result is None or self.ruling is not None:
            return False
        return bool(held_because(self.result.chain, self.verdict))

    @property
    def outcome(self) -> Outcome | None:
        """The outcome that counts for the standings, or None (pending or held)."""
        if self.ruling is not None and self.ruling.ruling == "adjusted":
            return self.ruling.outcome
        if self.result is None or self.held:
            return None
        return self.result.outcome


class RoundState(msgspec.Struct, frozen=True, kw_only=True):
    """One paired round."""

    round: int
    tables: tuple[TableState, ...]
    byes: tuple[str, ...] = ()
    deal: str | None = None
    final: bool = False

    @property
    def complete(self) -> bool:
        """True when every table's result counts."""
        return all(table.outcome is not None for table in self.tables)

    def deal_of(self, table: TableState) -> str | None:
        """The deal `table`'s game plays: its own (a duplicate round's replay), else the
        round's (None: not a duplicate round)."""
        return table.deal or self.deal


class TournamentState(msgspec.Struct, frozen=True, kw_only=True):
    """Everything the stream says, folded."""

    id: str
    config: TournamentCreated
    players: tuple[str, ...]
    withdrawn: frozenset[str] = frozenset()
    rounds: tuple[RoundState, ...] = ()
    version: int = 1

    @property
    def active(self) -> tuple[str, ...]:
        """The players still paired, in registration order."""
        return tuple(p for p in self.players if p not in self.withdrawn)

    def table_of(self, game: str) -> tuple[RoundState, TableState] | None:
        """The round and table a game is linked to now, or None."""
        for paired in self.rounds:
            for table in paired.tables:
                if table.game == game:
                    return paired, table
        return None

    def through(self, last_round: int | None) -> tuple[RoundState, ...]:
        """The rounds up to and including `last_round` (None: all)."""
        return tuple(r for r in self.rounds if last_round is None or r.round <= last_round)


def initial(stream: str, created: TournamentCreated) -> TournamentState:
    """The state right after creation."""
    return TournamentState(id=stream, config=created, players=created.players)


def evolve(state: TournamentState, event: TournamentEvent) -> TournamentState:
    """Apply one event (pure, trusting its input)."""
    match event:
        case PlayerRegistered(player=player):
            return _replace(state, players=(*state.players, player))
        case PlayerWithdrawn(player=player):
            return _replace(state, withdrawn=state.withdrawn | {player})
        case RoundPaired():
            tables = tuple(
                TableState(table=t.table, game=t.game, seats=t.seats) for t in event.tables
            )
            paired = RoundState(
                round=event.round,
                tables=tables,
                byes=event.byes,
                deal=event.deal,
                final=event.final,
            )
            return _replace(state, rounds=(*state.rounds, paired))
        case ResultRecorded():
            return _table(state, event.round, event.table, result=event, verdict=event.verdict)
        case AuditAttached():
            return _table(state, event.round, event.table, verdict=event.verdict)
        case DisputeOpened():
            return _table(state, event.round, event.table, dispute=event)
        case DisputeSettled():
            return _settle(state, event)
        case _:
            return _replace(state)


def _settle(state: TournamentState, ruling: DisputeSettled) -> TournamentState:
    if ruling.ruling != "replayed" or ruling.replay is None:
        return _table(state, ruling.round, ruling.table, ruling=ruling, dispute=None)
    found = _find(state, ruling.round, ruling.table)
    return _table(
        state,
        ruling.round,
        ruling.table,
        game=ruling.replay,
        result=None,
        verdict="",
        dispute=None,
        ruling=None,
        replaced=(*found.replaced, found.game),
        deal=ruling.deal,
    )


def _find(state: TournamentState, round_number: int, table_number: int) -> TableState:
    paired = next(r for r in state.rounds if r.round == round_number)
    return next(t for t in paired.tables if t.table == table_number)


def _table(
    state: TournamentState, round_number: int, table_number: int, **changes: object
) -> TournamentState:
    rounds = tuple(
        paired
        if paired.round != round_number
        else msgspec.structs.replace(
            paired,
            tables=tuple(
                msgspec.structs.replace(t, **changes) if t.table == table_number else t
                for t in paired.tables
            ),
        )
        for paired in state.rounds
    )
    return _replace(state, rounds=rounds)


def _replace(state: TournamentState, **changes: object) -> TournamentState:
    return msgspec.structs.replace(state, version=state.version + 1, **changes)


def fold(stream: str, events: Iterable[TournamentEvent]) -> TournamentState:
    """The state after `events`, the first of which created the tournament."""
    iterator = iter(events)
    created = next(iterator)
    if not isinstance(created, TournamentCreated):
        raise ValueError(f"tournament {stream} does not start with its creation")
    state = initial(stream, created)
    for event in iterator:
        state = evolve(state, event)
    return state
