"""A seat signs its own decisions (core/identity.py): the first signed decision registers
the seat's key; from then on a decision the seat's player makes is refused unless signed,
and nothing is written; a bot's or the organiser's decision for the seat may be unsigned
and says whose it is. A signature made for another game, seat or seq, or by another key,
is refused; so is a second key. A hidden move's signature shows nothing of the move."""

from __future__ import annotations

import secrets

import msgspec
import pytest

from skald.core.errors import Forbidden
from skald.core.identity import Signing, move_digest, public_key, sign_decision
from skald.core.snapshots import codec_for
from skald.events.common import Author, MoveMade
from skald.events.secret import redact
from skald.events.viewer import seat_viewer
from skald.projections.audit.authors import seat_authors
from skald.projections.table import Table
from tests.forgery import forge, rehash

GREEDY = Author(kind="bot", name="greedy", started_by="the organiser")


def _signed(table: Table, game: str, seat: int, secret: bytes, move: str, kind: str = "move"):
    legal = table.legal_now(game, seat)
    register = seat not in dict(legal.keys)
    return sign_decision(secret, game, seat, legal.seq, legal.head, kind, move, register)


def _beowulf(table: Table) -> str:
    return table.create("beowulf", ("Ann", "Bob"), seed="signatures", reproducible=True)


def _first_move(table: Table, game: str, seat: int) -> str:
    return table.legal(game, seat)[0]


def test_a_seat_registers_its_key_with_its_first_signed_decision(table: Table) -> None:
    game = _beowulf(table)
    ann = secrets.token_bytes(32)
    seat = table.turn(game).to_act[0]
    move = _first_move(table, game, seat)
    table.move(game, seat, move, signing=_signed(table, game, seat, ann, move))
    turn = table.turn(game)
    assert dict(turn.keys) == {seat: public_key(ann)}
    marker = next(
        e.event
        for e in table.log(game, table.viewer(game, "referee"))
        if isinstance(e.event, MoveMade)
    )
    assert marker.signed is not None
    assert marker.signed.key == public_key(ann)
    assert marker.by is None  # the seat's own player
    assert table.verify(game).ok


def test_an_unsigned_decision_at_a_signing_seat_is_refused_and_nothing_written(
    table: Table,
) -> None:
    game = _beowulf(table)
    ann = secrets.token_bytes(32)
    seat = table.turn(game).to_act[0]
    move = _first_move(table, game, seat)
    table.move(game, seat, move, signing=_signed(table, game, seat, ann, move))
    table.undo(game, seat, signing=_signed(table, game, seat, ann, "", "undo"))
    head = table.turn(game).seq
    with pytest.raises(Forbidden, match="not signed"):
        table.move(game, seat, move)
    with pytest.raises(Forbidden, match="not signed"):
        table.redo(game, seat)
    assert table.turn(game).seq == head


def test_a_bot_may_play_a_signing_seat_and_the_record_says_so(table: Table) -> None:
    game = _beowulf(table)
    seat = table.turn(game).to_act[0]
    move = _first_move(table, game, seat)
    table.move(game, seat, move, signing=_signed(table, game, seat, secrets.token_bytes(32), move))
    table.undo(game, seat, by=GREEDY)
    table.move(game, seat, move, by=GREEDY)
    last = [
        e.event
        for e in table.log(game, table.viewer(game, "referee"))
        if isinstance(e.event, MoveMade)
    ]
    assert last[-1].by == GREEDY
    assert last[-1].signed is None
    assert table.verify(game).ok


@pytest.mark.parametrize(
    "forgery", ["other key", "other game", "other seq", "other seat", "twice", "digest"]
)
def test_a_forged_or_replayed_signature_is_refused(table: Table, forgery: str) -> None:
    game, other = _beowulf(table), _beowulf(table)
    ann, eve = secrets.token_bytes(32), secrets.token_bytes(32)
    seat = table.turn(game).to_act[0]
    move = _first_move(table, game, seat)
    table.move(game, seat, move, signing=_signed(table, game, seat, ann, move))
    table.undo(game, seat, signing=_signed(table, game, seat, ann, "", "undo"))
    legal = table.legal_now(game, seat)
    if forgery == "other key":
        signing = sign_decision(eve, game, seat, legal.seq, legal.head, "move", move, False)
    elif forgery == "other game":
        there = table.legal_now(other, seat)
        signing = sign_decision(ann, other, seat, there.seq, there.head, "move", move, False)
    elif forgery == "other seq":
        signing = sign_decision(ann, game, seat, legal.seq - 1, legal.head, "move", move, False)
    elif forgery == "other seat":
        signing = sign_decision(ann, game, 1 - seat, legal.seq, legal.head, "move", move, False)
    elif forgery == "twice":
        signing = sign_decision(ann, game, seat, legal.seq, legal.head, "move", move, True)
    else:  # signed for one move, sent with another
        signing = sign_decision(ann, game, seat, legal.seq, legal.head, "move", "pass", False)
    head = table.turn(game).seq
    with pytest.raises(Forbidden):
        table.move(game, seat, move, signing=signing)
    assert table.turn(game).seq == head
    table.move(game, seat, move, signing=_signed(table, game, seat, ann, move))


