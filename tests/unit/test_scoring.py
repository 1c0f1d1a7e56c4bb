"""Scoring: every outcome, every component, the worked example of docs/scoring.md, round-trips, determinism."""

from __future__ import annotations

import json
import re

import pytest
from core_support import all_clear_drill, make_drill
from locations import REPO

from warroom.core.model import Action, Outcome, outcome_label
from warroom.core.play import Replay
from warroom.core.scoring import SCORING_VERSION, Scorecard, ScoringError, replay_actions, score, scorecard_of

DOC = REPO / "docs" / "scoring.md"


#: The standard drill's evidence, cited by the escalations that contain it.
EV = ("e03",)


def esc(t: float, step: str, note: str | None = None, cites: tuple[str, ...] | None = None) -> Action:
    return Action(t=t, kind="escalate", step=step, note=note, cites=cites)


def points(card: Scorecard) -> dict[str, int]:
    return {c.name: c.points for c in card.components}


# -- outcomes and components (the standard drill: evidence 10 s, deadline 28 s, damage 100 @30 s + 300 @50 s) ------


def test_contained_at_the_earliest_evidence_scores_100():
    card = score(make_drill(), [esc(10, "s1", cites=EV)])
    assert card.outcome is Outcome.CONTAINED and card.total == 100
    assert points(card) == {"Outcome": 50, "Speed": 25, "Damage avoided": 25, "False escalations": 0}
    assert card.time_to_detect == 0 and card.damage == 0 and card.full_damage == 400
    assert card.damage_unit == "rows corrupted"
    assert card.scoring_version == SCORING_VERSION
    assert card.first_evidence_at == 10 and card.deadline == 28 and card.contained_at == 10 and card.end_time == 12


def test_speed_is_time_to_detect_against_the_window():
    card = score(make_drill(), [esc(19, "s1", cites=EV)])  # 9 s of an 18 s window: 25 x 0.5 = 12.5, rounded half up
    assert card.outcome is Outcome.CONTAINED
    assert points(card)["Speed"] == 13 and card.total == 88
    assert card.time_to_detect == 9
    assert "25 x (1 - 9/18) = 12.5, rounded 13" in "\n".join(card.lines)


def test_at_the_deadline_is_in_time_with_zero_speed():
    card = score(make_drill(), [esc(28, "s1", cites=EV)])
    assert card.outcome is Outcome.CONTAINED and points(card)["Speed"] == 0 and card.total == 75


def test_contained_late_keeps_damage_points_for_what_was_avoided():
    card = score(make_drill(), [esc(35, "s1", cites=EV)])
    assert card.outcome is Outcome.CONTAINED_LATE
    assert points(card) == {"Outcome": 20, "Speed": 0, "Damage avoided": 19, "False escalations": 0}
    assert card.damage == 100 and card.total == 39  # 25 x (1 - 100/400) = 18.75 -> 19


def test_missed_scores_zero_with_full_damage():
    card = score(make_drill(), [])
    assert card.outcome is Outcome.MISSED and card.total == 0
    assert card.damage == card.full_damage == 400 and card.time_to_detect is None


def test_wrong_step_after_evidence():
    card = score(make_drill(), [esc(11, "s2")])
    assert card.outcome is Outcome.WRONG_STEP and card.total == 0 and card.false_escalations == 1
    assert "s2" in card.outcome_text and "s1" in card.outcome_text


def test_an_early_escalation_in_a_faulted_drill():
    card = score(make_drill(), [esc(1, "s3")])  # the penalty moves the clock to 16 s; nothing else happens
    # stored as false_alarm, as every edition stores it, but called an early escalation: a false alarm is an
    # escalation on a noise trial only (scoring rules 4); rules 1-3 called it a false alarm in the scorecard too
    assert card.outcome is Outcome.FALSE_ALARM and card.total == 0
    assert card.lines[0].startswith("Outcome: early escalation. You escalated once, before any evidence")
    assert card.components[0].explanation == "Early escalation: the incident was not contained."
    assert outcome_label(card.outcome, all_clear=False) == "early escalation"
    assert outcome_label(card.outcome, all_clear=True) == outcome_label(card.outcome) == "false alarm"
    old = score(make_drill(), [esc(1, "s3")], rules="3")
    assert old.outcome is Outcome.FALSE_ALARM and old.lines[0].startswith("Outcome: false alarm. You escalated once")


