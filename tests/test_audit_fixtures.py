"""Golden audit fixtures: a clean recorded game and doctored copies, each with the verdict
it must get (fixtures/audit/expected.json; rebuilt by `python -m tests.audit_fixtures`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from skald.cli.main import app
from skald.core.importer import read_jsonl, read_jsonl_unchecked
from skald.core.rederive import rederive
from skald.projections.audit import build_audit
from skald.projections.audit_render import render_audit

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
    result = CliRunner().invoke(
        app, ["import", str(FIXTURES / name), "--json", "--db", f"sqlite:///{tmp_path}/i.db"]
    )
    outcome = json.loads(result.stdout)
    if EXPECTED[name]["verdict"] == "clean":
        assert result.exit_code == 0
        assert outcome["finding"] is None
    else:
        assert result.exit_code == 1
        assert outcome["finding"]["seq"] == EXPECTED[name]["seq"]
        # Only whole decisions before the anomaly are kept.
        assert 0 < outcome["accepted"] <= EXPECTED[name]["seq"] - 1
        log = read_jsonl((FIXTURES / name).read_text())
        assert rederive(log.game, log.envelopes[: outcome["accepted"]]).clean


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
