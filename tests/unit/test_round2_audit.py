"""Issue 34 audited from the docs alone: drills written afresh for its scenarios (tests/fixtures/round2/audit-*.yaml),
each checked and scored by hand from docs/scoring.md, and the gaps the audit found, each with the right value."""

from __future__ import annotations

import pytest
from round2_support import ROUND2, esc, load_error, text_of

from warroom.core.author import run_checks
from warroom.core.load import load_drill
from warroom.core.model import Action, ActionKind, Outcome
from warroom.core.play import Replay
from warroom.core.play._citations import judge_citations
from warroom.core.scoring import score

AUDIT = ("handoff-export", "fx-by-position", "booking-loop", "refund-approval", "flag-probe", "contract-allclear",
         "compacted-replan", "delegated-refund", "scraper-loop", "parallel-researchers", "truncated-incidents")


def drill(name: str):
    return load_drill(ROUND2 / f"audit-{name}.yaml")


def probe(t: float, probe_id: str) -> Action:
    return Action(t=t, kind=ActionKind.PROBE, probe=probe_id)


@pytest.mark.parametrize("name", AUDIT)
def test_each_audit_drill_passes_check(name):
    report = run_checks(drill(name))
    assert report.passed, report.problems


# handoff-export: the fault is lead's handoff e02 (4 s); evidence e04:columns (9 s); deadline 25 s (window 16 s);
# e07 (30 s) exposes 5,000 records; the trace ends at 33 s.
@pytest.mark.parametrize(("actions", "total", "outcome"), [
    ([esc(12, "@handoff:e02", "e04")], 95, Outcome.CONTAINED),  # 25 x (1 - 3/16) = 20.3 -> 20
    ([esc(12, "@handoff:e02", "e04:columns")], 95, Outcome.CONTAINED),
    ([esc(12, "@handoff:e02", "e04:rows")], 10, Outcome.RIGHT_STEP_UNSUPPORTED),  # another field: shows nothing
    ([esc(10, "s1", "e04"), esc(26, "@handoff:e02", "e04:columns")], 35, Outcome.CONTAINED_LATE),  # 20 + 25 - 10
    ([esc(5, "@handoff:e02", "e02")], 0, Outcome.FALSE_ALARM),  # before the evidence: early escalation
    ([esc(12, "@plan", "e04")], 0, Outcome.WRONG_STEP),
])
def test_handoff_export_scores(actions, total, outcome):
    card = score(drill("handoff-export"), actions, rules="4")
    assert (card.outcome, card.total) == (outcome, total), card.lines


# fx-by-position: evidence all_of [e05, e10] (10 s); e05:stale_after and e06 (a 429) are distractors; accepted
# e12:prices.EUR (15 s); deadline 30 s (window 20 s).
@pytest.mark.parametrize(("cites", "t", "total"), [
    (("e05", "e10"), 15, 94),  # 25 x (1 - 5/20) = 18.75 -> 19
    (("e05:rate", "e10"), 15, 94),  # a field of e05 that is not the distractor's cites e05 for the comparison
    (("e05:stale_after", "e10"), 15, 10),  # the distractor's field is no reading of e05's rate: e10 alone is part
    (("e05:stale_after",), 15, 10),
    (("e06",), 15, 10),
    (("e12:prices.EUR",), 20, 88),  # 25 x (1 - 10/20) = 12.5 -> 13
    (("e12:prices",), 20, 88),  # holds the accepted field
    (("e12",), 20, 88),
    (("e12:repriced",), 20, 10),
])
def test_fx_by_position_scores(cites, t, total):
    card = score(drill("fx-by-position"), [esc(t, "s1", *cites)], rules="5")
    assert card.total == total, card.lines


def test_version_4_lets_a_distractor_field_complete_a_comparison_as_released():
    # before version 5's switch any cited field cited its event for a comparison: e05:stale_after (a distractor)
    # beside e10 completed all_of [e05, e10], half the citations evidence: contained, 94, as a stored version-4
    # session scored it; by version 5 e10 alone is part of the comparison: right step, unsupported, 10
    actions = [esc(15, "s1", "e05:stale_after", "e10")]
    v4 = score(drill("fx-by-position"), actions, rules="4")
    assert (v4.outcome, v4.total) == (Outcome.CONTAINED, 94), v4.lines
    assert "Escalation of s1 at 15 s cited e05:stale_after (a distractor), e10 (evidence)." in v4.lines
    v5 = score(drill("fx-by-position"), actions, rules="5")
    assert (v5.outcome, v5.total) == (Outcome.RIGHT_STEP_UNSUPPORTED, 10), v5.lines
    assert "e10 (part of a comparison: cite every event of it)" in v5.lines[0]


