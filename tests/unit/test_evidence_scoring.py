"""Evidence-cited escalations and scoring rules version 2 (issue 14 item 1: "right step, wrong reason").

The issue's case as a small drill: the origin step s1 also holds a harmless distractor (a slow batch, e05 at 14 s)
released after the real evidence (the write errors, e03 at 10 s). Under version 1 an escalation of s1 "because
batch 5 is slow" scored more than a careful one citing the write errors a few seconds later; under version 2 the
answer key's evidence decides.
"""

from __future__ import annotations

import json

import pytest
from core_support import all_clear_drill, drill_dict, make_drill

from warroom.core.model import Action, Drill, Outcome, Response
from warroom.core.play import Replay, ReplayError, describe_citations, is_supported, judge_citations
from warroom.core.play._citations import Cited
from warroom.core.rules import validate_drill
from warroom.core.scoring import EDITIONS, SCORING_VERSION, SCORING_VERSIONS, Scorecard, ScoringError, score

#: The outcome points of the right step, unsupported, by the current rules.
RIGHT_STEP_UNSUPPORTED_POINTS = EDITIONS[SCORING_VERSION].right_step_unsupported


def esc(t: float, step: str, cites: tuple[str, ...] | None) -> Action:
    return Action(t=t, kind="escalate", step=step, cites=cites)


def slow_batch_drill(**key_changes: object):
    """The standard drill with a distractor in the origin step after the evidence: e05 (a log in s1 at 14 s, "batch
    5 slow"); e04 (s1's executor report at 12 s) is accepted as evidence when ``accepted_evidence`` says so."""
    d = drill_dict()
    trace = d["trace"]
    at = next(i for i, e in enumerate(trace) if e["id"] == "e05")
    trace.insert(at, {"id": "e20", "t": 14, "step": "s1", "kind": "log", "source": "batch", "content": "batch 5 slow"})
    d["distractors"] = [*d["distractors"], {"event": "e20", "why_harmless": "Batch 5 is always slow."}]
    d["answer_key"] = {**d["answer_key"], **key_changes}
    return make_drill(**{k: v for k, v in d.items() if k in ("trace", "distractors", "answer_key")})


def test_the_right_step_for_the_wrong_reason_no_longer_beats_the_careful_escalation():
    drill = slow_batch_drill()
    wrong_reason = score(drill, [esc(14, "s1", ("e20",))])  # "because batch 5 is slow", at once
    careful = score(drill, [esc(16, "s1", ("e03",))])  # the write errors, read two seconds later
    assert (wrong_reason.outcome, wrong_reason.total) == (Outcome.RIGHT_STEP_UNSUPPORTED, 10)
    assert (careful.outcome, careful.total) == (Outcome.CONTAINED, 92)
    # Version 1, the step alone: the wrong reason won (94 > 92): the issue's complaint.
    assert score(drill, [esc(14, "s1", ("e20",))], rules="1").total == 94
    assert score(drill, [esc(16, "s1", ("e03",))], rules="1").total == 92


def test_unsupported_gets_its_own_points_and_no_speed_or_damage_points():
    card = score(slow_batch_drill(), [esc(14, "s1", ("e20",))])
    assert {c.name: c.points for c in card.components} == {
        "Outcome": RIGHT_STEP_UNSUPPORTED_POINTS, "Speed": 0, "Damage avoided": 0, "False escalations": 0
    }
    # The cascade did stop (the planner re-planned s1): the damage figures say so; the scorecard shows no detection.
    assert card.damage == 0 and card.contained_at == 14 and card.time_to_detect is None
    text = "\n".join(card.lines)
    assert "Escalation of s1 at 14 s cited e20 (a distractor)." in text
    assert "but you cited e20 (a distractor): nothing that shows the fault. The events that do: e03." in text


