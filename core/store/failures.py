"""What a database error says, for the edges that report it: one line of the driver's
message, and whether the store cannot take writes at all (read-only, full).

Errors from either backend come here as they are (SQLAlchemy's `DBAPIError` family or the
driver's own), so the refusals are read from each driver's codes.
"""

from __future__ import annotations


def describe_db_error(error: BaseException) -> str:
    """One line for a database error (the driver's message, without SQL or traceback)."""
    original = getattr(error, "orig", None) or error
    text = str(original).strip().splitlines()
    return text[0] if text else type(original).__name__


# What a failed write says about the store, by the drivers' own codes: SQLite's result
# codes (SQLITE_READONLY 8, SQLITE_FULL 13, low byte of the extended code) and PostgreSQL's
# SQLSTATEs (25006 read_only_sql_transaction, 53100 disk_full), or an errno in the text.
_SQLITE_REFUSALS = {8: "read_only", 13: "full"}
_PG_REFUSALS = {"25006": "read_only", "53100": "full"}


def store_refusal(error: BaseException) -> str | None:
    """`read_only` or `full` when a database error says the store cannot take writes at
    all (a retry cannot help until someone changes that), else None (it may be passing)."""
    original = getattr(error, "orig", None) or error
    code = getattr(original, "sqlite_errorcode", None)
    if isinstance(code, int) and (code & 0xFF) in _SQLITE_REFUSALS:
        return _SQLITE_REFUSALS[code & 0xFF]
    state = getattr(original, "sqlstate", None)
    if state in _PG_REFUSALS:
        return _PG_REFUSALS[state]
    text = str(original)
    if "No space left on device" in text:
        return "full"
    if "Read-only file system" in text:
        return "read_only"
    return None
