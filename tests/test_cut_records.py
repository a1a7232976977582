"""Every record that can be cut knows its end: a finished, annotated game's jsonl and text
exports, its `skald log --json`, and a tournament's jsonl export, each cut after every
line and at random bytes, are refused and write nothing; the whole record imports.
(`--partial` is not offered: a prefix never imports.)"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skald.core.engine import Engine
from skald.core.errors import SkaldError
from skald.core.importer import import_text
from skald.core.store import EventStore
from skald.core.tournament.desk import Tournaments
from skald.events.viewer import REFEREE
from skald.projections.autoplay import play_out, random_bot
from skald.projections.standings_export import export_jsonl
from skald.projections.table import Table
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
    records = {
        "jsonl": histories.export(game, REFEREE, "jsonl"),
        "text": histories.export(game, REFEREE, "text"),
        "log": jsonl(table.log(game, REFEREE)),
        "tournament": export_jsonl(desk.envelopes(tid)),
    }
    return store, records


SOURCE, RECORDS = _source()


def _import(kind: str, store: EventStore, text: str) -> object:
    table = Table(Engine(store))
    if kind in ("jsonl", "text"):
        return table.histories().import_export(text)
    if kind == "log":
        return import_text(Engine(store), text)
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
