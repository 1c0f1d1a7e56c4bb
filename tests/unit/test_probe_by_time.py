"""A probe whose answer depends on when it is asked (issue 34, item 4), on tests/fixtures/round2/probe-by-time.yaml:
batch B-7 waits for approval A-17; the executor releases it anyway at 40 s (e09). Probe p1 (verify s3, 5 s) asked
before e09 is out answers what was true then ("pending, nothing paid": nothing wrong yet, it finds nothing); asked
from 40 s on, it shows the release without an approval, the drill's only evidence. Deadline 60 s; damage $90,000 at
70 s and $93,220.50 at 85 s. Scores worked by hand from docs/scoring.md (rules version 4)."""

from __future__ import annotations

import pytest
from locations import TESTS

from warroom.core.author import run_checks
from warroom.core.load import DrillLoadError, load_drill, load_drill_text
from warroom.core.model import Action, ActionKind, earliest_evidence_at, finds_from
from warroom.core.play import Replay
from warroom.core.scoring import score

DRILL = TESTS / "fixtures" / "round2" / "probe-by-time.yaml"


def _probe(t: float) -> Action:
    return Action(t=t, kind=ActionKind.PROBE, probe="p1", step="s3")


def _escalate(t: float, *cites: str) -> Action:
    return Action(t=t, kind=ActionKind.ESCALATE, step="s3", cites=cites)


def test_the_evidence_counts_from_when_the_probe_can_find_the_fault() -> None:
    drill = load_drill(DRILL)
    p1 = drill.probes[0]
    assert finds_from(drill, p1) == 40.0  # s3 starts at 30 s, but until e09 (40 s) p1 answers "pending"
    assert earliest_evidence_at(drill) == 45.0


def test_asked_early_the_probe_answers_nothing_wrong_yet_and_finds_nothing() -> None:
    replay = Replay(load_drill(DRILL))
    replay.advance_to(32)
    replay.probe("p1")
    replay.advance_to(37)
    (req,) = replay.probes.requests
    assert (req.finds, req.not_yet) == (False, True)
    assert replay.released[-1].id == "p1" and "nothing has been paid" in replay.released[-1].content
    assert not replay.evidence_released


@pytest.mark.parametrize(
    ("actions", "total", "outcome"),
    [
        # asked when the release is out: found at 45 s, escalated at once: 50 + 25 + 25
        ([_probe(40), _escalate(45, "p1")], 100, "contained"),
        # asked at 32 s: "nothing paid yet"; escalating on it at 45 s is before any evidence: an early escalation,
        # -10, and the probe found nothing, -2: clamped to 0
        ([_probe(32), _escalate(45, "p1")], 0, "false_alarm"),
        # asked at 32 s and nothing else: a miss, and a probe that found nothing (-2): 0
        ([_probe(32)], 0, "missed"),
    ],
)
def test_a_probe_by_time_scores_as_worked_by_hand(actions, total, outcome) -> None:  # type: ignore[no-untyped-def]
    card = score(load_drill(DRILL), actions)
    assert (card.total, card.outcome.value) == (total, outcome), card.lines


def test_the_scorecard_says_the_early_probe_found_nothing_and_charges_it() -> None:
    card = score(load_drill(DRILL), [_probe(32)])
    assert "Probe p1 of step s3 requested at 32 s (result at 37 s): it found nothing wrong." in card.lines
    assert [c.points for c in card.components if c.name == "Needless probes"] == [-2]


def _with_late_evidence() -> str:
    text = DRILL.read_text(encoding="utf-8")
    assert "  evidence: [p1]\n  accepted_evidence: [e14]\n" in text
    return text.replace("  evidence: [p1]\n  accepted_evidence: [e14]\n", "  evidence: [p1, e14]\n")


@pytest.mark.parametrize(
    ("cites", "total", "outcome"),
    [
        # e14 (75 s) is out: the origin escalated at 76 s contains, late. Citing the early answer alone shows
        # nothing: right step, unsupported, 10, minus the probe that found nothing: 8
        (("p1",), 8, "right_step_unsupported"),
        # citing e14: contained late 20 + damage avoided 25 x (1 - 90,000/183,220.50) = 12.7 -> 13, minus 2: 31
        (("e14",), 31, "contained_late"),
    ],
)
def test_citing_a_nothing_wrong_yet_answer_supports_nothing(cites, total, outcome) -> None:  # type: ignore[no-untyped-def]
    drill = load_drill_text(_with_late_evidence())
    card = score(drill, [_probe(32), _escalate(76, *cites)])
    assert (card.total, card.outcome.value) == (total, outcome), card.lines


def test_the_drill_passes_check_and_the_ideal_trainee_asks_when_the_probe_can_find() -> None:
    report = run_checks(load_drill(DRILL))
    assert report.passed, report.problems
    ideal = report.run("ideal")
    assert ideal.scorecard.total == 100
    assert [a.t for a in ideal.actions if a.kind is ActionKind.PROBE] == [40.0]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("{until_event: e09,", "{until_event: e90,", "probe `p1`'s answer ends at `e90`, which is not a trace event"),
        ("{until_event: e09,", "{until: 40, until_event: e09,", "needs one of `until` (drill seconds) or"),
        ("      - {until_event: e09, reveals:",
         "      - {until: 50, reveals: Later.}\n      - {until_event: e09, reveals:", "answers are out of time order"),
    ],
)
def test_probe_answer_mistakes_are_refused(old: str, new: str, message: str) -> None:
    text = DRILL.read_text(encoding="utf-8")
    assert old in text
    with pytest.raises(DrillLoadError) as err:
        load_drill_text(text.replace(old, new), "x.yaml")
    assert message in str(err.value), str(err.value)


def test_the_noise_trial_answers_the_same_early_and_the_healthy_answer_late() -> None:
    """The twin (finance approved by email at 38 s): before the release the probe answers as in the fault drill, so
    asking early tells a signal trial from a noise trial by nothing; from 40 s on it shows the approval. A probe that
    finds nothing costs 2 in a healthy run too: 100 - 2."""
    from warroom.core.model import twin_of

    healthy = twin_of(load_drill(DRILL))
    early = Replay(healthy)
    early.advance_to(32)
    early.probe("p1")
    early.advance_to(37)
    assert "nothing has been paid" in early.released[-1].content
    card = score(healthy, [_probe(40)])
    assert (card.total, card.outcome.value) == (98, "all_clear_held")
