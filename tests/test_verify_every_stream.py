"""`skald verify` on every kind of stream a store holds (a game, its notes stream, its
variations, a tournament, and the notes of an imported annotated game): untouched, each
passes by its own kind's rules; with one byte of one stored event changed, each fails at
exactly that seq. `receipt` and `audit` refuse the streams that are not games with the
same one line."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import sqlalchemy as sa

from tests.cli_support import one_line, skald
from tests.conftest import fresh_store_url


def _ok(*args: str) -> str:
    code, out, err = skald(*args)
    assert code == 0, (args, err)
    return out


def _play(db: str, game: str, decisions: int) -> None:
    """`decisions` legal moves, each the first legal one of whoever is to act."""
    for _ in range(decisions):
        seat = str(json.loads(_ok("show", game, "--json", "--db", db))["to_act"][0])
        move = json.loads(_ok("legal", game, "--as", seat, "--json", "--db", db))[0]
        _ok("move", game, move, "--as", seat, "--db", db)


def _streams(db: str, tmp_path: Path) -> dict[str, str]:
    """A store holding every kind of stream: {what: stream id}."""
    game = _ok("new", "beowulf", "--players", "Ann,Bob", "--seed", "every", "--db", db).strip()
    _play(db, game, 6)
    _ok("annotate", game, "--as", "Ann", "--at", "3", "--comment", "here", "--db", db)
    seat = str(json.loads(_ok("show", game, "--json", "--db", db))["to_act"][0])
    move = json.loads(_ok("legal", game, "--as", seat, "--json", "--db", db))[0]
    variation = _ok("variation", game, "--as", seat, "--from", "12", move, "--db", db).strip()
    tournament = _ok(
        "tournament", "new", "beowulf", "--players", "A,B,C", "--rounds", "1", "--seed", "t",
        "--db", db,
    ).strip()  # fmt: skip
    _ok("tournament", "pair", tournament, "--db", db)
    export = tmp_path / "annotated.jsonl"
    export.write_text(_ok("export", game, "--as", "referee", "--format", "jsonl", "--db", db))
    other = f"sqlite:///{tmp_path}/imported.db"
    _ok("import", str(export), "--db", other)
    return {
        "game": game,
        "notes": f"{game}~notes",
        "variation": variation,
        "tournament": tournament,
        "imported notes": f"{other}#{game}~notes",
    }


def _where(db: str, stream: str) -> tuple[str, str]:
    return (stream.split("#")[0], stream.split("#")[1]) if "#" in stream else (db, stream)


def _changed(engine: sa.Engine, stream: str, seq: int, rng: random.Random) -> str:
    """Change one byte of the stored payload of (stream, seq); its original."""
    with engine.begin() as conn:
        payload = conn.execute(
            sa.text("SELECT payload FROM events WHERE stream_id = :s AND seq = :q"),
            {"s": stream, "q": seq},
        ).scalar_one()
        at = rng.randrange(len(payload))
        byte = rng.choice([c for c in '0123456789abcdefXYZ"{}:, ' if c != payload[at]])
        conn.execute(
            sa.text("UPDATE events SET payload = :p WHERE stream_id = :s AND seq = :q"),
            {"p": payload[:at] + byte + payload[at + 1 :], "s": stream, "q": seq},
        )
    return str(payload)


def _restore(engine: sa.Engine, stream: str, seq: int, payload: str) -> None:
    with engine.begin() as conn:
        conn.execute(
            sa.text("UPDATE events SET payload = :p WHERE stream_id = :s AND seq = :q"),
            {"p": payload, "s": stream, "q": seq},
        )


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_verify_passes_every_untouched_stream_and_fails_one_changed_byte_at_its_seq(
    backend: str, tmp_path: Path
) -> None:
    db = fresh_store_url(backend, tmp_path)
    streams = _streams(db, tmp_path)
    rng = random.Random(25)
    for what, named in streams.items():
        url, stream = _where(db, named)
        out = _ok("verify", stream, "--db", url)
        assert out.startswith("ok: "), (what, out)
        engine = sa.create_engine(url)
        try:
            with engine.connect() as conn:
                version = conn.execute(
                    sa.text("SELECT version FROM streams WHERE id = :s"), {"s": stream}
                ).scalar_one()
            for seq in sorted({1, min(2, version), version // 2 or 1, version}):
                original = _changed(engine, stream, seq, rng)
                try:
                    code, out, err = skald("verify", stream, "--db", url)
                    assert (code, out) == (1, ""), (what, seq, out)
                    assert one_line(err).startswith(f"TAMPERED at seq {seq}:"), (what, seq, err)
                finally:
                    _restore(engine, stream, seq, original)
            assert _ok("verify", stream, "--db", url).startswith("ok: ")
        finally:
            engine.dispose()


def test_receipt_and_audit_refuse_a_stream_that_is_not_a_game_alike(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/kinds.db"
    streams = _streams(db, tmp_path)
    for what in ("notes", "variation", "tournament"):
        code, _, receipt_err = skald("receipt", streams[what], "--db", db)
        assert code == 6, (what, receipt_err)
        code, _, audit_err = skald("audit", streams[what], "--db", db)
        assert code == 6, (what, audit_err)
        assert one_line(receipt_err) == one_line(audit_err)
        assert "not" in one_line(audit_err) or "name the game" in one_line(audit_err)
