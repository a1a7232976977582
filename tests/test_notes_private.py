"""Private notes stay private, down to their count (issue 44, item 5).

A note for its author's seat (its team in Beast) or for the referee is kept in the game's
notes stream, whose chain is evidence; what leaves the service for a viewer who may not
read it says nothing of it: no entry in `GET /annotations`, no gap in the seqs it is shown,
no envelope in its exports, no live `notes` frame, no count in an error.

The property: two runs identical except that Ann writes no private note or three, at
moments hypothesis draws: every payload Bob and a spectator receive is the same, byte for
byte. The runs are served in process (the app through TestClient, its Table given a fixed
clock, seeded draws and one signing key for both runs), so that whole payloads can be
compared; the live channel's frames are compared against a real `skald serve` in
tests/test_channel_notes.py. The author and its team read the notes; after the game the
reveal policy decides (reveal=end: everyone; reveal=referee: the referee).
"""

from __future__ import annotations

import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skald.api.deps import Services
from skald.api.main import create_app
from skald.core.engine import Engine
from skald.core.history.streams import notes_id
from skald.core.signing import Signer
from skald.core.store import EventStore
from skald.events.envelope import GENESIS
from skald.events.viewer import REFEREE, SPECTATOR, Viewer, seat_viewer
from skald.projections.bots.autoplay import autoplay
from skald.projections.export import verify_skald
from skald.projections.export.listing import annotation_items
from skald.projections.table import Table
from tests.servers import bearer

MOMENT = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
STEPS = ("move", "bob public", "bob seat", "ann public")
FORMATS = ("jsonl", "text", "md", "html")
ANN, BOB = seat_viewer(0, "Ann"), seat_viewer(1, "Bob")


def _draws(seed: int) -> Any:
    rnd = random.Random(seed)
    return lambda size: rnd.randbytes(size).hex()


@contextmanager
def _own_draws(table: Table, seed: int) -> Iterator[None]:
    """Ann's private notes draw their salts from a source of their own, so that the game's
    later draws are the same in both runs (in service the draws are random anyway)."""
    engine = table._engine
    kept = engine.random_hex
    engine.random_hex = _draws(seed)
    try:
        yield
    finally:
        engine.random_hex = kept


@contextmanager
def _served(folder: Path, signer: Signer) -> Iterator[tuple[TestClient, Services]]:
    """The app over a new SQLite store, its Table with a fixed clock, seeded draws and
    `signer` (the same in every run)."""
    folder.mkdir(parents=True)
    app = create_app(f"sqlite:///{folder / 'skald.db'}")
    with TestClient(app) as client:
        services: Services = app.state.services
        engine = Engine(services.table._engine.store, clock=lambda: MOMENT, random_hex=_draws(5))
        services.table = Table(engine, signer)
        yield client, services


def _reads(client: TestClient, game_id: str, token: str | None, exports: tuple[str, ...]) -> bytes:
    """Everything a reader may ask of the game and its annotated history, as received."""
    headers = bearer(token) if token else {}
    paths = [
        f"/games/{game_id}",
        "/games?limit=200",
        f"/games/{game_id}/log",
        f"/games/{game_id}/annotations",
        f"/games/{game_id}/variations",
        *(f"/games/{game_id}/export?format={format}" for format in exports),
    ]
    received = []
    for path in paths:
        answer = client.get(path, headers=headers)
        assert answer.status_code == 200, (path, answer.text)
        shown = sorted((k, v) for k, v in answer.headers.items() if k != "date")
        received.append(f"{path} {shown}\n".encode() + answer.content)
    return b"\n".join(received)


def _note(client: TestClient, game_id: str, token: str, **note: Any) -> bytes:
    made = client.post(f"/games/{game_id}/annotations", json=note, headers=bearer(token))
    assert made.status_code == 201, made.text
    return made.content


def _move(client: TestClient, game_id: str, tokens: tuple[str, ...]) -> tuple[int, bytes]:
    """One move by the seat to act (its first legal move): the seat and the answer."""
    seat = client.get(f"/games/{game_id}").json()["to_act"][0]
    legal = client.get(f"/games/{game_id}/legal", headers=bearer(tokens[seat])).json()
    made = client.post(
        f"/games/{game_id}/moves", json={"move": legal["moves"][0]}, headers=bearer(tokens[seat])
    )
    assert made.status_code in (200, 201), made.text
    return seat, made.content


