"""Format-2 scoring checked by hand against docs/scoring.md (QA of the bundled format-2 drills): planner- and
set-up-origin faults, a comparison cited by one event, accepted evidence, a probe first, and the outcome's words for
a fault outside a plan step."""

from __future__ import annotations

import pytest

from warroom.core.library import bundled_drills_dir
from warroom.core.load import load_drill
from warroom.core.model import Action, ActionKind, Outcome
from warroom.core.scoring import Scorecard, score


def _score(drill_id: str, *actions: dict[str, object]) -> Scorecard:
    drill = load_drill(bundled_drills_dir() / f"{drill_id}.yaml")
    return score(drill, [Action.model_validate(a) for a in actions])


def _escalate(t: float, step: str, *cites: str) -> dict[str, object]:
    return {"t": t, "kind": ActionKind.ESCALATE, "step": step, "cites": cites}


# (drill, actions, outcome, total). Hand computations from docs/scoring.md:
# privilege-screen-production: evidence e07 at 41 s, deadline 110 s; @plan at 50 s: 50 + 25 x (1 - 9/69) = 21.74
# -> 22, + 25 = 97; at 120 s contained late: 20 + 0 + 25 x (1 - 0/212) = 45 (the first damage is at 150 s).
# dependabot-merge-train: evidence e12 at 36 s, deadline 110 s; @setup at 40 s: 50 + 25 x (1 - 4/74) = 23.65 -> 24
# + 25 = 99; citing accepted e02 the same; citing the distractor e04: right step, unsupported, 10.
# compacted-review-criteria: comparison e01 + e12 (72 s), deadline 160 s; @plan at 80 s citing both:
# 50 + 25 x (1 - 8/88) = 22.73 -> 23, + 25 = 98; citing one of them: part of a comparison, unsupported, 10.
# api-dns-cutover: probe p2 (s2 starts at 13 s, 20 s wait) finds the fault; earliest evidence 33 s, deadline e13 at
# 95 s; asked at 14 s, escalated at 34 s: 50 + 25 x (1 - 1/62) = 24.6 -> 25, + 25 = 100; with the needless p1 too: 98.
CASES = [
    ("privilege-screen-production", [_escalate(50, "@plan", "e07")], Outcome.CONTAINED, 97),
    ("privilege-screen-production", [_escalate(120, "@plan", "e07")], Outcome.CONTAINED_LATE, 45),
    ("privilege-screen-production", [_escalate(50, "s2", "e07")], Outcome.WRONG_STEP, 0),
    ("privilege-screen-production", [_escalate(50, "@setup", "e07")], Outcome.WRONG_STEP, 0),
    ("privilege-screen-production", [_escalate(30, "@plan", "e01")], Outcome.FALSE_ALARM, 0),
    ("dependabot-merge-train", [_escalate(40, "@setup", "e12")], Outcome.CONTAINED, 99),
    ("dependabot-merge-train", [_escalate(40, "@setup", "e02")], Outcome.CONTAINED, 99),
    ("dependabot-merge-train", [_escalate(40, "@setup", "e04")], Outcome.RIGHT_STEP_UNSUPPORTED, 10),
    ("dependabot-merge-train", [_escalate(10, "@setup", "e02")], Outcome.FALSE_ALARM, 0),
    ("compacted-review-criteria", [_escalate(80, "@plan", "e01", "e12")], Outcome.CONTAINED, 98),
    ("compacted-review-criteria", [_escalate(80, "@plan", "e12")], Outcome.RIGHT_STEP_UNSUPPORTED, 10),
    ("compacted-review-criteria", [_escalate(80, "@plan", "e01")], Outcome.RIGHT_STEP_UNSUPPORTED, 10),
    ("api-dns-cutover", [{"t": 14, "kind": ActionKind.PROBE, "probe": "p2"}, _escalate(34, "s2", "p2")],
     Outcome.CONTAINED, 100),
    ("api-dns-cutover", [{"t": 5, "kind": ActionKind.PROBE, "probe": "p1"},
                         {"t": 14, "kind": ActionKind.PROBE, "probe": "p2"}, _escalate(34, "s2", "p2")],
     Outcome.CONTAINED, 98),
    ("api-dns-cutover", [_escalate(30, "s2", "e08")], Outcome.FALSE_ALARM, 0),
]


@pytest.mark.parametrize(("drill_id", "actions", "outcome", "total"), CASES)
def test_format2_scores_match_the_hand_computation(drill_id, actions, outcome, total):
    card = _score(drill_id, *actions)
    assert (card.outcome, card.total) == (outcome, total)


def test_the_outcome_names_the_plan_or_set_up_not_a_step_for_a_fault_outside_the_steps():
    plan = _score("privilege-screen-production", _escalate(50, "@plan", "e07"))
    assert plan.components[0].explanation == "Contained in time with the plan, the fault's origin."
    late = _score("dependabot-merge-train", _escalate(120, "@setup", "e12"))
    assert late.components[0].explanation == "Contained with set-up, the fault's origin, but after the deadline."
    unsupported = _score("compacted-review-criteria", _escalate(80, "@plan", "e12"))
    assert unsupported.components[0].explanation.startswith("The plan, the fault's origin, but no cited event")
    step = _score("dental-recall-calls", _escalate(30, "s2", "e09"))
    assert step.components[0].explanation == "Contained in time with the right step."
