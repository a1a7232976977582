"""The audit as a player in a dispute reads it (fixtures/audit/: the recorded clean games
and doctored copies): it opens with the verdict and sentences that answer the dispute,
then per seat what it saw and when, told as that seat read it, in faces; ids appear only
in the evidence section at the end, each with its face in the legend."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from skald.core.beowulf.printed import tile_words
from skald.core.importer import read_jsonl
from skald.projections.audit.render import render_audit
from skald.projections.audit.report import AuditReport, build_audit
from skald.projections.hagar.narrative import loot_words
from skald.projections.narrative import INTERNAL_WORDS

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "audit"
EXPECTED = json.loads((FIXTURES / "expected.json").read_text())


def audited(name: str) -> AuditReport:
    log = read_jsonl((FIXTURES / name).read_text())
    return build_audit(log.stream, log.game, log.envelopes, log.chain, None)


@pytest.mark.parametrize("name", ["beowulf_clean.jsonl", "beast_clean.jsonl", "hagar_clean.jsonl"])
def test_the_audit_opens_with_answers_then_each_seat_in_faces_then_the_evidence(
    name: str,
) -> None:
    report = audited(name)
    text = render_audit(report, "md")
    head, rest = text.split("## What each seat knew, and when", 1)
    seats, evidence = rest.split("## Evidence", 1)
    assert head.index("**Verdict: clean.") < head.index("The log is intact")
    assert "every draw, shuffle and roll" in head
    told = seats.split("## Events, hidden values revealed")[0]
    assert not [m.group(0) for m in INTERNAL_WORDS.finditer(told)], name
    for seat in report.knowledge:
        assert seat.learned, seat.player
        for item in seat.learned:
            assert f"- seq {item.seq}: " in told
            assert item.told
            assert item.told in told.replace("\\", "")
    assert "### Hidden values as recorded" in evidence
    assert "### Legend" in evidence


def test_the_legend_gives_every_id_the_evidence_shows_its_face() -> None:
    evidence = render_audit(audited("beowulf_clean.jsonl"), "md").split("## Evidence")[1]
    beowulf = evidence.replace("\\", "")  # Markdown's escapes
    recorded = beowulf.split("### Legend")[0]
    shown = set(re.findall(r"\bI{1,3}\d\d\b", recorded))
    assert shown
    for tile_id in shown:
        assert f"- tile {tile_id} = {tile_words(tile_id)}" in beowulf
    hagar = render_audit(audited("hagar_clean.jsonl"), "md").replace("\\", "")
    plundered = {int(n) for n in re.findall(r"\(hagar\.city_plundered\): (\d+)", hagar)}
    assert plundered
    for piece in plundered:
        assert f"- loot piece {piece} = {loot_words(piece)}" in hagar


def test_a_doctored_log_is_answered_with_the_seq_it_was_changed_at() -> None:
    name = "beowulf_changed_draw.jsonl"
    text = render_audit(audited(name), "md").split("## What each seat knew")[0]
    assert "Verdict: " in text
    assert f"At seq {EXPECTED[name]['seq']}:" in text
    assert "every draw, shuffle and roll" not in text


def test_each_seat_is_told_when_everyone_saw_what_it_held() -> None:
    log = read_jsonl((FIXTURES / "beowulf_clean.jsonl").read_text())
    report = audited("beowulf_clean.jsonl")
    by_seq = {env.seq: env.event for env in log.envelopes}
    followed = 0
    for seat in report.knowledge:
        for item in seat.learned:
            if item.kind == "skald.move_made":
                assert item.shown == ()  # a hidden decision's words are not followed
            for shown_face, seq in item.shown:
                played = by_seq[seq]
                assert seq > item.seq
                assert tile_words(played.tile) == shown_face  # the tile, face up
                assert played.tile in item.value
                followed += 1
    assert followed
    text = render_audit(report, "md").replace("\\", "")
    first = next(i for s in report.knowledge for i in s.learned if i.shown)
    face, seq = first.shown[0]
    assert f"Everyone saw {face} at seq {seq}" in text
