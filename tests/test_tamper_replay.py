"""A stored event its game cannot take (a tile not in the hand, an unknown loot city, ship
or card) is a corrupt record naming its seq, never a reducer's traceback: `show`, `log`,
`replay`, `export`, `legal` and `receipt` exit 9 with one line, and the audit reports the
anomaly at that seq (`core.state.fold_event` turns the reducer's error into CorruptRecord).

Two forgers, over all three games: one edits a row with sqlite3 (the chain breaks there),
one swaps a hidden value for another under a fresh commitment and re-hashes the chain from
there (the chain holds; an earlier receipt says the history was rewritten and points to
the audit, which names the forged seq, while the replay stops where the game can no longer
take the log).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest

from skald.core.chain import verify_stream
from skald.core.codec import event_tag
from skald.core.engine import Engine
from skald.core.store import EventStore
from skald.events.envelope import Envelope
from skald.events.secret import Secret, seal
from skald.projections.audit.report import build_audit
from skald.projections.bots.autoplay import autoplay
from skald.projections.table import Table
from tests.cli_support import one_line, skald
from tests.forgery import forge, write_back
from tests.servers import free_port, running, skald_command

PLAYERS = {"beowulf": 2, "beast": 2, "hagar": 2}
# Every command that replays the game before answering.
READERS = (
    ("show",),
    ("log",),
    ("replay",),
    ("export",),
    ("legal", "--as", "0"),
    ("receipt",),
)
REPLAY_REFUSED = "does not fit the game the events before it make"


def game_id(game: str) -> str:
    """The seeded game's id (its draws come from the seed and the id): each game picked has
    every event these tests forge (a Beast card discarded face down, a Hägar jettison and a
    dragon's flight)."""
    return f"tamper-{game}-2"


class Played:
    """A finished game in a SQLite file, and a receipt of its head taken before any forger."""

    def __init__(self, folder: Path, game: str) -> None:
        self.path = folder / f"{game}.db"
        self.db = f"sqlite:///{self.path}"
        self.game = game
        store = EventStore(self.db)
        result = autoplay(
            Table(Engine(store)), game, PLAYERS[game], seed="tamper", game_id=game_id(game)
        )
        self.id = result.id
        self.envelopes = Engine(store).envelopes(self.id)
        store.dispose()
        code, out, err = skald("receipt", self.id, "--db", self.db)
        assert code == 0, err
        self.receipt = folder / "receipt.json"
        self.receipt.write_text(out)

    def first(self, kind: str, where: Callable[[Any], bool] = lambda _: True) -> Envelope[Any]:
        """The first event of `kind` (that `where` accepts)."""
        found = [env for env in self.envelopes if event_tag(env.event) == kind and where(env)]
        assert found, f"the seeded {self.game} game has no {kind}: pick another seed"
        return found[0]

    def edit_row(self, seq: int, field: str, value: Any) -> None:
        """Change one field of the stored payload at `seq`, as sqlite3 would (the hash is
        left as it was), and drop the snapshots so every replay meets the edited row."""
        with sqlite3.connect(self.path) as conn:
            (payload,) = conn.execute(
                "SELECT payload FROM events WHERE stream_id = ? AND seq = ?", (self.id, seq)
            ).fetchone()
            event = json.loads(payload)
            event[field] = value
            conn.execute(
                "UPDATE events SET payload = ? WHERE stream_id = ? AND seq = ?",
                (msgspec.json.encode(event).decode(), self.id, seq),
            )
            conn.execute("DELETE FROM snapshots")
        conn.close()

    def forge_secret(self, seq: int, field: str, value: Any) -> None:
        """Swap the hidden value of `field` at `seq` for `value` under a fresh commitment
        and re-hash the chain from there (snapshots left as the forger found them)."""

        def swap(event: Any) -> Any:
            old: Secret[Any] = getattr(event, field)
            return msgspec.structs.replace(event, **{field: seal(value, old.audience, "5a" * 16)})

        store = EventStore(self.db)
        write_back(store, forge(self.envelopes, seq, swap))
        store.dispose()

    def audit_of_the_store(self) -> Any:
        """The audit report built from the stored rows (`projections.audit.report.build_audit`)."""
        store = EventStore(self.db)
        try:
            envelopes = Engine(store).envelopes(self.id)
            chain = verify_stream(store.info(self.id), store.read(self.id))
        finally:
            store.dispose()
        return build_audit(self.id, self.game, envelopes, chain, None)


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One finished game of each kind, played once; each test works on a copy."""
    made = {}
    for game in PLAYERS:
        folder = tmp_path_factory.mktemp(f"template-{game}")
        Played(folder, game)
        made[game] = folder
    return made


def copy_of(games: dict[str, Path], game: str, tmp_path: Path) -> Played:
    """A private copy of the played game (its store, the store's key record, the receipt)."""
    source = games[game]
    with (
        sqlite3.connect(source / f"{game}.db") as original,
        sqlite3.connect(tmp_path / f"{game}.db") as copy,
    ):
        original.backup(copy)
    original.close()
    copy.close()
    (tmp_path / "receipt.json").write_text((source / "receipt.json").read_text())
    played = Played.__new__(Played)
    played.path, played.db, played.game = tmp_path / f"{game}.db", "", game
    played.db = f"sqlite:///{played.path}"
    played.id = game_id(game)
    store = EventStore(played.db)
    played.envelopes = Engine(store).envelopes(played.id)
    store.dispose()
    played.receipt = tmp_path / "receipt.json"
    return played


def assert_refused_at(played: Played, seq: int, *, saying: str = "") -> None:
    """Every reading command: exit 9, nothing on stdout, one line naming `seq`."""
    for command in READERS:
        code, out, err = skald(command[0], played.id, *command[1:], "--db", played.db)
        line = one_line(err)
        assert (code, out) == (9, ""), (command, code, out, err)
        assert line.startswith(f"error: seq {seq}: "), (command, line)
        assert saying in line, (command, line)


# -- the row edited with sqlite3 (the chain breaks at the edited seq) ----------------------

EDITS = {
    # game: (kind, field): the edited field names something the state does not hold
    "beowulf-tile-not-in-hand": ("beowulf", "beowulf.tile_placed", "tile"),
    "hagar-unknown-loot-city": ("hagar", "hagar.city_plundered", "city"),
    "hagar-unknown-ship": ("hagar", "hagar.dragon_fled", "ship"),
    "beast-unknown-card": ("beast", "beast.card_played", "card"),
}


def edited(played: Played, kind: str, field: str) -> Envelope[Any]:
    """The first event of `kind` with something in `field` (a Beast flight plays no card)."""
    return played.first(kind, lambda env: bool(getattr(env.event, field)))


def edited_copy(case: str, games: dict[str, Path], tmp_path: Path) -> tuple[Played, Envelope[Any]]:
    """A copy of the case's game with the case's field of its event edited with sqlite3
    (an X put before the value: something the state does not hold); that event."""
    game, kind, field = EDITS[case]
    played = copy_of(games, game, tmp_path)
    target = edited(played, kind, field)
    played.edit_row(target.seq, field, "X" + getattr(target.event, field))
    return played, target


@pytest.mark.parametrize("case", EDITS)
def test_an_edited_row_is_a_corrupt_record_naming_its_seq(
    case: str, games: dict[str, Path], tmp_path: Path
) -> None:
    played, target = edited_copy(case, games, tmp_path)
    code, out, err = skald("verify", played.id, "--db", played.db)
    assert (code, out) == (1, "")
    assert one_line(err).startswith(f"TAMPERED at seq {target.seq}: hash mismatch"), err
    # The receipt is refused by the chain check, the rest by the replay.
    assert_refused_at(played, target.seq)
    for command in READERS[:-1]:
        _, _, err = skald(command[0], played.id, *command[1:], "--db", played.db)
        assert f"the stored {EDITS[case][1]} {REPLAY_REFUSED}" in err, (command, err)
        assert "Error:" not in err  # the reducer's exception text is not shown


@pytest.mark.parametrize("case", EDITS)
def test_the_audit_of_an_edited_row_names_its_seq(
    case: str, games: dict[str, Path], tmp_path: Path
) -> None:
    played, target = edited_copy(case, games, tmp_path)
    report = played.audit_of_the_store()
    assert report.verdict == "anomalies"
    assert report.anomalies[0].seq == target.seq
    rules = {finding.rule for finding in report.anomalies if finding.seq == target.seq}
    assert "hash chain" in rules
    assert any(rule.startswith("the log does not replay") for rule in rules), rules


@pytest.mark.parametrize("case", ["beowulf-tile-not-in-hand", "hagar-unknown-ship"])
def test_skald_audit_reports_an_edited_row(
    case: str, games: dict[str, Path], tmp_path: Path
) -> None:
    played, target = edited_copy(case, games, tmp_path)
    code, out, err = skald("audit", played.id, "--format", "json", "--db", played.db)
    assert code == 1, err
    report = json.loads(out)
    assert report["verdict"] == "anomalies"
    assert report["anomalies"][0]["seq"] == target.seq
    code, out, _ = skald("audit", played.id, "--db", played.db)
    assert code == 1
    assert f"seq {target.seq}: hash chain" in out


# -- a hidden value swapped and the chain re-hashed from there -----------------------------


def beowulf_draw(played: Played) -> tuple[int, str, Any, int]:
    """A drawn tile later placed by its seat, swapped for another real tile: the replay
    stops at that placement (the tile is not in the hand)."""

    def placed_later(env: Envelope[Any]) -> bool:
        return any(
            event_tag(later.event) == "beowulf.tile_placed"
            and later.event.seat == env.event.seat
            and later.event.tile == env.event.tile.value
            for later in played.envelopes[env.seq :]
        )

    draw = played.first("beowulf.tile_drawn", placed_later)
    tile = draw.event.tile.value
    placement = next(
        later.seq
        for later in played.envelopes[draw.seq :]
        if event_tag(later.event) == "beowulf.tile_placed" and later.event.tile == tile
    )
    pile = played.first("beowulf.pile_shuffled").event.order.value
    other = next(candidate for candidate in reversed(pile) if candidate != tile)
    return draw.seq, "tile", other, placement


def beast_face_down(played: Played) -> tuple[int, str, Any, int]:
    """A card discarded face down, swapped for a card that does not exist."""
    discard = played.first("beast.card_discarded_face_down")
    return discard.seq, "card", "X" + discard.event.card.value, discard.seq


def hagar_jettison(played: Played) -> tuple[int, str, Any, int]:
    """A loot piece thrown overboard, swapped for a piece that is not aboard."""
    jettison = played.first("hagar.loot_jettisoned")
    return jettison.seq, "piece", 99, jettison.seq


FORGERIES = {"beowulf": beowulf_draw, "beast": beast_face_down, "hagar": hagar_jettison}


@pytest.mark.parametrize("game", FORGERIES)
def test_a_rehashed_swap_of_a_hidden_value(
    game: str, games: dict[str, Path], tmp_path: Path
) -> None:
    played = copy_of(games, game, tmp_path)
    forged, field, value, refused = FORGERIES[game](played)
    played.forge_secret(forged, field, value)
    receipt_seq = json.loads(played.receipt.read_text())["seq"]
    # The chain alone holds: the forger re-hashed it.
    code, out, err = skald("verify", played.id, "--db", played.db)
    assert code == 0, err
    # An earlier receipt says the history was rewritten, and sends the user to the audit.
    code, out, err = skald("verify", played.id, "--receipt", str(played.receipt), "--db", played.db)
    line = one_line(err)
    assert (code, out) == (1, "")
    assert line.startswith(f"TAMPERED: history was rewritten at or before seq {receipt_seq}")
    assert f"`skald audit {played.id}` finds the exact seq" in line
    # Every replay stops where the game can no longer take the log; nothing is signed.
    assert_refused_at(played, refused, saying=REPLAY_REFUSED)
    # The audit names the forged seq first, and where the replay stops.
    report = played.audit_of_the_store()
    assert report.verdict == "anomalies"
    assert report.chain.ok
    assert report.anomalies[0].seq == forged
    assert any(
        finding.seq == refused and finding.rule.startswith("the log does not replay")
        for finding in report.anomalies
    ), report.anomalies


def test_skald_audit_names_a_rehashed_swap(games: dict[str, Path], tmp_path: Path) -> None:
    played = copy_of(games, "beowulf", tmp_path)
    forged, field, value, _ = beowulf_draw(played)
    played.forge_secret(forged, field, value)
    code, out, err = skald("audit", played.id, "--format", "json", "--db", played.db)
    assert code == 1, err
    assert json.loads(out)["anomalies"][0]["seq"] == forged


def test_a_rehashed_value_no_game_holds_is_refused_where_it_is_shown(
    games: dict[str, Path], tmp_path: Path
) -> None:
    """A plundered piece swapped for one no city holds (99) under a fresh commitment: the
    reducers take it (they trust their input), so the log replays, but a view that shows the
    piece cannot (shown as it stood right after the plunder: later, a reducer meets the
    piece and the replay itself stops). Each command that shows it says the log was
    altered, one line, exit 9 (it crashed with an IndexError traceback); the audit names
    the forged seq."""
    played = copy_of(games, "hagar", tmp_path)
    plunder = played.first("hagar.city_plundered")
    played.forge_secret(plunder.seq, "piece", 99)
    for who in ("referee", str(plunder.event.seat)):
        code, out, err = skald(
            "show", played.id, "--as", who, "--at", str(plunder.seq), "--db", played.db
        )
        assert (code, out) == (9, ""), err
        assert "the log was altered at or before" in one_line(err)
    report = played.audit_of_the_store()
    assert report.anomalies[0].seq == plunder.seq


def test_a_log_that_does_not_replay_is_still_verified_over_http(
    games: dict[str, Path], tmp_path: Path
) -> None:
    """Who plays a game is read from its first event, never by replaying it, so a cold
    server still answers GET /verify on a log whose replay stops (it answered 500 before:
    identifying the caller replayed the game), while the views refuse naming the seq."""
    played, target = edited_copy("beowulf-tile-not-in-hand", games, tmp_path)
    port = free_port()
    with running([*skald_command(), "serve", "--port", str(port)], port, played.db) as base:
        verified = httpx.get(f"{base}/games/{played.id}/verify", timeout=30)
        assert verified.status_code == 200, verified.text
        assert (verified.json()["ok"], verified.json()["bad_seq"]) == (False, target.seq)
        shown = httpx.get(f"{base}/games/{played.id}", timeout=30)
        assert shown.status_code == 500
        assert shown.json()["error"] == "corrupt_record"
        assert shown.json()["message"].startswith(f"seq {target.seq}: ")
