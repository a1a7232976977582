"""Every record that can be cut knows its end: a finished, annotated game's jsonl and text
exports, its `skald log --json`, and a tournament's jsonl export, each cut after every
line and at random bytes, are refused and write nothing; the whole record imports. With
`--partial`, every prefix of a game's record either imports nothing or imports a game
marked as a partial copy that refuses every move, undo and redo and writes nothing then;
its exports keep the mark (they import only as a partial copy again). A tournament has no
`--partial`: it is whole or refused."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skald.api.errors import error_response
from skald.api.main import create_app
from skald.core.engine import Engine
from skald.core.errors import SkaldError
from skald.core.importer import import_text
from skald.core.provenance import PartialCopyRefused
from skald.core.signing import open_signer
from skald.core.store import EventStore
from skald.core.tournament.desk import Tournaments
from skald.events.viewer import REFEREE, seat_viewer
from skald.projections.bots.autoplay import play_out, random_bot
from skald.projections.table import Table
from skald.projections.tournament.export import export_jsonl
from tests.forgery import copy_games, jsonl


def _source() -> tuple[EventStore, dict[str, str]]:
    """A store with a finished annotated toy game and a finished tournament; each record."""
    store = EventStore("sqlite://")
    table = Table(Engine(store))
    game = table.create("toy", ["Ann", "Bob"], seed="cut")
    play_out(table, game, random_bot, random.Random(3))
    histories = table.histories()
    histories.annotate(game, REFEREE, "3", comment="here")
    desk = Tournaments(store, table)
    tid = desk.create("toy", ["Ann", "Bob", "Cid", "Dag"], rounds=1, table_size=2, seed="c")
    desk.pair(tid)
    for number, (_, _, paired) in enumerate(desk.open_games(tid)):
        play_out(table, paired, random_bot, random.Random(number))
    desk.collect(tid)
    signer = open_signer(store, Path(tempfile.mkdtemp()) / "cut.key")
    heads = [(seq, store.read(game, seq, seq)[0].hash) for seq in (4, 9)]
    kept = [signer.receipt(game, seq, head) for seq, head in heads]
    signed = Table(Engine(store), signer).histories()
    records = {
        "jsonl": histories.export(game, REFEREE, "jsonl"),
        # Signed, with two receipts players kept (each line before the end mark).
        "jsonl_kept": signed.export(game, REFEREE, "jsonl", kept_receipts=kept),
        "text": histories.export(game, REFEREE, "text"),
        "log": jsonl(table.log(game, REFEREE)),
        "tournament": export_jsonl(desk.envelopes(tid)),
    }
    return store, records


SOURCE, RECORDS = _source()


GAME_KINDS = ("jsonl", "jsonl_kept", "log", "text")


def _import(kind: str, store: EventStore, text: str, partial: bool = False) -> object:
    table = Table(Engine(store))
    if kind in ("jsonl", "jsonl_kept", "text"):
        return table.histories().import_export(text, partial)
    if kind == "log":
        return import_text(Engine(store), text, partial)
    copy_games(SOURCE, store, RECORDS_TID)
    return Tournaments(store, table).import_jsonl(text)


RECORDS_TID = RECORDS["tournament"].partition('"stream":"')[2].partition('"')[0]


def _streams(store: EventStore) -> set[str]:
    return {info.id for info in store.list_streams(limit=10_000)}


def _refused(kind: str, text: str) -> None:
    store = EventStore("sqlite://")
    try:
        before = _streams(store) if kind != "tournament" else None
        with pytest.raises(SkaldError):  # one line, exit 3 or 4 in the CLI
            _import(kind, store, text)
        after = _streams(store)
        if kind == "tournament":  # only the games copied in beforehand
            assert all(stream.startswith(f"{RECORDS_TID}.r") for stream in after)
        else:
            assert after == before == set()
    finally:
        store.dispose()


@pytest.mark.parametrize("kind", sorted(RECORDS))
def test_the_whole_record_imports(kind: str) -> None:
    store = EventStore("sqlite://")
    try:
        _import(kind, store, RECORDS[kind])
        assert _streams(store)
    finally:
        store.dispose()


@pytest.mark.parametrize("kind", sorted(RECORDS))
def test_a_record_cut_after_any_line_is_refused(kind: str) -> None:
    lines = RECORDS[kind].splitlines(keepends=True)
    for kept in range(len(lines)):
        _refused(kind, "".join(lines[:kept]) or "\n")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(sorted(RECORDS)), where=st.floats(0, 1, exclude_max=True))
def test_a_record_cut_at_a_random_byte_is_refused(kind: str, where: float) -> None:
    text = RECORDS[kind]
    # At least one byte of the last line goes (a cut of the final newline alone leaves the
    # record whole).
    cut = int(where * (len(text) - 1))
    _refused(kind, text[:cut] or "\n")


def _partial_or_nothing(kind: str, text: str, whole: bool = False) -> bool:
    """With --partial: nothing stored, or a game marked partial that refuses every write
    (a whole record imports whole, unmarked)."""
    store = EventStore("sqlite://")
    try:
        try:
            result = _import(kind, store, text, partial=True)
        except SkaldError:
            assert _streams(store) == set()
            return False
        game_id = result.id  # type: ignore[attr-defined]
        engine = Engine(store)
        table = Table(engine)
        mark = engine.partial_copy(game_id)
        if whole:
            assert mark is None
            return True
        assert mark is not None
        assert mark.decisions <= GAME_DECISIONS
        assert table.summary(game_id).to_act == ()
        assert "a partial copy: the record was cut after decision" in table.summary(game_id).partial
        before = store.version(game_id)
        for write in (
            lambda: engine.execute(game_id, 0, "1"),
            lambda: engine.undo(game_id, 0),
            lambda: engine.redo(game_id, 1),
        ):
            with pytest.raises(PartialCopyRefused, match="partial copy"):
                write()
        assert store.version(game_id) == before
        return True
    finally:
        store.dispose()


GAME_DECISIONS = sum(1 for line in RECORDS["text"].splitlines() if line[:1].isdigit())


@pytest.mark.parametrize("kind", GAME_KINDS)
def test_with_partial_a_record_cut_after_any_line_imports_a_marked_copy_or_nothing(
    kind: str,
) -> None:
    lines = RECORDS[kind].splitlines(keepends=True)
    imported = [
        _partial_or_nothing(kind, "".join(lines[:kept]) or "\n") for kept in range(len(lines))
    ]
    assert _partial_or_nothing(kind, RECORDS[kind], whole=True)
    # Refused only before the game's first whole batch (text: before its Key tag).
    first = imported.index(True)
    assert all(imported[first:]), f"{kind}: a prefix after line {first} imported nothing"
    assert first <= (lines.index("\n") + 1 if kind == "text" else len(lines) // 2)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(GAME_KINDS), where=st.floats(0, 1, exclude_max=True))
def test_with_partial_a_record_cut_at_a_random_byte_imports_a_marked_copy_or_nothing(
    kind: str, where: float
) -> None:
    text = RECORDS[kind]
    cut = int(where * (len(text) - 1))
    _partial_or_nothing(kind, text[:cut] or "\n")


@pytest.mark.parametrize("kind", GAME_KINDS)
def test_a_partial_copy_keeps_its_mark_in_every_export(kind: str) -> None:
    """Each export of a partial copy says so; the importable ones import only with
    --partial, and then as a partial copy of the same decisions."""
    lines = RECORDS[kind].splitlines(keepends=True)
    cut = "".join(lines[:-3])  # the end, and the game's last decision or two
    store = EventStore("sqlite://")
    try:
        game_id = _import(kind, store, cut, partial=True).id  # type: ignore[attr-defined]
        table = Table(Engine(store))
        mark = table.partial_copy(game_id)
        assert mark is not None
        histories = table.histories()
        words = f"the record was cut after decision {mark.decisions}"
        for fmt in ("text", "md", "html"):
            assert words in histories.export(game_id, REFEREE, fmt)
        exports = {
            "jsonl": histories.export(game_id, REFEREE, "jsonl"),
            "text": histories.export(game_id, REFEREE, "text"),
            "log": jsonl(table.log(game_id, REFEREE), table.partial_copy(game_id)),
        }
        assert f'"partial":{{"decisions":{mark.decisions}' in exports["jsonl"]
        for again, text in exports.items():
            other = EventStore("sqlite://")
            try:
                with pytest.raises(SkaldError, match="partial copy"):
                    _import(again, other, text)
                assert _streams(other) == set()
                copied = _import(again, other, text, partial=True)
                assert Engine(other).partial_copy(copied.id) == mark  # type: ignore[attr-defined]
            finally:
                other.dispose()
        assert "partial copy" in table.audit(game_id, REFEREE).partial
        verified = table.verify(game_id)
        assert verified.ok
        assert verified.partial.startswith("a partial copy: the record was cut after decision")
        # The live channel's frames offer nobody a move in it, as the summary does.
        for viewer in (seat_viewer(0, "Ann"), seat_viewer(1, "Bob"), REFEREE):
            update = table.update(game_id, viewer, None)
            assert update is not None
            assert update.to_act == ()
            assert not update.legal
    finally:
        store.dispose()


def test_the_http_summary_says_a_partial_copy_and_a_move_is_refused_as_partial_copy(
    tmp_path: Path,
) -> None:
    lines = RECORDS["log"].splitlines(keepends=True)
    url = f"sqlite:///{tmp_path}/partial.db"
    store = EventStore(url)
    try:
        game_id = import_text(Engine(store), "".join(lines[:-3]), partial=True).id
    finally:
        store.dispose()
    with TestClient(create_app(url)) as client:
        summary = client.get(f"/games/{game_id}").json()
    assert summary["to_act"] == []
    assert summary["partial"].startswith("a partial copy: the record was cut after decision")
    refused = error_response(PartialCopyRefused("game X is a partial copy"))
    assert refused.status_code == 422
    assert b'"error":"partial_copy"' in refused.body


def test_kept_receipts_come_before_the_end_mark_and_the_old_order_is_refused() -> None:
    lines = RECORDS["jsonl_kept"].splitlines(keepends=True)
    kept = [line for line in lines if line.startswith('{"kept_receipt"')]
    assert len(kept) == 2
    assert lines[-1].startswith('{"receipt"')
    assert lines[-3:-1] == kept
    old_order = [line for line in lines if line not in kept] + kept
    for partial in (False, True):
        store = EventStore("sqlite://")
        try:
            with pytest.raises(SkaldError, match=r"a kept receipt after the end mark.*again"):
                _import("jsonl_kept", store, "".join(old_order), partial)
            assert _streams(store) == set()
        finally:
            store.dispose()