def test_a_hidden_moves_signature_shows_nothing_of_the_move(table: Table) -> None:
    """Attack: with the key, the signature and the digest public, a hunter tries every
    step the Beast could have taken: the digest covers a nonce it never sees, so no
    candidate matches; the nonce reaches the Beast's side only."""
    game = table.create("beast", ("Ann", "Bob"), seed="hidden-sig", reproducible=True)
    beast_secret = secrets.token_bytes(32)
    for _ in range(400):
        turn = table.turn(game)
        if turn.outcome is not None:
            break
        seat = turn.to_act[0]
        move = _first_move(table, game, seat)
        table.move(game, seat, move, signing=_signed(table, game, seat, beast_secret, move))
        events = [e.event for e in table.log(game, table.viewer(game, "referee"))]
        hidden = [e for e in events if isinstance(e, MoveMade) and e.hidden_move is not None]
        if hidden:
            break
    marker = hidden[-1]
    assert marker.signed is not None
    assert marker.signed.sealed_nonce is not None
    assert marker.signed.nonce == ""
    outsiders = set(range(2)) - set(marker.hidden_move.audience)
    for seat in outsiders:
        seen = redact(marker, seat_viewer(seat, "x"))
        assert seen.signed.sealed_nonce.value is None
        candidates = set(table.legal(game, marker.seat)) | {marker.hidden_move.value}
        assert not any(move_digest(seen.signed.nonce, c) == seen.signed.digest for c in candidates)
    assert (
        move_digest(marker.signed.sealed_nonce.value, marker.hidden_move.value)
        == marker.signed.digest
    )
    assert table.verify(game).ok


def test_signing_is_plain_json_over_the_wire() -> None:
    signing = Signing(digest="ab", signature="cd", nonce="ef", key="")
    assert msgspec.json.decode(msgspec.json.encode(signing), type=Signing) == signing


def test_a_state_with_seat_keys_is_snapshotted_whole(table: Table) -> None:
    """The engine keeps snapshots of states with registered keys (a state that did not
    round-trip would turn snapshots off for the game, and every read would replay)."""
    game = _beowulf(table)
    seat = table.turn(game).to_act[0]
    move = _first_move(table, game, seat)
    table.move(game, seat, move, signing=_signed(table, game, seat, secrets.token_bytes(32), move))
    state = table._engine.load(game)
    assert state.seat_keys
    codec = codec_for("beowulf")
    assert codec is not None
    data = codec.checked(state)
    assert data is not None
    assert codec.decode(data).seat_keys == state.seat_keys


def _signed_game(table: Table) -> tuple[str, list]:
    """A Beowulf game where Ann signs every decision and Bob none, some turns in."""
    game = _beowulf(table)
    ann = secrets.token_bytes(32)
    for _ in range(10):
        seat = table.turn(game).to_act[0]
        move = _first_move(table, game, seat)
        signing = _signed(table, game, seat, ann, move) if seat == 0 else None
        table.move(game, seat, move, signing=signing)
    return game, list(table.log(game, table.viewer(game, "referee")))


def _ann_decisions(log: list) -> list[int]:
    return [e.seq for e in log if isinstance(e.event, MoveMade) and e.event.seat == 0]


@pytest.mark.parametrize("forgery", ["dropped", "altered", "reordered"])
def test_a_record_doctored_around_a_seat_signed_decision_names_it(
    table: Table, forgery: str
) -> None:
    """The store drops, alters or reorders one of Ann's signed decisions and re-hashes the
    whole chain (as a server could): her signatures name the heads she saw, so the first
    one that no longer fits is named, with her seat."""
    _, log = _signed_game(table)
    first, second = _ann_decisions(log)[:2]
    if forgery == "dropped":  # her first decision and what it brought, gone
        doctored = rehash([e for e in log if not first <= e.seq < first + 2])
    elif forgery == "altered":
        doctored = forge(log, first, lambda event: msgspec.structs.replace(event, move="pass"))
    else:  # her second decision put before the other seat's move between them
        moved = [e for e in log if e.seq == second]
        rest = [e for e in log if e.seq != second]
        at = next(i for i, e in enumerate(rest) if e.seq > first + 1)
        doctored = rehash([*rest[:at], *moved, *rest[at:]])
    authors, problems = seat_authors(doctored, ("Ann", "Bob"))
    assert problems
    assert problems[0].seat == 0
    assert "Ann" in problems[0].problem
    assert {a.player: a.signed for a in authors}["Ann"] < len(_ann_decisions(log))
    untouched = seat_authors(log, ("Ann", "Bob"))[1]
    assert untouched == ()
