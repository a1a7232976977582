"""Golden audit fixtures: a clean recorded game and doctored copies, each with the verdict
it must get (fixtures/audit/expected.json; rebuilt by `python -m tests.audit_fixtures`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from skald.cli.main import app
from skald.core.importer import end_line, read_jsonl, read_jsonl_unchecked
from skald.projections.audit.render import render_audit
from skald.projections.audit.report import build_audit

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "audit"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_gets_its_verdict(name: str) -> None:
    expected = EXPECTED[name]
    log = read_jsonl((FIXTURES / name).read_text())
    report = build_audit(log.stream, log.game, log.envelopes, log.chain, None)
    assert report.verdict == expected["verdict"]
    if expected["verdict"] == "clean":
        assert log.finding is None
        assert report.anomalies == ()
        return
    assert log.finding is not None
    assert log.finding.seq == expected["seq"]
    assert expected["rule"] in log.finding.rule
    assert report.anomalies[0].seq == expected["seq"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_import_command_reports_the_verdict(name: str, tmp_path: Path) -> None:
    text = (FIXTURES / name).read_text()
    envelopes = read_jsonl_unchecked(text).envelopes
    whole = tmp_path / name  # as `skald log --json` writes it now: its end line last
    whole.write_text(text + end_line(envelopes, envelopes[-1].seq) + "\n")
    db = tmp_path / "i.db"
    result = CliRunner().invoke(app, ["import", str(whole), "--json", "--db", f"sqlite:///{db}"])
    if EXPECTED[name]["verdict"] == "clean":
        assert result.exit_code == 0, result.stderr
        assert json.loads(result.stdout)["finding"] is None
    else:
        # Refused naming the anomaly's seq; nothing is kept, not even a store file.
        assert result.exit_code == 4, result.stderr
        assert f"REJECTED at seq {EXPECTED[name]['seq']}:" in result.stderr
        assert not db.exists()


LEGACY = FIXTURES / "legacy" / "beowulf_v1_clean.jsonl"


def test_a_log_from_before_secrecy_scheme_2_verifies_and_is_not_called_tampered() -> None:
    log = read_jsonl_unchecked(LEGACY.read_text())
    assert log.chain.ok
    report = build_audit(log.stream, log.game, log.envelopes, log.chain, None)
    assert report.verdict == "unverifiable"
    assert report.anomalies == ()
    assert "rules version 1" in report.rederivation.unsupported
    assert "not re-derived (no anomaly found)" in render_audit(report, "md")


def test_a_log_from_before_secrecy_scheme_2_is_not_imported(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["import", str(LEGACY), "--db", f"sqlite:///{tmp_path}/i.db"])
    assert result.exit_code == 4
    assert "rules version 1" in result.stderr
    assert "nothing was imported" in result.stderr


# Finished games written by older code (`recorded_game`'s table: fixed clock and service key),
# kept as they were written: the current build must still read and verify them, never call
# them tampered, and refuse to import them by name and version.
#   beast_v3_clean: Beast rules version 3 (the tree of ede2b91, before 88eb5dd), 2 players,
#     contract drowned-harvest, seed fixture-beast/1, greedy bots: 720 events, the Beast
#     wins by settlers killed.
#   beast_v4_clean: Beast rules version 4 (the tree of 7063cec, before 6b8a0cf), 2 players,
#     seed fixture-beast, random bots (recorded_game): 1328 events, the days pass.
#   beast_v5_clean: Beast rules version 5 (fixtures/audit/beast_clean.jsonl of the tree of
#     6e84e77, before the version 6 bump), 2 players, seed fixture-beast, random bots: 1393
#     events, the days pass.
#   beast_v6_clean: Beast rules version 6 (fixtures/audit/beast_clean.jsonl of the tree of
#     5ef577c, before the version 7 bump), 2 players, seed fixture-beast, random bots: 1374
#     events, the days pass.
#   beast_v7_clean: Beast rules version 7 (fixtures/audit/beast_clean.jsonl of the tree of
#     217ca19, before the version 8 bump), 2 players, seed fixture-beast, random bots: 1374
#     events, the days pass.
#   hagar_v2_clean: Hägar rules version 2 (the tree of 41bee4d), 2 players, feast_at=1,
#     seed fixture-hagar/3, random bots: 147 events, ended by the feast.
#   hagar_v3_clean: Hägar rules version 3 (fixtures/audit/hagar_clean.jsonl of the tree of
#     42288ec, before a0879f5), 2 players, seed fixture-hagar, random bots: 3588 events,
#     ended by the feast.
OLD_RULES = [
    ("beast_v3_clean.jsonl", "beast", "3", "8", "settlers_killed"),
    ("beast_v4_clean.jsonl", "beast", "4", "8", "days_passed"),
    ("beast_v5_clean.jsonl", "beast", "5", "8", "days_passed"),
    ("beast_v6_clean.jsonl", "beast", "6", "8", "days_passed"),
    ("beast_v7_clean.jsonl", "beast", "7", "8", "days_passed"),
    ("hagar_v2_clean.jsonl", "hagar", "2", "5", "feast"),
    ("hagar_v3_clean.jsonl", "hagar", "3", "5", "feast"),
]


@pytest.mark.parametrize(("name", "game", "version", "current", "ending"), OLD_RULES)
def test_a_finished_log_of_older_rules_verifies_and_is_unverifiable_not_tampered(
    name: str, game: str, version: str, current: str, ending: str
) -> None:
    log = read_jsonl_unchecked((FIXTURES / "legacy" / name).read_text())
    assert log.game == game
    assert log.chain.ok
    created = log.envelopes[0].event
    assert created.rules_version == version
    finished = log.envelopes[-1].event
    assert type(finished).__struct_config__.tag == "skald.game_finished"
    assert finished.outcome.termination == ending
    report = build_audit(log.stream, log.game, log.envelopes, log.chain, None)
    assert report.verdict == "unverifiable"
    assert report.anomalies == ()
    assert f"{game} rules version {version}" in report.rederivation.unsupported
    assert f"re-derives {game} rules version {current}" in report.rederivation.unsupported
    assert "not re-derived (no anomaly found)" in render_audit(report, "md")


@pytest.mark.parametrize(("name", "game", "version", "current", "ending"), OLD_RULES)
def test_a_log_of_older_rules_is_not_imported(
    name: str, game: str, version: str, current: str, ending: str, tmp_path: Path
) -> None:
    del current, ending
    db = f"sqlite:///{tmp_path}/i.db"
    result = CliRunner().invoke(app, ["import", str(FIXTURES / "legacy" / name), "--db", db])
    assert result.exit_code == 4
    assert f"{game} rules version {version}" in result.stderr
    assert "nothing was imported" in result.stderr