@pytest.mark.parametrize(
    ("cites", "outcome"),
    [
        (("e03",), Outcome.CONTAINED),  # evidence
        (("e20", "e03"), Outcome.CONTAINED),  # a distractor beside the evidence: the evidence decides
        (("e04",), Outcome.RIGHT_STEP_UNSUPPORTED),  # s1's report: irrelevant unless the author accepts it
        (("e20",), Outcome.RIGHT_STEP_UNSUPPORTED),  # only a distractor
        ((), Outcome.RIGHT_STEP_UNSUPPORTED),  # nothing cited
        (None, Outcome.RIGHT_STEP_UNSUPPORTED),  # a log from before citations: nothing cited
    ],
)
def test_the_answer_key_evidence_decides(cites, outcome):
    assert score(slow_batch_drill(), [esc(20, "s1", cites)]).outcome is outcome


def test_an_event_the_author_accepts_supports_the_escalation():
    drill = slow_batch_drill(accepted_evidence=["e04"])
    card = score(drill, [esc(20, "s1", ("e04",))])
    assert card.outcome is Outcome.CONTAINED and card.time_to_detect == 10  # still from the earliest evidence, e03
    assert "cited e04 (accepted as evidence)" in "\n".join(card.lines)
    assert judge_citations(drill, ["e04", "e20", "e02", "e03"]) == [
        ("e04", Cited.ACCEPTED), ("e20", Cited.DISTRACTOR), ("e02", Cited.IRRELEVANT), ("e03", Cited.EVIDENCE)
    ]
    assert describe_citations(drill, None) == "no event" and not is_supported(drill, ())


def test_late_and_unsupported_late_and_a_wrong_step_citing_evidence():
    drill = slow_batch_drill()
    late = score(drill, [esc(35, "s1", ("e03",))])
    assert late.outcome is Outcome.CONTAINED_LATE and late.total == 20 + 19  # 25 x (1 - 100/400) = 18.75
    assert score(drill, [esc(35, "s1", ("e20",))]).outcome is Outcome.RIGHT_STEP_UNSUPPORTED
    wrong = score(drill, [esc(20, "s2", ("e03",))])  # the right evidence does not make a wrong step right
    assert wrong.outcome is Outcome.WRONG_STEP and wrong.total == 0


def test_false_escalations_still_cost_and_unsupported_is_clamped_at_zero():
    card = score(slow_batch_drill(), [esc(0, "s2", ("e01",)), esc(15, "s1", ("e20",))])
    assert card.outcome is Outcome.RIGHT_STEP_UNSUPPORTED and card.false_escalations == 1 and card.total == 0


def test_an_all_clear_drill_ignores_citations():
    drill = all_clear_drill()
    assert score(drill, [esc(30, "s2", ("e06",))]).outcome is Outcome.FALSE_ALARM
    assert judge_citations(drill, ["e06"]) == [("e06", Cited.DISTRACTOR)]


def test_a_cited_event_must_be_a_released_trace_event():
    drill = make_drill()
    replay = Replay(drill)
    replay.advance_to(11)
    with pytest.raises(ReplayError, match="'e09' has not been released yet"):
        replay.escalate("s1", "", ["e09"])
    with pytest.raises(ReplayError, match="no trace event 'nope'"):
        replay.escalate("s1", "", ["nope"])
    assert replay.actions == []  # neither was recorded
    result = replay.escalate("s1", "", ["e03", "e02", "e03"])
    assert result.action.cites == ("e03", "e02")  # in order, the repeat dropped
    with pytest.raises(ScoringError, match=r"action 1 \(escalate at 11 s\).*'e09' has not been released yet"):
        score(drill, [esc(11, "s1", ("e09",))])