def test_false_escalations_cost_points_and_time_even_when_contained():
    # s3 at 5 s: false (before evidence), clock -> 20 s; s1 at 20 s contains: ttd 10 s of 18 s.
    card = score(make_drill(), [esc(5, "s3"), esc(20, "s1", cites=EV)])
    assert card.outcome is Outcome.CONTAINED
    assert points(card) == {"Outcome": 50, "Speed": 11, "Damage avoided": 25, "False escalations": -10}
    assert card.total == 76 and card.false_escalations == 1 and card.escalation_count == 2
    assert card.replan_usd == pytest.approx((1000 * 5 + 200 * 25) / 1e6)


def test_total_is_clamped_at_zero():
    card = score(make_drill(), [esc(0, "s2"), esc(15, "s2"), esc(30, "s2")])
    assert card.false_escalations == 3 and card.total == 0
    assert sum(c.points for c in card.components) == -30


def test_all_clear_held_scores_100():
    card = score(all_clear_drill(), [])
    assert card.outcome is Outcome.ALL_CLEAR_HELD and card.total == 100
    assert card.full_damage == 0 and card.damage_unit == ""


def test_all_clear_false_alarm_loses():
    one = score(all_clear_drill(), [esc(30, "s2")])
    assert one.outcome is Outcome.FALSE_ALARM and one.total == 40
    two = score(all_clear_drill(), [esc(0, "s1"), esc(30, "s2")])
    assert two.total == 30


def test_quit_before_the_end_is_abandoned_and_scores_zero():
    card = score(make_drill(), [Action(t=5, kind="inspect", event="e02"), Action(t=9, kind="quit")])
    assert card.outcome is Outcome.ABANDONED and card.total == 0 and card.end_time == 9
    card = score(all_clear_drill(), [Action(t=9, kind="quit")])
    assert card.outcome is Outcome.ABANDONED and card.total == 0


def test_quit_after_containment_stays_contained():
    card = score(make_drill(), [esc(10, "s1", cites=EV), Action(t=11, kind="quit")])
    assert card.outcome is Outcome.CONTAINED and card.total == 100


def test_a_log_without_quit_is_played_to_the_end():
    card = score(make_drill(), [Action(t=3, kind="pause"), Action(t=3, kind="resume")])
    assert card.outcome is Outcome.MISSED and card.end_time == 60


def test_every_number_is_explained_in_lines():
    card = score(make_drill(), [esc(5, "s3"), esc(20, "s1", cites=EV)])
    text = "\n".join(card.lines)
    assert text.startswith("Outcome: contained.")
    for c in card.components:
        assert any(line.startswith(f"{c.name}: {c.points} ") for line in card.lines)
    assert "Total: 50 + 11 + 25 + (-10) = 76 of 100." in text
    assert f"Scoring rules version {SCORING_VERSION}" in text
    assert "re-plan call" in text and "$" in text


# -- purity, determinism, round-trips -----------------------------------------------------------------------------


def test_same_log_same_scorecard_and_live_play_agrees():
    live = Replay(make_drill())
    for _ in range(57):
        live.advance(0.1)  # ticks, as a UI would
    live.escalate("s3")
    live.advance(2.5)
    live.inspect("e03")
    live.escalate("s1", "stale")
    live.run_to_end()
    from_log = score(make_drill(), live.actions)
    assert from_log == score(make_drill(), list(live.actions))
    assert from_log == scorecard_of(live)


