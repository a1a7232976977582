"""The Table: the one facade through which games are played and read by the CLI, the API
and the bots (`facade.Table`), what it answers (`answers`), and what one viewer is answered
at one state (`projected`).
"""

from skald.projections.table.answers import (
    Decision,
    GameListing,
    GameSummary,
    LegalNow,
    NotHeld,
    PossibleView,
    TableView,
    TakeBack,
    Turn,
    Update,
)
from skald.projections.table.facade import Table
from skald.projections.table.projected import effective_viewer, legal_moves, update_for, view_of

__all__ = [
    "Decision",
    "GameListing",
    "GameSummary",
    "LegalNow",
    "NotHeld",
    "PossibleView",
    "Table",
    "TableView",
    "TakeBack",
    "Turn",
    "Update",
    "effective_viewer",
    "legal_moves",
    "update_for",
    "view_of",
]