def test_a_distractor_field_does_not_complete_a_comparison():
    judged = dict(judge_citations(drill("fx-by-position"), ["e05:stale_after", "e10"]))
    assert judged == {"e05:stale_after": "distractor", "e10": "part"}
    judged = dict(judge_citations(drill("fx-by-position"), ["e05:rate", "e10"]))
    assert judged == {"e05:rate": "evidence", "e10": "evidence"}


def test_a_distractor_field_that_is_accepted_evidence_is_refused():
    # only a distractor field that is evidence was refused; one that holds an accepted field fails check (below)
    text = text_of("audit-fx-by-position").replace(
        "distractors:\n", "distractors:\n  - {event: e12, path: prices.EUR, why_harmless: x}\n")
    assert ("field `prices.EUR` of `e12` is accepted evidence of the fault, so it cannot also be a distractor"
            in load_error(text))
    from warroom.core.load import load_drill_text

    holding = text_of("audit-fx-by-position").replace(
        "distractors:\n", "distractors:\n  - {event: e12, path: prices, why_harmless: x}\n")
    problems = run_checks(load_drill_text(holding, "audit-fx-by-position.yaml")).problems
    assert any(p.startswith("fairness rule distractor-like-evidence") and "e12:prices" in p for p in problems)


# booking-loop: spend e05 + 40 repetitions of e07 at $0.063 a call ($2.583); budget $1.00 passed by the 16th call
# (e07's 15th repetition, 40 s); evidence e06 at 11 s (window 29 s).
@pytest.mark.parametrize(("actions", "total"), [
    ([esc(13, "s2", "e06")], 97),  # 2 calls, $0.126: 25 x (1 - 0.126/2.583) = 23.8 -> 24; speed 25 x 27/29 -> 23
    ([esc(39, "s2", "e06")], 67),  # 15 calls, $0.945: 15.85 -> 16; speed 25 x 1/29 -> 1
    ([esc(40, "s2", "e07")], 65),  # at the deadline: 16 calls, $1.008: 15.24 -> 15; speed 0
    ([esc(13, "s3", "e06"), esc(28, "s2", "e06")], 69),  # 10 calls $0.63: 18.9 -> 19; speed 25 x 12/29 -> 10; -10
])
def test_booking_loop_spend_scores(actions, total):
    loop = drill("booking-loop")
    assert loop.answer_key.deadline == 40
    card = score(loop, actions, rules="4")
    assert card.total == total, card.lines


# refund-approval: e08 (25 s, an absence) is the evidence, and p1 once asked at or after 25 s; p1 asked before e08
# answers "pending"; deadline 40 s (window 15 s); p2 asked before 6 s answers "still being built".
@pytest.mark.parametrize(("actions", "total", "outcome"), [
    ([probe(10, "p1"), esc(26, "s2", "e08")], 96, Outcome.CONTAINED),  # 23 speed, -2 for the early answer
    ([probe(26, "p1"), esc(31, "s2", "p1")], 90, Outcome.CONTAINED),  # p1's own answer at 30 s: 25 x 9/15 = 15
    ([probe(10, "p1"), esc(15, "s2", "p1")], 0, Outcome.FALSE_ALARM),  # "pending" finds nothing: early escalation
    ([probe(10, "p1"), esc(26, "s2", "p1")], 8, Outcome.RIGHT_STEP_UNSUPPORTED),  # as if it cited nothing: 10 - 2
    ([probe(6, "p2"), esc(26, "s2", "e08")], 96, Outcome.CONTAINED),  # at its until: its own (needless) answer
    ([esc(26, "s2", "e06", "e08")], 98, Outcome.CONTAINED),
])
def test_refund_approval_scores(actions, total, outcome):
    card = score(drill("refund-approval"), actions, rules="4")
    assert (card.outcome, card.total) == (outcome, total), card.lines


def test_only_the_gated_release_went_ahead_without_approval():
    from warroom.core.play import missing_approvals

    d = drill("refund-approval")
    assert missing_approvals(d.plan, d.trace) == {"s2": "e08"}  # not the ledger lookup e06 before it


# flag-probe: only p1 finds the fault; asked before 12 s it answers "still rolling out"; its own answer can be on
# screen from 17 s; deadline 40 s (window 23 s).
def test_the_prober_asks_a_probe_with_earlier_answers_once_its_own_answer_applies():
    report = run_checks(drill("flag-probe"))
    prober = report.run("prober")
    assert [(a.t, a.probe) for a in prober.actions if a.kind is ActionKind.PROBE] == [(12, "p1")]  # contained by 17 s
    assert prober.scorecard.outcome is Outcome.CONTAINED and prober.scorecard.total == 100