def test_scorecard_round_trips_through_json():
    card = score(make_drill(), [esc(5, "s3"), esc(20, "s1", cites=EV)])
    text = json.dumps(card.to_dict())
    back = Scorecard.from_dict(json.loads(text))
    assert back == card and back.outcome is Outcome.CONTAINED


def test_from_dict_rejects_bad_data():
    d = score(make_drill(), []).to_dict()
    with pytest.raises(ValueError, match="unknown"):
        Scorecard.from_dict({**d, "bogus": 1})
    with pytest.raises(ValueError):
        Scorecard.from_dict({**d, "outcome": "won"})
    missing = dict(d)
    del missing["total"]
    with pytest.raises(ValueError):
        Scorecard.from_dict(missing)


def test_logs_that_do_not_fit_the_drill_raise_scoring_error():
    with pytest.raises(ScoringError, match="no plan step"):
        score(make_drill(), [esc(10, "s9")])
    with pytest.raises(ScoringError, match="not been released"):
        score(make_drill(), [Action(t=1, kind="inspect", event="e09")])
    with pytest.raises(ScoringError, match="before the drill clock"):
        score(make_drill(), [esc(5, "s2"), esc(10, "s1")])  # the penalty moved the clock to 20 s
    with pytest.raises(ScoringError, match="needs a step"):
        score(make_drill(), [Action(t=1, kind="escalate")])


def test_scorecard_of_needs_an_ended_replay():
    r = Replay(make_drill())
    with pytest.raises(ValueError):
        scorecard_of(r)
    assert replay_actions(make_drill(), [])[0].ended


# -- the worked example of docs/scoring.md (the one test on the bundled library) -----------------------------------


def test_worked_example_in_docs_matches():
    from warroom.core.library import bundled_drills_dir
    from warroom.core.load import load_drill

    drill = load_drill(bundled_drills_dir() / "duplicate-charge-refunds.yaml")
    doc = DOC.read_text()

    card = score(
        drill,
        [
            esc(14, "s2", "the refunds list is empty"),
            esc(30, "s1", "the rows come from a cache snapshot of 20 November", ("e04",)),
        ],
    )
    assert card.outcome is Outcome.CONTAINED
    assert points(card) == {"Outcome": 50, "Speed": 7, "Damage avoided": 25, "False escalations": -10}
    assert card.total == 72 and card.time_to_detect == 18
    assert card.first_evidence_at == 12 and card.deadline == 37 and card.full_damage == 14021
    assert card.replan_usd == pytest.approx(0.035)
    assert "25 x (1 - 18/25) = 7, rounded 7" in "\n".join(card.lines)
    # the numbers the page shows
    assert "| Speed | time to detect 30 − 12 = 18 s; window 37 − 12 = 25 s; 25 × (1 − 18/25) = 7 | 7 |" in doc
    assert "| **Total** | 50 + 7 + 25 − 10 | **72** |" in doc
    # the war room shows event ids by position: the file's e04 is shown as e06 (after the count query e30, e31)
    assert "earliest evidence is event e06 at **12 s**" in doc and "**37 s**" in doc and "**$14,021.00**" in doc
    assert "costs **$0.035**" in doc

    ideal = score(drill, [esc(12, "s1", cites=("e04",))])
    assert ideal.total == 100 and "it would have scored 50 + 25 + 25 = **100**" in doc
    late = score(drill, [esc(45, "s1", cites=("e04",))])
    assert late.outcome is Outcome.CONTAINED_LATE and late.total == 37 and late.damage == 4413
    assert points(late)["Damage avoided"] == 17
    assert "at 45 s gives **37**" in doc and "25 × (1 − 4,413/14,021) = 17.13" in doc
    assert "25 x (1 - 4,413/14,021) = 17.13, rounded 17." in "\n".join(late.lines)  # the page's numbers, as shown


