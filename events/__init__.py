"""Immutable msgspec events: the envelope, hidden values, meta-events and one module per game.

Nothing here does I/O; events are frozen, tagged Structs with tuple/frozenset fields only.
"""