def test_citations_are_in_the_journal_line_and_old_lines_still_load():
    action = esc(12, "s1", ("e03",))
    line = action.model_dump(mode="json", exclude_none=True)
    assert line == {"t": 12.0, "kind": "escalate", "step": "s1", "cites": ["e03"]}
    assert Action.model_validate(json.loads(json.dumps(line))) == action
    old = Action.model_validate({"t": 12.0, "kind": "escalate", "step": "s1"})  # a version-1 journal line
    assert old.cites is None
    assert esc(12, "s1", ()).model_dump(mode="json", exclude_none=True)["cites"] == []  # asked, cited nothing


# -- versions ------------------------------------------------------------------------------------------------------


def test_version_6_is_current_and_versions_1_to_5_still_apply():
    # version 3 adds the needless-probe penalty (drills with verification probes only); tests/unit/test_probes.py;
    # version 4 the trial's response and specific citations (tests/unit/test_scoring_v4.py); version 5 accepted
    # evidence that detects (tests/unit/test_scoring_v5.py)
    assert SCORING_VERSION == "6" and SCORING_VERSIONS == ("1", "2", "3", "4", "5", "6")
    drill = make_drill()
    v1 = score(drill, [esc(10, "s1", None)], rules="1")
    assert (v1.outcome, v1.total, v1.scoring_version) == (Outcome.CONTAINED, 100, "1")
    assert v1.lines[-1] == "Scoring rules version 1 (docs/scoring.md)."
    assert not any(line.startswith("Escalation of") for line in v1.lines)  # version 1 never judged citations
    v2 = score(drill, [esc(10, "s1", None)], rules="2")
    assert (v2.outcome, v2.total, v2.scoring_version) == (Outcome.RIGHT_STEP_UNSUPPORTED, 10, "2")
    v3 = score(drill, [esc(10, "s1", None)], rules="3")  # a drill without probes: as version 2
    assert (v3.outcome, v3.total, v3.scoring_version) == (Outcome.RIGHT_STEP_UNSUPPORTED, 10, "3")
    assert v3.components == v2.components
    v4 = score(drill, [esc(10, "s1", None)], rules="4")  # the same points, and the trial's response
    assert (v4.outcome, v4.total, v4.scoring_version, v4.response) == (
        Outcome.RIGHT_STEP_UNSUPPORTED, 10, "4", Response.LOCALISATION_ERROR
    )
    assert v4.components == v3.components
    v5 = score(drill, [esc(10, "s1", None)], rules="5")  # as version 4 here
    assert (v5.outcome, v5.total, v5.scoring_version, v5.response) == (
        Outcome.RIGHT_STEP_UNSUPPORTED, 10, "5", Response.LOCALISATION_ERROR
    )
    v6 = score(drill, [esc(10, "s1", None)])  # the current rules: as version 5 in its points
    assert (v6.outcome, v6.total, v6.scoring_version) == (Outcome.RIGHT_STEP_UNSUPPORTED, 10, "6")
    assert v5.components == v4.components
    with pytest.raises(ValueError, match=r"version '7' is not known to this warroom \(it applies 1, 2, 3, 4, 5, 6"):
        score(drill, [], rules="7")


def test_a_version_1_scorecard_loads_and_re_scores_the_same_by_its_own_rules():
    drill = make_drill()
    actions = [esc(19, "s1", None)]
    stored = score(drill, actions, rules="1").to_dict()
    # A scorecard written by the version-1 code: exactly these keys, no citation line.
    card = Scorecard.from_dict(json.loads(json.dumps(stored)))
    assert card.scoring_version == "1" and card.outcome is Outcome.CONTAINED and card.total == 88
    assert score(drill, actions, rules=card.scoring_version) == card