def _play(
    client: TestClient,
    services: Services,
    game_id: str,
    steps: list[str],
    hidden: dict[int, str],
) -> list[bytes]:
    """Play `steps` on a new game; before step i Ann writes a private note for `hidden[i]`
    when there is one. Returns everything Bob and a spectator received, in order."""
    table = services.table
    table.create("beowulf", ["Ann", "Bob"], seed=game_id, game_id=game_id, reproducible=True)
    tokens = services.tokens.issue(game_id, 2).seats
    ann, bob = tokens
    received: list[bytes] = []
    for index, step in enumerate([*steps, "end"]):
        seq = client.get(f"/games/{game_id}").json()["seq"]
        if index in hidden:
            with _own_draws(table, index):
                _note(client, game_id, ann, at=seq, comment=f"ANN-{index}", audience=hidden[index])
        if step == "move":
            seat, answer = _move(client, game_id, tokens)
            if seat == 1:
                received.append(answer)
        elif step.startswith("bob"):
            audience = step.split()[1]
            received.append(_note(client, game_id, bob, at=seq, comment="B", audience=audience))
        elif step == "ann public":
            _note(client, game_id, ann, at=seq, comment="A", glyph="!?")
        exports = FORMATS if step == "end" else ("jsonl", "text")
        received += [_reads(client, game_id, bob, exports), _reads(client, game_id, None, exports)]
    for token in (bob, None):  # the private notes never reached these readers
        assert b"ANN-" not in _reads(client, game_id, token, FORMATS)
    return received


@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_another_seats_private_notes_change_no_byte_bob_or_a_spectator_receives(
    tmp_path: Path, data: st.DataObject
) -> None:
    """The listing, the exports in every format, the summary, the game list, the log and
    Bob's own answers (his notes' seqs in his copy) are the same with or without Ann's
    three private notes (for her seat or for the referee), before and after each of them."""
    steps = data.draw(st.lists(st.sampled_from(STEPS), min_size=3, max_size=7), label="steps")
    moments = data.draw(
        st.lists(st.integers(0, len(steps)), min_size=3, max_size=3, unique=True), label="at"
    )
    audiences = data.draw(st.lists(st.sampled_from(["seat", "referee"]), min_size=3, max_size=3))
    hidden = dict(zip(moments, audiences, strict=True))
    folder = Path(tempfile.mkdtemp(dir=tmp_path))  # a store of its own for each example
    signer = Signer(folder / "signing.key")
    received = []
    for notes in ({}, hidden):
        with _served(folder / f"{len(notes)}", signer) as (client, services):
            received.append(_play(client, services, "notes-game", steps, notes))
            if notes:  # and the store keeps them, in the notes stream's chain
                kept = services.table._engine.store.read(notes_id("notes-game"))
                assert sum("ANN-" in r.payload for r in kept) == 3
    assert len(received[0]) == len(received[1])
    for plain, noted in zip(*received, strict=True):
        assert plain == noted, "Bob or a spectator received something else"


def _table(seed: int = 5) -> Table:
    return Table(Engine(EventStore("sqlite://"), clock=lambda: MOMENT, random_hex=_draws(seed)))


def test_a_note_raced_by_a_hidden_note_is_written_and_counts_nothing() -> None:
    """Ann's private note lands between Bob's read of the notes stream's head and his
    append: Bob's note is written all the same, and its answer is his copy's first note,
    not a conflict naming the stream's length (which counted Ann's notes)."""
    table = _table()
    game = table.create("beowulf", ["Ann", "Bob"], game_id="race")
    histories = table.histories()
    store = table._engine.store
    real = store.append
    raced: list[str] = []

    def append(stream: str, *args: Any, **kwargs: Any) -> Any:
        if stream == notes_id(game) and not raced:
            raced.append(stream)
            histories.annotate(game, ANN, "1", comment="ANN-RACE", audience="seat")
        return real(stream, *args, **kwargs)

    store.append = append  # type: ignore[method-assign]
    shown = histories.annotate(game, BOB, "1", comment="mine")
    assert raced
    assert (shown.seq, shown.prev_hash) == (1, GENESIS)
    assert len(store.read(notes_id(game))) == 2


def _listed(table: Table, game: str, viewer: Viewer) -> list[dict[str, Any]]:
    bundle = table.histories().bundle(game, viewer)
    return annotation_items(bundle.notes, bundle.id, bundle.players)


def test_the_author_and_its_team_read_them() -> None:
    """Beast's hunters share notes: a hunter's note for its seat is listed and exported to
    both hunters (and the referee), numbered in their copies; the Beast and a spectator
    are shown nothing of it. A seat's note for the referee alone is answered to its author
    outside any chain (seq 0), and listed to the referee only."""
    table = _table()
    game = table.create("beast", ["Beast", "Hunt1", "Hunt2"], seed="team", game_id="team")
    assert table._engine.load(game).rules.hunter_seats == {1, 2}
    hunt1, hunt2, beast = seat_viewer(1, "Hunt1"), seat_viewer(2, "Hunt2"), seat_viewer(0, "Beast")
    histories = table.histories()
    histories.annotate(game, beast, "1", comment="public first")
    written = histories.annotate(game, hunt1, "2", comment="HUNTERS-PLAN", audience="seat")
    assert written.seq == 2  # in the hunters' copy: the public note, then this one
    for_referee = histories.annotate(game, hunt1, "2", comment="TO-REF", audience="referee")
    assert (for_referee.seq, for_referee.prev_hash, for_referee.hash) == (0, "", "")
    assert not for_referee.event.private.known
    for hunter in (hunt1, hunt2):
        listed = _listed(table, game, hunter)
        assert [(n["seq"], n.get("comment")) for n in listed] == [
            (1, "public first"),
            (2, "HUNTERS-PLAN"),
        ]
        assert "HUNTERS-PLAN" in histories.export(game, hunter, "jsonl")
        assert "HUNTERS-PLAN" in histories.export(game, hunter, "text")
    for outsider in (beast, SPECTATOR):
        assert [n["comment"] for n in _listed(table, game, outsider)] == ["public first"]
        exported = histories.export(game, outsider, "jsonl")
        assert exported.count('"type":"history.annotated"') == 1
    assert [n["comment"] for n in _listed(table, game, REFEREE)] == [
        "public first",
        "HUNTERS-PLAN",
        "TO-REF",
    ]
    # the hunters' digest moved with the note; the Beast's did not
    before = {v.name: histories.notes_digest(game, v) for v in (hunt2, beast, SPECTATOR)}
    histories.annotate(game, hunt2, "2", comment="more", audience="seat")
    after = {v.name: histories.notes_digest(game, v) for v in (hunt2, beast, SPECTATOR)}
    assert after["Hunt2"] != before["Hunt2"]
    assert (after["Beast"], after["spectator"]) == (before["Beast"], before["spectator"])


