"""Golden audit fixtures: a clean recorded game and doctored copies, each with the verdict
it must get (fixtures/audit/expected.json; rebuilt by `python -m tests.audit_fixtures`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from core.importer import read_jsonl
from projections.audit import build_audit

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "audit"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text())


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_gets_its_verdict(name: str) -> None:
    expected = EXPECTED[name]
    log = read_jsonl((FIXTURES / name).read_text())
    report = build_audit(log.stream, log.game, log.envelopes, log.chain, None)
    assert report.verdict == expected["verdict"]
    if expected["verdict"] == "clean":
        assert log.finding is None and report.anomalies == ()
        return
    assert log.finding is not None
    assert log.finding.seq == expected["seq"]
    assert expected["rule"] in log.finding.rule
    assert report.anomalies[0].seq == expected["seq"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_import_command_reports_the_verdict(name: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["import", str(FIXTURES / name), "--json",
                                      "--db", f"sqlite:///{tmp_path}/i.db"])
    outcome = json.loads(result.stdout)
    if EXPECTED[name]["verdict"] == "clean":
        assert result.exit_code == 0 and outcome["finding"] is None
    else:
        assert result.exit_code == 1
        assert outcome["finding"]["seq"] == EXPECTED[name]["seq"]
        assert outcome["accepted"] == EXPECTED[name]["seq"] - 1
