"""How a store is named: the URL a SQLite file's path or a URL stands for, and the URL as
it may be printed (its password hidden, also inside an error's text).

Which backend a URL opens is the package's choice (`EventStore`); what a SQLite URL says
about its file is the SQLite backend's (`sqlite_path`, `in_memory`).
"""

from __future__ import annotations

import sqlalchemy as sa

from skald.core.errors import StoreError

DEFAULT_URL = "sqlite:///skald.db"


def resolve_url(text: str) -> str:
    """The SQLAlchemy URL of a store named by a URL or by a SQLite file's path
    (`games.db`, `/srv/skald.db`); `postgres://` is taken as `postgresql://`. StoreError
    when nothing is named."""
    text = text.strip()
    if not text:
        raise StoreError("no event store named: give a SQLite file or a postgresql:// URL")
    if text.startswith("postgres://"):
        return "postgresql://" + text.removeprefix("postgres://")
    if "://" not in text and not text.startswith("sqlite:"):
        return f"sqlite:///{text}"
    return text


def shown_url(url: str) -> str:
    """A store URL fit to print: its password hidden (an unreadable URL: its scheme)."""
    try:
        return sa.engine.make_url(url).render_as_string(hide_password=True)
    except (sa.exc.ArgumentError, ValueError):
        return url.partition("://")[0] + "://..." if "://" in url else "(unreadable URL)"


def without_password(error: BaseException, url: str) -> str:
    """`error`'s text, with the URL's password (if any) masked should it appear there."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    try:
        password = sa.engine.make_url(url).password
    except (sa.exc.ArgumentError, ValueError):
        head = url.partition("://")[2].rpartition("@")[0]
        password = head.partition(":")[2] if ":" in head else None
    if password:
        text = text.replace(str(password), "***")
    return text
