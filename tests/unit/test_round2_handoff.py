"""Issue 34, item 1: a handoff between agents as the fault's origin (``origin: handoff``) and as an escalation
target (``@handoff:ID``), and origin refusals that say which origin the event could be."""

from __future__ import annotations

import pytest
from round2_support import ROUND2, esc, load_error, text_of

from warroom.core.author import run_checks
from warroom.core.load import load_drill
from warroom.core.model import Outcome, event_target, handoff_target, target_label
from warroom.core.play import Replay, ReplayError, escalation_draft
from warroom.core.scoring import score

DRILL = load_drill(ROUND2 / "handoff-origin.yaml")
# e05 (12 s): lead's handoff to booker, outside any plan step, the origin and the earliest evidence; e06 (15 s,
# s2): accepted evidence; e04 (8 s, s1): a distractor; deadline 26 s; e08 (33 s) does $412 of damage.


def test_the_handoff_is_the_fault_s_origin_and_target():
    key = DRILL.answer_key
    assert key.fault.origin == "handoff" and key.fault.target == "@handoff:e05" == handoff_target("e05")
    assert target_label(DRILL, key.fault.target) == "lead's handoff to booker (e05)"
    assert event_target(DRILL, DRILL.event("e05")) == "@handoff:e05"  # what a trainee reacting to it names
    report = run_checks(DRILL)
    assert report.passed, report.problems


@pytest.mark.parametrize(
    ("actions", "total", "outcome"),
    [
        # window 26 - 12 = 14 s; detected after 8 s: speed 25 x (1 - 8/14) = 10.7 -> 11; no damage: 25; 50 + 11 + 25
        ([esc(20, "@handoff:e05", "e05")], 86, Outcome.CONTAINED),
        ([esc(20, "@handoff:e05", "e06")], 86, Outcome.CONTAINED),  # accepted evidence supports it too
        ([esc(12, "@handoff:e05", "e05")], 100, Outcome.CONTAINED),  # at once: all the speed points
        ([esc(20, "@handoff:e05", "e04")], 10, Outcome.RIGHT_STEP_UNSUPPORTED),  # the distractor shows nothing
        # the step the booker worked in is not where the fault was: one false escalation, the cascade runs on
        ([esc(20, "s2", "e05")], 0, Outcome.WRONG_STEP),
        ([esc(20, "@plan", "e05")], 0, Outcome.WRONG_STEP),  # the plan at e01 said "refundable"
        # after the deadline: contained late, 20; the damage at 33 s is not done yet: 25
        ([esc(30, "@handoff:e05", "e05")], 45, Outcome.CONTAINED_LATE),
    ],
)
def test_escalations_score_as_a_fair_judge_would(actions, total, outcome):
    card = score(DRILL, actions, rules="4")
    assert (card.outcome, card.total) == (outcome, total), card.lines


def test_the_scorecard_names_the_handoff():
    card = score(DRILL, [esc(20, "@handoff:e05", "e05")], rules="4")
    assert "You escalated lead's handoff to booker (e05), the fault's origin, at 20 s" in card.lines[0]
    assert any("Contained in time with lead's handoff to booker (e05), the fault's origin." in line
               for line in card.lines)
    wrong = score(DRILL, [esc(20, "s2", "e05")], rules="4")
    assert "but the fault was in lead's handoff to booker (e05)" in " ".join(wrong.lines)


def test_a_handoff_is_named_only_once_released_and_only_when_outside_a_step():
    replay = Replay(DRILL)
    replay.advance_to(10)
    with pytest.raises(ReplayError, match="has not been released yet"):
        replay.escalate("@handoff:e05", "", ("e04",))
    with pytest.raises(ReplayError, match="no plan step"):
        replay.escalate("@handoff:e06", "", ("e04",))  # e06 is no handoff
    replay.advance_to(13)
    assert replay.escalate("@handoff:e05", "", ("e05",)).contained


def test_the_escalation_dialog_opens_on_the_handoff_the_trainee_chose():
    released = [e for e in DRILL.trace if e.t <= 13]
    draft = escalation_draft(DRILL.event("e05"), released, True)
    assert (draft.target, draft.cites) == ("@handoff:e05", ("e05",))


def test_refusals_say_which_origin_the_event_could_be():
    text = text_of("handoff-origin")
    message = load_error(text.replace("origin: handoff", "origin: plan"))
    assert "the origin_event of a fault in the plan must be the planner_call of that plan or re-plan; `e05` is a " \
        "handoff (use `origin: handoff` with `origin_event: e05` for a fault in that handoff)" in message
    message = load_error(text.replace("origin_event: e05", "origin_event: e06"))
    assert "the origin_event of a fault in a handoff must be the handoff event; `e06` is a executor_message (use " \
        "`origin: step` with `origin_step: s2` for a fault in that step)" in message
    message = load_error(text.replace("origin_event: e05", "origin_event: e01"))
    assert "(use `origin: plan` with `origin_event: e01` for a fault in that plan)" in message
    stepped = text.replace("{id: e05, t: 12, agent: lead,", "{id: e05, t: 12, step: s2, agent: lead,")
    message = load_error(stepped)
    assert "must be a handoff outside any plan step" in message and "use `origin: step` with `origin_step: s2`" \
        in message
    message = load_error(text.replace("origin: handoff", "origin: setup"))
    assert "the origin_event of a set-up fault must come before step 1" in message
    assert "(use `origin: handoff` with `origin_event: e05` for a fault in that handoff)" in message


def test_a_format_1_drill_cannot_have_a_handoff_origin():
    message = load_error(text_of("handoff-origin").replace("schema_version: 2", "schema_version: 1"))
    assert "a fault origin other than `step`" in message


def test_warroom_score_reads_a_handoff_target_and_a_field_citation(tmp_path):
    from click.testing import CliRunner

    from warroom.cli import main

    log = tmp_path / "log.jsonl"
    log.write_text('{"t": 20, "kind": "escalate", "step": "@handoff:e05", "cites": ["e05"]}\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["score", str(ROUND2 / "handoff-origin.yaml"), str(log)])
    assert result.exit_code == 0, result.output
    assert "86/100; contained; response: hit" in result.output
    log.write_text('{"t": 15, "kind": "escalate", "step": "s1", "cites": ["e05:stale_after"]}\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["score", str(ROUND2 / "distractor-field.yaml"), str(log)])
    assert "10/100; right step, unsupported" in result.output


def test_warroom_annotate_offers_a_handoff_outside_any_step_as_the_origin(tmp_path):
    from warroom.core.author import open_for_annotation

    path = tmp_path / "handoff-origin.yaml"
    path.write_text(text_of("handoff-origin"), encoding="utf-8")
    file = open_for_annotation(path)
    assert file.origins_at("e05") == [("handoff", "e05"), ("step", "s1")]  # itself first, then the first step
    assert file.origins_at("e06") == [("step", "s2")]
