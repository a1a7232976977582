"""Fault suite (issue 11) on PostgreSQL: a read-only store and a full disk.

Read-only: a database of this test's own in the test server is switched to
`default_transaction_read_only = on` (its sessions are ended so the setting reaches the
server's pool). Full disk: a throwaway cluster of our own (initdb, a free loopback port)
whose Skald database lives in a tablespace on a small tmpfs (the WAL stays on the roomy
disk, so PostgreSQL answers ENOSPC with an error, not a PANIC), filled up to the last
few pages by a filler file. In both cases a move or a new game through the API answers a
JSON error that names the cause and says a retry cannot help (`store_read_only`, 503;
`store_full`, 507; both `retry: false`), the CLI exits 8 with
one line, reads still work, nothing is half-written (every game verifies and re-derives
to a whole decision, its header version is its last seq), and play resumes once the
store is writable again. Bounded throughout; everything started is stopped, everything
created dropped or unmounted.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa

import skald.core.access
from skald.core.engine import Engine
from skald.core.rederive import rederive
from skald.core.store import EventStore
from skald.projections.table import Table
from tests.cli_support import one_line, skald
from tests.conftest import _pg_or_skip
from tests.patience import HUNG
from tests.servers import Server, own_cluster, pg_database, postgres_folder, tmpfs


def try_move(base: str, game: dict[str, Any]) -> httpx.Response:
    """One legal move for whoever is to act (reads first: they work on a failing store
    too); the answer to the POST."""
    summary = httpx.get(f"{base}/games/{game['id']}", timeout=HUNG)
    assert summary.status_code == 200, summary.text
    token = game["seats"][summary.json()["to_act"][0]]["token"]
    headers = {"Authorization": f"Bearer {token}"}
    legal = httpx.get(f"{base}/games/{game['id']}/legal", headers=headers, timeout=HUNG)
    assert legal.status_code == 200, legal.text
    return httpx.post(
        f"{base}/games/{game['id']}/moves",
        headers=headers,
        timeout=HUNG,
        json={"move": legal.json()["moves"][0], "expected_seq": legal.json()["seq"]},
    )


def new_game(base: str) -> httpx.Response:
    return httpx.post(
        f"{base}/games", json={"game": "beowulf", "players": ["Ann", "Bob"]}, timeout=HUNG
    )


def cli_move(url: str, game_id: str) -> tuple[int, str, str]:
    """One legal move for whoever is to act, through the CLI."""
    code, out, err = skald("show", game_id, "--json", "--db", url)
    assert code == 0, err
    seat = str(json.loads(out)["to_act"][0])
    code, out, err = skald("legal", game_id, "--as", seat, "--json", "--db", url)
    assert code == 0, err
    return skald("move", game_id, json.loads(out)[0], "--as", seat, "--db", url)


# The answers of a store that cannot write: (status, whether a retry can help).
STORE_FAILURES = {
    "store_unavailable": (503, True),
    "store_read_only": (503, False),
    "store_full": (507, False),
}


def refused(answer: httpx.Response, code: str) -> str:
    """The message of the JSON store failure `code` (fails on any other answer)."""
    status, retry = STORE_FAILURES[code]
    assert answer.status_code == status, (answer.status_code, answer.text)
    body = answer.json()
    assert body["error"] == code, body
    assert body["retry"] is retry, body
    assert ("try again" in body["message"]) is retry, body
    return str(body["message"])


def versions(url: str) -> dict[str, int]:
    store = EventStore(url)
    try:
        return {info.id: info.version for info in store.list_streams(limit=10_000)}
    finally:
        store.dispose()


def check_whole(url: str) -> int:
    """Every game verifies, its header is its last seq, and it re-derives to a whole
    decision; the number of events checked."""
    store = EventStore(url)
    try:
        table = Table(Engine(store))
        checked = 0
        for info in store.list_streams(limit=10_000):
            log = store.read(info.id)
            assert info.version == len(log) == log[-1].seq, info
            assert table.verify(info.id).ok, info.id
            referee = table.log(info.id, table.viewer(info.id, "referee"))
            derived = rederive(info.kind, referee)
            assert derived.clean, (info.id, derived)
            assert derived.complete_through == len(log), (info.id, derived)
            checked += len(log)
        return checked
    finally:
        store.dispose()


def moves_again(base: str, game: dict[str, Any], seconds: float = HUNG) -> httpx.Response:
    """Retry a move until the store takes it (bounded only as hung); the last answer."""
    deadline = time.monotonic() + seconds
    while True:
        answer = try_move(base, game)
        if answer.status_code == 201 or time.monotonic() > deadline:
            return answer
        assert answer.json()["error"] in STORE_FAILURES, answer.text
        time.sleep(0.2)


# -- read-only ---------------------------------------------------------------------------


def set_read_only(server_url: str, database: str, on: bool) -> None:
    """Switch a database's default to read-only (or back) and end its sessions, so every
    new connection (the server's pool reconnects) gets the new default."""
    admin = sa.create_engine(server_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(
                sa.text(
                    f'ALTER DATABASE "{database}" SET '
                    f"default_transaction_read_only = {'on' if on else 'off'}"
                )
            )
            altered = conn.execute(sa.text("SELECT clock_timestamp()")).scalar_one()
    finally:
        admin.dispose()
    end_sessions(server_url, database, altered)


def end_sessions(server_url: str, database: str, started_before: Any = None) -> None:
    """End every session of `database` (the server's pooled connections among them), and
    wait until each is gone: `pg_terminate_backend` only signals, and on a loaded machine
    an ended session's process may still be there when the server's next statement comes.
    `started_before`: end the sessions started before then, until none is left (one that
    was starting then shows in `pg_stat_activity` only once it has started)."""
    admin = sa.create_engine(server_url, isolation_level="AUTOCOMMIT")
    older = " AND backend_start < :before" if started_before is not None else ""
    sessions = "FROM pg_stat_activity WHERE datname = :name AND pid <> pg_backend_pid()" + older
    names = {"name": database, "before": started_before}
    end = sa.text(f"SELECT pg_terminate_backend(pid, {int(HUNG * 1000)}) {sessions}")
    left = sa.text(f"SELECT count(*) {sessions}")
    try:
        with admin.connect() as conn:
            conn.execute(end, names)  # each waited for until it is gone (or hung)
            for _ in range(100):
                if started_before is None or not conn.execute(left, names).scalar_one():
                    break
                conn.execute(end, names)
            else:
                raise AssertionError(f"sessions of {database} from before the change stay")
    finally:
        admin.dispose()


def test_a_read_only_postgresql_store_gives_clean_errors_and_recovers(tmp_path: Path) -> None:
    server_url = _pg_or_skip()
    with pg_database("skald_ro", server_url) as url, Server(url, tmp_path / "server.log") as server:
        name = sa.engine.make_url(url).database
        assert name
        EventStore(url).dispose()
        base = server.start()
        game = new_game(base).json()
        assert try_move(base, game).status_code == 201
        code, out, err = skald("new", "beowulf", "--players", "Ann,Bob", "--db", url)
        assert code == 0, err
        cli_game = out.strip()
        before = versions(url)

        set_read_only(server_url, name, True)
        for _ in range(3):  # each answered alike, none written
            refused(try_move(base, game), "store_read_only")
        refused(new_game(base), "store_read_only")
        code, _, err = cli_move(url, cli_game)
        assert code == 8, err
        assert "read-only" in one_line(err), err
        code, _, err = skald("new", "beowulf", "--players", "Ann,Bob", "--db", url)
        assert code == 8, err
        assert "read-only" in one_line(err), err
        code, out, err = skald("verify", cli_game, "--db", url)  # reads work
        assert code == 0, err
        assert out.startswith("ok: "), err
        assert versions(url) == before, "something was written to a read-only store"

        set_read_only(server_url, name, False)
        assert moves_again(base, game).status_code == 201
        code, _, err = cli_move(url, cli_game)
        assert code == 0, err
        assert new_game(base).status_code == 201
        check_whole(url)
    log = (tmp_path / "server.log").read_text()
    assert "read-only transaction" in log, log[-3000:]
    assert "Traceback" not in log, log[-3000:]


# -- full disk ---------------------------------------------------------------------------


def fill(disk: Path, leave: int) -> Path:
    """A filler file that leaves `leave` bytes free on `disk`."""
    filler = disk / "filler"
    stats = os.statvfs(disk)
    size = stats.f_bavail * stats.f_frsize - leave
    assert size > 0, "the tmpfs is already full"
    with filler.open("wb") as sink:
        block = b"\0" * (1 << 20)
        while size > 0:
            size -= sink.write(block[:size])
    return filler


def test_a_full_postgresql_disk_gives_clean_errors_and_recovers(tmp_path: Path) -> None:
    with (
        postgres_folder() as reachable,
        tmpfs(reachable / "small", "32m") as disk,
        own_cluster() as cluster,
    ):
        subprocess.run(["chown", "postgres:postgres", str(disk)], check=True, timeout=HUNG)
        os.chmod(disk, 0o700)
        admin = sa.create_engine(cluster.url, isolation_level="AUTOCOMMIT")
        try:
            with admin.connect() as conn:
                conn.execute(sa.text(f"CREATE TABLESPACE small LOCATION '{disk}'"))
                conn.execute(sa.text("CREATE DATABASE full_disk TABLESPACE small"))
        finally:
            admin.dispose()
        url = (
            sa.engine.make_url(cluster.url)
            .set(database="full_disk")
            .render_as_string(hide_password=False)
        )
        EventStore(url).dispose()
        with Server(url, tmp_path / "server.log") as server:
            base = server.start()
            games = [new_game(base).json()]
            assert try_move(base, games[0]).status_code == 201
            code, out, err = skald("new", "beowulf", "--players", "Ann,Bob", "--db", url)
            assert code == 0, err
            cli_game = out.strip()

            filler = fill(disk, 64 * 1024)
            refused_with: list[str] = []
            for number in range(300):  # new games and moves until the disk refuses
                answer = new_game(base) if number % 2 else try_move(base, games[-1])
                if answer.status_code == 201:
                    if number % 2:
                        games.append(answer.json())
                    continue
                refused_with.append(refused(answer, "store_full"))
                if len(refused_with) == 3:
                    break
            assert refused_with, f"the disk never filled ({len(games)} games)"
            code, _, err = skald("new", "beowulf", "--players", "Ann,Bob", "--db", url)
            assert code == 8, err
            assert "No space left" in one_line(err), err
            before = versions(url)
            code, _, err = cli_move(url, cli_game)
            assert code in (0, 8), err  # a page may still have room for one move
            if code:
                one_line(err)
                assert versions(url) == before
            checked = check_whole(url)  # nothing half-written while full

            filler.unlink()  # space returns: play goes on
            assert moves_again(base, games[-1]).status_code == 201
            assert new_game(base).status_code == 201
            code, _, err = cli_move(url, cli_game)
            assert code == 0, err
            check_whole(url)
        log = (tmp_path / "server.log").read_text()
        assert "No space left" in log, log[-3000:]
        assert "Traceback" not in log, log[-3000:]
        print(
            f"\nfull disk: {len(games)} games, {len(refused_with)} refusals, {checked} "
            f"events checked while full"
        )
