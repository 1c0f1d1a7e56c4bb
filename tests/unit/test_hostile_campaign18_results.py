"""Campaign 18 (issue 30), results and scores: regression tests for the breaks it found."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from projection_support import imported

from warroom.core.projection import TEMPLATES, Options, damage_rules, project, read_source, survey


@pytest.fixture(scope="module")
def tau(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return imported(tmp_path_factory.mktemp("tau"), "tau")


def _keys(value: Any, prefix: str = "") -> set[str]:
    """Every key path of ``value`` (list items by the shape of their records, not their place)."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return set()
    out: set[str] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            out |= {f"{prefix}{k}"} | _keys(v, f"{prefix}{k}.")
    elif isinstance(value, list):
        for v in value:
            out |= _keys(v, f"{prefix}[].")
    return out


@pytest.mark.parametrize("template", list(TEMPLATES))
def test_a_projected_faults_twin_shows_the_same_fields_with_sound_values(tau: Path, template: str):
    """A trainee who learnt the projection templates' field names from practice debriefs (`total_count`,
    `next_cursor`, `currency`, `cache_age_s`, `partial`, `errors`, `warnings`, `_timed_out`, `_error`,
    `write_errors` ...) and escalated on the first result holding one, reading none of their values, hit 1,039 of
    1,178 signal trials of a bank projected from 31 healthy tau-bench runs and false-alarmed on none of its 382
    noise trials (d′ +4.2; on the ten bundled `retail-*` drills 60/70 hits, 0/30 false alarms): the fault added
    the field, and the twin, the source's result as it was, never had it. As threat image projection's clean bag
    must look like the bag with the threat, the twin's result holds the same fields, saying the result is sound
    (the whole list and its total, no cursor; the run's currency; a live read; no error, warning or timeout; every
    record written): the value is the tell, never the field."""
    source = read_source(tau)
    projection = project(survey(source, damage_rules([])[0]), template, None, Options(distractors=0))
    event = projection.site.event
    healthy = next(e for e in source.data["trace"] if e["id"] == event)["output"]
    fault = next(e for e in projection.data["trace"] if e["id"] == event)["output"]
    twin = projection.twin["replace"][event]["output"]
    added = _keys(fault) - _keys(healthy)  # the fields the fault added (not what is inside them: their values)
    added = {k for k in added if not any(k.startswith(f"{a}.") for a in added)}
    assert twin != fault and added <= _keys(twin), (template, added, twin)
    if template != "wrong-record":  # the one template that changes a value, adding no field
        assert added


def test_every_bundled_projected_drills_twin_shows_the_fields_its_fault_added():
    """The ten bundled `retail-*` drills were projected before twins showed the template's fields: a trainee
    escalating on the first result holding `total_count`, `currency`, `cache_age_s`, `errors`, `_timed_out`,
    `_error` or `write_errors`, reading no value, hit 60 of their 70 signal trials and false-alarmed on none of 30
    noise trials (10 trainees). Each twin now holds every field its fault added, saying the result is sound."""
    from warroom.core.library import bundled_drills_dir
    from warroom.core.load import load_drill
    from warroom.core.model import twin_of

    projected = [load_drill(p) for p in sorted(bundled_drills_dir().glob("*.yaml"))]
    projected = [d for d in projected if d.id.startswith("retail-")]  # written by `warroom project`
    assert len(projected) >= 10
    for drill in projected:
        healthy = {e.id: e for e in twin_of(drill).trace}
        for event in drill.trace:
            if event.kind == "tool_result" and event.id in healthy:
                fault, twin = getattr(event, "output", None), getattr(healthy[event.id], "output", None)
                missing = _keys(fault) - _keys(twin)  # but what is inside a field the twin has (an error record)
                assert all(any(k.startswith(f"{p}.") for p in _keys(twin)) for k in missing), (drill.id, missing)


def _scored_by_a_newer_warroom(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A session a warroom of scoring rules 7 stored (as its recorder stores one) in this warroom's store: its id."""
    import sqlite3

    from unit.test_forgeries import GOOD, play

    monkeypatch.delenv("WARROOM_STORE", raising=False)
    session_id = play(tmp_path, "ann", GOOD, mode="assessment").session_id
    with sqlite3.connect(tmp_path / "results.sqlite3") as db:
        (card,) = db.execute("SELECT scorecard FROM sessions").fetchone()
        db.execute("UPDATE sessions SET scoring_version = '7', scorecard = ?",
                   (json.dumps({**json.loads(card), "scoring_version": "7"}),))  # fmt: skip
    db.close()
    return session_id


def test_a_session_scored_by_newer_rules_is_unverifiable_here_not_a_disagreement(tmp_path, monkeypatch):
    """Two warroom versions write into one class store: the newer one scores by rules 7, which this one does not
    know. `scores verify` recomputed such a session by rules 6 and recorded it as disagreeing (`scoring_version "7"
    is stored, "6" recomputed`), the verdict of a forged row, for a session its recorder stored rightly. It cannot
    be checked here: unverifiable, saying which rules scored it and to verify it with a warroom that applies them."""
    from click.testing import CliRunner

    from warroom.cli import main

    session_id = _scored_by_a_newer_warroom(tmp_path, monkeypatch)
    result = CliRunner().invoke(main, ["scores", "verify", "--format", "json", "--data-dir", str(tmp_path)])
    (verdict,) = json.loads(result.stdout)
    assert (verdict["session_id"], verdict["verdict"]) == (session_id, "unverifiable"), verdict
    assert "scoring rules 7" in verdict["problems"][0] and "newer warroom" in verdict["problems"][0]


def test_rescoring_by_each_sessions_own_rules_leaves_a_newer_warrooms_session_as_it_is(tmp_path, monkeypatch):
    """`warroom scores rescore` re-scores each session by the rules it was scored with (docs/scoring.md); a session
    of rules 7, which this warroom does not apply, was re-scored by rules 6 and rewritten without a question (`scoring
    rules version 7 -> 6`). It is skipped, saying why and how to re-score it here (--rules N asks first)."""
    import sqlite3

    from click.testing import CliRunner

    from warroom.cli import main

    session_id = _scored_by_a_newer_warroom(tmp_path, monkeypatch)
    result = CliRunner().invoke(main, ["scores", "rescore", "--data-dir", str(tmp_path)])
    assert f"skipped: {session_id}" in result.output and "scoring rules 7" in result.output, result.output
    with sqlite3.connect(tmp_path / "results.sqlite3") as db:
        assert db.execute("SELECT scoring_version FROM sessions").fetchall() == [("7",)]
    db.close()


def test_a_newer_warrooms_session_counts_its_recorded_response_not_an_approximation(tmp_path, monkeypatch):
    """The statistics read each session's recorded trial response, and approximate it from the outcome only for
    rules before it was recorded (1 to 3), saying how many (`approximated`). A session of rules 7 (a newer warroom,
    which records it as every version from 4 on) was counted as approximated."""
    from click.testing import CliRunner

    from warroom.cli import main

    _scored_by_a_newer_warroom(tmp_path, monkeypatch)
    result = CliRunner().invoke(main, ["scores", "summary", "--format", "json", "--data-dir", str(tmp_path)])
    summary = json.loads(result.stdout)
    assert (summary["trials"], summary["approximated"]) == (1, 0), summary
    assert summary["trainees"][0]["hits"] == 1
