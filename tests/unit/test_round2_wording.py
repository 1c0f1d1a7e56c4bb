"""Issue 34, item 9: the debrief's and the after-action review's words for a probe whose answer showed the fault
beside escalations that did not contain it, and for a wrong step escalated with real evidence (what was right and
what was not)."""

from __future__ import annotations

from locations import TESTS
from round2_support import ROUND2, esc

from warroom.core.load import load_drill
from warroom.core.model import Action, ActionKind
from warroom.core.play import misplaced_evidence
from warroom.core.scoring import replay_actions
from warroom.store.review import build_review_rows
from warroom.tui.screens._debrief import debrief_marks, probe_marks

HANDOFF = load_drill(ROUND2 / "handoff-origin.yaml")  # evidence e05 (12 s), origin lead's handoff; damage e08 at 33 s
PROBE = load_drill(TESTS / "fixtures" / "shapes" / "shape-11-probe.yaml")  # p2 (verify s1) finds the fault in s1


def test_a_wrong_step_with_the_evidence_says_what_was_right_and_what_was_not():
    assert misplaced_evidence(HANDOFF, "s2", ("e05",), 20) == (
        "you cited e05 (evidence), 13 s before the first damage still to come (e08 at 33 s); the fault was in "
        "lead's handoff to booker (e05), not step s2")
    assert misplaced_evidence(HANDOFF, "s2", ("e04",), 20) is None  # no evidence cited: nothing was right
    assert misplaced_evidence(HANDOFF, "@handoff:e05", ("e05",), 20) is None  # the right target


def _texts(drill, actions) -> list[str]:
    replay, _ = replay_actions(drill, actions)
    return [what for _, _, what, _ in debrief_marks(drill, replay, "4")]


def test_the_debrief_tells_a_wrong_step_with_evidence_from_one_without():
    with_evidence = " ".join(_texts(HANDOFF, [esc(20, "s2", "e05")]))
    assert "Right evidence, wrong place: you cited e05 (evidence), 13 s before the first damage still to come" \
        in with_evidence
    without = " ".join(_texts(HANDOFF, [esc(20, "s2", "e04")]))
    assert "Right evidence" not in without


def test_the_review_says_what_the_planner_found_and_what_was_right():
    rows = build_review_rows(HANDOFF, [esc(20, "s2", "e05")], "4").rows
    (replan,) = [r for r in rows if r.kind == "replan"]
    assert "and found nothing wrong there (you cited e05 (evidence)" in replan.text
    assert "the fault was in lead's handoff to booker (e05), not step s2)" in replan.text
    rows = build_review_rows(HANDOFF, [esc(20, "s2", "e04")], "4").rows
    (replan,) = [r for r in rows if r.kind == "replan"]
    assert replan.text.split(";")[0].endswith("and found nothing wrong")


def _probe_then(*actions: Action) -> list[Action]:
    return [Action(t=12, kind=ActionKind.PROBE, probe="p2", step="s1"), *actions]


def test_a_probe_that_showed_the_fault_is_not_said_to_have_found_it_beside_a_false_escalation():
    # p2 asked at 12 s answers at 20 s; escalating s2 citing it at 22 s is a false escalation
    replay, _ = replay_actions(PROBE, _probe_then(esc(22, "s2", "p2")))
    (mark,) = probe_marks(replay)
    assert mark[2].endswith("its answer showed the fault, but no escalation contained it")
    rows = build_review_rows(PROBE, _probe_then(esc(22, "s2", "p2")), "4").rows
    assert "probe's answer showed the fault (not acted on)" in next(r for r in rows if "probe p2" in r.text).trainee
    contained, _ = replay_actions(PROBE, _probe_then(esc(22, "s1", "p2")))
    assert probe_marks(contained)[0][2].endswith("it found the fault")