def test_validation_of_accepted_evidence():
    base = drill_dict()
    trace = base["trace"]
    trace.insert(1, {"id": "e00", "t": 1, "step": "s2", "kind": "log", "source": "app", "content": "early"})

    def problems(accepted: list[str]) -> list[str]:
        d = {**base, "answer_key": {**base["answer_key"], "accepted_evidence": accepted}}
        return [issue.message for issue in validate_drill(Drill.model_validate(d))]

    assert problems(["e04"]) == []
    assert problems(["e03"]) == ["event `e03` is already listed in evidence; list it in one of evidence and "
                                 "accepted_evidence"]
    assert problems(["e06"]) == ["event `e06` is accepted evidence of the fault, so it cannot also be a distractor"]
    assert problems(["e00"]) == [
        "accepted evidence event `e00` (t=1 s) comes before the fault's origin step `s1` starts (its first event "
        "`e02` is at t=5 s), so it cannot show the fault"
    ]
    assert problems(["e99"])[0].startswith("accepted evidence event `e99` is not a trace event")
    assert problems(["r01"]) == ["accepted evidence event `r01` is a re-plan event; it must be an event of the trace"]
    assert len(problems(["e04", "e04"])) == 1


def test_the_version_2_worked_examples_in_docs_match():
    from locations import REPO

    from warroom.core.library import bundled_drills_dir
    from warroom.core.load import load_drill
    from warroom.core.model import PlayedAs
    from warroom.core.variants import session_drill

    doc = (REPO / "docs" / "scoring.md").read_text()
    # as sessions play it, its events by position (the page names them so: e06 the evidence, e09 the distractor)
    drill = session_drill(load_drill(bundled_drills_dir() / "duplicate-charge-refunds.yaml"), None, PlayedAs.SIGNAL)
    rows = [
        ("at 30 s escalates s1 citing e06 |", esc(30, "s1", ("e06",)), "contained", 82),
        ("at 24 s escalates s1 citing e09 and e06", esc(24, "s1", ("e09", "e06")), "contained", 88),
        ("at 30 s escalates s1 citing e07", esc(30, "s1", ("e07",)), "right step, unsupported", 10),
        ("at 24 s escalates s1 citing e09 (a distractor)", esc(24, "s1", ("e09",)), "right step, unsupported", 10),
        ("at 24 s escalates s1 citing nothing", esc(24, "s1", ()), "right step, unsupported", 10),
    ]
    for what, action, outcome, total in rows:
        card = score(drill, [action])
        (line,) = [ln for ln in doc.splitlines() if what in ln]
        assert f"| {outcome} |" in line and line.endswith(f"**{total}** |"), line
        assert card.total == total and card.outcome.value == outcome.replace(", ", "_").replace(" ", "_"), what
    fourth = score(drill, [esc(24, "s1", ("e09",))])
    flat = " ".join(doc.split())
    assert fourth.outcome_text.split(" The right step")[0] in flat
    assert "Escalation of s1 at 24 s cited e09 (a distractor)." in fourth.lines and (
        "(\"Escalation of s1 at 24 s cited e09 (a distractor).\")" in flat
    )
    assert f"worth **{RIGHT_STEP_UNSUPPORTED_POINTS} points**" in doc


def test_rules_2_record_the_distractor_figures_the_cohort_statistics_read():
    drill = slow_batch_drill()  # distractors e20 (14 s, s1) and e06 (25 s, s2)
    pulled = score(drill, [esc(14, "s1", ("e20",))])  # contained at 14 s: e06 never released
    assert (pulled.distractors_shown, pulled.distractor_escalations) == (1, ["e20"])
    watched = score(drill, [])  # played to the end: both released, none escalated
    assert (watched.distractors_shown, watched.distractor_escalations) == (2, [])
    careful = score(drill, [esc(16, "s1", ("e20", "e03"))])  # the first distractor an escalation cites counts
    assert (careful.distractors_shown, careful.distractor_escalations) == (1, ["e20"])
    old = score(drill, [esc(14, "s1", ("e20",))], rules="1")
    assert (old.distractors_shown, old.distractor_escalations) == (0, [])
    d = json.loads(json.dumps(pulled.to_dict()))
    assert (d["distractors_shown"], d["distractor_escalations"]) == (1, ["e20"])
    assert Scorecard.from_dict(d) == pulled