def test_doc_states_the_constants_the_code_uses():
    from warroom.core.play import FALSE_ESCALATION_DELAY
    from warroom.core.scoring import EDITIONS

    edition = EDITIONS[SCORING_VERSION]

    doc = DOC.read_text()
    assert (
        f"scoring rules\nversion {SCORING_VERSION}" in doc
        or f"scoring rules version {SCORING_VERSION}" in doc.replace("\n", " ")
    )
    assert f"**{FALSE_ESCALATION_DELAY:g} s of drill time**" in doc
    assert f"**{edition.false_escalation_penalty} points**" in doc
    row = re.search(r"\| Outcome \| max (\d+) \| contained (\d+); contained late (\d+);", doc)
    assert row and tuple(map(int, row.groups())) == (
        edition.contained, edition.contained, edition.contained_late
    )
    assert f"| Speed | max {edition.speed} |" in doc
    assert f"| Damage avoided | max {edition.damage} |" in doc


def test_explanations_write_numbers_as_everywhere_else():
    """Times half up with one decimal (18.25 s is 18.3 s), in the formulas too, damage with two decimals (12.34
    stays 12.34), as warroom.core.text._format writes them for the CLI and the war room."""
    from core_support import drill_dict

    from warroom.core.model import Drill

    d = drill_dict()
    d["answer_key"]["damage"]["entries"] = [{"event": "e04", "amount": 12.34}, {"event": "e09", "amount": 1234.5}]
    d["trace"][3]["t"] = 11.5  # e04, after the evidence at 10 s
    card = score(Drill.model_validate(d), [esc(28.25, "s1", cites=EV)])
    text = "\n".join(card.lines)
    assert card.outcome is Outcome.CONTAINED_LATE
    assert "at 28.3 s, after the deadline at 28 s" in text
    assert "Damage 12.34 of a full cascade's 1,246.84 rows corrupted" in text
    assert "25 x (1 - 12.34/1,246.84) = 24.75, rounded 25." in text

    on_time = score(Drill.model_validate(d), [esc(18.25, "s1", cites=EV)])
    lines = "\n".join(on_time.lines)
    assert "Time to detect 8.3 s (earliest evidence at 10 s, escalation at 18.3 s) in a window of 18 s" in lines
    # the formula writes the times as the sentence does (8.3, not 8.25); its result is of the exact times
    assert "25 x (1 - 8.3/18) = 13.54, rounded 14." in lines
    assert "8.25" not in lines


def test_a_log_going_back_in_time_names_the_times_as_elsewhere():
    with pytest.raises(ScoringError, match=r"action 2 \(escalate at 4\.3 s\) comes before the drill clock \(18\.3 s\)"):
        score(make_drill(), [Action(t=18.25, kind="pause"), esc(4.25, "s1")])


def test_the_false_alarm_text_for_one_early_escalation_has_no_each():
    from warroom.core.library import bundled_drills_dir
    from warroom.core.load import load_drill
    from warroom.core.model import Action, ActionKind
    from warroom.core.scoring import score

    drill = load_drill(bundled_drills_dir() / "duplicate-charge-refunds.yaml")
    once = score(drill, [Action(t=1, kind=ActionKind.ESCALATE, step="s1")])
    assert once.outcome_text.startswith("You escalated once, before any evidence of the fault had appeared, and never")


def test_a_scorecard_stored_with_the_old_key_names_still_loads():
    """``ended_at`` (drill seconds) became ``end_time`` and the count ``escalations`` became ``escalation_count``;
    scorecards stored by an older warroom load with the same values."""
    from warroom.core.scoring import Scorecard

    card = score(make_drill(), [Action(t=9, kind="quit")])
    old = json.loads(json.dumps(card.to_dict()))
    old["ended_at"] = old.pop("end_time")
    old["escalations"] = old.pop("escalation_count")
    loaded = Scorecard.from_dict(old)
    assert loaded == card and loaded.end_time == 9 and loaded.escalation_count == 0
    assert "ended_at" not in card.to_dict() and "escalations" not in card.to_dict()
