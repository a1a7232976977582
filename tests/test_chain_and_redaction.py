"""Tamper evidence and the generic redaction, through the toy game on both backends."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import msgspec
import pytest
import sqlalchemy as sa

from skald.core.engine import Engine
from skald.core.store import EventStore, events, streams
from skald.events.secret import Secret, redact, seal, secret_fields, secrets_in
from skald.events.viewer import REFEREE, SPECTATOR, seat_viewer
from skald.projections.table import Table
from tests.conftest import engine_of


@pytest.fixture
def played(store: EventStore) -> tuple[Table, str]:
    table = Table(Engine(store))
    game_id = table.create("toy", ["Ann", "Bob"], seed="chain")
    table.move(game_id, 0, "draw")
    table.move(game_id, 1, "bet 2")
    return table, game_id


def tamper(store: EventStore, game_id: str, seq: int, old: str, new: str) -> None:
    with store.engine.begin() as conn:
        payload = conn.execute(
            sa.select(events.c.payload).where(events.c.stream_id == game_id, events.c.seq == seq)
        ).scalar_one()
        assert old in payload
        conn.execute(
            events.update()
            .where(events.c.stream_id == game_id, events.c.seq == seq)
            .values(payload=payload.replace(old, new, 1))
        )


def test_intact_chain_verifies(played: tuple[Table, str]) -> None:
    table, game_id = played
    report = table.verify(game_id)
    assert report.ok
    assert report.checked == 8
    assert report.bad_seq is None


def test_changed_public_byte_names_the_seq(played: tuple[Table, str]) -> None:
    table, game_id = played
    tamper(engine_of(table).store, game_id, 8, '"amount":2', '"amount":3')
    report = table.verify(game_id)
    assert not report.ok
    assert report.bad_seq == 8
    assert "hash" in report.reason


def test_changed_hidden_value_names_the_seq(played: tuple[Table, str]) -> None:
    table, game_id = played
    stored = engine_of(table).envelopes(game_id, 6, 6)[0].event.card
    tamper(
        engine_of(table).store,
        game_id,
        6,
        f'"value":{stored.value}',
        f'"value":{stored.value % 9 + 1}',
    )
    report = table.verify(game_id)
    assert report.bad_seq == 6
    assert "commitment" in report.reason


def test_every_single_byte_change_is_caught(sqlite_store: EventStore) -> None:
    table = Table(Engine(sqlite_store))
    game_id = table.create("toy", ["Ann", "Bob"], seed="bytes")
    table.move(game_id, 0, "bet 1")
    record = sqlite_store.read(game_id)[2]
    for index in range(len(record.payload)):
        original = record.payload
        changed = original[:index] + chr((ord(original[index]) + 1) % 128) + original[index + 1 :]
        with sqlite_store.engine.begin() as conn:
            conn.execute(
                events.update()
                .where(events.c.stream_id == game_id, events.c.seq == 3)
                .values(payload=changed)
            )
        report = table.verify(game_id)
        assert report.bad_seq == 3, (index, changed)
    with sqlite_store.engine.begin() as conn:
        conn.execute(
            events.update()
            .where(events.c.stream_id == game_id, events.c.seq == 3)
            .values(payload=record.payload)
        )
    assert table.verify(game_id).ok


def test_reordered_events_are_caught(played: tuple[Table, str]) -> None:
    table, game_id = played
    store = engine_of(table).store
    with store.engine.begin() as conn:
        conn.execute(
            events.update().where(events.c.stream_id == game_id, events.c.seq == 7).values(seq=99)
        )
        conn.execute(
            events.update().where(events.c.stream_id == game_id, events.c.seq == 8).values(seq=7)
        )
        conn.execute(
            events.update().where(events.c.stream_id == game_id, events.c.seq == 99).values(seq=8)
        )
    assert table.verify(game_id).bad_seq == 7


def test_redaction_seals_only_what_the_viewer_may_not_see() -> None:
    secret = seal(5, {1}, "00" * 16)
    assert secret.verifies()
    assert redact(secret, seat_viewer(1)) is secret
    assert redact(secret, REFEREE) is secret
    sealed = redact(secret, seat_viewer(0))
    assert sealed == Secret(audience=frozenset({1}), commitment=secret.commitment)
    assert redact((secret, [secret]), SPECTATOR) == (sealed, [sealed])
    assert list(secrets_in({"a": (secret,)})) == [secret]


def test_logs_hide_other_seats_cards(played: tuple[Table, str]) -> None:
    table, game_id = played
    bob = table.log(game_id, table.viewer(game_id, "Bob"))
    ann_cards = [
        env.event.card
        for env in bob
        if type(env.event).__name__ == "CardDealt" and env.event.seat == 0
    ]
    assert ann_cards
    assert all(not card.known for card in ann_cards)
    ann = table.log(game_id, table.viewer(game_id, "Ann"))
    assert all(
        env.event.card.known
        for env in ann
        if type(env.event).__name__ == "CardDealt" and env.event.seat == 0
    )


def test_move_results_are_redacted_for_the_mover(played: tuple[Table, str]) -> None:
    table, game_id = played
    appended = table.move(game_id, 0, "draw")
    assert appended[-1].event.card.known
    spectator_copy = table.log(game_id, SPECTATOR, appended[-1].seq)[0]
    assert not spectator_copy.event.card.known


def test_everything_is_revealed_after_the_game_by_default(sqlite_store: EventStore) -> None:
    table = Table(Engine(sqlite_store))
    revealing = table.create("toy", ["Ann", "Bob"], seed="end")
    private = table.create("toy", ["Ann", "Bob"], seed="end", options={"reveal": "referee"})
    for game_id in (revealing, private):
        for turn in range(6):
            table.move(game_id, turn % 2, "bet 1")
    spectator_secrets = [s for env in table.log(revealing, SPECTATOR) for s in secrets_in(env)]
    assert spectator_secrets
    assert all(s.known and s.verifies() for s in spectator_secrets)
    assert not any(s.known for env in table.log(private, SPECTATOR) for s in secrets_in(env))


@pytest.mark.parametrize(
    ("column", "value"),
    [
        ("version", 99),
        ("title", "Ann, Eve"),
        ("kind", "beowulf"),
        ("created_at", datetime(2001, 1, 1, tzinfo=UTC)),
    ],
)
def test_a_changed_stream_header_is_caught(
    played: tuple[Table, str], column: str, value: object
) -> None:
    table, game_id = played
    with engine_of(table).store.engine.begin() as conn:
        conn.execute(streams.update().where(streams.c.id == game_id).values({column: value}))
    report = table.verify(game_id)
    assert not report.ok
    # A version past the stored events names the first missing seq (the log has 8).
    assert report.bad_seq == (9 if column == "version" else 1)


class _Base(msgspec.Struct, frozen=True):
    seat: int


class _WithSecret(_Base, frozen=True):
    card: Secret[str] | None = None


class _Holder(msgspec.Struct, frozen=True):
    label: str
    inner: _Base  # declared as the base: the value may be a subclass holding a Secret
    anything: Any = None
    deep: tuple[dict[str, list[Secret[int]]], ...] = ()


def test_redaction_walks_every_field_a_secret_may_hide_in() -> None:
    """`redact` skips only fields whose declared type can never hold a Secret: a base
    class with subclasses, `Any` and nested containers are still walked."""
    card = seal("ace", {0}, "00" * 16)
    number = seal(7, {0}, "11" * 16)
    holder = _Holder(
        label="x", inner=_WithSecret(seat=1, card=card), anything=card, deep=({"k": [number]},)
    )
    assert secret_fields(_Holder) == ("inner", "anything", "deep")
    assert secret_fields(_Base) == ()
    sealed = redact(holder, seat_viewer(1, "Bob"))
    assert sealed.inner.card == card.sealed()
    assert sealed.anything == card.sealed()
    assert sealed.deep[0]["k"][0] == number.sealed()
    assert len(list(secrets_in(holder))) == 3
    assert redact(holder, seat_viewer(0, "Ann")) == holder