@pytest.mark.parametrize(("actions", "total"), [
    ([probe(12, "p1"), esc(18, "s1", "p1")], 99),  # 25 x (1 - 1/23) = 23.9 -> 24
    ([probe(5, "p1"), esc(20, "s1", "p1")], 0),  # the early answer found nothing: early escalation, -10 - 2
])
def test_flag_probe_scores(actions, total):
    card = score(drill("flag-probe"), actions, rules="4")
    assert card.total == total, card.lines


# compacted-replan: the re-plan e06 (11 s) invented "above $5,000"; evidence all_of [e01, e06]; accepted e08;
# deadline 30 s (window 19 s).
@pytest.mark.parametrize(("actions", "total"), [
    ([esc(14, "@plan", "e01", "e06")], 96),  # 25 x (1 - 3/19) = 21.05 -> 21
    ([esc(16, "@plan", "e08")], 93),  # 25 x (1 - 5/19) = 18.4 -> 18
    ([esc(14, "@plan", "e06")], 10),  # half a comparison
    ([esc(14, "s1", "e01", "e06"), esc(29, "@plan", "e01", "e06")], 66),  # 25 x 1/19 -> 1; -10
    ([esc(5, "@plan", "e01")], 0),
])
def test_compacted_replan_scores(actions, total):
    card = score(drill("compacted-replan"), actions, rules="4")
    assert card.total == total, card.lines


# delegated-refund: approval_for {kinds: [handoff]}: the policy lookup e05 needs no approval, the handoff e08 (20 s)
# does; deadline 34 s (window 14 s).
def test_a_step_whose_approval_gates_handoffs_marks_only_the_handoff():
    from warroom.core.play import missing_approvals

    d = drill("delegated-refund")
    assert missing_approvals(d.plan, d.trace) == {"s2": "e08"}


@pytest.mark.parametrize(("actions", "total"), [
    ([esc(21, "s2", "e08")], 98),  # 25 x 13/14 = 23.2 -> 23
    ([esc(23, "s2", "e09")], 95),  # 25 x 11/14 = 19.6 -> 20
    ([esc(9, "s2", "e05")], 0),  # the lookup is no evidence: early escalation
])
def test_delegated_refund_scores(actions, total):
    card = score(drill("delegated-refund"), actions, rules="4")
    assert card.total == total, card.lines


# scraper-loop: spend e05 on the sub-agent's model mini ($0.021 a call, 60 repetitions from 10 s, $1.26) plus a
# $1.00 fee at 75 s (full damage $2.26); budget $0.50 passed by the 24th call (33 s); evidence e06 at 11 s.
@pytest.mark.parametrize(("t", "total"), [
    (12, 98),  # 3 calls $0.063: 25 x (1 - 0.063/2.26) = 24.3 -> 24; speed 25 x 21/22 -> 24
    (33, 69),  # 24 calls $0.504: 19.4 -> 19; speed 0
    (50, 35),  # late: 41 calls $0.861: 15.5 -> 15; 20 + 15
    (76, 20),  # late, all of it done
])
def test_scraper_loop_spend_is_priced_at_the_sub_agent_s_model(t, total):
    loop = drill("scraper-loop")
    assert loop.answer_key.deadline == 33
    card = score(loop, [esc(t, "s1", "e06")], rules="4")
    assert card.total == total, card.lines


# parallel-researchers: s2 runs with s1; evidence e05:year (6 s); accepted e05:note (another field of the evidence
# event) and e07; deadline 25 s (window 19 s).
@pytest.mark.parametrize(("actions", "total"), [
    ([esc(8, "s2", "e05:year")], 97),  # 25 x 17/19 = 22.4 -> 22
    ([esc(8, "s2", "e05:note")], 97),
    ([esc(8, "s2", "e05")], 97),
    ([esc(8, "s2", "e05:ev_share")], 10),
    ([esc(10, "s2", "e07")], 95),  # 25 x 15/19 = 19.7 -> 20
    ([esc(8, "s1", "e05:year"), esc(23, "s2", "e05")], 68),  # 25 x 2/19 = 2.6 -> 3; -10
])
def test_parallel_researchers_scores(actions, total):
    card = score(drill("parallel-researchers"), actions, rules="4")
    assert card.total == total, card.lines


def test_parallel_researchers_show_no_moved_on_cue():
    replay = Replay(drill("parallel-researchers"))
    replay.advance_to(7)
    assert {k: str(v) for k, v in replay.step_states.items()} == {
        "s1": "in_progress", "s2": "in_progress", "s3": "pending"}


@pytest.mark.parametrize(("accepted", "message"), [
    ("{event: e05, path: year}", "field `year` of `e05` is already listed in evidence"),
    ("e05", "event `e05` is already listed in evidence"),
    ("{event: e05, path: note}\n    - {event: e05, path: note}", "accepted evidence event `e05:note` is listed twice"),
])
def test_accepted_fields_beside_evidence_fields(accepted, message):
    text = text_of("audit-parallel-researchers").replace("    - {event: e05, path: note}\n", f"    - {accepted}\n")
    assert message in load_error(text)


