"""Who is looking: a seat, a team of seats, a spectator or the referee.

A viewer is entitled to a hidden value when it is the referee or shares a seat with the
value's audience. Spectators see only public values.
"""

from __future__ import annotations

import msgspec


class Viewer(msgspec.Struct, frozen=True):
    """A viewer of a game: the seats it speaks for, or the referee."""

    name: str
    seats: frozenset[int] = frozenset()
    referee: bool = False

    def sees(self, audience: frozenset[int]) -> bool:
        """True when a value with this audience is visible to this viewer."""
        return self.referee or not self.seats.isdisjoint(audience)

    @property
    def seat(self) -> int | None:
        """The single seat of a seat viewer, else None."""
        return next(iter(self.seats)) if len(self.seats) == 1 and not self.referee else None


SPECTATOR = Viewer("spectator")
REFEREE = Viewer("referee", referee=True)


def seat_viewer(seat: int, name: str | None = None) -> Viewer:
    """The viewer for one seat."""
    return Viewer(name or f"seat {seat}", frozenset({seat}))