def _finished(reveal: str, notes: int) -> tuple[Table, str]:
    """A finished Beowulf game (Ann, Bob) with Bob's public note, and `notes` private
    notes of Ann's (for her seat, then for the referee) around it."""
    table = _table()
    game = autoplay(table, "beowulf", 2, seed="3", options={"reveal": reveal}, game_id="end").id
    assert table.turn(game).outcome is not None
    histories = table.histories()
    for index in range(notes):
        audience = "seat" if index % 2 == 0 else "referee"
        with _own_draws(table, index):
            histories.annotate(game, ANN, str(index + 1), comment=f"ANN-{index}", audience=audience)
        if index == 0:
            histories.annotate(game, BOB, "2", comment="Bob's")
    if not notes:
        histories.annotate(game, BOB, "2", comment="Bob's")
    return table, game


def _received(table: Table, game: str, viewer: Viewer) -> list[str]:
    histories = table.histories()
    return [
        msgspec.json.encode(_listed(table, game, viewer)).decode(),
        histories.notes_digest(game, viewer),
        *(histories.export(game, viewer, format) for format in FORMATS),
    ]


def test_after_the_game_under_reveal_end_everyone_reads_them_in_the_stored_chain() -> None:
    table, game = _finished("end", 3)
    histories = table.histories()
    for viewer in (BOB, SPECTATOR):
        comments = [n["comment"] for n in _listed(table, game, viewer)]
        assert comments == ["ANN-0", "Bob's", "ANN-1", "ANN-2"]
    stored = [r.hash for r in table._engine.store.read(notes_id(game))]
    for viewer in (BOB, SPECTATOR, REFEREE):
        assert [e.hash for e in histories.bundle(game, viewer).notes] == stored


def test_after_the_game_under_reveal_referee_the_others_are_shown_nothing_of_them() -> None:
    """Bob and a spectator receive the same bytes with or without Ann's notes; Ann reads
    hers, the referee all."""
    plain, noted = _finished("referee", 0), _finished("referee", 3)
    for viewer in (BOB, SPECTATOR):
        assert _received(*plain, viewer) == _received(*noted, viewer), viewer.name
    assert [n["comment"] for n in _listed(*noted, ANN)] == ["ANN-0", "Bob's", "ANN-2"]
    assert [n["comment"] for n in _listed(*noted, REFEREE)] == ["ANN-0", "Bob's", "ANN-1", "ANN-2"]


def test_a_readers_copy_of_the_notes_stream_verifies(tmp_path: Path) -> None:
    """Bob's notes are chained in his copy as a stream of their own (seqs 1.., each linked
    to the one before), so his export verifies offline and imports (checked, not stored)
    with Ann's private notes left out; the referee's copy is the stored chain."""
    table = _table()
    game = table.create("beowulf", ["Ann", "Bob"], seed="chain", game_id="chain")
    histories = table.histories()
    for index in range(3):
        histories.annotate(game, ANN, "1", comment=f"ANN-{index}", audience="seat")
        histories.annotate(game, BOB, str(index + 1), comment=f"bob {index}")
    copy = histories.bundle(game, BOB).notes
    assert [e.seq for e in copy] == [1, 2, 3]
    assert [e.prev_hash for e in copy] == [GENESIS, copy[0].hash, copy[1].hash]
    exported = histories.export(game, BOB, "jsonl")
    assert "ANN-" not in exported
    verdict = verify_skald.verify(exported)
    # whole: every chain, the reader's notes copy included, holds (nobody trusted signs it
    # here, so "consistent", never "tampered")
    assert verdict["verdict"].startswith("consistent"), verdict
    (tmp_path / "bob.jsonl").write_text(exported, encoding="utf-8")
    script = Path(verify_skald.__file__)
    checked = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "bob.jsonl")], capture_output=True, text=True
    )
    assert checked.stdout.startswith("consistent"), checked.stdout
    imported = _table(9).histories().import_export(exported)
    assert (imported.stored, imported.annotations) == (False, 3)
    stored = table._engine.store.read(notes_id(game))
    assert [e.hash for e in histories.bundle(game, REFEREE).notes] == [r.hash for r in stored]