def test_several_fields_of_an_evidence_event_may_be_accepted():
    text = text_of("audit-parallel-researchers").replace(
        "    - {event: e05, path: note}\n", "    - {event: e05, path: note}\n    - {event: e05, path: country}\n")
    from warroom.core.load import load_drill_text

    assert load_drill_text(text, "audit-parallel-researchers.yaml").answer_key.accepted_evidence


def test_the_scorecard_does_not_say_a_probe_found_the_fault_when_nothing_contained_it():
    d = drill("refund-approval")
    card = score(d, [probe(26, "p1"), esc(31, "s1", "p1")], rules="4")
    assert card.outcome is Outcome.WRONG_STEP
    assert ("Probe p1 of step s2 requested at 26 s (result at 30 s): its answer showed the fault, but no escalation "
            "contained it.") in card.lines
    assert any(line.endswith("showed the fault, but no escalation contained it.") and "Needless" in line
               for line in card.lines)
    contained = score(d, [probe(26, "p1"), esc(31, "s2", "p1")], rules="4")
    assert "Probe p1 of step s2 requested at 26 s (result at 30 s): it found the fault." in contained.lines


def test_the_flat_loop_prices_the_supervisor_s_own_work():
    from warroom.core.play import trace_cost

    report = trace_cost(drill("contract-allclear"))
    # 10 calls but the plan (27,000 in, 1,840 out) at $5/$25: $0.181; the trace: $0.035 + $0.08 (boss's own work)
    # + $0.0148 (small) + $0.00256 (mini) = $0.13236
    assert report.flat_loop.usd == pytest.approx(0.181)
    assert report.total.usd == pytest.approx(0.13236)
    assert round(report.saving_factor, 1) == 1.4 and round(report.saving_percent) == 27
    loop = trace_cost(drill("scraper-loop"))  # 60 calls on mini at $0.021; 36 of them after the deadline
    assert (loop.spend.calls, loop.spend_after_deadline.calls) == (60, 36)
    assert (loop.spend.usd, loop.spend_after_deadline.usd) == (pytest.approx(1.26), pytest.approx(0.756))


@pytest.mark.parametrize("until", ["{until: 600", "{until: 50", "{until_event: e12"])
def test_an_earlier_answer_that_holds_until_the_trace_ends_is_refused(until):
    text = text_of("audit-refund-approval").replace("{until: 6", until)
    assert "probe `p2`'s answer #1 holds until" in load_error(text)
    assert "but the trace ends at 50 s: the probe's own `reveals` could never be asked for" in load_error(text)


def _half_spend_card(rules: str):
    # e05 and 5 repetitions of e07 at $0.006 a call (1,000 in, 200 out at $3/$15): escalating at 13 s, after 3 of
    # the 6 calls, saves exactly half: 25 x (1 - 0.018/0.036) = 12.5, where the summed call costs give 12.4999...
    call = "usage: {input_tokens: 1000, output_tokens: 200}"
    text = (text_of("audit-booking-loop")
            .replace("usage: {input_tokens: 20000, output_tokens: 200}, repeat: {count: 40, interval: 2}",
                     f"{call}, repeat: {{count: 5, interval: 1}}")
            .replace('"2027-03-14"}, usage: {input_tokens: 20000, output_tokens: 200}}', f'"2027-03-14"}}, {call}}}')
            .replace("deadline: {budget: 1.00}", "deadline: 30"))
    from warroom.core.load import load_drill_text

    return score(load_drill_text(text, "audit-booking-loop.yaml"), [esc(13, "s2", "e06")], rules=rules)


def test_half_the_spend_saved_is_12_5_points_rounded_up():
    card = _half_spend_card("5")  # version 5 drops the float noise below 1e-9 before rounding the half up
    damage = next(line for line in card.lines if line.startswith("Damage avoided"))
    assert damage.startswith("Damage avoided: 13 of 25 points.") and damage.endswith("= 12.5, rounded 13."), damage
    # speed: 25 x (1 - 2/19) = 22.4 -> 22; 50 + 22 + 13
    assert card.total == 85, card.lines


def test_version_4_rounds_the_summed_spend_as_released():
    # version 4 as released rounds the float sum 12.4999... to 12 (a stored version-4 scorecard says 84)
    card = _half_spend_card("4")
    damage = next(line for line in card.lines if line.startswith("Damage avoided"))
    assert damage.startswith("Damage avoided: 12 of 25 points."), damage
    assert card.total == 84, card.lines
